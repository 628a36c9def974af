# SPDX-License-Identifier: Apache-2.0
# numpy.pad's value modes (linear_ramp, maximum, mean, median, minimum, reflect_type="odd") and
# padnd's per-axis modes, against numpy.pad itself on random cases.
#
# Exactness: integer and bool results are compared bit for bit; float and complex results of
# maximum/minimum, median, linear_ramp and odd reflection exactly by value (NaN where numpy has
# NaN; the sign of zero and NaN payloads aside; long double too, whose x87 80-bit value leaves 6
# of its 16 bytes unused, which numpy leaves as whatever was there). Float and complex means are
# compared with a tolerance of a few units in the last place of the summed magnitudes: numpy adds
# up a run pairwise when it is contiguous in memory and row after row otherwise, so its rounding
# depends on the layout of its padded array (docs/conformance.md, "Means of floats").
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import padnd

DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16",
          ">i4", ">f8", "g", "G", ">g"]
VALUE_MODES = ["linear_ramp", "maximum", "mean", "median", "minimum", "reflect_odd",
               "symmetric_odd"]
INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
STAT_MODES = ["maximum", "mean", "median", "minimum"]
LAYOUTS = {
    "c": lambda a: a,
    "fortran": np.asfortranarray,
    "negative": lambda a: a[(slice(None, None, -1),) * a.ndim],
    "transposed": lambda a: np.ascontiguousarray(a.T).T,
}


def numpy_mode(mode: str) -> tuple[str, dict]:
    """("reflect_odd") -> ("reflect", {"reflect_type": "odd"})."""
    if mode.endswith("_odd"):
        return mode[:-4], {"reflect_type": "odd"}
    return mode, {}


@st.composite
def arrays(draw, dtype: np.dtype, shape: tuple, big: bool):
    """Values of `dtype`: small integers, plus (floats) NaN, infinities and -0.0 now and then.
    64-bit integers stay below 2**40 unless `big`: numpy computes means, medians and ramps of
    integers in float64, which rounds beyond 2**53 (and so does padnd, but numpy's casts of such
    results back to uint64 differ between its own loops). datetime64 / timedelta64: int64 ticks,
    with NaT now and then."""
    count = int(np.prod(shape, dtype=np.int64))
    info_min, info_max = -100, 100
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bound = 2**40 if dtype.itemsize == 8 and not big else 2**62
        info_min, info_max = max(int(info.min), -bound), min(int(info.max), bound)
    if dtype.kind in "Mm":  # any int64 tick count when `big` (odd reflection wraps), NaT below
        info_min, info_max = (-(2**63) + 1, 2**63 - 1) if big else (-(2**40), 2**40)
    ints = draw(st.lists(st.integers(info_min, info_max), min_size=count, max_size=count))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype.kind in "Mm":
            ticks = np.array(ints, dtype=np.int64)
            for _ in range(draw(st.integers(0, 2)) if count else 0):
                ticks[draw(st.integers(0, count - 1))] = np.iinfo(np.int64).min  # NaT
            values = ticks.view(dtype.newbyteorder("=")).astype(dtype)
        elif dtype.kind == "b":
            values = np.array(ints, dtype=np.int64) % 2 == 1
        elif dtype.kind in "iu":
            values = np.array(ints, dtype=object).astype(dtype)
        else:
            long_double = dtype.type in (np.longdouble, np.clongdouble)  # its own roundings
            wide = np.longdouble if long_double else np.float64
            real = np.array(ints, dtype=wide) / draw(st.sampled_from([1, 4, 7]))
            specials = draw(st.lists(st.sampled_from([np.nan, np.inf, -np.inf, -0.0]),
                                     max_size=2))
            for v in specials[:count]:
                real[draw(st.integers(0, count - 1))] = v
            values = real.astype(dtype)
            if dtype.kind == "c":
                values = values + 1j * np.array(ints[::-1], dtype=np.float64).astype(dtype)
    return values.reshape(shape)


