# SPDX-License-Identifier: Apache-2.0
# ONNX-only element types in the spec functions: ml_dtypes arrays and raw packed uint8 buffers.
import ml_dtypes
import numpy as np
import pytest

import padnd


def raw(values):
    return np.array(values, dtype=np.uint8)


@pytest.mark.parametrize(("data", "pads", "value", "mode", "shape", "dtype", "opset", "expected"), [
    # docs/spec.md §9 examples 37..44 (bytes low nibble / low crumb first)
    ([0xE1, 0x03], [1, 0], 0, "constant", (3,), "int4", 21, [0x10, 0x3E]),
    ([0xE1, 0x03], [0, 1], None, "reflect", (3,), "int4", 21, [0xE1, 0xE3]),
    ([0x21, 0x43, 0x65], [0, 0, 0, 1], 15, "constant", (2, 3), "uint4", 21,
     [0x21, 0xF3, 0x54, 0xF6]),
    ([0x21, 0x43, 0x65], [1, 0, 0, 0], 15, "constant", (2, 3), "uint4", 21,
     [0xFF, 0x1F, 0x32, 0x54, 0x06]),
    ([0x92, 0x07], [1, 0], None, "edge", (3,), "float4e2m1", 23, [0x22, 0x79]),
    ([0x92, 0x07], [1, 1], None, "constant", (3,), "float4e2m1", 23, [0x20, 0x79, 0x00]),
    ([0x39], [1, 0], 0, "constant", (3,), "uint2", 25, [0xE4]),
    ([0x36], [1, 1], None, "reflect", (3,), "int2", 25, [0xD9, 0x01]),
    ([0x7F, 0x80], [1, 0], None, "constant", (2,), "float8e8m0", 24, [0x00, 0x7F, 0x80]),
])
def test_raw_buffers_spec_examples(data, pads, value, mode, shape, dtype, opset, expected):
    got = padnd.onnx.pad(raw(data), pads, value, mode=mode, opset=opset, dtype=dtype, shape=shape)
    assert got.dtype == np.uint8 and got.ndim == 1
    assert got.tolist() == expected


def test_raw_example_40_shape_and_bytes():
    """docs/spec.md §9 ex. 40: 9 uint4 elements in 5 bytes, the filler nibble written as 0."""
    packed = raw([0x21, 0x43, 0x65])
    args = ([1, 0, 0, 0], 15)
    got = padnd.onnx.pad(packed, *args, opset=21, dtype="uint4", shape=(2, 3))
    assert got.tolist() == [0xFF, 0x1F, 0x32, 0x54, 0x06]
    assert padnd.onnx.infer_shape((2, 3), *args, opset=21, dtype="uint4") == (3, 3)


def test_raw_buffer_errors():
    with pytest.raises(TypeError, match="shape"):
        padnd.onnx.pad(raw([0x39]), [1, 0], dtype="uint2")
    with pytest.raises(ValueError, match="needs 1 byte"):
        padnd.onnx.pad(raw([0x39, 0]), [1, 0], dtype="uint2", shape=(3,))
    with pytest.raises(TypeError, match="uint8"):
        padnd.onnx.pad(np.array([0x39], np.int8), [1, 0], dtype="uint2", shape=(3,))
    with pytest.raises(ValueError, match="2-bit"):
        padnd.onnx.pad(raw([0x39]), [1, 0], 4, dtype="uint2", shape=(3,))
    with pytest.raises(TypeError, match="dtype"):
        padnd.onnx.pad(raw([0x39]), [1, 0], dtype="uint3", shape=(3,))
    with pytest.raises(TypeError, match="int2"):  # Pad-24 has no int2 (docs/spec.md §4.2)
        padnd.onnx.pad(raw([0x39]), [1, 0], dtype="int2", shape=(3,), opset=24)


def test_raw_bfloat16_bytes():
    x = np.array([1.0, -2.0], ml_dtypes.bfloat16)
    got = padnd.onnx.pad(x.view(np.uint8), [1, 0], b"\x80\x3f", dtype="bfloat16", shape=(2,),
                         opset=13)
    np.testing.assert_array_equal(got.view(ml_dtypes.bfloat16).astype(np.float32), [1, 1, -2])


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
                                  "float8_e5m2fnuz", "int4", "uint4", "float4_e2m1fn", "int2",
                                  "uint2"])
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_ml_dtypes_match_numpy_pad(name, mode):
    dtype = np.dtype(getattr(ml_dtypes, name))
    x = (np.arange(12).reshape(3, 4) % 2).astype(np.float32).astype(dtype)
    got = padnd.onnx.pad(x, [1, 2, 3, 1], mode=mode)
    assert got.dtype == dtype
    bits = np.uint8 if dtype.itemsize == 1 else np.uint16  # numpy.pad on the storage
    expected = np.pad(x.view(bits), [(1, 3), (2, 1)], mode=mode)
    np.testing.assert_array_equal(got.view(bits), expected)


def test_ml_dtypes_type_rules_follow_the_opset():
    x = np.array([1, 2], ml_dtypes.int4)
    with pytest.raises(TypeError, match="Pad-21"):
        padnd.onnx.pad(x, [1, 0], opset=19)
    with pytest.raises(TypeError, match="Pad-13"):
        padnd.onnx.pad(np.array([1, 2], ml_dtypes.bfloat16), [1, 0], opset=11)
    got = padnd.onnx.pad(x, [1, 0], ml_dtypes.int4(-3), opset=21)
    assert got.astype(np.int8).tolist() == [-3, 1, 2]


def test_ml_dtypes_in_openvino_and_ngraph():
    x = np.array([[1, 2], [3, 4]], ml_dtypes.uint4)
    got = padnd.openvino.pad(x, [0, 1], [0, 1], "symmetric")
    assert got.dtype == x.dtype and got.astype(np.int8).tolist() == [[1, 1, 2, 2], [3, 3, 4, 4]]
    got = padnd.ngraph.pad(x, ml_dtypes.uint4(9), [1, 0], [0, 0])
    assert got.astype(np.int8).tolist() == [[9, 9], [1, 2], [3, 4]]
