# SPDX-License-Identifier: Apache-2.0
# padnd.onnx: ONNX Pad (every version) through padnd's C++ ONNX adapter (PAD-SPEC §2).
"""ONNX ``Pad`` with the exact rules of each version (opsets 1..28)."""
from __future__ import annotations

import numpy as np

from . import _padnd, _spec

__all__ = ["pad", "infer_shape"]


def _spec_for(dtype: np.dtype, shape: list[int], pads, constant_value, axes, mode, opset):
    mode = "constant" if mode is None else mode
    if not isinstance(opset, (int, np.integer)) or isinstance(opset, bool):
        raise TypeError(f"opset: expected an int, got {opset!r}")
    opset = int(opset)
    type_name = _spec.element_type_name(dtype)
    if opset <= 10:
        if axes is not None:
            raise ValueError(f"axes: Pad at opset {opset} has no axes input (added in opset 18)")
        attr = _spec.int_list("pads", pads)
        value = None if constant_value is None else float(constant_value)
        return _padnd.onnx_spec(opset, 1, mode, attr if opset == 1 else None,
                                None if opset == 1 else attr, value, None, None, None,
                                type_name, shape)
    input_count = 4 if axes is not None else 3 if constant_value is not None else 2
    return _padnd.onnx_spec(
        opset, input_count, mode, None, None, None, _spec.int_tensor("pads", pads),
        _spec.value_tensor(constant_value, dtype),
        None if axes is None else _spec.int_tensor("axes", axes), type_name, shape)


def pad(data, pads, constant_value=None, axes=None, mode="constant", opset=25):
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

    Raises ValueError with the adapter's message for anything the spec rejects, TypeError for an
    element type the version does not accept (including int32 pads).
    """
    array = _spec.data_array(data)
    spec = _spec_for(array.dtype, list(array.shape), pads, constant_value, axes, mode, opset)
    return _spec.run(spec, array)


def infer_shape(shape, pads, constant_value=None, axes=None, mode="constant", opset=25,
                dtype="float32"):
    """The output shape (a tuple) of :func:`pad` on data of `shape` and `dtype`, without data.

    Same arguments and validation as :func:`pad`.
    """
    return _spec.shape(_spec_for(np.dtype(dtype), _spec.normalise_shape(shape), pads,
                                 constant_value, axes, mode, opset),
                       _spec.normalise_shape(shape))
