# SPDX-License-Identifier: Apache-2.0
# padnd.pad_window and the spec functions' window= against numpy.pad(...)[window] (and against
# each spec function's own whole result): every mode, per-axis modes, dtypes, input layouts,
# windows as numpy reads slices, and outputs written into views of larger arrays.
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import padnd
from numpy_oracle import numpy_pad

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
VALUE_MODES = ["linear_ramp", "maximum", "mean", "median", "minimum"]
DTYPES = ["?", "i1", "u2", "i4", "i8", "f2", "f4", "f8", ">f8", "c16", "S3", "U2", "V5", "M8[s]"]


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()  # bit-exact


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, int(np.prod(shape)) * np.dtype(dtype).itemsize, dtype=np.uint8)
    if np.dtype(dtype).kind in "fc":  # values without NaN payload games: exact small numbers
        return rng.integers(-50, 50, shape).astype(dtype)
    return raw.view(np.dtype(dtype).newbyteorder("=") if dtype[0] == ">" else dtype).reshape(shape)


@st.composite
def window_for(draw, shape):
    """A tuple of slices (possibly fewer than the axes) with bounds as numpy takes them: None,
    negative, beyond the axis, empty."""
    n_slices = draw(st.integers(0, len(shape)))
    slices = []
    for n in shape[:n_slices]:
        bound = st.none() | st.integers(-n - 3, n + 3)
        slices.append(slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1]))))
    return tuple(slices)


@st.composite
def requests(draw, modes):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    widths = tuple((draw(st.integers(0, 7)), draw(st.integers(0, 7))) for _ in range(ndim))
    per_axis = draw(st.booleans())
    mode = (tuple(draw(st.sampled_from(modes)) for _ in range(ndim)) if per_axis
            else draw(st.sampled_from(modes)))
    out_shape = tuple(d + b + e for d, (b, e) in zip(shape, widths))
    return shape, widths, mode, draw(window_for(out_shape))


@settings(max_examples=300)
@given(requests(INDEX_MODES), st.sampled_from(DTYPES), st.booleans())
def test_index_modes_equal_numpy_slice(request, dtype, flip):
    shape, widths, mode, window = request
    a = sample(shape, dtype)
    if flip:
        a = a[::-1]
    same(padnd.pad_window(a, widths, mode, window=window), numpy_pad(a, widths, mode)[window])


@settings(max_examples=300)
@given(requests(INDEX_MODES + VALUE_MODES), st.sampled_from(["i4", "f8", "u1"]),
       st.sampled_from(["even", "odd"]), st.sampled_from([None, 1, 2, (1, 3)]))
def test_value_modes_equal_numpy_slice(request, dtype, reflect_type, stat_length):
    shape, widths, mode, window = request
    a = sample(shape, dtype, seed=1)
    modes = [mode] if isinstance(mode, str) else list(mode)
    kwargs = {}
    if any(m in ("reflect", "symmetric") for m in modes) and dtype != "u1":
        kwargs["reflect_type"] = reflect_type
    if any(m in VALUE_MODES[1:] for m in modes):
        kwargs["stat_length"] = stat_length
    if "linear_ramp" in modes:
        kwargs["end_values"] = (3, -2) if dtype != "u1" else (3, 9)
    want = numpy_pad(a, widths, mode, **kwargs)[window]
    got = padnd.pad_window(a, widths, mode, window=window, **kwargs)
    if dtype == "f8" and any(m == "mean" for m in modes):
        np.testing.assert_allclose(got, want, rtol=1e-12)  # numpy's summation order
    else:
        same(got, want)


# Output views: (the base array's shape for a window shape, the view of a base array).
OUT_VIEWS = {
    "inside_larger": (lambda s: tuple(n + 3 for n in s),
                      lambda base, s: base[tuple(slice(1, 1 + n) for n in s)]),
    "transposed": (lambda s: s[::-1], lambda base, s: base.T),
    "flipped": (lambda s: s, lambda base, s: base[::-1]),
    "every_other": (lambda s: tuple(2 * n for n in s),
                    lambda base, s: base[tuple(slice(None, None, 2) for _ in s)]),
}