def stat_lengths(draw, shape):
    form = draw(st.sampled_from(["none", "int", "pair", "per_axis", "float"]))
    longest = max(shape, default=1) + 2
    if form == "none":
        return None
    if form == "int":
        return draw(st.integers(1, longest))
    if form == "float":
        return draw(st.sampled_from([0.6, 1.5, 2.5, 3.49]))
    if form == "pair":
        return (draw(st.integers(1, longest)), draw(st.integers(1, longest)))
    return [(draw(st.integers(1, longest)), draw(st.integers(1, longest))) for _ in shape] or 1


def end_values(draw, shape, dtype):
    form = draw(st.sampled_from(["default", "int", "float", "pair", "per_axis", "numpy"]))
    value = st.integers(-20, 300) if dtype.kind in "iub" else st.floats(-50, 50, width=32)
    if form == "default":
        return None
    if form == "int":
        return draw(st.integers(-20, 300))
    if form == "float":
        return draw(st.floats(-50, 50, width=32))
    if form == "numpy":
        return np.float32(draw(st.floats(-50, 50, width=32)))
    if form == "pair":
        return (draw(value), draw(value))
    return [(draw(value), draw(value)) for _ in shape] or 0


@st.composite
def cases(draw, modes=VALUE_MODES, dtypes=DTYPES):
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    mode = draw(st.sampled_from(modes))
    rank = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank)))
    a = draw(arrays(dtype, shape, big=mode in ("maximum", "minimum") or mode.endswith("odd")))
    a = LAYOUTS[draw(st.sampled_from(sorted(LAYOUTS)))](a)
    width = st.integers(0, 2 * max(shape, default=0) + 3)
    widths = [(0, 0) if d == 0 else (draw(width), draw(width)) for d in shape]
    name, kwargs = numpy_mode(mode)
    if name in STAT_MODES:
        length = stat_lengths(draw, shape)
        if length is not None:
            kwargs["stat_length"] = length
    if name == "linear_ramp":
        ends = end_values(draw, shape, dtype)
        if ends is not None:
            kwargs["end_values"] = ends
    return a, widths or 2, name, kwargs


def float_mean_tolerance(a: np.ndarray, mode: str):
    if mode != "mean" or a.dtype.kind not in "fc" or a.size == 0:
        return None
    eps = np.finfo(a.dtype).eps
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scale = np.nanmax(np.abs(np.where(np.isfinite(a), a, 0)), initial=1.0)
    n = max(a.shape, default=1)
    return dict(rtol=4 * n * eps, atol=4 * n * eps * float(scale))


def assert_like_numpy(got: np.ndarray, expected: np.ndarray, tolerance=None):
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if tolerance is not None:
        np.testing.assert_allclose(got, expected, equal_nan=True, **tolerance)
        return
    if expected.dtype.kind in "fc":
        np.testing.assert_array_equal(got, expected)  # NaN == NaN, -0.0 == 0.0
        nan = np.isnan(expected)
        assert np.array_equal(np.isnan(got), nan)
    else:
        assert got.tobytes() == np.ascontiguousarray(expected).tobytes()


def run_both(a, widths, mode, kwargs, pad=padnd.pad):
    """numpy's result or exception, then `pad`'s (which must match)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = np.pad(a, widths, mode, **kwargs)
        except Exception as error:  # noqa: BLE001 - numpy's exception type is the oracle
            # numpy's ufunc errors are TypeError / ValueError subclasses; padnd raises the base.
            base = TypeError if isinstance(error, TypeError) else type(error)
            with pytest.raises(base):
                pad(a, widths, mode, **kwargs)
            return None, None
        return expected, pad(a, widths, mode, **kwargs)


@settings(max_examples=1500, deadline=None)
@given(case=cases())
def test_value_modes_equal_numpy(case):
    a, widths, mode, kwargs = case
    expected, got = run_both(a, widths, mode, kwargs)
    if expected is not None:
        assert_like_numpy(got, expected, float_mean_tolerance(a, mode))


@settings(max_examples=300, deadline=None)
@given(case=cases(modes=["constant"]), data=st.data())
def test_per_side_constants_equal_numpy(case, data):
    a, widths, _, _ = case
    values = [(data.draw(st.integers(0, 1 if a.dtype.kind == "b" else 100)),
               data.draw(st.integers(0, 1 if a.dtype.kind == "b" else 100))) for _ in a.shape]
    expected, got = run_both(a, widths, "constant", {"constant_values": values or 3})
    assert_like_numpy(got, expected)


def sequential_numpy(a, widths, modes, kwargs_per_axis):
    """numpy.pad applied one axis at a time, axis 0 first: numpy's own order."""
    out = a
    for axis, (width, mode, kwargs) in enumerate(zip(widths, modes, kwargs_per_axis)):
        one = [(0, 0)] * a.ndim
        one[axis] = width
        out = np.pad(out, one, mode, **kwargs)
    return out


