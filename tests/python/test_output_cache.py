# SPDX-License-Identifier: Apache-2.0
# The output cache (python/src/output_cache.cpp, numpy_allocator.cpp): large outputs reuse the
# memory of freed ones, within the byte limit and the idle time, invisibly in results.
import concurrent.futures
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from numpy._core.multiarray import get_handler_name  # numpy has no public name for it

import padnd

_LARGE = (1024, 1024)  # float32, padded by 8: 4.3 MB, over the cache's 1 MiB threshold


@pytest.fixture
def cache():
    """The cache on, 1 GiB, a long idle time (so nothing is released mid-test), emptied."""
    before = padnd.set_output_cache(0)
    padnd.set_output_cache(1 << 30, idle_seconds=60)
    yield padnd.output_cache_info
    padnd.set_output_cache(**before)


def test_a_loop_of_pads_reuses_freed_outputs(cache):
    x = np.arange(np.prod(_LARGE), dtype=np.float32).reshape(_LARGE)
    start = cache()
    for _ in range(6):
        y = padnd.pad(x, 8, "reflect")
        np.testing.assert_array_equal(y, np.pad(x, 8, "reflect"))
    del y
    info = cache()
    # The first two calls map (the previous result is alive while the next is allocated);
    # the other four reuse.
    assert info["mapped"] - start["mapped"] == 2
    assert info["reused"] - start["reused"] == 4
    assert info["held_buffers"] == 2


def test_outputs_are_ordinary_arrays(cache):
    x = np.ones(_LARGE, np.float32)
    y = padnd.pad(x, 8)
    assert y.flags.owndata and y.base is None and y.flags.writeable and y.flags.c_contiguous
    assert get_handler_name(y) == "padnd_output_cache"
    assert get_handler_name(np.empty(3)) != "padnd_output_cache"
    reused = padnd.pad(x + 1, 8)  # while y lives: new memory
    del y
    z = padnd.pad(np.full(_LARGE, 7, np.float32), 8, constant_values=-1)  # y's memory, reused
    np.testing.assert_array_equal(z, np.pad(np.full(_LARGE, 7, np.float32), 8,
                                            constant_values=-1))
    # numpy reallocates an array it owns through its handler (ndarray.resize).
    z.resize(z.size + 1000, refcheck=False)
    assert z[: 5].tolist() == [-1] * 5 and z.size == 1040 * 1040 + 1000
    np.testing.assert_array_equal(reused, np.pad(x + 1, 8))


def test_the_limit_bounds_what_idle_outputs_hold(cache):
    padnd.set_output_cache(10 << 20)
    outputs = [padnd.pad(np.zeros(_LARGE, np.float32), 8) for _ in range(5)]  # 4.3 MB each
    del outputs
    info = cache()
    assert info["held_buffers"] == 2 and info["held_bytes"] <= 10 << 20
    padnd.set_output_cache(0)  # off: what it held goes back at once
    assert cache()["held_bytes"] == 0
    y = padnd.pad(np.zeros(_LARGE, np.float32), 8)
    assert get_handler_name(y) != "padnd_output_cache"


def test_idle_outputs_are_released(cache):
    padnd.set_output_cache(idle_seconds=0.2)
    padnd.pad(np.zeros(_LARGE, np.float32), 8)  # freed at once
    assert cache()["held_buffers"] == 1
    deadline = time.monotonic() + 10
    while cache()["held_buffers"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cache()["held_bytes"] == 0


def test_every_allocating_path_takes_from_the_cache(cache):
    x = np.arange(np.prod(_LARGE), dtype=np.int32).reshape(_LARGE)
    results = {
        "fast path": lambda: padnd.pad(x, 8, "wrap"),
        "general path": lambda: padnd.pad(x, 8, "symmetric", negative="crop_then_pad"),
        "Fortran order": lambda: padnd.pad(np.asfortranarray(x), 8, "edge"),
        "window": lambda: padnd.pad_window(x, 8, window=(slice(0, 900),)),
        "spec function": lambda: padnd.onnx.pad(x, [8, 8, 8, 8], mode="reflect"),
    }
    for name, call in results.items():
        result = call()
        assert get_handler_name(result) == "padnd_output_cache", name
    assert padnd.pad(np.asfortranarray(x), 8, "edge").flags.f_contiguous


def test_threads_allocating_and_freeing_at_once_get_their_own_results(cache):
    padnd.set_output_cache(16 << 20)

    def one(k):
        x = np.full(_LARGE, k, np.int32)
        for _ in range(10):
            y = padnd.pad(x, 8, constant_values=-k)
            assert y[8, 8] == k and y[0, 0] == -k and y[-1, -1] == -k and (y[8:-8, 8:-8] == k).all()
        return True

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert all(pool.map(one, range(32)))
    assert cache()["held_bytes"] <= 16 << 20


def _run(code: str, **environment) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **environment}, timeout=120)


def test_the_environment_variable_sets_the_limit():
    code = "import padnd; print(padnd.output_cache_info()['limit_bytes'])"
    assert _run(code, PADND_OUTPUT_CACHE="64M").stdout.strip() == str(64 << 20)
    assert _run(code, PADND_OUTPUT_CACHE="0").stdout.strip() == "0"
    bad = _run(code, PADND_OUTPUT_CACHE="lots")
    assert bad.returncode != 0 and "environment variable PADND_OUTPUT_CACHE" in bad.stderr
    assert "'lots'" in bad.stderr


def test_a_forked_child_uses_the_cache():
    # The child has no reaper thread and a lock that may have been held at the fork.
    code = """
import os, time, numpy as np, padnd
padnd.set_output_cache(idle_seconds=0.1)
padnd.pad(np.zeros((1024, 1024), np.float32), 8)
pid = os.fork()
if pid == 0:
    y = padnd.pad(np.ones((1024, 1024), np.float32), 8)
    ok = y.sum() == 1024 * 1024
    del y
    time.sleep(1)
    os._exit(0 if ok and padnd.output_cache_info()['held_bytes'] == 0 else 1)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""
    result = _run(code)
    assert result.stdout.strip() == "0", result.stderr


def test_settings_are_checked():
    with pytest.raises(ValueError, match="limit_bytes: expected bytes >= 0, got -1"):
        padnd.set_output_cache(-1)
    with pytest.raises(TypeError, match="limit_bytes: expected an int"):
        padnd.set_output_cache(1.5)
    with pytest.raises(ValueError, match="idle_seconds: expected a number >= 0"):
        padnd.set_output_cache(idle_seconds=float("nan"))
    with pytest.raises(ValueError, match="limit_bytes.*'12Q'"):
        padnd.set_output_cache("12Q")