@pytest.mark.parametrize("view", OUT_VIEWS)
@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", "mean", "linear_ramp"])
@pytest.mark.parametrize("dtype", ["f4", "U3", ">i4"])
def test_out_in_any_layout(view, mode, dtype):
    a = sample((5, 6, 7), dtype, seed=2)
    window = (slice(2, 9), slice(-6, None), slice(1, 11))
    if mode in ("mean", "linear_ramp") and dtype == "U3":  # numpy's value modes need numbers
        with pytest.raises(TypeError):
            np.pad(a, ((3, 2), (4, 4), (2, 5)), mode)
        with pytest.raises(TypeError):
            padnd.pad_window(a, ((3, 2), (4, 4), (2, 5)), mode, window=window)
        return
    want = np.pad(a, ((3, 2), (4, 4), (2, 5)), mode)[window]
    base_shape, view_of = OUT_VIEWS[view]
    base = sample(base_shape(want.shape), dtype, seed=7)
    before = base.copy()
    out = view_of(base, want.shape)
    result = padnd.pad_window(a, ((3, 2), (4, 4), (2, 5)), mode, window=window, out=out)
    assert result is out
    same(np.ascontiguousarray(out), want)
    covered = np.zeros(base.shape, bool)
    view_of(covered, want.shape)[...] = True
    assert base[~covered].tobytes() == before[~covered].tobytes()  # nothing else written


def test_tiles_written_in_place_make_the_whole_result():
    a = sample((37, 53), "f4", seed=3)
    widths = ((9, 30), (3, 41))
    want = np.pad(a, widths, "symmetric")
    out = np.full_like(want, -1)
    for y in range(0, want.shape[0], 16):
        for x in range(0, want.shape[1], 16):
            tile = (slice(y, y + 16), slice(x, x + 16))
            padnd.pad_window(a, widths, "symmetric", window=tile, out=out[tile])
    same(out, want)


@pytest.mark.parametrize("window, error, text", [
    ((slice(0, 4, 2),), ValueError, "window: axis 0: step 2 is not supported"),
    ((slice(None), slice(None), slice(None)), IndexError, "window: 3 slices"),
    ((1,), TypeError, "window: axis 0: expected a slice"),
])
def test_window_errors(window, error, text):
    with pytest.raises(error, match=text):
        padnd.pad_window(np.zeros((2, 3)), 1, window=window)


def test_a_value_mode_box_too_big_to_allocate_says_what_it_is_for():
    # Beyond each side's first chunk odd reflection's box is the whole axis (numpy extends
    # both sides in turns); this window starts 2**58 positions out.
    with pytest.raises(MemoryError, match=r"cannot allocate \d+ bytes .* numpy's value modes"):
        padnd.pad_window(np.zeros(2, np.float32), 2**58, "reflect", reflect_type="odd",
                         window=(slice(0, 4),))


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_odd_windows_next_to_the_edge_of_a_huge_pad_hold_their_own_positions(mode):
    # In each side's first chunk numpy mirrors original elements only: the box is the window.
    a = np.array([[1.0, 4.0, 9.0, 16.5], [2.0, -3.0, 7.25, 0.5]])
    far = 2**40  # a box of the whole axis could not be allocated
    chunk = 4 if mode == "symmetric" else 3
    got = padnd.pad_window(a, ((1, 1), (far, far)), mode, reflect_type="odd",
                           window=(slice(None), slice(far - chunk, far + 4 + chunk)))
    want = np.pad(a, ((1, 1), (chunk, chunk)), mode, reflect_type="odd")
    assert np.array_equal(got, want)


def test_ramp_windows_far_from_the_edge_compute_their_own_positions():
    a = np.array([1.0, 4.0, 9.0])
    far = 2**58  # a box of the side could not be allocated
    got = padnd.pad_window(a, far, "linear_ramp", end_values=2.0, window=(slice(5, 9),))
    want = np.arange(5, 9) * ((1.0 - 2.0) / far) + 2.0  # numpy's linspace arithmetic
    assert np.array_equal(got, want)


def test_out_errors_name_the_argument():
    a = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"out: shape \(2, 2\) does not match"):
        padnd.pad_window(a, 1, window=(slice(0, 3), slice(0, 2)), out=np.zeros((2, 2), "f4"))
    with pytest.raises(ValueError, match="out: overlaps the input"):
        padnd.pad_window(a, 0, window=(slice(0, 2),), out=a)


def test_numpy_argument_errors_are_pads():
    a = np.zeros((2, 3))
    for bad in (-1, ((1, 2, 3),)):
        with pytest.raises(ValueError) as want:
            np.pad(a, bad)
        with pytest.raises(ValueError) as got:
            padnd.pad_window(a, bad, window=(slice(0, 1),))
        assert str(got.value) == str(want.value)


