# SPDX-License-Identifier: Apache-2.0
# padnd.torch.pad: torch.nn.functional.pad's interface without its limits, as a torch.library
# custom op with a deterministic backward, a fake implementation and double backward.
"""``padnd.torch.pad(input, pad, mode="constant", value=None)``: ``torch.nn.functional.pad``'s
arguments (``pad`` holds (begin, end) pairs from the last dimension backwards) and results, in
the modes "constant", "reflect", "replicate", "circular" and "symmetric", for any number of
padded dimensions, every dtype padnd moves (bool, integers, floats, bfloat16, float8, complex),
pads wider than the dimension (periodic, as numpy.pad) and negative pads (crops, in F.pad's
order: "circular" crops, then wraps what is left; "reflect", "replicate" and "symmetric" pad
the whole input, then crop; in "constant" the order makes no difference).

It is the custom op ``torch.ops.padnd.pad``: autograd differentiates it with respect to
``input`` and, in "constant" mode, a tensor ``value``; the backward ``torch.ops.padnd.pad_backward``
sums each input element's output gradients in a fixed order (no atomics: the same bits on every
run and thread count) and is differentiable again; fake implementations let
``torch.compile(fullgraph=True)`` trace both. Forward-mode AD (``torch.autograd.forward_ad``)
pads the tangent as the input (its pad value 0, or the tangent of a tensor ``value``), and
``torch.func``'s transforms (vmap, grad, jvp and their compositions) apply. Errors that F.pad
raises as RuntimeError are :class:`PadError`, a ValueError and a RuntimeError. CPU tensors, and
CUDA tensors through padnd's CUDA executor with a fold backward in torch's operators
(docs/frameworks.md, docs/gpu.md).
"""
import functools
import math
import operator
import os
import re
import struct
from typing import NamedTuple

import numpy as np

from . import _dlpack, _padnd
from ._numpy_pad import pad as _numpy_pad
from ._optional import import_optional
from ._pad_adjoint import (_MODES, _add_pad_contributions, _geometry, _negative_order,
                           _numpy_pad_width, _output_shape, _pad_width)

torch = import_optional("torch", extra="torch", needed_by="padnd.torch")

__all__ = ["PadError", "pad"]


class PadError(ValueError, RuntimeError):
    """A request ``padnd.torch.pad`` refuses: a ValueError, as numpy.pad's errors are, and a
    RuntimeError, as F.pad's are, so that code written for either catches it."""


class _UnknownModeError(PadError, NotImplementedError):
    """An unknown ``mode``: F.pad raises NotImplementedError (a RuntimeError) for it."""

def _flat_pads(pairs) -> list:
    """numpy's (before, after) pair per axis as F.pad's flat pads (last dimension first)."""
    return [p for pair in reversed(pairs) for p in pair]


def _channels_last_order(input, mode: str):
    """The axes that make a channels-last ``input`` C-ordered (N, spatial..., C), when F.pad's
    result would be channels-last too (torch's suggested memory format of the input, except
    in "circular", whose result is contiguous); else None."""
    if input.dim() not in (4, 5) or mode not in _MODES or mode == "circular":
        return None
    suggested = _suggest_memory_format(input)
    if suggested not in (torch.channels_last, torch.channels_last_3d):
        return None
    return (0, *range(2, input.dim()), 1)


def _channels_last_pad(input, pads, mode, value, order):
    """pad() of a channels-last ``input``: its (N, spatial..., C) view padded, the result
    viewed back, so that it is channels-last as F.pad's is (differentiable: views)."""
    pairs = _pad_width(pads, input.dim())
    moved = _flat_pads([pairs[axis] for axis in order])
    back = sorted(range(len(order)), key=order.__getitem__)
    return pad(input.permute(order), moved, mode, value).permute(back)


@torch.library.custom_op("padnd::pad", mutates_args=(),
                         schema="(Tensor input, int[] pads, str mode, Tensor value) -> Tensor")
