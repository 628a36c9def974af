# SPDX-License-Identifier: Apache-2.0
# padnd.pad against numpy.pad: modes, dtypes, layouts, pad-width and constant broadcasting.
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import padnd

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", ">f8", "g",
          "c8", "c16", "S3", "U2", "V5", "M8[s]", "m8[ns]"]


def sample(shape, dtype):
    raw = np.arange(int(np.prod(shape)) * np.dtype(dtype).itemsize, dtype=np.uint8) * 37 + 1
    return raw.view(np.dtype(dtype).newbyteorder("=") if dtype[0] == ">" else dtype).reshape(shape)


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()  # bit-exact (NaN payloads, padding bytes of 'V')


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", MODES)
def test_every_dtype_and_mode(dtype, mode):
    a = sample((3, 4), dtype)
    same(padnd.pad(a, ((2, 5), (4, 1)), mode), np.pad(a, ((2, 5), (4, 1)), mode))


LAYOUTS = {
    "transposed": lambda a: a.T,
    "negative": lambda a: a[::-1, ::-2],
    "fortran": np.asfortranarray,
    "sliced": lambda a: a[1:, 1:3],
    "broadcast": lambda a: np.broadcast_to(a[:1], a.shape),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
def test_layouts(layout, mode):
    a = LAYOUTS[layout](np.arange(30, dtype=np.int32).reshape(5, 6))
    same(padnd.pad(a, ((3, 7), (6, 2)), mode), np.pad(a, ((3, 7), (6, 2)), mode))


@pytest.mark.parametrize("mode", MODES + ["empty"])
def test_zero_d_and_zero_size(mode):
    zero_d = np.array(7.5)
    same(padnd.pad(zero_d, 3, mode), np.pad(zero_d, 3, mode))
    empty = np.zeros((0, 3), dtype=np.int16)
    same(padnd.pad(empty, ((0, 0), (1, 2)), mode), np.pad(empty, ((0, 0), (1, 2)), mode))


@pytest.mark.parametrize("mode", MODES + ["empty", "mean", "linear_ramp"])
def test_zero_size_void_elements(mode):
    # 'V0' holds no bytes: padnd plans the request on a 1-byte stand-in and moves nothing, even
    # for a shape of 10**12 elements; errors are those of other void dtypes, as numpy's.
    for shape, widths in (((2, 3), ((1, 2), (0, 3))), ((), 2), ((0, 4), ((0, 0), (2, 1)))):
        a = np.zeros(shape, "V0")
        try:
            expected = np.pad(a, widths, mode)
        except TypeError:
            with pytest.raises(TypeError, match=r"got dtype\('V'\)"):  # numpy's repr of V0
                padnd.pad(a, widths, mode)
            continue
        same(padnd.pad(a, widths, mode), expected)
        window = (slice(1, 3),) * a.ndim
        same(padnd.pad_window(a, widths, mode, window=window), expected[window])
    huge = np.lib.stride_tricks.as_strided(np.zeros(1, "V0"), (10**6, 10**6), (0, 0))
    if mode in MODES:
        assert padnd.pad(huge, 3, mode).shape == (10**6 + 6, 10**6 + 6)


@pytest.mark.parametrize("dtype", ["U1", "S3", "V6", [("a", "<i4"), ("b", "<f8")]])
def test_value_mode_errors_name_numpy_s_dtype(dtype):
    # The engine holds these as opaque bytes; the error names the array's dtype.
    a = np.zeros((2, 2), dtype)
    with pytest.raises(TypeError, match=r"got dtype\(") as error:
        padnd.pad(a, 1, "mean")
    assert repr(a.dtype) in str(error.value) and "opaque" not in str(error.value)


def test_empty_mode_interior():
    a = np.arange(6.0).reshape(2, 3)
    assert (padnd.pad(a, ((1, 2), (3, 0)), "empty")[1:3, 3:] == a).all()


@pytest.mark.parametrize("pad_width", [2, (2,), (1, 3), ((1, 3),), [[1], [2]], ((1, 2), (3, 4)),
                                       np.array([[0, 1], [2, 0]]), {1: 2}, {0: (1, 0)}])
def test_pad_width_broadcasting(pad_width):
    a = np.arange(6).reshape(2, 3)
    same(padnd.pad(a, pad_width), np.pad(a, pad_width))


@pytest.mark.parametrize("pad_width", [-1, (1, -1), ((1, 2), (-3, 4)), 1.5, [1.0], "a", [],
                                       ((1, 2, 3),), ((1, 2), (3, 4), (5, 6)), np.uint8(2)])
def test_pad_width_errors_equal_numpy(pad_width):
    a = np.arange(6).reshape(2, 3)
    with pytest.raises(Exception) as expected:
        np.pad(a, pad_width)
    with pytest.raises(type(expected.value)) as got:
        padnd.pad(a, pad_width)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("values", [5, (1, 2), ((1, 2),), [[1], [2], [3]],
                                    ((1, 2), (3, 4), (5, 6)), 2.7, -1, None])
def test_constant_values_broadcasting(values):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::-1]
    same(padnd.pad(a, ((1, 2), (3, 1), (2, 2)), constant_values=values),
         np.pad(a, ((1, 2), (3, 1), (2, 2)), constant_values=values))


