# SPDX-License-Identifier: Apache-2.0
# A pytest plugin that runs numpy's own pad tests (numpy/lib/tests/test_arraypad.py, from the
# installed numpy) on padnd: np.pad is replaced by padnd.pad before they are collected.
#   python -m pytest -p padnd_as_numpy_pad --pyargs numpy.lib.tests.test_arraypad
# (with this folder on PYTHONPATH; scripts/test.sh runs it on the oldest and newest numpy).
# The session fails if padnd.pad was never called, so a patch that did not take cannot pass.
import functools

import numpy as np
import pytest

import padnd

_calls = 0


@functools.wraps(padnd.pad)
def _counted_pad(*args, **kwargs):
    global _calls
    _calls += 1
    return padnd.pad(*args, **kwargs)


np.pad = _counted_pad


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == pytest.ExitCode.OK and _calls == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print("\npadnd_as_numpy_pad: padnd.pad was never called")


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(
        f"padnd_as_numpy_pad: numpy {np.__version__}, padnd.pad called {_calls} times")