def _pad_op(input, pads, mode, value):
    return _pad_forward(input, pads, mode, value.item())


def _numpy_view(tensor, name: str = "input") -> tuple:
    """(a numpy array viewing ``tensor``'s memory, whether torch.from_numpy takes numpy's
    result of it). Tensor.numpy() costs far less than a DLPack import; torch's types that
    numpy lacks (bfloat16, float8) and other tensors go through DLPack (ml_dtypes)."""
    if type(tensor) is torch.Tensor:
        try:
            return (tensor.detach() if tensor.requires_grad else tensor).numpy(), True
        except (TypeError, RuntimeError):  # no numpy dtype, not on the CPU, a lazy view
            pass
    return _dlpack.as_numpy(tensor, name), False


def _as_tensor(result: np.ndarray, numpy_typed: bool, like):
    return torch.from_numpy(result) if numpy_typed else _dlpack.like(result, like)


def _pad_forward(input, pads, mode, value):
    """padnd::pad's computation, with the pad value as a Python number. The result is numpy's
    fresh allocation (huge pages, stores that skip reading it), handed to torch without a
    copy: faster than writing into torch.empty's pages. A CUDA tensor's is _torch_device's."""
    if input.device.type == "cuda":
        from . import _torch_device
        return _torch_device.forward(input, pads, mode, value)
    array, numpy_typed = _numpy_view(input)
    pairs = _numpy_pad_width(pads, array.ndim)
    result = None
    crops = bool(pads) and min(pads) < 0
    if not crops:  # padnd.pad's one-call C++ path (C order), its checks skipped
        result = _padnd.pad_fast(array, pairs, _MODES[mode],
                                 value if mode == "constant" else None, 0, None)
    if result is None:
        constant = {"constant_values": value} if mode == "constant" else {}
        negative = _negative_order(mode) if crops else None
        result = _numpy_pad(array, pairs, _MODES[mode], negative=negative, **constant)
        # numpy's layout rule gives a transposed (Fortran-order) input a Fortran result;
        # F.pad's is contiguous. (np.ascontiguousarray would make a 0-d result 1-d.)
        result = result if result.flags.c_contiguous else result.copy(order="C")
    return _as_tensor(result, numpy_typed, input)


@_pad_op.register_fake
def _pad_fake(input, pads, mode, value):
    return input.new_empty(_output_shape(input.shape, pads))


def _wide_type(dtype: np.dtype) -> np.dtype:
    """Where sums of ``dtype`` accumulate: float32 for float16, bfloat16 and float8 (numpy
    sees ml_dtypes' types as void kinds), else ``dtype``."""
    narrow = dtype.kind == "V" or (dtype.kind == "f" and dtype.itemsize < 4)
    return np.dtype(np.float32) if narrow else dtype


def _value_gradient(grad: np.ndarray, geometry: tuple) -> np.ndarray:
    """The sum of grad over the pad positions, as disjoint regions: those on a side of axis
    k and interior on the axes before it, added in that order."""
    wide = _wide_type(grad.dtype)
    total = np.zeros((), dtype=wide)
    index = [slice(None)] * grad.ndim
    for k, axis in enumerate(geometry):
        for side in (slice(0, axis.pad), slice(axis.pad + axis.kept, None)):
            index[k] = side
            total += np.add.reduce(grad[tuple(index)], axis=None, dtype=wide)
        index[k] = slice(axis.pad, axis.pad + axis.kept)
    with np.errstate(over="ignore"):  # a float16 sum beyond its range is inf, as torch's
        return total.astype(grad.dtype)


class _Gather(NamedTuple):
    """A small request's backward as one gather: ``order`` lists the output positions, the
    pad value's ``pad_count`` first, then by the input element they read (increasing
    positions within one); ``starts`` where each read element's run begins; ``reads`` the
    read elements (None: all)."""
    order: np.ndarray
    pad_count: int
    starts: np.ndarray
    reads: np.ndarray | None


