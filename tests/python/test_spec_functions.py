# SPDX-License-Identifier: Apache-2.0
# padnd.onnx / padnd.openvino / padnd.ngraph against the computed examples of docs/spec.md §9.
import re

import numpy as np
import pytest

import padnd
from pad_models import np_dtype

X32 = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], dtype=np.float32)
I23 = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64)
M34 = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
OV_PADS = ([0, 1], [2, 3])


def check(got, expected, dtype=None):
    expected = np.asarray(expected, dtype=dtype if dtype is not None else got.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# ---- ONNX ------------------------------------------------------------------------------------

def test_ex2_onnx11_reflect_multi():
    got = padnd.onnx.pad(X32, [0, 2, 0, 0], mode="reflect", opset=11)
    check(got, [[1.0, 1.2, 1.0, 1.2], [2.3, 3.4, 2.3, 3.4], [4.5, 5.7, 4.5, 5.7]], np.float32)


def test_ex4_onnx19_wrap():
    got = padnd.onnx.pad(X32, [2, 1, 1, 1], mode="wrap", opset=19)
    row = [[3.4, 2.3, 3.4, 2.3], [5.7, 4.5, 5.7, 4.5], [1.2, 1.0, 1.2, 1.0]]
    check(got, row + row, np.float32)


def test_wrap_rejected_at_opset18():
    with pytest.raises(ValueError, match="wrap"):
        padnd.onnx.pad(X32, [2, 1, 1, 1], mode="wrap", opset=18)
    assert padnd.onnx.infer_shape((3, 2), [2, 1, 1, 1], mode="wrap", opset=19) == (6, 4)


def test_ex5_onnx18_axes_subset():
    got = padnd.onnx.pad(I23, [1, 2], np.int64(7), axes=[1], opset=18)
    check(got, [[7, 1, 2, 3, 7, 7], [7, 4, 5, 6, 7, 7]])


def test_ex6_onnx18_axes_unsorted():
    got = padnd.onnx.pad(I23, [1, 0, 0, 2], np.int64(0), axes=np.array([1, 0], np.int32),
                         opset=18)
    check(got, [[0, 1, 2, 3], [0, 4, 5, 6], [0, 0, 0, 0], [0, 0, 0, 0]])


def test_ex8_onnx18_repeated_axis():
    with pytest.raises(ValueError):
        padnd.onnx.pad(I23, [1, 1, 1, 1], axes=[1, -1], opset=18)


def test_ex12_skipped_constant_value():
    check(padnd.onnx.pad(I23, [1, 0], axes=[0], opset=18), [[0, 0, 0], [1, 2, 3], [4, 5, 6]])


def test_ex13_onnx13_value_ignored_for_edge():
    got = padnd.onnx.pad(np.array([1, 2, 3]), [1, 1], np.int64(9), mode="edge", opset=13)
    check(got, [1, 1, 2, 3, 3])


def test_ex29_ex30_crop_then_pad():
    six = np.arange(1, 7)
    check(padnd.onnx.pad(six, [-4, 3], mode="reflect"), [5, 6, 5, 6, 5])
    check(padnd.onnx.pad(np.array([1, 2, 3, 4]), [-1, 1], mode="wrap"), [2, 3, 4, 2])


def test_ex31_edge_over_crop():
    with pytest.raises(ValueError):
        padnd.onnx.pad(np.arange(1, 7), [2, -7], mode="edge")


def test_ex35_ex36_attribute_versions():
    got = padnd.onnx.pad(X32, [0, 2, 0, 0], opset=1)
    check(got, [[0, 0, 1.0, 1.2], [0, 0, 2.3, 3.4], [0, 0, 4.5, 5.7]], np.float32)
    got = padnd.onnx.pad(np.array([1, 2], np.float16), [1, 0], 0.1, opset=2)
    check(got, [0.0999755859375, 1.0, 2.0], np.float16)


def test_int32_pads_rejected_for_onnx_accepted_for_openvino():
    pads32 = np.array([0, 1, 2, 3], np.int32)
    with pytest.raises(TypeError, match="int32"):
        padnd.onnx.pad(M34, pads32)
    with pytest.raises(TypeError, match="int32"):
        padnd.onnx.infer_shape((3, 4), pads32, dtype=np.int32)
    got = padnd.openvino.pad(M34, pads32[:2], pads32[2:], "constant")
    assert got.shape == (5, 8)


def test_onnx_constant_value_dtype_mismatch_rejected():
    with pytest.raises((TypeError, ValueError)):
        padnd.onnx.pad(I23, [1, 1, 1, 1], np.float32(1.0))


# ---- OpenVINO --------------------------------------------------------------------------------

OV_EXPECTED = {
    "constant": [[0, 1, 2, 3, 4, 0, 0, 0], [0, 5, 6, 7, 8, 0, 0, 0], [0, 9, 10, 11, 12, 0, 0, 0],
                 [0] * 8, [0] * 8],
    "edge": [[1, 1, 2, 3, 4, 4, 4, 4], [5, 5, 6, 7, 8, 8, 8, 8], [9, 9, 10, 11, 12, 12, 12, 12],
             [9, 9, 10, 11, 12, 12, 12, 12], [9, 9, 10, 11, 12, 12, 12, 12]],
    "reflect": [[2, 1, 2, 3, 4, 3, 2, 1], [6, 5, 6, 7, 8, 7, 6, 5],
                [10, 9, 10, 11, 12, 11, 10, 9], [6, 5, 6, 7, 8, 7, 6, 5],
                [2, 1, 2, 3, 4, 3, 2, 1]],
    "symmetric": [[1, 1, 2, 3, 4, 4, 3, 2], [5, 5, 6, 7, 8, 8, 7, 6],
                  [9, 9, 10, 11, 12, 12, 11, 10], [9, 9, 10, 11, 12, 12, 11, 10],
                  [5, 5, 6, 7, 8, 8, 7, 6]],
}


@pytest.mark.parametrize("mode", sorted(OV_EXPECTED))
@pytest.mark.parametrize("version", [1, 12])
def test_ex46_to_49_openvino_spec_examples(mode, version):
    check(padnd.openvino.pad(M34, *OV_PADS, mode, version=version), OV_EXPECTED[mode])
    assert padnd.openvino.infer_shape((3, 4), *OV_PADS, mode, version=version) == (5, 8)


def test_ex53_ex55_openvino12_negative_reflect():
    got = padnd.openvino.pad(M34, [2, -1], [-1, 3], "reflect")
    check(got, [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1],
                [6, 7, 8, 7, 6, 5]])
    check(padnd.openvino.pad(M34, [-4, 3], [2, -5], "reflect"), [[4, 3]])