@settings(max_examples=500, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES[:14] + ["g", "G"]))
def test_per_axis_modes_equal_sequential_numpy(data, dtype):
    dtype = np.dtype(dtype)
    rank = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    index_only = data.draw(st.booleans())
    modes = [data.draw(st.sampled_from(INDEX_MODES if index_only else INDEX_MODES + VALUE_MODES))
             for _ in shape]
    a = data.draw(arrays(dtype, shape, big=False))
    widths = [(data.draw(st.integers(0, 2 * d + 2)), data.draw(st.integers(0, 2 * d + 2)))
              for d in shape]
    names, per_axis, kwargs = [], [], {}
    stat = data.draw(st.integers(1, 4))
    for mode in modes:
        name, extra = numpy_mode(mode)
        names.append(name)
        if name in STAT_MODES:
            extra["stat_length"] = stat
        if name == "linear_ramp":
            extra["end_values"] = 7
        if name == "constant":
            extra["constant_values"] = 1
        per_axis.append(extra)
        kwargs.update(extra)
    # reflect_type is one keyword for every axis: odd and even cannot be mixed
    assume(not (any(m.endswith("_odd") for m in modes)
                and any(m in ("reflect", "symmetric") for m in modes)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sequential_numpy(a, widths, names, per_axis)
    got = padnd.pad(a, widths, tuple(names), **kwargs)
    tolerance = float_mean_tolerance(a, "mean") if "mean" in names else None
    assert_like_numpy(got, expected, tolerance)


def test_per_axis_modes_examples():
    a = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    got = padnd.pad(a, ((1, 1), (2, 0)), ("constant", "reflect"), constant_values=9)
    assert got.tolist() == [[9, 9, 9, 9, 9], [3, 2, 1, 2, 3], [6, 5, 4, 5, 6], [9, 9, 9, 9, 9]]
    got = padnd.pad(a, ((0, 1), (1, 1)), ["maximum", "edge"])
    assert got.tolist() == [[1, 1, 2, 3, 3], [4, 4, 5, 6, 6], [4, 4, 5, 6, 6]]


def test_per_axis_modes_on_swapped_byte_order():
    a = np.arange(1, 7, dtype=">i4").reshape(2, 3)
    got = padnd.pad(a, ((1, 2), (1, 1)), ("constant", "mean"), constant_values=((7, 8), (0, 0)))
    expected = sequential_numpy(a, ((1, 2), (1, 1)), ("constant", "mean"),
                                ({"constant_values": (7, 8)}, {}))
    assert got.dtype == a.dtype
    assert_like_numpy(got, expected)


@pytest.mark.parametrize("dtype", ["<i4", ">i4", ">f8", "<f4"])
@pytest.mark.parametrize("shape, widths, modes, per_axis", [
    # a value axis after a constant-padded empty axis sees elements: its numbers count
    ((0, 3), ((1, 1), (2, 2)), ("constant", "linear_ramp"),
     ({"constant_values": 3}, {"end_values": 7})),
    ((0, 3), ((1, 2), (2, 1)), ("constant", "mean"), ({"constant_values": 3}, {"stat_length": 2})),
    ((0, 3), ((1, 0), (1, 3)), ("constant", "maximum"), ({"constant_values": 5}, {})),
    ((1, 0, 0), ((0, 0), (0, 1), (0, 1)), ("linear_ramp", "constant", "constant"),
     ({}, {"constant_values": 2}, {"constant_values": 2})),
    ((2, 0), ((1, 1), (0, 2)), ("median", "constant"), ({}, {"constant_values": 4})),
])
def test_per_axis_value_modes_on_empty_inputs(dtype, shape, widths, modes, per_axis):
    a = np.zeros(shape, dtype)
    expected = sequential_numpy(a, widths, modes, per_axis)
    kwargs = {}
    for extra in per_axis:
        kwargs.update(extra)
    got = padnd.pad(a, widths, modes, **kwargs)
    assert got.dtype == a.dtype
    assert_like_numpy(got, expected)


def test_per_axis_mode_errors():
    a = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError, match=r"mode: expected one mode per axis \(2\), got 3"):
        padnd.pad(a, 1, ("edge", "wrap", "edge"))
    with pytest.raises(ValueError, match="mode 'bogus' is not supported"):
        padnd.pad(a, 1, ("edge", "bogus"))
    with pytest.raises(ValueError, match="unsupported keyword arguments for modes"):
        padnd.pad(a, 1, ("edge", "wrap"), constant_values=1)
    padnd.pad(a, 1, ("edge", "constant"), constant_values=1)  # one axis accepts it


# numpy computes maximum/minimum of datetime64 (NaT wins) and odd reflection of timedelta64
# (2 * edge - x in int64: NaT in, NaT out, overflow wraps) and raises TypeError for the rest.
TIME_DTYPES = ["M8[s]", "M8[D]", ">M8[ns]", "M8", "m8[s]", ">m8[us]", "m8"]


@settings(max_examples=1000, deadline=None)
@given(case=cases(dtypes=TIME_DTYPES))
def test_datetime_and_timedelta_value_modes_equal_numpy(case):
    a, widths, mode, kwargs = case
    expected, got = run_both(a, widths, mode, kwargs)
    if expected is not None:
        assert_like_numpy(got, expected)


@pytest.mark.parametrize("dtype", ["S3", "U2", "V4"] + TIME_DTYPES)
@pytest.mark.parametrize("mode", VALUE_MODES)
def test_dtypes_without_arithmetic(dtype, mode):
    """numpy rejects strings and void in every value mode, and datetime64/timedelta64 in all but
    the modes above, with a TypeError (a ufunc error or DTypePromotionError); padnd raises
    TypeError too, and computes numpy's result where numpy computes one."""
    kind = np.dtype(dtype).kind
    a = np.array([3, -(2**63), 5, 1]).astype(dtype) if kind in "Mm" else np.zeros(4, dtype)
    name, kwargs = numpy_mode(mode)
    numpy_computes = (kind == "M" and name in ("maximum", "minimum")) or (
        kind == "m" and mode.endswith("_odd"))
    expected, got = run_both(a, 2, name, kwargs)
    assert (expected is not None) == numpy_computes
    if numpy_computes:
        assert_like_numpy(got, expected)


def test_odd_reflection_without_arithmetic_works_for_every_dtype_like_numpy():
    """numpy's odd reflection copies the edge of a length-1 axis and does nothing without pads,
    so it works for strings and datetime64 there."""
    for a in (np.array(["ab"]), np.array(["2020-01-01"], dtype="M8[D]")):
        for mode in ("reflect", "symmetric"):
            assert_like_numpy(padnd.pad(a, 2, mode, reflect_type="odd"),
                              np.pad(a, 2, mode, reflect_type="odd"))
            b = np.concatenate([a, a])
            assert_like_numpy(padnd.pad(b, 0, mode, reflect_type="odd"),
                              np.pad(b, 0, mode, reflect_type="odd"))


@pytest.mark.parametrize("mode", ["maximum", "minimum"])
def test_stat_length_zero_errors_like_numpy(mode):
    a = np.arange(6.0)
    for stat in (0, (0, 2), ((3, 0),)):
        with pytest.raises(ValueError, match="stat_length of 0 yields no value for padding"):
            np.pad(a, 1, mode, stat_length=stat)
        with pytest.raises(ValueError, match="stat_length of 0 yields no value for padding"):
            padnd.pad(a, 1, mode, stat_length=stat)
    empty = np.zeros((0, 2))  # numpy computes no statistic of an empty array
    assert padnd.pad(empty, ((0, 0), (1, 1)), mode, stat_length=0).shape == (0, 4)


def test_negative_stat_length_errors_like_numpy():
    a = np.arange(6.0)
    for stat in (-1, (2, -1), [[1, -2]]):
        with pytest.raises(ValueError, match="index can't contain negative values"):
            np.pad(a, 1, "mean", stat_length=stat)
        with pytest.raises(ValueError, match="index can't contain negative values"):
            padnd.pad(a, 1, "mean", stat_length=stat)


@pytest.mark.parametrize("stat", [-1, (-1, 2), float("nan"), 2**63, np.zeros((0, 2)), 3])
def test_stat_length_of_a_0d_array_is_checked_like_numpy(stat):
    # numpy checks stat_length with no axis to pad; each entry point takes the same check.
    a = np.array(5.0)

    def prepared(*args, **kwargs):
        return padnd.prepare_windows(*args, **kwargs).window(())

    def window(*args, **kwargs):
        return padnd.pad_window(*args, window=(), **kwargs)

    for entry in (padnd.pad, window, prepared):
        expected, got = run_both(a, 1, "mean", {"stat_length": stat}, pad=entry)
        if expected is not None:
            assert_like_numpy(got, expected)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.longdouble, np.clongdouble, np.int64, np.uint8, np.bool_])
