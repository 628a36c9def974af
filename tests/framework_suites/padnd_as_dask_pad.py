# SPDX-License-Identifier: Apache-2.0
# A pytest plugin that runs dask's own pad tests (dask/array/tests/test_creation.py, from the
# installed dask) on padnd: dask.array.pad is replaced by padnd.dask.pad before they are
# collected, as a user switching would.
#   python -m pytest -p padnd_as_dask_pad --pyargs dask.array.tests.test_creation -k pad
# (with this folder on PYTHONPATH; scripts/test.sh step 8b runs it).
# dask's suite skips the cases dask.array.pad gets wrong (reflect, symmetric and wrap pads
# wider than the axis, dask#5303; median, not implemented): padnd.dask.pad computes them, so
# those skips are lifted here and the cases must pass. Where padnd differs on purpose the case
# is an xfail(strict) with the reason (docs/dask.md, "What it fixes in dask.array.pad").
# The session fails if padnd.dask.pad was never called, so a patch that did not take cannot pass.
import functools

import dask.array
import pytest

import padnd.dask

_calls = 0


@functools.wraps(padnd.dask.pad)
def _counted_pad(*args, **kwargs):
    global _calls
    _calls += 1
    return padnd.dask.pad(*args, **kwargs)


dask.array.pad = _counted_pad

# dask's skips of dask.array.pad's own bugs: padnd.dask.pad must pass these cases.
_LIFTED_SKIPS = ("dask/dask/issues/5303", "Not implemented")
# Differences on purpose: test id prefix -> reason.
_DIFFERENT_ON_PURPOSE = {
    "test_pad_constant_chunksizes": (
        "on purpose: a pad wider than half a chunk becomes chunks up to dask's "
        "array.chunk-size, not chunks of the input's size (1x1 chunks padded by 6 rows give "
        "one 6-row chunk, not six): docs/dask.md, Chunks"),
}


def pytest_collection_modifyitems(items):
    for item in items:
        if any(m.name == "skip" and any(s in str(m.kwargs.get("reason", ""))
                                        for s in _LIFTED_SKIPS)
               for m in item.iter_markers()):
            item.own_markers[:] = [m for m in item.own_markers if m.name != "skip"]
        reason = _DIFFERENT_ON_PURPOSE.get(item.name.split("[")[0])
        if reason:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == pytest.ExitCode.OK and _calls == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print("\npadnd_as_dask_pad: padnd.dask.pad was never called")


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(
        f"padnd_as_dask_pad: dask {dask.__version__}, padnd.dask.pad called {_calls} times")