def test_ex56_openvino_reflect_limit():
    with pytest.raises(ValueError):
        padnd.openvino.pad(np.array([[1, 2], [4, 5]]), [0, 2], [0, 0], "reflect")


def test_ex60_ex61_openvino_negative_pads():
    three = np.array([1, 2, 3])
    with pytest.raises(ValueError):
        padnd.openvino.pad(three, [-1], [0], "constant", version=1)
    check(padnd.openvino.pad(three, [-1], [0], "constant"), [2, 3])
    assert padnd.openvino.pad(three, [-2], [-2], "constant").shape == (0,)
    assert padnd.openvino.infer_shape(3, [-2], [-2], "constant") == (0,)


def test_openvino_pad_value():
    got = padnd.openvino.pad(np.array([1.5], np.float32), [1], [1], "constant", np.float32(-2))
    check(got, [-2, 1.5, -2], np.float32)


# ---- nGraph ----------------------------------------------------------------------------------

def test_ex65_ngraph_v0_interior():
    got = padnd.ngraph.pad(np.arange(1, 10).reshape(3, 3), 42, (1, 2), (1, 0), (1, 2))
    f = [42] * 9
    check(got, [f, [42, 42, 1, 42, 42, 2, 42, 42, 3], f, [42, 42, 4, 42, 42, 5, 42, 42, 6], f,
                [42, 42, 7, 42, 42, 8, 42, 42, 9], f])


