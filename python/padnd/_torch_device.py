# SPDX-License-Identifier: Apache-2.0
# padnd.torch.pad on CUDA tensors: the forward through padnd's CUDA executor, the backward as a
# fold in torch's own operators, deterministic on every device.
"""The backward of a pad is a fold: each input element's gradient is the sum of the output
positions that read it. F.pad's CUDA backward adds them with atomics (a different order, and
different bits, from run to run); this one adds each element's positions in increasing
position order through gathers (index_select) and adds, so results are the same bits on every
run. It is torch's operators only, so the CPU runs (and tests) the same code."""
from __future__ import annotations

import torch

from ._numpy_pad import pad as _padnd_pad
from ._pad_adjoint import (_MODES, _add_pad_contributions, _geometry, _negative_order,
                           _numpy_pad_width, _output_shape)


def forward(input, pads, mode: str, value):
    """padnd::pad of a tensor on a CUDA device: a new contiguous tensor from torch's allocator,
    written by padnd's CUDA executor on torch's current stream."""
    result = input.new_empty(_output_shape(input.shape, pads))
    crops = bool(pads) and min(pads) < 0
    _padnd_pad(input.detach(), _numpy_pad_width(pads, input.dim()),
               _MODES[mode],
               negative=_negative_order(mode) if crops else None, out=result,
               **({"constant_values": value} if mode == "constant" else {}))
    return result


def _indices(positions, like):
    return torch.as_tensor(positions, dtype=torch.int64, device=like.device)


def fold(region, axis: int, side):
    """_fold's adjoint of one pad side along ``axis``, in torch's operators: a reordering,
    one sum (every position reads one source: edge), or the sum of the side's rank gathers,
    in rank order (no scatter, no atomics: the same bits on every run)."""
    if side.starts is None:
        if side.take is None:
            return region
        if isinstance(side.take, slice):
            return region.flip(axis)
        return region.index_select(axis, _indices(side.take, region))
    if side.span == 1:
        return region.sum(axis, keepdim=True)
    zero_shape = list(region.shape)
    zero_shape[axis] = 1
    padded = torch.cat([region, region.new_zeros(zero_shape)], axis)
    block = None
    for rank in side.ranks:
        values = padded.index_select(axis, _indices(rank, region))
        block = values if block is None else block + values
    return block


def _wide_type(dtype):
    """Where sums of ``dtype`` accumulate: float32 for the floats narrower than it."""
    return torch.float32 if dtype.is_floating_point and dtype.itemsize < 4 else dtype


def _value_gradient(grad, geometry: tuple):
    """_value_gradient in torch's operators: the pad positions' sum, region by region."""
    wide = _wide_type(grad.dtype)
    total = grad.new_zeros((), dtype=wide)
    index = [slice(None)] * grad.dim()
    for k, axis in enumerate(geometry):
        for side in (slice(0, axis.pad), slice(axis.pad + axis.kept, None)):
            index[k] = side
            total = total + grad[tuple(index)].sum(dtype=wide)
        index[k] = slice(axis.pad, axis.pad + axis.kept)
    return total.to(grad.dtype)


def backward(grad, input_shape, pads, mode: str):
    """(gradient w.r.t. the input, w.r.t. the pad value) of padnd::pad at ``grad``, on
    grad's device: _backward_arrays' region folds in torch's operators."""
    if _negative_order(mode) == "map_on_original" and pads and min(pads) < 0:
        # The forward padded the whole input, then cropped: what it cropped has no gradient.
        grad = torch.nn.functional.pad(grad, [max(0, -p) for p in pads])
        pads = [max(0, p) for p in pads]
    geometry = _geometry(tuple(input_shape), tuple(pads), mode)
    result = grad.new_zeros(list(input_shape))
    kept = result[tuple(slice(a.crop, a.crop + a.kept) for a in geometry)]
    if result.numel() and grad.numel():
        kept.copy_(grad[tuple(slice(a.pad, a.pad + a.kept) for a in geometry)])
        _add_pad_contributions(grad, kept, geometry, fold=fold)
    value = (_value_gradient(grad, geometry) if mode == "constant" else
             grad.new_zeros(()))
    return result, value
