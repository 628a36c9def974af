# SPDX-License-Identifier: Apache-2.0
# Hypothesis settings for the Python package tests: no example database left in the checkout.
from hypothesis import settings

settings.register_profile("padnd", database=None, deadline=None)
settings.load_profile("padnd")