# Outputs up to this many elements take the gather (its plan: 8 bytes per element, cached);
# above it the gather's per-element cost exceeds the region folds' per-call cost.
_GATHER_ELEMENTS = 1 << 14


@functools.lru_cache(maxsize=32)
def _gather_plan(input_shape: tuple, pads: tuple, mode: str) -> _Gather:
    size = math.prod(input_shape)
    flat = np.arange(size, dtype=np.int64).reshape(input_shape)
    sources = _numpy_pad(flat, _numpy_pad_width(pads, len(input_shape)), _MODES[mode],
                         negative="crop_then_pad",
                         **({"constant_values": -1} if mode == "constant" else {})).reshape(-1)
    order = np.argsort(sources, kind="stable")  # equal sources keep increasing positions
    pad_count = int(np.count_nonzero(sources < 0))
    counts = np.bincount(sources[order[pad_count:]], minlength=size)
    reads = None if counts.all() else np.flatnonzero(counts)
    return _Gather(order, pad_count, (np.cumsum(counts) - counts)[counts > 0], reads)


def _gathered_backward(grad: np.ndarray, input_shape, plan: _Gather):
    """_backward_arrays of a small request: each input element's positions summed by numpy's
    sequential add.reduceat (a fixed order), the pad value's by one sum."""
    values = np.take(grad.reshape(-1), plan.order)
    result = np.zeros(math.prod(input_shape), dtype=grad.dtype)
    if plan.starts.size:
        sums = np.add.reduceat(values[plan.pad_count:], plan.starts)
        if plan.reads is None:
            result = sums
        else:
            result[plan.reads] = sums
    wide = _wide_type(grad.dtype)
    total = np.add.reduce(values[:plan.pad_count], axis=None, dtype=wide)
    with np.errstate(over="ignore"):  # a float16 sum beyond its range is inf, as torch's
        value = total.astype(grad.dtype)
    return result.reshape(input_shape), np.asarray(value)


# Below this, padnd's engine crops on the calling thread anyway (padnd.pad's threads), and a
# numpy slice assignment costs less than its Python path.
_ENGINE_CROP_BYTES = 1 << 20


def _interior(grad: np.ndarray, input_shape, pads, geometry: tuple) -> np.ndarray:
    """A new C-order array of the input's shape holding grad's interior (the output positions
    that copy an input element), zero where the forward cropped."""
    if grad.nbytes >= _ENGINE_CROP_BYTES:  # padnd's threaded crop: the pads negated
        unpad = [(-before, -after) for before, after in _pad_width(pads, len(input_shape))]
        return np.ascontiguousarray(_numpy_pad(grad, unpad, "constant",
                                               negative="crop_then_pad"))
    cropped = any(axis.kept < size for axis, size in zip(geometry, input_shape))
    result = (np.zeros if cropped else np.empty)(input_shape, dtype=grad.dtype)
    result[tuple(slice(a.crop, a.crop + a.kept) for a in geometry)] = grad[
        tuple(slice(a.pad, a.pad + a.kept) for a in geometry)]
    return result


def _backward_arrays(grad: np.ndarray, input_shape, pads, mode):
    """(gradient w.r.t. the input, w.r.t. the pad value) of padnd::pad at ``grad``: grad's
    interior, then the pad sides' pad-sized contributions added into it. The result is new
    (an op's result never shares memory with its argument: torch.library's rule)."""
    if _negative_order(mode) == "map_on_original" and pads and min(pads) < 0:
        # The forward padded the whole input, then cropped: what it cropped has no gradient.
        pairs = _pad_width(pads, len(input_shape))
        grad = _numpy_pad(grad, [(max(0, -b), max(0, -a)) for b, a in pairs], "constant")
        pads = [max(0, p) for p in pads]
    if grad.size <= _GATHER_ELEMENTS:
        return _gathered_backward(grad, input_shape,
                                  _gather_plan(tuple(input_shape), tuple(pads), mode))
    geometry = _geometry(tuple(input_shape), tuple(pads), mode)
    result = _interior(grad, input_shape, pads, geometry)
    if result.size and grad.size:
        _add_pad_contributions(grad, result[tuple(slice(a.crop, a.crop + a.kept)
                                                  for a in geometry)], geometry)
    value = (_value_gradient(grad, geometry) if mode == "constant" else
             np.zeros((), dtype=grad.dtype))
    return result, value