@settings(max_examples=150)
@given(st.integers(0, 3), st.integers(0, 3), st.integers(-2, 3), st.integers(-2, 3),
       st.sampled_from(["constant", "edge", "reflect", "wrap"]), window_for((9, 9)))
def test_onnx_window_equals_its_own_slice(b0, b1, e0, e1, mode, window):
    a = sample((4, 5), "f4", seed=4)
    pads = [b0, b1, e0, e1]
    try:
        whole = padnd.onnx.pad(a, pads, mode=mode)
    except ValueError:
        return
    window = window[:whole.ndim]
    same(padnd.onnx.pad(a, pads, mode=mode, window=window), whole[window])


@pytest.mark.parametrize("dtype", [ml_dtypes.int4, ml_dtypes.uint2, ml_dtypes.bfloat16])
def test_onnx_ml_dtypes_and_raw_packed_windows(dtype):
    a = (np.arange(30) % 3).astype(dtype).reshape(5, 6)
    whole = padnd.onnx.pad(a, [1, 2, 3, 1], mode="reflect")
    window = (slice(1, 8), slice(3, None))
    same(padnd.onnx.pad(a, [1, 2, 3, 1], mode="reflect", window=window), whole[window])


def test_raw_packed_window_is_dense_bytes():
    codes = np.arange(15, dtype=np.uint8) % 16
    raw = np.frombuffer(bytes((codes[i] | (codes[i + 1] << 4)) if i + 1 < 15 else codes[i]
                              for i in range(0, 15, 2)), np.uint8)
    whole = padnd.onnx.pad(raw, [2, 3], mode="edge", dtype="uint4", shape=(15,))
    got = padnd.onnx.pad(raw, [2, 3], mode="edge", dtype="uint4", shape=(15,),
                         window=(slice(3, 16),))
    nibbles = np.stack([whole & 15, whole >> 4], axis=1).reshape(-1)[3:16]
    packed = nibbles[0::2] | np.append(nibbles[1::2], 0) << 4
    same(got, packed.astype(np.uint8))


def test_openvino_and_ngraph_windows():
    a = sample((4, 6), "i4", seed=5)
    window = (slice(1, -1), slice(-5, None))
    whole = padnd.openvino.pad(a, [1, 2], [2, -1], "symmetric")
    same(padnd.openvino.pad(a, [1, 2], [2, -1], "symmetric", window=window), whole[window])
    whole = padnd.ngraph.pad(a, np.int32(9), [1, 0], [0, 2], [1, 2])
    same(padnd.ngraph.pad(a, np.int32(9), [1, 0], [0, 2], [1, 2], window=window),
         whole[window])


def box_around(rng, reads, shape):
    """A box of an input of `shape` holding the slices `reads` (all empty: any box)."""
    reads_any = all(s.stop > s.start for s in reads)
    box = []
    for s, n in zip(reads, shape):
        lo, hi = (s.start, s.stop) if reads_any else (0, 0)
        box.append(slice(int(rng.integers(0, lo + 1)), int(rng.integers(hi, n + 1))))
    return tuple(box)


def shown_reads(a, widths, mode, window, **kwargs):
    """The bounding box of the input elements window `window` of numpy's result shows: every
    input element is its own distinct value (its position), and pads take a value no element
    has (for the index modes)."""
    ids = np.arange(a.size, dtype=np.int64).reshape(a.shape)
    modes = [mode] if isinstance(mode, str) else list(mode)
    if "constant" in modes:
        kwargs = {**kwargs, "constant_values": -1}
    shown = numpy_pad(ids, widths, mode, **kwargs)[window].ravel()
    shown = shown[shown >= 0]
    if shown.size == 0:
        return tuple(slice(0, 0) for _ in a.shape)
    at = np.unravel_index(shown, a.shape)
    return tuple(slice(int(i.min()), int(i.max()) + 1) for i in at)