def test_ex67_ngraph_v0_interior_negative_exterior():
    got = padnd.ngraph.pad(I23, 9, (1, -2), (2, -1), (2, 1))
    check(got, [[9, 9], [2, 9], [9, 9], [9, 9], [5, 9], [9, 9], [9, 9]])
    assert padnd.ngraph.infer_shape((2, 3), 9, (1, -2), (2, -1), (2, 1), dtype=np.int64) == (7, 2)


def test_ex71_ngraph_multi_reflection_v0_and_v1():
    expected = [3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2]
    three = np.array([1, 2, 3])
    check(padnd.ngraph.pad(three, 0, [10], [9], mode="REFLECT"), expected)
    check(padnd.ngraph.pad(three, None, np.array([10], np.int32), [9], mode="reflect",
                           version="v1"), expected)


def test_ngraph_interior_needs_constant():
    with pytest.raises(ValueError):
        padnd.ngraph.pad(np.array([1, 2, 3]), 0, [0], [0], [1], mode="EDGE")


# ---- against numpy.pad -----------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_onnx_matches_numpy_for_nonnegative_pads(mode):
    rng = np.random.default_rng(7)
    for _ in range(20):
        shape = tuple(int(d) for d in rng.integers(1, 5, size=rng.integers(1, 4)))
        data = rng.standard_normal(shape).astype(np.float64)
        begins = [int(v) for v in rng.integers(0, 7, size=len(shape))]
        ends = [int(v) for v in rng.integers(0, 7, size=len(shape))]
        got = padnd.onnx.pad(data, begins + ends, mode=mode)
        expected = np.pad(data, list(zip(begins, ends)), mode=mode)
        np.testing.assert_array_equal(got, expected)
        assert padnd.onnx.infer_shape(shape, begins + ends, mode=mode,
                                      dtype=np.float64) == expected.shape


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_openvino_matches_numpy_within_limits(mode):
    data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    begins, ends = [1, 2, 0], [0, 1, 3]
    got = padnd.openvino.pad(data, begins, ends, mode)
    np.testing.assert_array_equal(got, np.pad(data, list(zip(begins, ends)), mode=mode))


SPEC_CALLS = {
    "onnx-25": lambda a, v: padnd.onnx.pad(a, [1, 0, 2, 1], v, mode="constant"),
    "onnx-25-reflect": lambda a, v: padnd.onnx.pad(a, [1, -1, 1, 2], mode="reflect"),
    "onnx-2": lambda a, v: padnd.onnx.pad(a, [1, 0, 2, 1], None if v is None else 7.5, opset=2),
    "openvino-12": lambda a, v: padnd.openvino.pad(a, [1, -1], [2, 1], "constant", v),
    "openvino-1": lambda a, v: padnd.openvino.pad(a, [0, 1], [2, 0], "symmetric", version=1),
    "ngraph-v0": lambda a, v: padnd.ngraph.pad(a, 0 if v is None else v, [1, 0], [0, 2], [1, 1]),
}


@pytest.mark.parametrize("call", SPEC_CALLS)
@pytest.mark.parametrize("dtype", [">f4", ">i2", ">c16", ">u8", ">f2"])
@pytest.mark.parametrize("value", [None, "python", "native", "swapped"])
def test_swapped_byte_order_is_the_same_type(call, dtype, value):
    """Data in the other byte order is its spec type: the result equals the native one's, in
    the data's dtype; pad values (numbers, or numpy values in either order) land as values."""
    swapped = np.dtype(dtype)
    native = swapped.newbyteorder("=")
    data = np.arange(12).reshape(3, 4).astype(swapped)
    values = {None: None, "python": 3, "native": native.type(3),
              "swapped": np.array(3, native).astype(swapped)}
    try:
        expected = SPEC_CALLS[call](data.astype(native), None if value is None else native.type(3))
    except TypeError as error:  # a type this version refuses: refused the same way
        with pytest.raises(TypeError, match=re.escape(str(error))):
            SPEC_CALLS[call](data, values[value])
        return
    got = SPEC_CALLS[call](data, values[value])
    assert got.dtype == swapped
    np.testing.assert_array_equal(got, expected)