@torch.library.custom_op(
    "padnd::pad_backward", mutates_args=(),
    schema="(Tensor grad, int[] input_shape, int[] pads, str mode) -> (Tensor, Tensor)")
def _pad_backward_op(grad, input_shape, pads, mode):
    return _pad_backward(grad, input_shape, pads, mode)


def _pad_backward(grad, input_shape, pads, mode):
    """padnd::pad_backward's computation (a CUDA tensor's: _torch_device's fold)."""
    if grad.device.type == "cuda":
        from . import _torch_device
        return _torch_device.backward(grad, input_shape, pads, mode)
    array, numpy_typed = _numpy_view(grad, "grad")
    grad_input, grad_value = _backward_arrays(array, input_shape, pads, mode)
    return _as_tensor(grad_input, numpy_typed, grad), _as_tensor(grad_value, numpy_typed, grad)


@_pad_backward_op.register_fake
def _pad_backward_fake(grad, input_shape, pads, mode):
    return grad.new_empty(input_shape), grad.new_empty(())


def _setup_pad(ctx, inputs, output):
    input, pads, mode, _ = inputs
    ctx.input_shape, ctx.pads, ctx.mode = list(input.shape), pads, mode


def _pad_jvp(ctx, input_tangent, pads_tangent, mode_tangent, value_tangent):
    """Forward-mode AD: pad is linear in (input, value), so the output's tangent is the pad of
    the input's tangent (zeros where it has none) with the value's tangent (or 0)."""
    value_tangent = value_tangent if ctx.mode == "constant" else None
    if input_tangent is None:
        input_tangent = value_tangent.new_zeros(ctx.input_shape)
    return pad(input_tangent, ctx.pads, ctx.mode, value_tangent)


def _pad_grad(ctx, grad):
    # The custom op supports no forward-mode AD or torch.func transform.
    backward = _TransformedPadBackward.apply if _transformed() else torch.ops.padnd.pad_backward
    grad_input, grad_value = backward(grad, ctx.input_shape, ctx.pads, ctx.mode)
    return grad_input, None, None, grad_value


def _setup_pad_backward(ctx, inputs, output):
    _, _, ctx.pads, ctx.mode = inputs


def _pad_backward_grad(ctx, grad_input, grad_value):
    # padnd::pad is linear in (input, value) and pad_backward is its adjoint, so the adjoint
    # of pad_backward is padnd::pad itself.
    return torch.ops.padnd.pad(grad_input, ctx.pads, ctx.mode, grad_value), None, None, None


_pad_op.register_autograd(_pad_grad, setup_context=_setup_pad)
_pad_backward_op.register_autograd(_pad_backward_grad, setup_context=_setup_pad_backward)


class _EagerPad(torch.autograd.Function):
    """padnd::pad for eager autograd: the custom op's forward and backward without its dispatch,
    which costs many times a small pad's forward and backward (docs/perf-torch.md). The
    backward of a backward (create_graph) goes through padnd::pad_backward, differentiable.
    forward takes ctx (no setup_context): Function.apply then skips binding the arguments to
    forward's signature (with inspect, slow); torch.func's transforms, which need
    setup_context, take _TransformedPad. jvp gives forward-mode AD."""

    @staticmethod
    def forward(ctx, input, pads, mode, value):
        _setup_pad(ctx, (input, pads, mode, value), None)
        return _pad_forward(input, pads, mode, value.item())

    @staticmethod
    def backward(ctx, grad):
        # create_graph (the gradient is differentiated again), or a batch of gradients
        # (autograd.grad(is_grads_batched=True), gradcheck's batched check: a wrapper tensor
        # whose memory padnd cannot read): the custom op, which torch's vmap fallback runs
        # once per batch element.
        if torch.is_grad_enabled() or _is_functorch_wrapped(grad):
            return _pad_grad(ctx, grad)
        grad_input, grad_value = _pad_backward(grad, ctx.input_shape, ctx.pads, ctx.mode)
        return grad_input, None, None, grad_value

    jvp = staticmethod(_pad_jvp)


