# SPDX-License-Identifier: Apache-2.0
# Hypothesis settings for the Python package tests: no example database left in the checkout.
# CI (.ci/run sets PADND_DERANDOMIZE=1) draws the same examples every run, so a CI result is
# reproducible; local runs draw new examples each time and so keep exploring.
import os

from hypothesis import settings

settings.register_profile("padnd", database=None, deadline=None,
                          derandomize=os.environ.get("PADND_DERANDOMIZE") == "1")
settings.load_profile("padnd")
