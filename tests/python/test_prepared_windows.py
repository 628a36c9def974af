# SPDX-License-Identifier: Apache-2.0
# padnd.prepare_windows: windows copied from numpy's statistics computed once, against
# numpy.pad(...)[window] in every mode, with outputs in any layout, DLPack tensors, numpy's
# own pad for object arrays, and the size of what is prepared for a pad 10**8 wide.
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import padnd
from numpy_oracle import numpy_pad
from test_pad_window import INDEX_MODES, OUT_VIEWS, VALUE_MODES, requests, same, sample, window_for


@settings(max_examples=300)
@given(requests(INDEX_MODES + VALUE_MODES), st.sampled_from(["i4", "f8", "u1", ">i2"]),
       st.sampled_from(["even", "odd"]), st.sampled_from([None, 1, 2, (1, 3)]), st.data())
def test_windows_equal_numpy_slice(request, dtype, reflect_type, stat_length, data):
    shape, widths, mode, window = request
    a = sample(shape, dtype, seed=4)
    modes = [mode] if isinstance(mode, str) else list(mode)
    kwargs = {}
    if any(m in ("reflect", "symmetric") for m in modes) and dtype not in ("u1", ">i2"):
        kwargs["reflect_type"] = reflect_type
    if any(m in VALUE_MODES[1:] for m in modes):
        kwargs["stat_length"] = stat_length
    if "linear_ramp" in modes:
        kwargs["end_values"] = (3, -2) if dtype not in ("u1",) else (3, 9)
    full = numpy_pad(a, widths, mode, **kwargs)
    prepared = padnd.prepare_windows(a, widths, mode, **kwargs)
    assert prepared.shape == full.shape and prepared.dtype == full.dtype
    for w in (window, data.draw(window_for(full.shape)), ()):
        got = prepared[w]
        if dtype == "f8" and "mean" in modes:
            np.testing.assert_allclose(got, full[w], rtol=1e-12)  # numpy's summation order
        else:
            same(got, full[w])


@pytest.mark.parametrize("view", OUT_VIEWS)
@pytest.mark.parametrize("mode", ["constant", "reflect", "mean", "linear_ramp"])
@pytest.mark.parametrize("dtype", ["f4", ">i4"])
def test_out_in_any_layout(view, mode, dtype):
    a = sample((5, 6, 7), dtype, seed=2)
    widths = ((3, 2), (4, 4), (2, 5))
    window = (slice(2, 9), slice(-6, None), slice(1, 11))
    want = np.pad(a, widths, mode)[window]
    base_shape, view_of = OUT_VIEWS[view]
    base = sample(base_shape(want.shape), dtype, seed=7)
    before = base.copy()
    out = view_of(base, want.shape)
    assert padnd.prepare_windows(a, widths, mode).window(window, out=out) is out
    same(np.ascontiguousarray(out), want)
    covered = np.zeros(base.shape, bool)
    view_of(covered, want.shape)[...] = True
    assert base[~covered].tobytes() == before[~covered].tobytes()  # nothing else written


def test_statistics_of_a_wide_pad_are_prepared_once_in_a_box_of_the_input():
    # The 6 x 5 input and one position of each side: 8 x 7 doubles, whatever the pads' width;
    # windows deep in the pads equal the same sides of a narrow pad.
    a = np.arange(30, dtype=np.float64).reshape(6, 5) % 7
    far = 10**8
    stat_length = ((2, 3), (1, 5))
    prepared = padnd.prepare_windows(a, ((far, far), (3, far)), "maximum",
                                     stat_length=stat_length)
    assert prepared.shape == (2 * far + 6, far + 8)
    assert prepared.prepared_bytes == 8 * 7 * 8
    narrow = np.pad(a, ((2, 2), (3, 4)), "maximum", stat_length=stat_length)
    columns = [min(c, 8) for c in range(1, 13)]
    for rows, narrow_row in ((slice(5, 8), 0), (slice(far + 6 + 9, far + 6 + 12), -1)):
        got = prepared[rows, 1:13]
        assert np.array_equal(got, np.broadcast_to(narrow[narrow_row, columns], (3, 12)))
    assert np.array_equal(prepared[far + 1:far + 3, 3:8], a[1:3])  # the input itself