class _TransformedPad(torch.autograd.Function):
    """padnd::pad under torch.func's transforms (vmap, grad, jvp), which take a Function with
    setup_context and a vmap rule. Each transform hands its methods tensors it has unwrapped;
    the calls to pad() inside them meet any outer transform again."""

    @staticmethod
    def forward(input, pads, mode, value):
        return _pad_forward(input, pads, mode, value.item())

    setup_context = staticmethod(_setup_pad)
    backward = staticmethod(_pad_grad)
    jvp = staticmethod(_pad_jvp)

    @staticmethod
    def vmap(info, in_dims, input, pads, mode, value):
        """A batch of inputs as a leading axis, which pads (of the last axes) leave alone; a
        batch of pad values one element at a time."""
        if in_dims[3] is not None:
            return _each_element(_TransformedPad.apply, info, in_dims, input, pads, mode, value)
        batch = input.movedim(in_dims[0], 0)
        return pad(batch, pads, mode, value if mode == "constant" else None), 0


class _TransformedPadBackward(torch.autograd.Function):
    """padnd::pad_backward under forward-mode AD and torch.func's transforms (the custom op
    supports neither): linear in grad, with padnd::pad as its adjoint."""

    @staticmethod
    def forward(grad, input_shape, pads, mode):
        return _pad_backward(grad, input_shape, pads, mode)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.input_shape, ctx.pads, ctx.mode = inputs

    @staticmethod
    def backward(ctx, grad_input, grad_value):
        value = grad_value if ctx.mode == "constant" else None
        return pad(grad_input, ctx.pads, ctx.mode, value), None, None, None

    @staticmethod
    def jvp(ctx, grad_tangent, *_):
        return _TransformedPadBackward.apply(grad_tangent, ctx.input_shape, ctx.pads, ctx.mode)

    @staticmethod
    def vmap(info, in_dims, grad, input_shape, pads, mode):
        return _each_element(_TransformedPadBackward.apply, info, in_dims, grad, input_shape,
                             pads, mode)


def _each_element(function, info, in_dims, *args):
    """A vmap rule: ``function`` of each batch element, the results stacked on axis 0
    (``in_dims``: a tensor's batch axis, None or, for a list, a list of None)."""
    results = [function(*(arg.select(dim, i) if isinstance(dim, int) else arg
                          for arg, dim in zip(args, in_dims)))
               for i in range(info.batch_size)]
    if isinstance(results[0], tuple):
        return tuple(map(torch.stack, zip(*results))), (0,) * len(results[0])
    return torch.stack(results), 0


_functorch_depth = torch._C._functorch.get_dynamic_layer_stack_depth


def _is_functorch_wrapped(tensor) -> bool:
    """A batched tensor (torch's legacy vmap, as autograd.grad(is_grads_batched=True) makes,
    or functorch's) or another functorch wrapper: no memory of its own to read."""
    functorch = torch._C._functorch
    return functorch.is_legacy_batchedtensor(tensor) or functorch.is_functorch_wrapped_tensor(
        tensor)
_forward_ad = torch.autograd.forward_ad


def _transformed() -> bool:
    """Whether a forward-mode AD level or a torch.func transform is active: tensors may then
    carry tangents or be wrappers, which the paths that read memory directly would miss."""
    return _forward_ad._current_level >= 0 or _functorch_depth() > 0