def test_a_value_that_does_not_fit_names_the_argument():
    data = np.zeros(3, np.uint8)
    for call, name in [(lambda: padnd.onnx.pad(data, [1, 1], 300), "constant_value"),
                       (lambda: padnd.openvino.pad(data, [1], [1], "constant", -1), "pad_value"),
                       (lambda: padnd.ngraph.pad(data, 256, [1], [1]), "pad_value")]:
        with pytest.raises(ValueError, match=f"{name}: .* does not fit in the data's dtype uint8"):
            call()


@pytest.mark.parametrize("dtype, value", [
    ("uint4", 16), ("uint4", -1), ("int4", 8), ("int32", 1.5), ("uint8", float("nan")),
    ("bool", 2), ("float32", 1e300), ("float16", 2**70), ("float8_e4m3fn", 1000),
    ("float8_e4m3fn", float("inf")), ("int64", 2**63)])
def test_a_python_number_is_never_wrapped_truncated_or_overflowed(dtype, value):
    data = np.zeros(2, np_dtype(dtype))
    with pytest.raises(ValueError, match=rf"constant_value: {re.escape(repr(value))} does not "
                                         rf"fit in the data's dtype {dtype}"):
        padnd.onnx.pad(data, [1, 1], value)
    with pytest.raises(ValueError, match=r"pad_value: .* does not fit"):
        padnd.openvino.pad(data, [1], [1], "constant", value)


@pytest.mark.parametrize("dtype, value, stored", [
    ("float32", 1.1, np.float32(1.1)), ("float8_e4m3fn", 300, 288.0), ("int4", -8, -8),
    ("float32", float("-inf"), -np.inf), ("bfloat16", 2**70, 2.0**70), ("bool", 1, True),
    ("uint64", 2**64 - 1, 2**64 - 1), ("complex64", 1 + 2j, 1 + 2j)])
def test_a_python_number_a_float_type_rounds_is_taken(dtype, value, stored):
    got = padnd.onnx.pad(np.zeros(1, np_dtype(dtype)), [1, 0], value)
    assert got[0] == np.asarray(stored).astype(np_dtype(dtype))


def test_values_of_the_wrong_kind_are_named():
    data = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match=r"constant_value: \(1\+2j\) is not a value of the "
                                        r"data's dtype float32"):
        padnd.onnx.pad(data, [1, 1], 1 + 2j)
    with pytest.raises(TypeError, match=r"constant_value: Pad-1/2's FLOAT attribute 'value' is "
                                        r"one number, got array"):
        padnd.onnx.pad(data, [1, 1], np.array([1.0, 2.0]), opset=2)
    for call in (lambda: padnd.onnx.pad(data, [1, 1], mode=5),
                 lambda: padnd.openvino.pad(data, [1], [1], 5),
                 lambda: padnd.ngraph.pad(data, 0.0, [1], [1], mode=b"edge")):
        with pytest.raises(TypeError, match=r"mode: expected a str, got"):
            call()


@pytest.mark.parametrize("version", [True, 1.9, 12.7, "12"])
def test_openvino_version_must_be_an_int(version):
    with pytest.raises(TypeError, match=rf"version: expected an int \(1 or 12\), got"):
        padnd.openvino.pad(np.zeros(2), [1], [1], "edge", version=version)