@pytest.mark.parametrize("end_values", [2**70, -2**80, (2**64, 3), ((2**70, -2**70), (1, 2**90)),
                                        2**1030, -2**63 - 1, ((2**70, 1.5), (2, 3)),
                                        pytest.param(2**16400, id="beyond-long-double")])
def test_object_end_values(dtype, end_values):
    # Integers beyond int64 are objects to numpy and numbers to its linspace.
    a = (np.arange(6).reshape(2, 3) * 1.5).astype(dtype)
    expected, got = run_both(a, 2, "linear_ramp", {"end_values": end_values})
    if expected is not None:
        assert_like_numpy(got, expected)


def test_object_end_values_that_are_not_integers():
    from decimal import Decimal
    from fractions import Fraction
    for value in (Fraction(1, 3), Decimal("1.5")):
        with pytest.raises(TypeError, match=r"is a Python object to numpy.*pass float"):
            padnd.pad(np.arange(4.0), 2, "linear_ramp", end_values=value)
    with pytest.raises(TypeError, match=r"'abc'\) is not a number"):
        padnd.pad(np.arange(4.0), 2, "linear_ramp", end_values="abc")


def recorded(function, *args, **kwargs):
    """(function's result, its warnings as (category, message) in order)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("mode", ["mean", "median"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.complex64])
@pytest.mark.parametrize("shape, pad_width, stat_length", [
    ((4,), (2, 0), (2, 0)), ((4,), (0, 3), (0, 9)), ((4,), (0, 0), 0), ((5,), 2, (4, 0)),
    ((4, 3), ((1, 1), (0, 0)), ((1, 1), (0, 0))), ((2, 3, 4), 1, ((0, 1), (2, 0), (0, 0))),
    ((0, 3), ((0, 0), (1, 1)), 0), ((3, 2), 1, 0)])
def test_statistics_of_no_elements(mode, dtype, shape, pad_width, stat_length):
    """numpy's RuntimeWarnings for every mean or median of 0 elements it takes, in order, and
    its values; floats write NaN. An integer side with positions to fill: numpy writes its
    cast of NaN (undefined behaviour in C); padnd refuses instead (docs/conformance.md). An
    integer side without positions writes nothing: its statistic is only warned about."""
    array = np.arange(math.prod(shape), dtype=dtype).reshape(shape)
    expected, expected_warnings = recorded(np.pad, array, pad_width, mode,
                                           stat_length=stat_length)
    pairs = np.broadcast_to(np.array(pad_width), (len(shape), 2))
    stats = np.broadcast_to(np.array(stat_length), (len(shape), 2))
    fills_from_nothing = ((stats == 0) & (pairs > 0)).any() and 0 not in shape
    if np.dtype(dtype).kind == "i" and fills_from_nothing:
        with pytest.raises(ValueError, match="stat_length: axis [0-9]: the .* of 0 elements"):
            recorded(padnd.pad, array, pad_width, mode, stat_length=stat_length)
        return
    result, result_warnings = recorded(padnd.pad, array, pad_width, mode,
                                       stat_length=stat_length)
    assert_like_numpy(result, expected)
    assert result_warnings == expected_warnings


def test_complex_ramp_of_integers_is_a_type_error_like_numpy():
    with pytest.raises(TypeError):
        np.pad(np.arange(4), 2, "linear_ramp", end_values=1j)
    with pytest.raises(TypeError, match="complex ramp"):
        padnd.pad(np.arange(4), 2, "linear_ramp", end_values=1j)


@pytest.mark.parametrize("keywords", [
    {"end_values": None}, {"end_values": "a"}, {"end_values": [1, 2, 3]}, {"stat_length": "a"},
    {"stat_length": (None, 2)}, {"stat_length": [[1, 2, 3]]}, {"stat_length": []},
    {"stat_length": np.nan}, {"stat_length": 2**70}])
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_keyword_errors_like_numpy(keywords):
    """numpy's exception type for each broken keyword (the broadcasting messages are numpy's own,
    since padnd broadcasts with numpy)."""
    mode = "linear_ramp" if "end_values" in keywords else "mean"
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    with pytest.raises(Exception) as expected:
        np.pad(a, 2, mode, **keywords)
    base = TypeError if isinstance(expected.value, TypeError) else ValueError
    with pytest.raises(base):
        padnd.pad(a, 2, mode, **keywords)


def test_linear_ramp_in_long_double_like_numpy():
    """A long double end value makes np.linspace compute in long double, also for int64 data,
    whose ramp is floored and cast from long double (exact beyond 2**53)."""
    a = np.array([0, 2**62], dtype=np.int64)
    for ends in (np.longdouble(2**60) + 3, np.longdouble(-7) / 3):
        assert_like_numpy(padnd.pad(a, (3, 4), "linear_ramp", end_values=ends),
                          np.pad(a, (3, 4), "linear_ramp", end_values=ends))
    g = np.arange(5, dtype=np.longdouble) / 3
    for ends in (0.1, np.longdouble(1) / 7, 1j):  # 1j: a clongdouble ramp, stored as reals
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_like_numpy(padnd.pad(g, (6, 2), "linear_ramp", end_values=ends),
                              np.pad(g, (6, 2), "linear_ramp", end_values=ends))


def test_linear_ramp_arithmetic_type_follows_numpy():
    """np.linspace promotes the start with the data: a numpy scalar (the (before, after) form)
    is strong, Python scalars (the per-axis form) are weak."""
    a = np.array([[0.1, 0.7], [0.3, 0.9]], dtype=np.float32)
    for ends in (np.float64(0.1), 0.1, ((0.1, 0.2), (0.3, 0.4)), (0.1, 0.2)):
        assert_like_numpy(padnd.pad(a, 7, "linear_ramp", end_values=ends),
                          np.pad(a, 7, "linear_ramp", end_values=ends))


def test_odd_reflection_is_chunked_not_periodic():
    a = np.array([1, 2, 4], dtype=np.int64)
    for mode in ("reflect", "symmetric"):
        expected = np.pad(a, (9, 8), mode, reflect_type="odd")
        assert padnd.pad(a, (9, 8), mode, reflect_type="odd").tolist() == expected.tolist()
    # numpy treats any reflect_type other than "odd" as "even"
    assert padnd.pad(a, 2, "reflect", reflect_type="x").tolist() == [4, 2, 1, 2, 4, 2, 1]


def test_value_modes_write_into_out():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::-1]
    out = np.empty((6, 7), dtype=np.int16)
    assert padnd.pad(a, ((1, 2), (2, 1)), "median", out=out) is out
    assert_like_numpy(out, np.pad(a, ((1, 2), (2, 1)), "median"))
    with pytest.raises(ValueError, match="cannot crop"):
        padnd.pad(a, ((-1, 2), (2, 1)), "mean", negative="map_on_original")