def _check_pads(pad, shape, mode: str) -> list:
    pads = list(map(operator.index, pad))
    if len(pads) % 2 or len(pads) > 2 * len(shape):
        raise PadError(f"pad: expected an even number of values, at most 2 * input.dim() = "
                         f"{2 * len(shape)}, got {len(pads)}")
    # Crops that come first (constant, circular: F.pad narrows, then pads) may not remove more
    # than the dimension holds; reflect and replicate pad first, then crop the padded dimension.
    if pads and min(pads) < 0 and _negative_order(mode) == "crop_then_pad":
        for axis, (size, (before, after)) in enumerate(zip(shape,
                                                           _pad_width(pads, len(shape)))):
            if max(0, -before) + max(0, -after) > size:
                raise PadError(f"pad: crops ({before}, {after}) of dimension {axis} remove "
                                 f"more than its {size} elements")
    return pads


_is_compiling = torch.compiler.is_compiling
try:  # torch's own rule for the memory format of an operator's result, which F.pad follows
    from torch._prims_common import suggest_memory_format as _suggest_memory_format
except ImportError:  # a torch without it: dense channels-last tensors only
    def _suggest_memory_format(input):
        layout = torch.channels_last if input.dim() == 4 else torch.channels_last_3d
        return layout if input.is_contiguous(memory_format=layout) else torch.contiguous_format


def _openmp_runtime_path():
    """The path of the OpenMP library torch runs its operators on, if it has loaded one
    (Linux: read from the process's memory map), else None."""
    if not torch.backends.openmp.is_available():
        return None
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split(None, 5)[-1].strip() for line in maps if "/lib" in line}
    except OSError:
        return None
    runtimes = sorted(p for p in paths if re.match(r"lib(gomp|iomp5|omp)\b", os.path.basename(p)))
    torch_dir = os.path.dirname(torch.__file__)
    runtimes.sort(key=lambda p: not p.startswith(torch_dir))  # torch's own first
    return runtimes[0] if runtimes else None


# The forward's threads are torch's OpenMP threads, not padnd's pool (python/src/openmp_host.cpp).
if (_runtime := _openmp_runtime_path()) is not None:
    _padnd._use_openmp_runtime(_runtime)


def _numpy_dtypes() -> dict:
    """torch dtype -> the numpy dtype Tensor.numpy() gives it, for the dtypes numpy has."""
    table = {}
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128"):
        dtype = getattr(torch, name, None)
        if dtype is None:  # a torch without it
            continue
        try:
            table[dtype] = torch.empty(0, dtype=dtype).numpy().dtype
        except (TypeError, RuntimeError):  # numpy has no such dtype
            pass
    return table


_NUMPY_DTYPES = _numpy_dtypes()


def _reads_through_exchange_api() -> bool:
    """Whether the one-call forward reads torch's tensors through DLPack's C exchange API
    (python/src/dlpack_exchange.hpp): torch has it, DLPack 1.3 or a later 1.x. It then takes
    the dtype from the tensor (None); otherwise it needs the numpy dtype."""
    probe = _padnd.pad_flat_tensor(torch.zeros(1), None, [0, 0], "constant", None)
    return probe is not None


_HAS_EXCHANGE_API = _reads_through_exchange_api()


def _f_pad_value(value, dtype):
    """A Python number as F.pad reads it: a double (its ``float? value``), which torch converts
    to the dtype, to float16 and bfloat16 through float32 (two roundings), to integers by
    truncation. A value that F.pad refuses (beyond the dtype) stays as given: padnd casts it as
    numpy.pad does."""
    if type(value) not in (int, float) or dtype == torch.bool or dtype.is_complex:
        return value
    try:
        as_double = float(value)
        if dtype.is_floating_point:
            if dtype.itemsize == 2:
                return struct.unpack("f", struct.pack("f", as_double))[0]
            return as_double
    except OverflowError:  # beyond double or float32
        return value
    info = torch.iinfo(dtype)
    return int(as_double) if info.min <= as_double <= info.max else value


