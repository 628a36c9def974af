# SPDX-License-Identifier: Apache-2.0
# padnd.pad's one-call fast path (python/src/fast_path.cpp): it must take exactly the requests it
# claims, give numpy.pad's bytes for them, and hand everything else to the general path.
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import padnd
from padnd import _dtypes, _padnd

# Every dtype numpy shares with the core's element-type table, long double aside (its padding
# bytes are arbitrary, so results cannot be compared byte for byte).
NUMERIC = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16",
           "M8[D]", "m8[s]"]
MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "empty"]


def _array(draw, dtype):
    shape = draw(st.lists(st.integers(1, 5), min_size=0, max_size=4))
    a = (np.arange(int(np.prod(shape)) * 3) % 251).astype(dtype)[: int(np.prod(shape))]
    a = a.reshape(shape)
    if a.ndim and draw(st.booleans()):
        a = a[..., ::-1]  # negative strides
    if a.ndim >= 2 and draw(st.booleans()):
        a = a.T  # Fortran order
    return a


@st.composite
def requests(draw):
    dtype = np.dtype(draw(st.sampled_from(NUMERIC)))
    a = _array(draw, dtype)
    width = st.integers(0, 6)
    form = draw(st.sampled_from(["int", "one", "pair"] + (["per_axis"] if a.ndim else [])))
    if form == "int":
        pw = draw(width)
    elif form == "one":
        pw = (draw(width),)
    elif form == "pair":
        pw = (draw(width), draw(width))
    else:
        pw = tuple((draw(width), draw(width)) for _ in range(a.ndim))
    mode = draw(st.sampled_from(MODES))
    kwargs = {}
    if mode == "constant" and draw(st.booleans()):
        if dtype == np.float64:
            value = st.floats(allow_nan=True, width=64)
        elif dtype == np.float32:  # rounded into float32, within its range (else numpy warns)
            value = st.one_of(st.floats(-3.4e38, 3.4e38),
                              st.sampled_from([float("nan"), float("inf"), -float("inf")]))
        elif dtype.kind in "iu":
            info = np.iinfo(dtype)
            value = st.integers(int(info.min), int(info.max))
        else:
            value = st.just(0)
        # a scalar, (before, after), or one pair per axis (later axes own the corners)
        form = draw(st.sampled_from(["scalar", "pair"] + (["per_axis"] if a.ndim else [])))
        if form != "scalar" and dtype == np.uint64:  # numpy: a pair beyond int64 is float64
            value = st.integers(0, 2**63 - 1)
        if form == "scalar":
            kwargs["constant_values"] = draw(value)
        elif form == "pair":
            kwargs["constant_values"] = (draw(value), draw(value))
        else:
            kwargs["constant_values"] = [(draw(value), draw(value)) for _ in range(a.ndim)]
    return a, pw, mode, kwargs


@settings(max_examples=400, deadline=None)
@given(requests())
def test_fast_path_takes_the_request_and_matches_numpy(req):
    a, pw, mode, kwargs = req
    fast = _padnd.pad_fast(a, pw, mode, kwargs.get("constant_values"), 0)
    expected = np.pad(a, pw, mode, **kwargs)
    result = padnd.pad(a, pw, mode, **kwargs)
    assert result.flags.f_contiguous == expected.flags.f_contiguous
    if a.flags.fnc:  # numpy returns Fortran order: the general path's
        assert fast is None, "the fast path took a Fortran input"
        fast = np.empty_like(expected, order="C")
        assert _padnd.pad_fast(a, pw, mode, kwargs.get("constant_values"), 0, fast) is fast
    assert fast is not None, "an eligible request fell back to the general path"
    assert fast.dtype == expected.dtype and fast.shape == expected.shape
    if mode == "empty":
        return  # numpy leaves empty pads uninitialised; padnd writes zero bits
    assert fast.tobytes() == np.ascontiguousarray(expected).tobytes()
    assert result.tobytes(order="A") == expected.tobytes(order="A")