def test_pad_value_outside_constant_mode_is_not_looked_at():
    data = np.array([1, 2], np.uint8)
    expected = np.array([1, 1, 2, 2], np.uint8)
    check(padnd.openvino.pad(data, [1], [1], "EDGE", 300), expected)
    check(padnd.openvino.pad(data, [1], [1], "edge", "abc", version=1), expected)
    check(padnd.ngraph.pad(data, -1, [1], [1], mode="edge", version="v1"), expected)
    with pytest.raises(ValueError, match=r"pad_mode: 'edge' is not allowed for string data"):
        padnd.openvino.pad(strings("a"), [1], [1], "edge", 5)
    with pytest.raises(ValueError, match=r"pad_value: 300 does not fit"):  # v0 reads it always
        padnd.ngraph.pad(data, 300, [1], [1], mode="edge")


@pytest.mark.parametrize("call", [
    lambda: padnd.openvino.pad(np.zeros(2), np.array([2**63], np.uint64), [0], "edge"),
    lambda: padnd.openvino.infer_shape((2,), [2**64 - 1], [0], "edge"),
    lambda: padnd.onnx.pad(np.zeros(2), [2**63, 0]),
    lambda: padnd.ngraph.pad(np.zeros(2), 0.0, [0], [0], [2**63]),
    lambda: padnd.ngraph.pad(np.zeros(2), 0.0, [2**63, -1][:1], [0])])
def test_pads_beyond_int64_are_named(call):
    with pytest.raises(ValueError, match=r"(pads_begin|pads|padding_interior|padding_below): "
                                         r"\d+ \(value 0\) is beyond int64"):
        call()


@pytest.mark.parametrize("dtype", ["<U2", "|S3", "|V4", "<M8[s]", "<m8[D]"])
def test_onnx_names_dtypes_without_an_onnx_type(dtype):
    data = np.zeros(2, dtype)
    with pytest.raises(TypeError, match=re.escape(f"data: dtype {np.dtype(dtype).str!r} has no "
                                                  "ONNX element type (ONNX strings are object "
                                                  "arrays of str); padnd.pad")):
        padnd.onnx.pad(data, [1, 1])
    assert padnd.openvino.pad(data, [1], [1], "edge").shape == (4,)  # moved byte for byte


def test_pad1_float_attribute_out_of_float32_range_is_an_error():
    # The CLI's --value rejects it too; inf and values that round to float32's maximum pass.
    data = np.zeros(2, np.float32)
    with pytest.raises(ValueError, match=r"constant_value: 1e\+39 is out of range .* float32"):
        padnd.onnx.pad(data, [1, 1], constant_value=1e39, opset=1)
    assert padnd.onnx.pad(data, [1, 1], constant_value=np.inf, opset=2)[0] == np.inf
    edge = float(np.finfo(np.float32).max)
    assert padnd.onnx.pad(data, [1, 1], constant_value=edge, opset=1)[0] == np.float32(edge)


def test_messages_stay_short_and_printable():
    data = np.zeros(2, np.float32)
    with pytest.raises(ValueError) as info:
        padnd.onnx.pad(data, list(range(30000)), opset=18)
    assert "got 30000: [0, 1, 2" in str(info.value) and "... (30000 values)]" in str(info.value)
    assert len(str(info.value)) < 300
    with pytest.raises(ValueError, match=r"mode: 'ed\\x00ge' is not supported by ONNX Pad-18"):
        padnd.onnx.pad(data, [1, 1], mode="ed\0ge", opset=18)
    with pytest.raises(ValueError, match=r"pad_mode: 'x\\x1b\[2J' is not supported"):
        padnd.openvino.pad(data, [1], [1], pad_mode="x\x1b[2J", version=12)


def test_zero_size_elements_are_a_clear_type_error():
    data = np.zeros((2, 3), "V0")
    calls = (lambda: padnd.onnx.pad(data, [1, 1, 1, 1]),
             lambda: padnd.openvino.pad(data, [1, 1], [1, 1], "constant"),
             lambda: padnd.ngraph.pad(data, None, [1, 1], [1, 1], version="v1"))
    for call in calls:
        with pytest.raises(TypeError, match=r"dtype\('V'\) has elements of zero bytes"):
            call()


