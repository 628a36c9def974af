# SPDX-License-Identifier: Apache-2.0
# Shared plumbing of padnd.onnx / padnd.openvino / padnd.ngraph: numpy inputs -> adapter tensors,
# and the execute path for a PadSpec the C++ adapters validated.
from __future__ import annotations

import cmath
import warnings

import numpy as np

from . import _dlpack, _dtypes, _packed, _padnd
from ._output_cache import empty
from ._window import window_ranges


# The dtype of string tensors (ONNX's, onnx.numpy_helper's and ONNX Runtime's): objects that are str.
_STRINGS = np.dtype(object)


def element_type_name(dtype: np.dtype) -> str:
    """The padnd type of `dtype` for a spec adapter: object arrays (of str) as strings,
    ml_dtypes' ONNX types by name (bfloat16,
    float8*, int4, uint4, float4e2m1, int2, uint2), datetime64/timedelta64 and long double as
    opaque bytes (no spec has those types; their index modes only move them), anything else as
    padnd.pad names it. A swapped byte order names the same type: the specs' modes only move
    elements, and value_tensor stores pad values in the data's byte order."""
    if dtype == _STRINGS:
        return "string"
    if dtype.itemsize == 0 and not dtype.hasobject:
        raise TypeError(f"data: {dtype!r} has elements of zero bytes, which no spec has; "
                        "padnd.pad pads them as numpy.pad does")
    if not dtype.isnative and not dtype.hasobject:
        dtype = dtype.newbyteorder("=")
    if _dtypes.numpy_only(dtype):
        return f"opaque{dtype.itemsize}"
    name = _packed.ml_dtypes_name(dtype)
    return name if name is not None else _dtypes.element_type_name(dtype)


def _integers(name: str, values) -> np.ndarray:
    """np.asarray(values), but a list of Python ints that numpy would make float or object
    (some beyond int64) stays integers, so that _int64_values names the one out of range."""
    arr = np.asarray(values)
    if not isinstance(values, np.ndarray) and arr.dtype.kind in "fO" and arr.size:
        exact = np.asarray(values, dtype=object)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
               for v in exact.reshape(-1)):
            _int64_values(name, exact)
    return arr


def _int64_values(name: str, arr: np.ndarray) -> list[int]:
    """The values of an integer array, each within int64 (padnd's sizes)."""
    values = [int(v) for v in arr.reshape(-1)]
    for index, value in enumerate(values):
        if not -(2**63) <= value < 2**63:
            raise ValueError(f"{name}: {value} (value {index}) is beyond int64, the range of "
                             "padnd's sizes")
    return values


def int_tensor(name: str, values) -> _padnd.IntTensor:
    """An integer input with its numpy dtype kept, so adapters can enforce e.g. "int64 only".
    A Python list becomes int64 (numpy's default on 64-bit platforms); an empty one too."""
    arr = _integers(name, values)
    if arr.size == 0 and not isinstance(values, np.ndarray):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name}: expected an integer array, got dtype {arr.dtype}")
    return _padnd.IntTensor(element_type_name(arr.dtype), list(arr.shape),
                            _int64_values(name, arr))


def int_list(name: str, values) -> list[int]:
    """A plain integer attribute (one int per axis)."""
    arr = _integers(name, values)
    if arr.size == 0:
        return []
    if arr.dtype.kind not in "iu" or arr.ndim > 1:
        raise TypeError(f"{name}: expected a list of ints, got {values!r}")
    return _int64_values(name, arr)


def text(name: str, value) -> str:
    """A string argument (a mode, a version), or a TypeError naming it."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, got {value!r}")
    return value


def _kind(number) -> str:
    """'nan', 'inf' or 'finite': what a float type must keep of a value it rounds."""
    z = complex(number)
    return "nan" if cmath.isnan(z) else "inf" if cmath.isinf(z) else "finite"


def _python_number(value, dtype: np.dtype, name: str) -> np.ndarray:
    """A Python number (or a sequence of them) as the data's dtype, as the CLI's --value reads
    one: a float type rounds it, but nothing is wrapped, truncated or overflowed to infinity."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy warns of an overflow, then returns inf
            arr = np.asarray(value, dtype=dtype)
            stored = arr.reshape(-1).tolist()
    except (OverflowError, ValueError):
        raise ValueError(f"{name}: {value!r} does not fit in the data's dtype {dtype}") from None
    except TypeError:
        raise TypeError(f"{name}: {value!r} is not a value of the data's dtype {dtype}") from None
    given = np.asarray(value, dtype=object).reshape(-1).tolist()
    numeric = all(isinstance(v, (bool, int, float, complex)) for v in stored)
    for wanted, got in zip(given, stored if numeric else []):
        if not isinstance(wanted, (bool, int, float, complex)):
            continue  # numpy read it (a numpy scalar in a list, a string): its own cast
        exact = isinstance(got, (bool, int))  # integer types hold a value or refuse it
        if (wanted != got) if exact else (_kind(wanted) != _kind(got)):
            raise ValueError(f"{name}: {wanted!r} does not fit in the data's dtype {dtype}"
                             f"{'' if exact else ' (out of its range)'}")
    return arr


