# SPDX-License-Identifier: Apache-2.0
# padnd.openvino: OpenVINO Pad-1 / Pad-12 through padnd's C++ OpenVINO adapter (docs/spec.md §5).
"""OpenVINO ``Pad`` (opset1 Pad-1 and opset12 Pad-12), and padnd inside OpenVINO:
:func:`extension_path` (libpadnd_openvino, for ``Core.add_extension``) and :func:`read_model`
(a model read with it; docs/runtimes.md)."""
from __future__ import annotations

import numpy as np

from . import _padnd, _spec
from ._openvino_runtime import extension_path, read_model

__all__ = ["pad", "infer_shape", "extension_path", "read_model"]


def _spec_for(dtype: np.dtype, shape: list[int], pads_begin, pads_end, pad_mode, pad_value,
              version):
    if not isinstance(version, (int, np.integer)) or isinstance(version, bool):
        raise TypeError(f"version: expected an int (1 or 12), got {version!r}")
    pad_mode = _spec.text("pad_mode", pad_mode)
    # Outside constant mode the op does not look at pad_value (docs/spec.md §5.4).
    value = pad_value if pad_mode.lower() == "constant" else None
    return _padnd.openvino_spec(int(version), pad_mode, _spec.int_tensor("pads_begin", pads_begin),
                                _spec.int_tensor("pads_end", pads_end),
                                _spec.value_tensor(value, dtype, "pad_value"),
                                _spec.element_type_name(dtype), shape)


def pad(data, pads_begin, pads_end, pad_mode, pad_value=None, version=12, *, window=None):
    """OpenVINO ``Pad`` of `data` (`version` 1 or 12).

    `pads_begin` / `pads_end`: one integer per axis (int32 or int64 arrays, or lists).
    `pad_mode`: "constant", "edge", "reflect" or "symmetric" (reflect pads must be <= dim - 1,
    symmetric pads <= dim). `pad_value`: the constant (a numpy scalar / 0-d array of the data's
    dtype, or a Python number converted to it); default zero.
    Pad-12 accepts negative pads (crops, other modes read the uncropped input) and clamps a
    negative output length to 0; Pad-1 rejects negative pads. Returns a new array. Strings
    (Pad-12, constant mode only): an object array of str, `pad_value` a str (default "").
    `window` (padnd's extension): a slice or tuple of slices of the output (step 1); only
    ``result[window]`` is computed and returned.

    Raises ValueError with the adapter's message for anything the spec rejects, TypeError for an
    element type it does not accept.
    """
    array = _spec.data_array(data)
    return _spec.run(_spec_for(array.dtype, list(array.shape), pads_begin, pads_end, pad_mode,
                               pad_value, version), array, window)


def infer_shape(shape, pads_begin, pads_end, pad_mode, pad_value=None, version=12,
                dtype="float32"):
    """The output shape (a tuple) of :func:`pad` on data of `shape` and `dtype`, without data."""
    dims = _spec.normalise_shape(shape)
    return _spec.shape(_spec_for(np.dtype(dtype), dims, pads_begin, pads_end, pad_mode,
                                 pad_value, version), dims)