# ---- strings (object arrays of str, as ONNX's numpy helpers and runtimes hold them) -----------


def strings(*values, shape=None):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape if shape is not None else len(values))


def test_ex14_ex16_onnx13_strings():
    check(padnd.onnx.pad(strings("a", "bc"), [1, 1], opset=13), strings("", "a", "bc", ""))
    check(padnd.onnx.pad(strings("a", "b", "c"), [2, 1], mode="reflect", opset=13),
          strings("c", "b", "a", "b", "c", "b"))
    got = padnd.onnx.pad(strings("a", "bc"), [1, 1], strings("ü"), opset=18)
    assert got.dtype == object and [type(v) for v in got] == [str] * 4
    check(got, strings("ü", "a", "bc", "ü"))


def test_ex62_openvino12_strings_constant_only():
    check(padnd.openvino.pad(strings("a", "b"), [1], [0], "constant", "x" * 40),
          strings("x" * 40, "a", "b"))
    check(padnd.openvino.pad(strings("a", "b"), [1], [-1], "constant"), strings("", "a"))
    with pytest.raises(ValueError, match=r"pad_mode: 'edge' is not allowed for string data by "
                                         r"OpenVINO Pad-12"):
        padnd.openvino.pad(strings("a", "b"), [1], [0], "edge")
    with pytest.raises(TypeError, match=r"element type string is not allowed by OpenVINO Pad-1"):
        padnd.openvino.pad(strings("a", "b"), [1], [0], "constant", version=1)


@pytest.mark.parametrize("opset", [1, 2, 11])
def test_onnx_strings_before_pad13_are_rejected(opset):
    with pytest.raises(TypeError, match=rf"element type string is not allowed by ONNX Pad-"
                                        rf"\d+ \(opset {opset}\); it is allowed from Pad-13"):
        padnd.onnx.pad(strings("a"), [1, 1], "z", opset=opset)


def test_ngraph_strings_with_interior_padding_and_windows():
    data = strings("a", "bc", "", "déf", shape=(2, 2))
    got = padnd.ngraph.pad(data, "-", [1, 0], [0, 1], [1, 1])
    check(got, strings("-", "-", "-", "-",
                       "a", "-", "bc", "-",
                       "-", "-", "-", "-",
                       "", "-", "déf", "-", shape=(4, 4)))
    window = (slice(1, 3), slice(-3, None))
    check(padnd.ngraph.pad(data, "-", [1, 0], [0, 1], [1, 1], window=window), got[window])
    edge = padnd.ngraph.pad(data, None, [2, 1], [1, 2], mode="symmetric", version="v1")
    check(padnd.onnx.pad(data, [2, 1, 1, 2], mode="edge", opset=13, window=(slice(0, 2),)),
          np.pad(data, ((2, 1), (1, 2)), "edge")[:2])
    check(edge, np.pad(data, ((2, 1), (1, 2)), "symmetric"))


def test_strings_that_are_not_text_are_named():
    with pytest.raises(TypeError, match=r"data: an object array is a string tensor, whose "
                                        r"elements are str; element \(1,\) is int 3"):
        padnd.onnx.pad(strings("a", 3), [1, 1])
    with pytest.raises(TypeError, match=r"constant_value: .* element \(\) is bytes b'z'"):
        padnd.onnx.pad(strings("a"), [1, 1], b"z")
    with pytest.raises(ValueError, match=r"data: element \(0,\) is not valid text \('utf-8' "
                                         r"codec can't encode"):
        padnd.onnx.pad(strings("\udcff"), [1, 1])


def test_a_string_output_that_cannot_be_allocated_names_its_bytes():
    with pytest.raises(MemoryError, match=rf"cannot allocate \d+ bytes for {2**40 + 1} strings "
                                          r"of the output"):
        padnd.onnx.pad(strings("a"), [0, 2**40])