def value_tensor(value, dtype: np.dtype, name: str) -> _padnd.ValueTensor | None:
    """The pad-value input `name`. numpy scalars and arrays keep their dtype (the adapter checks
    it against the data's); plain Python scalars are converted to the data's dtype first."""
    if value is None:
        return None
    if dtype == _STRINGS:
        strings = np.array(value, dtype=object)
        return _padnd.ValueTensor("string", list(strings.shape),
                                  _utf8_elements(strings, name))
    arr = (np.asarray(value) if isinstance(value, (np.ndarray, np.generic))
           else _python_number(value, dtype, name))
    if arr.dtype.isnative != dtype.isnative and arr.dtype.newbyteorder("S") == dtype:
        arr = arr.astype(dtype)  # the value's bytes are written as they are, in the data's order
    flat = np.ascontiguousarray(arr).reshape(-1)
    return _padnd.ValueTensor(element_type_name(arr.dtype), list(arr.shape),
                              [flat[i:i + 1].tobytes() for i in range(flat.size)])


def _utf8_elements(strings: np.ndarray, name: str) -> list[bytes]:
    """The str elements of an object array, row-major, in UTF-8 (as ONNX stores strings)."""
    elements = []
    for index, element in np.ndenumerate(strings):
        if not isinstance(element, str):
            raise TypeError(f"{name}: an object array is a string tensor, whose elements are str; "
                            f"element {index} is {type(element).__name__} {element!r}")
        try:
            elements.append(element.encode("utf-8"))
        except UnicodeEncodeError as error:
            raise ValueError(f"{name}: element {index} is not valid text ({error})") from None
    return elements


def data_array(data) -> np.ndarray:
    """`data` as a numpy array: a DLPack tensor (torch, JAX, ...) viewed where it lies."""
    arr = _dlpack.as_numpy(data, "data") if _dlpack.is_tensor(data) else np.asarray(data)
    element_type_name(arr.dtype)  # rejects the dtypes no spec has with padnd's TypeError
    return arr


def normalise_shape(shape) -> list[int]:
    """`shape` as a list of ints (an int is a 1-D shape; () is rank 0)."""
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(d) for d in shape]


def run(spec: _padnd.PadSpec, array: np.ndarray, window=None) -> np.ndarray:
    """Pads `array` by the validated `spec` into a new array of the same dtype; with `window`
    (a slice or tuple of slices of the output), only that part: ``result[window]``. An array
    that data_array viewed in a tensor gives a tensor of that framework."""
    type_name = element_type_name(array.dtype)
    if type_name == "string":
        return _run_strings(spec, array, window)
    if type_name in _packed.SUB_BYTE_BITS:
        # ml_dtypes keeps one 4-/2-bit element per byte: pack for the engine, unpack the result.
        codes = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
        packed, out_shape = _run_packed(spec, _packed.pack(codes, _packed.SUB_BYTE_BITS[type_name]),
                                        type_name, list(array.shape), window)
        count = int(np.prod(out_shape, dtype=np.int64))
        return (_packed.unpack(packed, _packed.SUB_BYTE_BITS[type_name], count)
                .view(array.dtype).reshape(out_shape))
    starts, lengths = _ranges(spec, list(array.shape), window)
    out, fresh = empty(lengths, array.dtype)
    _padnd.execute_spec(spec, array.__array_interface__["data"][0], type_name, list(array.shape),
                        list(array.strides), out.__array_interface__["data"][0], out.nbytes,
                        fresh_output=fresh, window_start=starts, window_shape=lengths)
    tensor = _dlpack.source_tensor(array)
    return out if tensor is None else _dlpack.like(out, tensor)


def run_raw(spec: _padnd.PadSpec, buffer: np.ndarray, type_name: str,
            logical_shape: list[int], window=None) -> np.ndarray:
    """Pads a dense raw buffer (1-D uint8: packed codes, or whole-byte elements) of `type_name`
    and `logical_shape`; returns the output's bytes (of its `window`, if given, as a dense
    tensor) as a new 1-D uint8 array (packed trailing bits zero)."""
    return _run_packed(spec, buffer, type_name, logical_shape, window)[0]


def _run_strings(spec: _padnd.PadSpec, array: np.ndarray, window) -> np.ndarray:
    """run() of a string tensor: an object array of str, as the input."""
    starts, lengths = _ranges(spec, list(array.shape), window)
    strings = _padnd.pad_strings(spec, _utf8_elements(array, "data"), list(array.shape),
                                 starts, None if starts is None else lengths)
    out = np.empty(len(strings), dtype=object)
    out[:] = strings
    return out.reshape(lengths)


def _ranges(spec: _padnd.PadSpec, shape: list[int], window):
    """(starts, lengths) of `window` of the output, or (None, output shape) for the whole."""
    out_shape = _padnd.spec_shape(spec, shape)
    return window_ranges(window, out_shape) if window is not None else (None, out_shape)


def _run_packed(spec: _padnd.PadSpec, buffer: np.ndarray, type_name: str,
                logical_shape: list[int], window) -> tuple[np.ndarray, list[int]]:
    starts, lengths = _ranges(spec, logical_shape, window)
    count = int(np.prod(lengths, dtype=np.int64))
    bits = _packed.SUB_BYTE_BITS.get(type_name)
    nbytes = (_packed.packed_nbytes(count, bits) if bits is not None
              else count * _packed.WHOLE_BYTE_SIZES[type_name])
    out = np.zeros(nbytes, dtype=np.uint8)
    _padnd.execute_spec(spec, buffer.__array_interface__["data"][0], type_name, logical_shape,
                        [], out.__array_interface__["data"][0], out.nbytes,
                        fresh_output=True, window_start=starts, window_shape=lengths)
    return out, lengths


def shape(spec: _padnd.PadSpec, shape: list[int]) -> tuple[int, ...]:
    return tuple(_padnd.spec_shape(spec, shape))