def test_constant_value_casts_like_numpy():
    a = np.arange(4, dtype=np.int8)
    same(padnd.pad(a, 2, constant_values=2.9), np.pad(a, 2, constant_values=2.9))
    with pytest.raises(OverflowError):
        np.pad(a, 2, constant_values=300)
    with pytest.raises(OverflowError):
        padnd.pad(a, 2, constant_values=300)


def test_mode_and_keyword_errors_equal_numpy():
    a = np.arange(4)
    for mode, kwargs in [("bogus", {}), ("edge", {"constant_values": 1}), ("wrap", {"x": 1})]:
        with pytest.raises(ValueError) as expected:
            np.pad(a, 1, mode, **kwargs)
        with pytest.raises(ValueError, match=str(expected.value).replace("'", ".")[:20]):
            padnd.pad(a, 1, mode, **kwargs)
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        padnd.pad(np.zeros(0), 1, "edge")


def test_object_arrays_and_callable_mode_go_to_numpy():
    a = np.array([1, "x", None], dtype=object)
    assert padnd.pad(a, 1, constant_values=0).tolist() == np.pad(a, 1, constant_values=0).tolist()

    def twos(vector, width, axis, kwargs):
        vector[:width[0]] = 2

    same(padnd.pad(np.arange(3), 2, twos), np.pad(np.arange(3), 2, twos))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), mode=st.sampled_from(MODES),
       dtype=st.sampled_from(["i1", "u2", "f4", "c16", "S2", "M8[D]"]))
def test_random(data, mode, dtype):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0 if mode == "constant"
                                       else 1, max_side=5))
    a = sample(shape, dtype)
    # a random strided view: reversed and/or stepped axes, then a random axis order
    index = tuple(slice(None, None, data.draw(st.sampled_from([1, 2, -1, -2]))) for _ in shape)
    a = a[index].transpose(data.draw(st.permutations(range(a.ndim))))
    pad_width = [tuple(data.draw(st.integers(0, 12)) for _ in range(2)) for _ in a.shape] or 3
    kwargs = {}
    if mode == "constant" and dtype in ("i1", "f4"):
        kwargs["constant_values"] = data.draw(
            st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9)),
                     min_size=a.ndim, max_size=a.ndim)) or 0
    same(padnd.pad(a, pad_width, mode, **kwargs), np.pad(a, pad_width, mode, **kwargs))


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2", "int4", "uint4",
                                  "float4_e2m1fn", "int2", "uint2"])
@pytest.mark.parametrize("mode", MODES)
def test_ml_dtypes(name, mode):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    if not hasattr(ml_dtypes, name):
        pytest.skip(f"ml_dtypes {ml_dtypes.__version__} has no {name}")
    a = np.arange(12).reshape(3, 4).astype(getattr(ml_dtypes, name))[::-1]
    same(padnd.pad(a, ((1, 3), (4, 2)), mode, **({"constant_values": 1}
                                                 if mode == "constant" else {})),
         np.pad(a, ((1, 3), (4, 2)), mode, **({"constant_values": 1}
                                              if mode == "constant" else {})))


ALL_MODES = MODES + ["empty", "linear_ramp", "maximum", "mean", "median", "minimum"]


@settings(max_examples=300, deadline=None)
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
       data=st.data(), mode=st.sampled_from(ALL_MODES))
def test_infer_shape_is_the_shape_pad_returns(shape, data, mode):
    """padnd.infer_shape(shape, ...) without data: numpy.pad's result shape, and the exception
    type numpy.pad raises for an array of that shape, exactly where it raises one."""
    widths = data.draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)),
                                min_size=len(shape), max_size=len(shape)))
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    try:
        expected = np.pad(a, widths, mode).shape
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e)):
            padnd.infer_shape(shape, widths, mode)
        with pytest.raises(type(e)):
            padnd.pad(a, widths, mode)
        return
    assert padnd.infer_shape(shape, widths, mode) == expected
    assert padnd.pad(a, widths, mode).shape == expected


def test_infer_shape_refuses_what_pad_refuses():
    # An output of more elements than int64 counts: planning refused it, inference did not.
    widths = ((0, 0), (2**62, 0))
    with pytest.raises(ValueError, match="output shape"):
        padnd.pad(np.zeros((2, 3), np.uint8), widths)
    with pytest.raises(ValueError, match="output shape"):
        padnd.infer_shape((2, 3), widths)


def test_infer_shape_extensions_and_errors():
    assert padnd.infer_shape((4, 5), ((-1, 2), (0, 3)), "edge",
                             negative="crop_then_pad") == (5, 8)
    assert padnd.infer_shape((3,), 1, interior=2) == (9,)
    assert padnd.infer_shape((2, 3), 1, ("constant", "reflect")) == (4, 5)
    assert padnd.infer_shape((2, 3), 2, "mean", stat_length=1) == (6, 7)
    with pytest.raises(ValueError, match="index can't contain negative values"):
        padnd.infer_shape((3,), -1)
    with pytest.raises(ValueError, match="unsupported keyword arguments"):
        padnd.infer_shape((3,), 1, "edge", constant_values=1)
    with pytest.raises(ValueError, match="can't extend empty axis"):
        padnd.infer_shape((0, 2), 1, "reflect")