@pytest.mark.parametrize("array, pad_width, mode, value", [
    (np.arange(4).astype(">i4"), 1, "constant", None),          # non-native byte order
    (np.arange(4), np.int64(1), "constant", None),              # numpy scalar width
    (np.arange(4), True, "constant", None),                     # bool is not an int width
    (np.arange(4), -1, "constant", None),                       # negative: numpy's error
    (np.arange(4), ((1, 2),) * 2, "constant", None),            # wrong number of pairs
    (np.arange(4), 1, "mean", None),                            # not an index mode
    (np.array(1.0), (), "constant", None),                      # numpy: not integral
    (np.arange(4), 1, "edge", 5),                               # constant with another mode
    (np.arange(4), 1, "empty", 5),                              # numpy rejects this
    (np.arange(4, dtype=np.uint8), 1, "constant", 300),         # numpy's overflow error
    (np.arange(4, dtype=np.int32), 1, "constant", 1.5),         # a float into ints
    (np.arange(4, dtype=np.float16), 1, "constant", 1.5),       # half rounding: general path
    (np.arange(4, dtype=np.int32), 1, "constant", (None, 1)),   # numpy: None is an object
    (np.arange(4, dtype=np.longdouble), 1, "constant", None),   # padding bytes: numpy's cast
    (np.array(["a", "b"]), 1, "constant", None),                # not numeric
    ([1, 2, 3], 1, "constant", None),                           # not an ndarray
    (np.ones((2, 3), order="F"), 1, "constant", None),          # numpy returns Fortran order
    (np.arange(4, dtype=np.float32), 1, "constant", 1e39),      # numpy warns of the overflow
])
def test_other_requests_take_the_general_path(array, pad_width, mode, value):
    assert _padnd.pad_fast(array, pad_width, mode, value, 0) is None


@pytest.mark.parametrize("shape, pad_width", [((0, 3), 1), ((2, 0), ((0, 0), (1, 0)))])
def test_the_numpy_adapter_rejects_what_numpy_rejects(shape, pad_width):
    # The fast path builds its spec with the numpy adapter, so errors are the general path's.
    a = np.zeros(shape)
    with pytest.raises(ValueError, match="can't extend empty axis") as numpy_error:
        np.pad(a, pad_width, "edge")
    with pytest.raises(ValueError) as fast_error:
        _padnd.pad_fast(a, pad_width, "edge", None, 0)
    with pytest.raises(ValueError) as general_error:
        padnd.pad(a, pad_width, "edge", interior=0)  # interior=: never the fast path
    assert str(fast_error.value) == str(general_error.value)
    assert "can't extend empty axis" in str(fast_error.value)


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_uint64_constants_beyond_int64():
    a = np.arange(3, dtype=np.uint64)
    for value in (2**63, 2**64 - 1):
        fast = _padnd.pad_fast(a, 1, "constant", value, 0)
        assert fast is not None
        assert fast.tobytes() == np.pad(a, 1, constant_values=value).tobytes()
    # numpy's OverflowError; and in a pair numpy makes the values float64: the general path
    for value in (2**64, -1, (1, 2**64 - 1)):
        assert _padnd.pad_fast(a, 1, "constant", value, 0) is None
        try:
            expected = np.pad(a, 1, constant_values=value)
        except OverflowError:
            with pytest.raises(OverflowError):
                padnd.pad(a, 1, constant_values=value)
        else:
            assert padnd.pad(a, 1, constant_values=value).tobytes() == expected.tobytes()


def test_plan_cache_never_serves_a_stale_plan():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    for pw, mode, value in [(1, "constant", None), (1, "constant", 2.0), (2, "constant", 2.0),
                            (2, "constant", (2.0, 3.0)), (2, "constant", ((2.0, 3.0), (4.0, 5.0))),
                            (2, "constant", ((2.0, 3.0), (4.0, 6.0))),
                            (2, "reflect", None), (((1, 0), (0, 3)), "wrap", None)]:
        kwargs = {} if value is None else {"constant_values": value}
        for view in (a, a.T, a[::-1]):
            assert padnd.pad(view, pw, mode, **kwargs).tobytes() == \
                np.pad(view, pw, mode, **kwargs).tobytes()


