# SPDX-License-Identifier: Apache-2.0
# padnd.torch.pad: torch.nn.functional.pad's interface without its limits, as a torch.library
# custom op with a deterministic backward, a fake implementation and double backward.
"""``padnd.torch.pad(input, pad, mode="constant", value=None)``: ``torch.nn.functional.pad``'s
arguments (``pad`` holds (begin, end) pairs from the last dimension backwards) and results, in
the modes "constant", "reflect", "replicate", "circular" and "symmetric", for any number of
padded dimensions, every dtype padnd moves (bool, integers, floats, bfloat16, float8, complex),
pads wider than the dimension (periodic, as numpy.pad) and negative pads (crops, before padding).

It is the custom op ``torch.ops.padnd.pad``: autograd differentiates it with respect to
``input`` and, in "constant" mode, a tensor ``value``; the backward ``torch.ops.padnd.pad_backward``
sums each input element's output gradients in a fixed order (no atomics: the same bits on every
run and thread count) and is differentiable again; fake implementations let
``torch.compile(fullgraph=True)`` trace both. CPU tensors only (docs/frameworks.md).
"""
import operator

import numpy as np

from . import _dlpack
from ._numpy_pad import pad as _numpy_pad
from ._optional import import_optional

torch = import_optional("torch", extra="torch", needed_by="padnd.torch")

__all__ = ["pad"]

# F.pad's mode names (and symmetric, which F.pad lacks) -> numpy.pad's.
_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap",
          "symmetric": "symmetric"}


