# SPDX-License-Identifier: Apache-2.0
# padnd.pad and pad_window on tensors in CUDA memory, through padnd's CUDA executor.
"""A CUDA DLPack tensor (torch, CuPy, JAX, any producer) is padded on its device, ordered by
DLPack's stream protocol, and comes back as the caller's kind of tensor on the same device.

Streams: padnd runs on the caller's stream, the current stream of torch or CuPy on the
tensor's device, and for other producers (JAX) on the legacy default stream; it passes that
stream to each ``__dlpack__`` it calls, so the producer orders its pending work before it.
Results: torch and CuPy allocate them (``empty`` on the device: their caching allocators, and
the memory counts as theirs); for other producers padnd allocates them (cudaMalloc) and hands
them to the producer's ``from_dlpack`` through a producer whose ``__dlpack__(stream=...)``
orders the consumer's stream after padnd's, as DLPack asks of a producer; that memory is freed
(cudaFree, which waits for the device) when the result is collected."""
from __future__ import annotations

import sys

from . import _dlpack, _padnd
from ._dtypes import element_type_name
from ._window import window_ranges

_CUDA = 2  # dlpack.h: kDLCUDA
_LEGACY_STREAM = 1  # DLPack's number for the legacy default stream (0 is not allowed)


def device_of(obj) -> int | None:
    """The CUDA device of a DLPack tensor in CUDA memory, else None."""
    if not _dlpack.is_tensor(obj):
        return None
    try:
        device_type, device_id = obj.__dlpack_device__()
    except (ValueError, RuntimeError):  # a device DLPack has no code for: _dlpack's error
        return None
    return int(device_id) if int(device_type) == _CUDA else None


def involved(array, out) -> bool:
    """Whether padnd.pad's ``array`` or ``out`` lies in CUDA memory."""
    return device_of(array) is not None or device_of(out) is not None


def _framework(tensor):
    """("torch" | "cupy" | None, the module) of ``tensor``, for its stream and allocator."""
    for module_name, type_name in (("torch", "Tensor"), ("cupy", "ndarray")):
        module = sys.modules.get(module_name)
        if module is not None and isinstance(tensor, getattr(module, type_name)):
            return module_name, module
    return None, None


def stream_of(tensor, device: int) -> int:
    """The DLPack stream number padnd runs on for ``tensor``'s caller: the current stream of
    torch or CuPy on ``device``, else the legacy default stream."""
    kind, module = _framework(tensor)
    handle = 0
    if kind == "torch":
        handle = module.cuda.current_stream(device).cuda_stream
    elif kind == "cupy":
        with module.cuda.Device(device):
            handle = module.cuda.get_current_stream().ptr
    return handle or _LEGACY_STREAM  # a framework's 0 is the legacy default stream


class DeviceResult:
    """A DLPack producer of a result padnd allocated: ``__dlpack__(stream=S)`` orders the
    consumer's stream S after padnd's work (DLPack: None means the legacy default stream, -1
    asks for no ordering)."""

    def __init__(self, producer, device: int, stream: int):
        self._producer, self._device, self._stream = producer, device, stream

    def __dlpack_device__(self):
        return _CUDA, self._device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        consumer = _LEGACY_STREAM if stream is None else stream
        if consumer != -1:
            _padnd.cuda_stream_wait(self._device, self._stream, consumer)
        keywords = {k: v for k, v in (("max_version", max_version), ("dl_device", dl_device),
                                      ("copy", copy)) if v is not None}
        return self._producer.__dlpack__(**keywords)


def _import(tensor, name: str, writable: bool, stream: int):
    """(owner, address, numpy dtype, shape, byte strides) of a CUDA tensor, its producer asked
    to order its work before ``stream``."""
    if getattr(tensor, "requires_grad", False):
        tensor = tensor.detach()  # torch exports no tensor that needs a gradient
    lazy = _dlpack.lazy_operation(tensor)
    if lazy is not None:
        raise ValueError(f"{name}: a lazy {lazy} view: its memory does not hold its values "
                         "(pass resolve_conj() or resolve_neg() of it)")
    if writable and not _padnd.dlpack_states_writable(tensor):
        raise ValueError(f"{name}: is read-only (its DLPack producer does not state that it "
                         "may be written: immutable, or DLPack before 1.0)")
    owner, address, (code, bits, lanes), shape, strides, _ = _padnd.dlpack_import_cuda(
        tensor, name, writable, stream)
    return owner, address, _dlpack.numpy_dtype(name, code, bits, lanes), tuple(shape), strides