def test_out_is_written_in_place_by_the_fast_path():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        out = np.full((5, 8), -7, dtype=np.float32)
        assert _padnd.pad_fast(a, ((1, 1), (2, 2)), mode, None, 0, out) is out
        assert out.tobytes() == np.pad(a, ((1, 1), (2, 2)), mode).tobytes()
        again = np.full((5, 8), -7, dtype=np.float32)
        assert padnd.pad(a, ((1, 1), (2, 2)), mode, out=again) is again
        assert again.tobytes() == out.tobytes()
    # a strided input and an output that is not its neighbour in memory
    big = np.arange(40, dtype=np.int64).reshape(5, 8)
    out = np.zeros((5, 5), dtype=np.int64)
    assert _padnd.pad_fast(big[::2, ::3], 1, "wrap", None, 0, out) is out
    assert (out == np.pad(big[::2, ::3], 1, "wrap")).all()


class _Subclass(np.ndarray):
    pass


_A = np.arange(6, dtype=np.int16).reshape(2, 3)
_BUFFER = np.zeros(64, dtype=np.uint8)


@pytest.mark.parametrize("array, out, message", [
    (_A, np.zeros((4, 6), np.int16), "shape"),
    (_A, np.zeros((4, 7), np.int32), "dtype"),
    (_A, np.zeros((7, 4), np.int16).T, "C-contiguous"),
    (_A, np.zeros((4, 7), np.int16), None),
    (_A, np.lib.stride_tricks.as_strided(np.zeros(28, np.int16), (4, 7), writeable=False),
     "read-only"),
    (_A, [0] * 28, "numpy.ndarray"),
    (_BUFFER[:8], _BUFFER[:16], "overlaps"),
    (_BUFFER[40:48:2], _BUFFER[32:44], "overlaps"),
])
def test_rejected_out_takes_the_general_path_and_its_message(array, out, message):
    pad_width = (4, 4) if array.ndim == 1 else ((1, 1), (2, 2))
    if message is None:  # a plain writeable C-contiguous array: the fast path takes it
        assert _padnd.pad_fast(array, pad_width, "constant", None, 0, out) is out
        return
    assert _padnd.pad_fast(array, pad_width, "constant", None, 0, out) is None
    with pytest.raises(ValueError, match=message):
        padnd.pad(array, pad_width, out=out)


def test_out_subclass_and_adjacent_buffers():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    sub = np.zeros((4, 7), np.int16).view(_Subclass)
    assert _padnd.pad_fast(a, ((1, 1), (2, 2)), "constant", None, 0, sub) is None
    assert padnd.pad(a, ((1, 1), (2, 2)), out=sub) is sub
    # touching but not overlapping: numpy.may_share_memory says no, so does the fast path
    buffer = np.zeros(24, dtype=np.uint8)
    out = buffer[8:24]
    assert _padnd.pad_fast(buffer[:8], (4, 4), "constant", None, 0, out) is out


@pytest.mark.parametrize("code", [c for c in np.typecodes["All"] if c != "O"])
def test_the_core_dtype_table_names_numpy_dtypes_as_numpy_does(code):
    # One table (src/core/element_type.cpp) maps numpy dtypes for the fast path, padnd._dtypes and
    # the CLI; numpy's own dtype names are the oracle.
    dtype = np.dtype(code)
    name = _dtypes.element_type_name(dtype)
    if dtype.kind in "biufc" and dtype.type not in (np.longdouble, np.clongdouble):
        assert name == dtype.name
    elif dtype.kind in "Mm":
        assert name == dtype.name.split("[")[0] and _dtypes.numpy_only(dtype)
    elif dtype.type in (np.longdouble, np.clongdouble):
        assert name == ("longdouble" if dtype.kind == "f" else "clongdouble")
        assert _dtypes.numpy_only(dtype)
    else:  # S, U, V: moved as opaque bytes
        assert name == f"opaque{dtype.itemsize}" and not _dtypes.numpy_only(dtype)
    swapped = dtype.newbyteorder("S")
    if swapped.itemsize > 1 and not swapped.isnative:
        assert _dtypes.element_type_name(swapped) == f"opaque{dtype.itemsize}"
