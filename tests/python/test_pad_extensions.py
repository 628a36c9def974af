# SPDX-License-Identifier: Apache-2.0
# padnd.pad's keyword-only extensions: out=, negative=, interior=, threads=, and GIL-free threads.
import threading

import numpy as np
import pytest

import padnd


def test_out_is_filled_and_returned():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    out = np.full((4, 7), -1, dtype=np.int16)
    result = padnd.pad(a, ((1, 1), (2, 2)), "wrap", out=out)
    assert result is out
    assert (out == np.pad(a, ((1, 1), (2, 2)), "wrap")).all()


@pytest.mark.parametrize("out, message", [
    (np.zeros((4, 6), np.int16), "shape"),
    (np.zeros((4, 7), np.int32), "dtype"),
    (np.zeros((7, 4), np.int16).T, "C-contiguous"),
    ([0] * 28, "numpy.ndarray"),
])
def test_out_mismatch_names_it(out, message):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    with pytest.raises(ValueError, match=message):
        padnd.pad(a, ((1, 1), (2, 2)), out=out)


def test_out_overlapping_input_is_refused():
    buffer = np.zeros(16, dtype=np.uint8)
    with pytest.raises(ValueError, match="overlaps"):
        padnd.pad(buffer[:8], (4, 4), out=buffer)


def test_negative_needs_opt_in_then_crops():
    a = np.arange(10)
    with pytest.raises(ValueError, match="negative values"):
        padnd.pad(a, (-2, 3))
    assert padnd.pad(a, (-2, 3), negative="map_on_original").tolist() == \
        [2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0]
    # edge from the uncropped data vs. from the cropped data (docs/spec.md §2.3 / §2.5)
    assert padnd.pad(a, (-3, -2), "reflect", negative="map_on_original").tolist() == \
        [3, 4, 5, 6, 7]
    b = np.arange(5)
    assert padnd.pad(b, (-1, 2), "reflect", negative="map_on_original").tolist() == \
        [1, 2, 3, 4, 3, 2]
    assert padnd.pad(b, (-1, 2), "reflect", negative="crop_then_pad").tolist() == \
        [1, 2, 3, 4, 3, 2]
    assert padnd.pad(b, (3, -2), "reflect", negative="map_on_original").tolist() == \
        [3, 2, 1, 0, 1, 2]
    assert padnd.pad(b, (3, -2), "reflect", negative="crop_then_pad").tolist() == \
        [1, 2, 1, 0, 1, 2]
    with pytest.raises(ValueError):
        padnd.pad(b, (-4, -4), negative="map_on_original")


def test_interior():
    a = np.array([[1, 2], [3, 4]])
    got = padnd.pad(a, ((0, 0), (1, 0)), interior=(1, 2), constant_values=9)
    assert got.tolist() == [[9, 1, 9, 9, 2], [9, 9, 9, 9, 9], [9, 3, 9, 9, 4]]
    with pytest.raises(ValueError, match="interior padding is only defined for constant mode"):
        padnd.pad(a, 1, "edge", interior=1)
    with pytest.raises(ValueError, match="per-side constants"):
        padnd.pad(a, 1, interior=1, constant_values=(1, 2))


def test_threads_keyword():
    a = np.arange(4)
    assert (padnd.pad(a, 2, threads=4) == np.pad(a, 2)).all()
    assert (padnd.pad(a, 2, threads=1, out=np.empty(8, a.dtype)) == np.pad(a, 2)).all()
    for bad in (0, -1, 2**31):
        with pytest.raises(ValueError, match="threads"):
            padnd.pad(a, 2, threads=bad)
    for bad in (1.0, True, np.int64(2), "2"):
        with pytest.raises(TypeError, match="threads"):
            padnd.pad(a, 2, threads=bad)


def test_input_is_never_copied():
    # A broadcast view of 10**14 elements: any copy of it would need 800 TB. Cropping it to a
    # 2 x 3 corner works only because the engine reads the view through its (zero) strides.
    huge = np.broadcast_to(np.float64(7.0), (10**7, 10**7))
    corner = padnd.pad(huge, ((-(10**7 - 2), 0), (-(10**7 - 3), 1)), negative="map_on_original")
    assert corner.tolist() == [[7.0, 7.0, 7.0, 0.0]] * 2
    view = np.arange(40_000, dtype=np.float64).reshape(200, 200)[::-3, 1::2].T
    assert (padnd.pad(view, 2, "symmetric") == np.pad(view, 2, "symmetric")).all()


def test_concurrent_threads_give_correct_results():
    arrays = [np.random.default_rng(seed).random((300, 400))[::-1, ::2] for seed in range(8)]
    expected = [np.pad(a, ((5, 9), (17, 3)), "reflect") for a in arrays]
    results = [None] * len(arrays)

    def work(i):
        for _ in range(20):
            results[i] = padnd.pad(arrays[i], ((5, 9), (17, 3)), "reflect")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(arrays))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert (got == want).all()
