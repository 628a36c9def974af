# SPDX-License-Identifier: Apache-2.0
# ONNX-only element types for the spec functions: ml_dtypes dtypes and raw packed uint8 buffers.
"""Element types numpy lacks, as the spec functions (padnd.onnx / openvino / ngraph) see them.

Two ways in:

* an ml_dtypes array (``bfloat16``, ``float8_*``, ``int4``/``uint4``/``float4_e2m1fn``,
  ``int2``/``uint2``): the dtype names the padnd type. ml_dtypes stores its 4-/2-bit types one
  element per byte (the code in the low bits); those are packed for the engine and unpacked
  after, so the result is again an ml_dtypes array of the same dtype.
* a raw buffer plus a type name (``dtype="uint2"``, ``shape=...``): the bytes exactly as an ONNX
  TensorProto's ``raw_data`` holds them. 4-/2-bit types are packed over the flattened row-major
  tensor, element ``2k`` in the low nibble (4-bit) or element ``4k+i`` in bits ``2i..2i+1``
  (2-bit); unused trailing bits are zero (docs/spec.md §2.9).
"""
from __future__ import annotations

import math

import numpy as np

# Bits per element of the packed (sub-byte) padnd types.
SUB_BYTE_BITS = {"int4": 4, "uint4": 4, "float4e2m1": 4, "int2": 2, "uint2": 2}
# Bytes per element of the whole-byte types numpy has no dtype for.
WHOLE_BYTE_SIZES = {"bfloat16": 2, "float8e4m3fn": 1, "float8e4m3fnuz": 1, "float8e5m2": 1,
                    "float8e5m2fnuz": 1, "float8e8m0": 1}
RAW_TYPE_NAMES = tuple(sorted({**SUB_BYTE_BITS, **WHOLE_BYTE_SIZES}))

# ml_dtypes attribute -> padnd (ONNX) type name. Only ml_dtypes types with an ONNX counterpart.
_ML_DTYPES = {
    "bfloat16": "bfloat16",
    "float8_e4m3fn": "float8e4m3fn",
    "float8_e4m3fnuz": "float8e4m3fnuz",
    "float8_e5m2": "float8e5m2",
    "float8_e5m2fnuz": "float8e5m2fnuz",
    "float8_e8m0fnu": "float8e8m0",
    "int4": "int4",
    "uint4": "uint4",
    "float4_e2m1fn": "float4e2m1",
    "int2": "int2",
    "uint2": "uint2",
}


def ml_dtypes_name(dtype: np.dtype) -> str | None:
    """The padnd type name of an ml_dtypes dtype, or None for any other dtype.

    ml_dtypes is imported only when `dtype` could be one of its types (its name matches; the kind
    is 'V' for most of them but 'f' for some, e.g. float8_e5m2), so padnd keeps numpy as its only
    dependency."""
    if dtype.names is not None or dtype.name not in _ML_DTYPES:
        return None
    try:
        import ml_dtypes  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a dtype of that name without ml_dtypes
        return None
    candidate = getattr(ml_dtypes, dtype.name, None)
    if candidate is None or np.dtype(candidate) != dtype:
        return None
    return _ML_DTYPES[dtype.name]


def packed_nbytes(count: int, bits: int) -> int:
    """Bytes that `count` elements of `bits` bits take when packed."""
    return (count * bits + 7) // 8


def pack(codes: np.ndarray, bits: int) -> np.ndarray:
    """Packs 1-D uint8 `codes` (one element per byte, code in the low `bits` bits) densely,
    lowest bits first; the unused bits of the last byte are zero."""
    per_byte = 8 // bits
    mask = (1 << bits) - 1
    count = codes.size
    padded = np.zeros(packed_nbytes(count, bits) * per_byte, dtype=np.uint8)
    padded[:count] = codes & mask
    lanes = padded.reshape(-1, per_byte)
    out = np.zeros(lanes.shape[0], dtype=np.uint8)
    for i in range(per_byte):
        out |= lanes[:, i] << np.uint8(i * bits)
    return out


def unpack(buffer: np.ndarray, bits: int, count: int) -> np.ndarray:
    """The first `count` codes of a packed uint8 `buffer`, one per byte (inverse of pack)."""
    per_byte = 8 // bits
    mask = np.uint8((1 << bits) - 1)
    lanes = np.empty((buffer.size, per_byte), dtype=np.uint8)
    for i in range(per_byte):
        lanes[:, i] = (buffer >> np.uint8(i * bits)) & mask
    return lanes.reshape(-1)[:count]


def raw_buffer(data, type_name: str, shape: list[int]) -> np.ndarray:
    """Checks a raw buffer for `type_name` and `shape` and returns it as 1-D contiguous uint8."""
    arr = np.asarray(data)
    if arr.dtype != np.uint8:
        raise TypeError(f"data: a raw {type_name} buffer must be a uint8 array (its bytes), "
                        f"got dtype {arr.dtype}")
    count = math.prod(shape)
    if type_name in SUB_BYTE_BITS:
        expected = packed_nbytes(count, SUB_BYTE_BITS[type_name])
        layout = f"{count} element(s) of {SUB_BYTE_BITS[type_name]} bits, packed"
    else:
        expected = count * WHOLE_BYTE_SIZES[type_name]
        layout = f"{count} element(s) of {WHOLE_BYTE_SIZES[type_name]} byte(s)"
    if arr.size != expected:
        raise ValueError(f"data: shape {tuple(shape)} of {type_name} needs {expected} byte(s) "
                         f"({layout}), the buffer has {arr.size}")
    return np.ascontiguousarray(arr).reshape(-1)


def raw_value_element(value, type_name: str) -> bytes:
    """One pad value of a raw type as the engine wants it: its bytes (packed types: one byte with
    the code in the low bits). `value` is an int (the bit pattern / code), a bytes object of the
    element's size, or a 1-element unsigned integer array / numpy scalar holding the bits."""
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
        size = WHOLE_BYTE_SIZES.get(type_name, 1)
        if len(raw) != size:
            raise ValueError(f"constant_value: a {type_name} value is {size} byte(s), got "
                             f"{len(raw)}")
        value = int.from_bytes(raw, "little")
    else:
        arr = np.asarray(value)
        if arr.size != 1 or arr.dtype.kind not in "iu" or isinstance(value, bool):
            raise TypeError(f"constant_value: for raw {type_name} data give the element's bits as "
                            f"an int, a uint scalar or bytes, got {value!r}")
        value = int(arr.reshape(-1)[0])
    bits = SUB_BYTE_BITS.get(type_name, 8 * WHOLE_BYTE_SIZES.get(type_name, 1))
    if not 0 <= value < (1 << bits):
        raise ValueError(f"constant_value: {value} is not a {bits}-bit {type_name} code "
                         f"(expected 0..{(1 << bits) - 1})")
    return value.to_bytes(max(1, bits // 8), "little")
