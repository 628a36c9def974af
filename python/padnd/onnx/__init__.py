# SPDX-License-Identifier: Apache-2.0
# padnd.onnx: ONNX Pad (every version) through padnd's C++ ONNX adapter (docs/spec.md §4).
"""ONNX ``Pad`` with the exact rules of each version (opsets 1..28).

* :func:`pad` / :func:`infer_shape`: one Pad as a function of numpy arrays.
* ONNX-only element types: an ml_dtypes array (``bfloat16``, ``float8_e4m3fn``, ``float8_e4m3fnuz``,
  ``float8_e5m2``, ``float8_e5m2fnuz``, ``float8_e8m0fnu``, ``int4``, ``uint4``,
  ``float4_e2m1fn``, ``int2``, ``uint2``) is padded as that ONNX type and comes back with the same
  dtype. Without ml_dtypes, pass the raw bytes as a uint8 buffer with ``dtype="<onnx type>"`` and
  the logical ``shape=``: 4-/2-bit types are packed over the flattened tensor as ONNX stores them
  (``raw_data``), and the result is the output's packed bytes (1-D uint8; its logical shape is
  :func:`infer_shape` of the same arguments)::

      packed = np.array([0x21, 0x43, 0x65], np.uint8)          # uint4 [[1, 2, 3], [4, 5, 6]]
      padnd.onnx.pad(packed, [1, 0, 0, 0], 15, dtype="uint4", shape=(2, 3), opset=21)
      # -> array([0xFF, 0x1F, 0x32, 0x54, 0x06], dtype=uint8)   (3x3, 9 nibbles in 5 bytes)

* :mod:`padnd.onnx.backend` (imported on first use; needs the ``onnx`` package): an
  ``onnx.backend.base.Backend`` that runs models made of Pad nodes, every Pad through the same
  adapter as :func:`pad`. It passes the official ONNX backend node tests for Pad.
"""
from __future__ import annotations

import importlib

import numpy as np

from .. import _packed, _padnd, _spec

__all__ = ["pad", "infer_shape", "backend", "ReferencePad", "RAW_TYPES"]

#: Type names accepted by ``dtype=`` for raw buffers (ONNX names).
RAW_TYPES = _packed.RAW_TYPE_NAMES


def __getattr__(name: str):
    # `padnd.onnx.backend` needs the onnx package, which padnd itself does not depend on.
    if name == "backend":
        return importlib.import_module(".backend", __name__)
    if name == "ReferencePad":  # the reference evaluator's op class needs onnx too
        return importlib.import_module(".reference", __name__).ReferencePad
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check_opset(opset) -> int:
    if not isinstance(opset, (int, np.integer)) or isinstance(opset, bool):
        raise TypeError(f"opset: expected an int, got {opset!r}")
    return int(opset)


def _node_spec(type_name: str, shape: list[int], *, opset: int, input_count: int, mode: str,
               paddings=None, pads_attr=None, value=None, pads=None, constant_value=None,
               axes=None) -> _padnd.PadSpec:
    """The adapter's validated spec for one Pad node given exactly as a model gives it
    (`pads` / `axes` as IntTensors, `constant_value` as a ValueTensor, attributes as lists)."""
    return _padnd.onnx_spec(opset, input_count, mode, paddings, pads_attr, value, pads,
                            constant_value, axes, type_name, shape)


def _spec_for(type_name: str, shape: list[int], pads, value_tensor, float_value, axes, mode,
              opset):
    """pad()'s arguments -> a node: opset <= 10 takes attributes, later opsets inputs."""
    mode = "constant" if mode is None else _spec.text("mode", mode)
    opset = _check_opset(opset)
    if opset <= 10:
        if axes is not None:
            raise ValueError(f"axes: Pad at opset {opset} has no axes input (added in opset 18)")
        attr = _spec.int_list("pads", pads)
        return _node_spec(type_name, shape, opset=opset, input_count=1, mode=mode,
                          paddings=attr if opset == 1 else None,
                          pads_attr=None if opset == 1 else attr, value=float_value)
    input_count = 4 if axes is not None else 3 if value_tensor is not None else 2
    return _node_spec(type_name, shape, opset=opset, input_count=input_count, mode=mode,
                      pads=_spec.int_tensor("pads", pads), constant_value=value_tensor,
                      axes=None if axes is None else _spec.int_tensor("axes", axes))


