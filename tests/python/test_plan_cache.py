# SPDX-License-Identifier: Apache-2.0
# The fast path's plan cache (python/src/plan_cache.hpp): per thread, keyed by the request, a
# bounded number of plans and bytes, and no plan above the per-plan limit kept after its call.
# Every result is compared with numpy.pad, so a stale or wrong plan cannot go unnoticed.
import threading

import numpy as np
import pytest

import padnd
from padnd import _padnd


@pytest.fixture(autouse=True)
def empty_cache():
    _padnd._plan_cache_reset()
    yield
    _padnd._plan_cache_reset()


def _pad_and_check(array, pad_width, mode="constant", **kwargs):
    result = padnd.pad(array, pad_width, mode, **kwargs)
    assert result.tobytes() == np.pad(array, pad_width, mode, **kwargs).tobytes()
    return result


_A = np.arange(12, dtype=np.float32).reshape(3, 4)
_B = np.arange(20, dtype=np.int16).reshape(4, 5)
_REQUESTS = [
    (_A, 1, "constant", {}),
    (_B, ((1, 2), (0, 3)), "reflect", {}),
    (_A, 1, "constant", {"constant_values": 7.0}),  # differs from the first only in the value
    (_A[:, ::-1], 1, "constant", {}),                # ... only in the layout
]


def test_alternating_requests_reuse_their_plans():
    for array, pad_width, mode, kwargs in _REQUESTS:
        _pad_and_check(array, pad_width, mode, **kwargs)
    info = _padnd._plan_cache_info()
    assert (info["misses"], info["hits"], len(info["plans"])) == (4, 0, 4)
    for _ in range(5):
        for array, pad_width, mode, kwargs in _REQUESTS:
            _pad_and_check(array, pad_width, mode, **kwargs)
    info = _padnd._plan_cache_info()
    assert (info["misses"], info["hits"], len(info["plans"])) == (4, 20, 4)
    assert info["bytes"] == sum(info["plans"])


def test_the_least_recently_used_plan_leaves_first():
    arrays = [np.zeros((n, 3), np.uint8) for n in range(1, 11)]  # ten different requests
    for a in arrays:
        _pad_and_check(a, 1)
    info = _padnd._plan_cache_info()
    assert len(info["plans"]) == info["max_plans"] == 8
    _pad_and_check(arrays[2], 1)  # the oldest one kept: a hit, now the most recent
    assert _padnd._plan_cache_info()["hits"] == 1
    _pad_and_check(arrays[0], 1)  # evicted: planned again, and evicts arrays[3]
    _pad_and_check(arrays[2], 1)
    _pad_and_check(arrays[3], 1)
    info = _padnd._plan_cache_info()
    assert (info["misses"], info["hits"], len(info["plans"])) == (12, 2, 8)


def test_a_plan_above_the_per_plan_limit_serves_its_call_only():
    a = np.arange(10, dtype=np.int32)
    _pad_and_check(a, 3, "wrap")
    size = _padnd._plan_cache_info()["plans"][0]
    _padnd._plan_cache_reset(max_plan_bytes=size - 1)
    for _ in range(2):
        _pad_and_check(a, 3, "wrap")
        _pad_and_check(a[::-1], 3, "wrap")  # a layout of its own: another request
    info = _padnd._plan_cache_info()
    assert (info["plans"], info["bytes"], info["hits"], info["misses"]) == ([], 0, 0, 4)
    _padnd._plan_cache_reset(max_plan_bytes=size)  # at the limit: kept
    _pad_and_check(a, 3, "wrap")
    assert _padnd._plan_cache_info()["plans"] == [size]


def test_the_cache_holds_a_bounded_number_of_bytes():
    arrays = [np.zeros((n, 2), np.float64) for n in range(1, 6)]
    _pad_and_check(arrays[0], 2, "edge")
    size = _padnd._plan_cache_info()["plans"][0]
    _padnd._plan_cache_reset(max_bytes=size * 5 // 2)
    for a in arrays:
        _pad_and_check(a, 2, "edge")
        info = _padnd._plan_cache_info()
        assert info["bytes"] == sum(info["plans"]) <= info["max_bytes"]
    assert 1 <= len(_padnd._plan_cache_info()["plans"]) <= 2


def test_a_huge_pad_leaves_no_large_plan_alive():
    # Plans of such pads hold tables that grow with the pad width (tens of MiB): used for
    # their call, then dropped; whatever a planner makes of them, nothing above the limit stays.
    for mode in ("constant", "edge", "wrap"):
        out = _pad_and_check(np.ones(1, np.uint8), 2**22, mode)
        assert out.shape == (2**23 + 1,)
        info = _padnd._plan_cache_info()
        assert all(b <= info["max_plan_bytes"] for b in info["plans"])
        assert info["bytes"] <= info["max_bytes"] <= 16 * 2**20
    assert info["max_plan_bytes"] <= 4 * 2**20


def test_each_thread_has_a_cache_of_its_own():
    _pad_and_check(_A, 1)
    seen = {}

    def other_thread():
        seen["before"] = _padnd._plan_cache_info()
        _pad_and_check(_A, 1)
        seen["after"] = _padnd._plan_cache_info()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen["before"]["plans"] == [] and seen["after"]["misses"] == 1
    assert _padnd._plan_cache_info()["misses"] == 1