def pad(input, pad, mode: str = "constant", value=None):
    """``torch.nn.functional.pad(input, pad, mode, value)`` without its limits (module doc).

    ``pad`` is (begin, end) of the last dimension, then of the one before, and so on; negative
    values crop (in F.pad's order: the module doc). ``mode``: "constant" (``value``, default
    0: a number or a 0-d tensor, which gets a gradient), "reflect", "replicate", "circular" or
    "symmetric" (``value`` None or 0, as F.pad). The result is a new CPU tensor of the input's
    dtype. A request padnd refuses raises :class:`PadError` (ValueError and RuntimeError)."""
    try:
        return _pad(input, pad, mode, value)
    except PadError:
        raise
    except ValueError as error:  # padnd.pad's (numpy's) errors: F.pad raises RuntimeError
        raise PadError(*error.args).with_traceback(error.__traceback__) from None


def _pad(input, pad, mode: str, value):
    """pad()'s work, raising ValueError where F.pad raises RuntimeError."""
    if (isinstance(input, torch.Tensor) and not input.is_contiguous()
            and (order := _channels_last_order(input, mode)) is not None):
        # Checked here: the messages name the caller's dimensions, not the permuted view's.
        return _channels_last_pad(input, _check_pads(pad, input.shape, mode), mode, value, order)
    if value is not None and mode == "constant" and type(input) is torch.Tensor:
        value = _f_pad_value(value, input.dtype)
    transformed = _transformed()
    if (type(input) is torch.Tensor and not input.requires_grad and not _is_compiling()
            and not transformed):
        # Nothing for autograd to see: a common call (F.pad's flat pads as non-negative ints, a
        # number or no value, a CPU tensor of a dtype numpy has) is one C++ call that reads the
        # tensor in place and returns a new tensor (or, for large outputs, a numpy array); None
        # for the general path, which owns the checks and their messages. Through torch's DLPack
        # exchange API the call reads the dtype itself (None).
        dtype = None if _HAS_EXCHANGE_API else _NUMPY_DTYPES.get(input.dtype, False)
        result = None if dtype is False else _padnd.pad_flat_tensor(input, dtype, pad,
                                                                    _MODES.get(mode), value)
        if result is not None:
            return result if type(result) is torch.Tensor else torch.from_numpy(result)
    if mode not in _MODES:
        raise _UnknownModeError(f"mode: expected one of {sorted(_MODES)}, got {mode!r}")
    if value is not None and mode != "constant":
        # F.pad takes a value of 0 in every mode, and ignores it.
        if isinstance(value, torch.Tensor) or value != 0:
            raise ValueError(f"value: only mode 'constant' takes one other than 0 (mode "
                             f"{mode!r}, value {value!r})")
        value = None
    pads = _check_pads(pad, input.shape, mode)
    tracked = torch.is_grad_enabled() and (input.requires_grad or getattr(value, "requires_grad",
                                                                           False))
    if (not tracked and not transformed and not torch.compiler.is_compiling()
            and not isinstance(value, torch.Tensor)):
        # Nothing for autograd or a tracer to see: skip the custom op's dispatch, which costs
        # more than a small pad (docs/perf-torch.md).
        return _pad_forward(input, pads, mode, 0 if value is None else value)
    if isinstance(value, torch.Tensor):
        if value.dim() != 0:
            raise ValueError(f"value: expected a number or a 0-d tensor, got shape "
                             f"{tuple(value.shape)}")
        value = value.to(input.dtype)
    else:
        value = torch.tensor(0 if value is None else value, dtype=input.dtype)
    if _functorch_depth() > 0:
        return _TransformedPad.apply(input, pads, mode, value)
    if (tracked or transformed) and not torch.compiler.is_compiling():
        return _EagerPad.apply(input, pads, mode, value)
    return torch.ops.padnd.pad(input, pads, mode, value)