def _float_attribute(constant_value) -> float:
    """Pad-1/2's FLOAT attribute `value`: a float32, so a finite value that rounds to infinity
    there is out of range (as the CLI's --value says), not silently infinite."""
    try:
        value = float(constant_value)
    except (TypeError, ValueError):
        raise TypeError(f"constant_value: Pad-1/2's FLOAT attribute 'value' is one number, got "
                        f"{constant_value!r}") from None
    with np.errstate(over="ignore"):
        rounded = np.float32(value)
    if np.isinf(rounded) and np.isfinite(value):
        raise ValueError(f"constant_value: {value!r} is out of range for the FLOAT attribute "
                         "'value' of ONNX Pad-1/2 (rounds to infinity in float32)")
    return value


def _numpy_spec(dtype: np.dtype, shape: list[int], pads, constant_value, axes, mode, opset):
    type_name = _spec.element_type_name(dtype)
    if type_name.startswith("opaque"):  # as the padnd tool says it
        raise TypeError(f"data: dtype {dtype.str!r} has no ONNX element type (ONNX strings "
                        "are object arrays of str); padnd.pad, padnd.openvino.pad or "
                        "padnd.ngraph.pad pad it byte for byte")
    float_value = None
    if constant_value is not None and _check_opset(opset) <= 10 and type_name != "string":
        float_value = _float_attribute(constant_value)
    value_tensor = (None if float_value is not None else
                    _spec.value_tensor(constant_value, dtype, "constant_value"))
    return _spec_for(type_name, shape, pads, value_tensor, float_value, axes, mode, opset)


def _raw_type(dtype) -> str:
    name = str(dtype)
    if name not in _packed.RAW_TYPE_NAMES:
        raise TypeError(f"dtype: expected one of {', '.join(_packed.RAW_TYPE_NAMES)} for a raw "
                        f"buffer, got {dtype!r}")
    return name


def _raw_spec(type_name: str, shape: list[int], pads, constant_value, axes, mode, opset):
    value_tensor = None
    if constant_value is not None:
        value_tensor = _padnd.ValueTensor(
            type_name, [], [_packed.raw_value_element(constant_value, type_name)])
    return _spec_for(type_name, shape, pads, value_tensor, None, axes, mode, opset)


