# SPDX-License-Identifier: Apache-2.0
# padnd.ngraph: nGraph op::Pad v0 / v1 through padnd's C++ nGraph adapter (docs/spec.md §6).
"""nGraph ``op::Pad``: v0 (attributes, interior padding) and v1 (pads as inputs)."""
from __future__ import annotations

import numpy as np

from . import _padnd, _spec

__all__ = ["pad", "infer_shape"]


def _spec_for(dtype: np.dtype, shape: list[int], pad_value, padding_below, padding_above,
              padding_interior, mode, version):
    type_name = _spec.element_type_name(dtype)
    mode = _spec.text("mode", mode)
    if version == "v0":
        if pad_value is None:
            raise ValueError("pad_value: nGraph Pad v0 requires arg_pad_value")
        interior = (None if padding_interior is None
                    else _spec.int_list("padding_interior", padding_interior))
        return _padnd.ngraph_v0_spec(_spec.value_tensor(pad_value, dtype, "pad_value"),
                                     _spec.int_list("padding_below", padding_below),
                                     _spec.int_list("padding_above", padding_above), interior,
                                     mode, type_name, shape)
    if version == "v1":
        if padding_interior is not None:
            raise ValueError("padding_interior: nGraph Pad v1 has no interior padding")
        # v1 reads pad_value in constant mode only (docs/spec.md §6.3).
        value = pad_value if mode.lower() == "constant" else None
        return _padnd.ngraph_v1_spec(_spec.int_tensor("pads_begin", padding_below),
                                     _spec.int_tensor("pads_end", padding_above),
                                     _spec.value_tensor(value, dtype, "pad_value"), mode,
                                     type_name, shape)
    raise ValueError(f"version: expected 'v0' or 'v1', got {version!r}")


def pad(arg, pad_value, padding_below, padding_above, padding_interior=None, mode="constant",
        version="v0", *, window=None):
    """nGraph ``op::Pad`` of `arg`.

    version "v0": `padding_below` / `padding_above` / `padding_interior` are attributes (one int
    per axis); `pad_value` (required) is the scalar ``arg_pad_value`` of `arg`'s dtype (a Python
    number is converted to it). Interior padding inserts that many constants between neighbours
    and is valid with mode "constant" only.

    version "v1": `padding_below` / `padding_above` are the ``pads_begin`` / ``pads_end`` inputs
    (int32 or int64); `pad_value` is optional (default zero); no interior padding.

    `mode`: "constant", "edge", "reflect" or "symmetric" (any case). Negative pads crop; other
    modes read the uncropped input. Returns a new array. Strings: an object array of str,
    `pad_value` a str (v1's default ""). Raises ValueError with the adapter's
    message for anything the op rejects, TypeError for an unsupported element type.
    `window` (padnd's extension): a slice or tuple of slices of the output (step 1); only
    ``result[window]`` is computed and returned.
    """
    array = _spec.data_array(arg)
    return _spec.run(_spec_for(array.dtype, list(array.shape), pad_value, padding_below,
                               padding_above, padding_interior, mode, version), array, window)


def infer_shape(shape, pad_value, padding_below, padding_above, padding_interior=None,
                mode="constant", version="v0", dtype="float32"):
    """The output shape (a tuple) of :func:`pad` on data of `shape` and `dtype`, without data."""
    dims = _spec.normalise_shape(shape)
    return _spec.shape(_spec_for(np.dtype(dtype), dims, pad_value, padding_below, padding_above,
                                 padding_interior, mode, version), dims)