def _pad_width(pads, ndim: int) -> list:
    """F.pad's flat pads (last dimension first) as numpy's (before, after) pair per axis."""
    pairs = [(0, 0)] * (ndim - len(pads) // 2)
    pairs += [(pads[i], pads[i + 1]) for i in range(len(pads) - 2, -1, -2)]
    return pairs


def _output_shape(shape, pads) -> list:
    pairs = _pad_width(pads, len(shape))
    return [size + before + after for size, (before, after) in zip(shape, pairs)]


@torch.library.custom_op("padnd::pad", mutates_args=(),
                         schema="(Tensor input, int[] pads, str mode, Tensor value) -> Tensor")
def _pad_op(input, pads, mode, value):
    return _pad_forward(input, pads, mode, value.item())


def _pad_forward(input, pads, mode, value):
    """padnd::pad's computation, with the pad value as a Python number. The result is numpy's
    fresh allocation (huge pages, stores that skip reading it), handed to torch without a
    copy: faster than writing into torch.empty's pages."""
    constant = {"constant_values": value} if mode == "constant" else {}
    negative = "crop_then_pad" if any(p < 0 for p in pads) else None
    result = _numpy_pad(_dlpack.as_numpy(input, "input"), _pad_width(pads, input.dim()),
                        _MODES[mode], negative=negative, **constant)
    # numpy's layout rule gives a transposed (Fortran-order) input a Fortran result; F.pad's is
    # contiguous.
    return _dlpack.like(np.ascontiguousarray(result), input)


@_pad_op.register_fake
def _pad_fake(input, pads, mode, value):
    return input.new_empty(_output_shape(input.shape, pads))


def _sources(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position of one axis, the input index it reads (-1: the pad value)."""
    return _numpy_pad(np.arange(size, dtype=np.int64), [(before, after)], _MODES[mode],
                      negative="crop_then_pad", **({"constant_values": -1}
                                                   if mode == "constant" else {}))


def _fold_axis(grad: np.ndarray, axis: int, sources: np.ndarray, size: int) -> np.ndarray:
    """The adjoint of reading ``sources`` along ``axis``: input index i gets the sum of the
    gradient at the output positions that read i, added in increasing position order
    (gather, then numpy's sequential add.reduceat: no atomics, no dependence on threads)."""
    reads = np.flatnonzero(sources >= 0)
    order = reads[np.argsort(sources[reads], kind="stable")]
    counts = np.bincount(sources[reads], minlength=size)
    read = np.flatnonzero(counts)  # input indices some output reads (a crop reads fewer)
    shape = list(grad.shape)
    shape[axis] = size
    folded = np.zeros(shape, dtype=grad.dtype)
    if read.size:
        starts = (np.cumsum(counts) - counts)[read]
        folded[(slice(None),) * axis + (read,)] = np.add.reduceat(
            np.take(grad, order, axis=axis), starts, axis=axis)
    return folded


def _backward_arrays(grad: np.ndarray, input_shape, pads, mode):
    """(gradient w.r.t. the input, w.r.t. the pad value) of padnd::pad at ``grad``."""
    value_grad = np.zeros((), dtype=grad.dtype)
    pad_positions = np.zeros((), dtype=bool)  # broadcast: the positions holding the value
    folded = grad
    for axis, (before, after) in enumerate(_pad_width(pads, len(input_shape))):
        if before == after == 0:
            continue
        sources = _sources(input_shape[axis], before, after, mode)
        if mode == "constant":
            index = [np.newaxis] * len(input_shape)
            index[axis] = slice(None)
            pad_positions = pad_positions | (sources < 0)[tuple(index)]
        folded = _fold_axis(folded, axis, sources, input_shape[axis])
    if mode == "constant":
        np.sum(grad, where=np.broadcast_to(pad_positions, grad.shape), out=value_grad)
    # A result never shares memory with an op's argument (torch.library's rule).
    return (folded.copy() if folded is grad else folded), value_grad


@torch.library.custom_op(
    "padnd::pad_backward", mutates_args=(),
    schema="(Tensor grad, int[] input_shape, int[] pads, str mode) -> (Tensor, Tensor)")
def _pad_backward_op(grad, input_shape, pads, mode):
    grad_input, grad_value = _backward_arrays(_dlpack.as_numpy(grad, "grad"),
                                              input_shape, pads, mode)
    return _dlpack.like(grad_input, grad), _dlpack.like(grad_value, grad)


@_pad_backward_op.register_fake
def _pad_backward_fake(grad, input_shape, pads, mode):
    return grad.new_empty(input_shape), grad.new_empty(())


def _setup_pad(ctx, inputs, output):
    input, pads, mode, _ = inputs
    ctx.input_shape, ctx.pads, ctx.mode = list(input.shape), pads, mode


def _pad_grad(ctx, grad):
    grad_input, grad_value = torch.ops.padnd.pad_backward(grad, ctx.input_shape, ctx.pads,
                                                          ctx.mode)
    return grad_input, None, None, grad_value


def _setup_pad_backward(ctx, inputs, output):
    _, _, ctx.pads, ctx.mode = inputs


def _pad_backward_grad(ctx, grad_input, grad_value):
    # padnd::pad is linear in (input, value) and pad_backward is its adjoint, so the adjoint
    # of pad_backward is padnd::pad itself.
    return torch.ops.padnd.pad(grad_input, ctx.pads, ctx.mode, grad_value), None, None, None


_pad_op.register_autograd(_pad_grad, setup_context=_setup_pad)
_pad_backward_op.register_autograd(_pad_backward_grad, setup_context=_setup_pad_backward)


def _check_pads(pad, shape) -> list:
    pads = [operator.index(p) for p in pad]
    if len(pads) % 2 or len(pads) > 2 * len(shape):
        raise ValueError(f"pad: expected an even number of values, at most 2 * input.dim() = "
                         f"{2 * len(shape)}, got {len(pads)}")
    for axis, (size, (before, after)) in enumerate(zip(shape, _pad_width(pads, len(shape)))):
        if max(0, -before) + max(0, -after) > size:
            raise ValueError(f"pad: crops ({before}, {after}) of dimension {axis} remove more "
                             f"than its {size} elements")
    return pads


def pad(input, pad, mode: str = "constant", value=None):
    """``torch.nn.functional.pad(input, pad, mode, value)`` without its limits (module doc).

    ``pad`` is (begin, end) of the last dimension, then of the one before, and so on; negative
    values crop (before padding). ``mode``: "constant" (``value``, default 0: a number or a 0-d
    tensor, which gets a gradient), "reflect", "replicate", "circular" or "symmetric". The
    result is a new CPU tensor of the input's dtype."""
    if mode not in _MODES:
        raise ValueError(f"mode: expected one of {sorted(_MODES)}, got {mode!r}")
    if value is not None and mode != "constant":
        raise ValueError(f"value: only mode 'constant' takes one (mode {mode!r})")
    pads = _check_pads(pad, input.shape)
    tracked = torch.is_grad_enabled() and (input.requires_grad or getattr(value, "requires_grad",
                                                                           False))
    if not tracked and not torch.compiler.is_compiling() and not isinstance(value, torch.Tensor):
        # Nothing for autograd or a tracer to see: skip the custom op's dispatch (tens of µs).
        return _pad_forward(input, pads, mode, 0 if value is None else value)
    if isinstance(value, torch.Tensor):
        if value.dim() != 0:
            raise ValueError(f"value: expected a number or a 0-d tensor, got shape "
                             f"{tuple(value.shape)}")
        value = value.to(input.dtype)
    else:
        value = torch.tensor(0 if value is None else value, dtype=input.dtype)
    return torch.ops.padnd.pad(input, pads, mode, value)