def test_boxes_beyond_twice_the_input_are_not_prepared():
    # Odd reflection's box holds its axis whole: 2**41 + 5 doubles here. Not prepared, the
    # windows compute their own boxes: next to the edge their own positions, further out the
    # whole axis, which fails at once saying what it is for.
    prepared = padnd.prepare_windows(np.arange(5.0), 2**40, "reflect", reflect_type="odd")
    assert prepared.prepared_bytes == 0
    window = slice(2**40 - 3, 2**40 + 2)
    assert np.array_equal(prepared[window],
                          padnd.pad_window(np.arange(5.0), 2**40, "reflect", reflect_type="odd",
                                           window=window))
    with pytest.raises(MemoryError, match=r"cannot allocate \d+ bytes .* numpy's value modes "
                                          r"compute windows from"):
        prepared[0:2]
    # Narrow pads: the whole axis is within the bound, and prepared.
    assert padnd.prepare_windows(np.arange(5.0), 2, "reflect",
                                 reflect_type="odd").prepared_bytes == 9 * 8
    # A statistic's box is the input and a position per side, whatever the width.
    prepared = padnd.prepare_windows(np.arange(5.0), 2**40, "mean")
    assert prepared.prepared_bytes == 7 * 8
    assert list(prepared[2**40 - 2:2**40 + 1]) == [2.0, 2.0, 0.0]


def test_modes_without_statistics_prepare_nothing():
    a = sample((4, 5), "f4")
    assert padnd.prepare_windows(a, 3, "wrap").prepared_bytes == 0
    assert padnd.prepare_windows(a, 3, "linear_ramp", end_values=2).prepared_bytes == 0
    assert padnd.prepare_windows(a, 3, "mean").prepared_bytes == 6 * 7 * 4


def test_object_arrays_slice_numpy_own_pad_and_return_copies():
    a = np.array([1, "a", None], dtype=object)
    prepared = padnd.prepare_windows(a, 2, "edge")
    assert prepared.prepared_bytes == np.pad(a, 2, "edge").nbytes
    first = prepared[0:3]
    assert list(first) == [1, 1, 1]
    first[0] = "changed"
    assert list(prepared[0:3]) == [1, 1, 1]


def test_tensors_in_give_tensors_out():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    prepared = padnd.prepare_windows(t, 2, "mean")
    got = prepared[1:4, 0:3]
    assert isinstance(got, torch.Tensor)
    assert np.array_equal(got.numpy(), np.pad(t.numpy(), 2, "mean")[1:4, 0:3])
    out = torch.zeros(3, 3)
    assert prepared.window((slice(1, 4), slice(0, 3)), out=out) is out
    assert torch.equal(out, got)


def test_threads_are_checked_on_every_path():
    for array in (np.zeros(3), np.array([1, None], dtype=object)):
        with pytest.raises(ValueError, match="threads"):
            padnd.prepare_windows(array, 1, "edge", threads=-5)


def test_errors_are_pad_windows():
    a = sample((4, 5), "f4")
    with pytest.raises(ValueError, match="mode"):
        padnd.prepare_windows(a, 2, "bogus")
    prepared = padnd.prepare_windows(a, 2, "mean")
    for window in [(slice(0, 2),) * 3, (slice(0, 4, 2),), (1,)]:
        with pytest.raises(Exception) as caught:
            prepared[window]
        with pytest.raises(type(caught.value), match=str(caught.value).split(":")[0]):
            padnd.pad_window(a, 2, "mean", window=window)
    with pytest.raises(ValueError, match="out: shape"):
        prepared.window((slice(0, 2),), out=np.zeros((3, 9), np.float32))