@settings(max_examples=300)
@given(requests(INDEX_MODES), st.sampled_from(["f4", "U2", ">i8"]), st.integers(0, 2**32 - 1))
def test_input_window_is_what_the_window_shows_and_a_box_of_it_suffices(request, dtype, seed):
    shape, widths, mode, window = request
    modes = [mode] if isinstance(mode, str) else list(mode)
    kwargs = {"constant_values": -1} if "constant" in modes else {}
    a = sample(shape, dtype, seed=seed % 7)
    reads = padnd.input_window(shape, widths, mode, window=window, dtype=dtype, **kwargs)
    assert reads == shown_reads(a, widths, mode, window)
    box = box_around(np.random.default_rng(seed), reads, shape)
    part = a[box].copy()  # the box alone, nothing around it
    got = padnd.pad_window(part, widths, mode, window=window, input_shape=shape,
                           input_start=[s.start for s in box], **kwargs)
    same(got, numpy_pad(a, widths, mode, **kwargs)[window])


@settings(max_examples=200)
@given(requests(VALUE_MODES + ["reflect"]), st.sampled_from(["i4", "f8"]),
       st.sampled_from([None, 1, (1, 3)]), st.integers(0, 2**32 - 1))
def test_value_mode_windows_from_their_input_box(request, dtype, stat_length, seed):
    shape, widths, mode, window = request
    modes = [mode] if isinstance(mode, str) else list(mode)
    kwargs = {"reflect_type": "odd"} if "reflect" in modes else {}
    if any(m in VALUE_MODES[1:] for m in modes):
        kwargs["stat_length"] = stat_length
    a = sample(shape, dtype, seed=seed % 5)
    reads = padnd.input_window(shape, widths, mode, window=window, dtype=dtype, **kwargs)
    box = box_around(np.random.default_rng(seed), reads, shape)
    got = padnd.pad_window(a[box].copy(), widths, mode, window=window, input_shape=shape,
                           input_start=[s.start for s in box], **kwargs)
    want = numpy_pad(a, widths, mode, **kwargs)[window]
    if dtype == "f8" and "mean" in modes:
        np.testing.assert_allclose(got, want, rtol=1e-12)  # numpy's summation order
    else:
        same(got, want)


def test_value_mode_window_reads_the_whole_axis_it_pads():
    reads = padnd.input_window((10, 20), ((2, 2), (0, 0)), "mean", window=(slice(0, 1),))
    assert reads == (slice(0, 10), slice(0, 20))
    reads = padnd.input_window((10, 20), ((2, 2), (0, 0)), "mean", window=(slice(4, 6),))
    assert reads == (slice(2, 4), slice(0, 20))


def test_statistic_windows_deep_in_wide_pads_read_only_their_statistics():
    # Every pad position of a side holds one value per lane: a window 10**8 positions in equals
    # the same side of a narrow pad, and reads the stat_length elements next to the edge.
    a = np.arange(30, dtype=np.float64).reshape(6, 5) % 7
    far = 10**8
    stat_length = ((2, 3), (1, 5))
    narrow = np.pad(a, ((2, 2), (3, 4)), "maximum", stat_length=stat_length)
    columns = [min(c, 8) for c in range(1, 13)]  # the far pad's columns 1-12 in the narrow one
    for rows, narrow_row in ((slice(5, 8), 0), (slice(far + 6 + 9, far + 6 + 12), -1)):
        got = padnd.pad_window(a, ((far, far), (3, far)), "maximum", stat_length=stat_length,
                               window=(rows, slice(1, 13)))
        assert np.array_equal(got, np.broadcast_to(narrow[narrow_row, columns], (3, 12)))
    reads = padnd.input_window(a.shape, ((far, far), (3, far)), "maximum",
                               stat_length=stat_length, window=(slice(5, 8), slice(0, 4)))
    assert reads == (slice(0, 2), slice(0, 1))


def test_input_box_errors_name_the_argument():
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError, match=r"input box: axis 1: start 1 and length 2 do not hold "
                                         r"input positions 0:3"):
        padnd.pad_window(a[:, 1:3], 2, "reflect", window=(slice(0, 2), slice(0, 3)),
                         input_shape=(3, 4), input_start=(0, 1))
    with pytest.raises(ValueError, match="give both or neither"):
        padnd.pad_window(a, 1, window=(), input_shape=(3, 4))
    with pytest.raises(ValueError, match="expected 2 values each"):
        padnd.pad_window(a, 1, window=(), input_shape=(3, 4, 1), input_start=(0, 0))
    with pytest.raises(ValueError, match="input box: axis 0: start 2 and length 3 do not lie"):
        padnd.pad_window(a, 1, window=(), input_shape=(3, 4), input_start=(2, 0))