def pad(data, pads, constant_value=None, axes=None, mode="constant", opset=25, *, dtype=None,
        shape=None, window=None):
    """ONNX ``Pad`` of `data` as the Pad version active at `opset` defines it.

    opset <= 10 (Pad-1, Pad-2): `pads` is the attribute (``paddings`` for Pad-1, ``pads`` for
    Pad-2), all begins then all ends; `constant_value` is the FLOAT ``value`` attribute, converted
    to the data's type.

    opset >= 11: `pads`, `constant_value` and `axes` are the node's inputs. `pads` must be int64
    (a numpy int32 array is rejected, as the spec says; a list of ints is int64), 2 * len(axes)
    values ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``. `constant_value` is a numpy scalar
    or a 0-d / 1-element array of the data's dtype (a plain Python number is converted to the data's
    dtype); `axes` (opset >= 18) is int32 or int64, negative axes count from the end.

    `mode` is "constant", "reflect", "edge", or "wrap" (opset >= 19). Negative pads crop first,
    then the cropped data is padded. Returns a new array of `data`'s dtype.

    Strings (Pad-13 and later): an object array of str, padded in every mode; `constant_value`
    a str (default ""); the result is an object array of str.

    ONNX-only types: ml_dtypes arrays (bfloat16, float8_*, int4, uint4, float4_e2m1fn, int2,
    uint2) are padded as the matching ONNX type and returned with their dtype. Raw buffers: with
    `dtype` (one of :data:`RAW_TYPES`, e.g. ``"uint2"``) `data` is a uint8 array of the tensor's
    bytes as ONNX stores them (4-/2-bit types packed over the flattened tensor, low bits first)
    and `shape` its logical shape (required); `constant_value` is then the element's bits (an
    int code such as ``15`` for uint4, or bytes). The result is the output's bytes, 1-D uint8,
    packed the same way with zero filler bits.

    `window` (padnd's extension): a slice or tuple of slices of the output (step 1, as numpy
    indexes); only ``result[window]`` is computed and returned (raw buffers: its bytes, as a
    dense tensor of the window's shape).

    Raises ValueError with the adapter's message for anything the spec rejects, TypeError for an
    element type the version does not accept (including int32 pads).
    """
    if dtype is not None:
        if shape is None:
            raise TypeError("shape: required with dtype= (a raw buffer does not carry its logical "
                            "shape)")
        type_name = _raw_type(dtype)
        dims = _spec.normalise_shape(shape)
        buffer = _packed.raw_buffer(data, type_name, dims)
        spec = _raw_spec(type_name, dims, pads, constant_value, axes, mode, opset)
        return _spec.run_raw(spec, buffer, type_name, dims, window)
    if shape is not None:
        raise TypeError("shape: only for raw buffers (give dtype= too)")
    array = _spec.data_array(data)
    if not array.dtype.isnative and constant_value is not None and _check_opset(opset) <= 10:
        # The FLOAT attribute becomes the data's type in the native byte order.
        native = array.astype(array.dtype.newbyteorder("="))
        return pad(native, pads, constant_value, axes, mode, opset,
                   window=window).astype(array.dtype)
    spec = _numpy_spec(array.dtype, list(array.shape), pads, constant_value, axes, mode, opset)
    return _spec.run(spec, array, window)


def infer_shape(shape, pads, constant_value=None, axes=None, mode="constant", opset=25,
                dtype="float32"):
    """The output shape (a tuple) of :func:`pad` on data of `shape` and `dtype`, without data.

    Same arguments and validation as :func:`pad`; `dtype` is a numpy dtype (ml_dtypes included)
    or one of the raw type names of :data:`RAW_TYPES`.
    """
    dims = _spec.normalise_shape(shape)
    if isinstance(dtype, str) and dtype in _packed.RAW_TYPE_NAMES:
        spec = _raw_spec(dtype, dims, pads, constant_value, axes, mode, opset)
    else:
        spec = _numpy_spec(np.dtype(dtype), dims, pads, constant_value, axes, mode, opset)
    return _spec.shape(spec, dims)


def _pad_node(data: np.ndarray, *, opset: int, input_count: int, mode: str, paddings=None,
              pads_attr=None, value=None, pads=None, constant_value=None, axes=None) -> np.ndarray:
    """One Pad node exactly as a model states it (used by :mod:`padnd.onnx.backend`): tensors keep
    their dtypes (so int32 `pads` or a mistyped `constant_value` are the adapter's errors), absent
    or empty-named optional inputs are None, `input_count` counts every input including `data`."""
    array = _spec.data_array(data)
    spec = _node_spec(
        _spec.element_type_name(array.dtype), list(array.shape), opset=_check_opset(opset),
        input_count=input_count, mode=mode, paddings=paddings, pads_attr=pads_attr, value=value,
        pads=None if pads is None else _spec.int_tensor("pads", np.asarray(pads)),
        constant_value=None if constant_value is None else _spec.value_tensor(
            np.asarray(constant_value), array.dtype, "constant_value"),
        axes=None if axes is None else _spec.int_tensor("axes", np.asarray(axes)))
    return _spec.run(spec, array)