def _new_result(array, shape: list, dtype, device: int, stream: int):
    """(the result the caller gets, where padnd writes it: the tensor to import, or
    (address, byte strides) of memory padnd allocated): a new dense tensor of ``array``'s
    kind, ``dtype`` and ``shape`` on ``device``."""
    kind, module = _framework(array)
    if kind == "torch":
        result = module.empty(shape, dtype=array.dtype, device=array.device)
        return result, result
    if kind == "cupy":
        with module.cuda.Device(device):
            result = module.empty(shape, dtype=array.dtype)
        return result, result
    nbytes = dtype.itemsize
    strides: list[int] = []
    for n in reversed(shape):
        strides.insert(0, nbytes)
        nbytes *= n
    owner, address = _padnd.cuda_buffer(device, nbytes)
    code, bits = _dlpack.dlpack_type(dtype)
    producer = _padnd.dlpack_export(owner, address, code, bits, shape, strides, _CUDA, device)
    return DeviceResult(producer, device, stream), (address, strides)


def _written(target, lengths: list, dtype, stream: int):
    """(address, byte strides) of the tensor ``target`` padnd writes the result into, checked
    against the result's shape and dtype."""
    _, address, out_dtype, out_shape, out_strides = _import(target, "out", True, stream)
    if list(out_shape) != lengths or out_dtype != dtype:
        raise ValueError(f"out: shape {out_shape} and dtype {out_dtype} do not match the "
                         f"result's, {tuple(lengths)} and {dtype}")
    return address, out_strides


def pad(function: str, array, out, pad_width, mode, window, negative, interior, kwargs: dict):
    """padnd.pad (``window`` None) or pad_window of a CUDA tensor, into ``out`` or a new tensor
    of ``array``'s kind; returns what padnd.pad returns."""
    from ._numpy_pad import _shape_request  # numpy.pad's rules: the numpy adapter's own

    device = device_of(array)
    if device is None:
        raise ValueError(f"array: in CPU memory while out is on cuda:{device_of(out)}; "
                         f"{function} writes where it reads (move one of them)")
    if out is not None and device_of(out) != device:
        raise ValueError(f"out: expected a tensor on cuda:{device} as array is, got "
                         f"{_describe_device(out)}")
    _check_available(device)
    stream = stream_of(array, device)
    _, in_address, dtype, shape, in_strides = _import(array, "array", False, stream)
    native, request = _shape_request(shape, dtype, pad_width, mode, negative, interior, kwargs)
    if native != dtype:  # never for DLPack's types, which numpy holds natively
        raise TypeError(f"array: dtype {dtype} is not padded on CUDA devices")
    spec = request.spec()
    starts, lengths = window_ranges(() if window is None else window,
                                    _padnd.spec_shape(spec, list(shape)))
    result, target = ((out, out) if out is not None else
                      _new_result(array, lengths, dtype, device, stream))
    out_address, out_strides = (target if isinstance(target, tuple) else
                                _written(target, lengths, dtype, stream))
    _padnd.cuda_execute_spec(spec, in_address, element_type_name(dtype), list(shape),
                             list(in_strides), out_address, 0, device, stream,
                             window_start=starts, window_shape=lengths,
                             out_strides=list(out_strides))
    if isinstance(result, DeviceResult):  # the producer's framework imports it (its stream)
        return _dlpack.namespace(array).from_dlpack(result)
    return result


def _check_available(device: int) -> None:
    if not _padnd.cuda_built():
        raise ValueError(f"array: a tensor on cuda:{device}, and this padnd was built without "
                         "its CUDA executor (build it with -DPADND_CUDA=ON and the CUDA "
                         "toolkit's nvcc; docs/gpu.md)")
    if not _padnd.cuda_available():
        raise ValueError(f"array: a tensor on cuda:{device}, and padnd's CUDA executor sees "
                         "no CUDA device (is CUDA_VISIBLE_DEVICES set, the driver loaded?)")


def _describe_device(obj) -> str:
    if not _dlpack.is_tensor(obj):
        return type(obj).__name__
    device_type, device_id = obj.__dlpack_device__()
    return f"{_dlpack.device_name(device_type)}:{device_id}"
