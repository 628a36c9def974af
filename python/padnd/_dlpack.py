# SPDX-License-Identifier: Apache-2.0
# DLPack in and out: tensors of other frameworks (torch, JAX, CuPy, array-api-strict) are padded
# where they lie and come back as the caller's array type.
"""padnd's functions take any CPU tensor with ``__dlpack__``: it is viewed as a numpy array
without copying (python/src/dlpack.cpp imports it, bfloat16 and float8 included), padded by the
numpy code path, and the result is handed to the tensor's own ``from_dlpack`` without copying."""
from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from . import _padnd
from ._optional import import_optional

_CPU = 1  # dlpack.h: kDLCPU
# dlpack.h's DLDeviceType names, for the error on a tensor padnd cannot read.
_DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                 9: "vpi", 10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed",
                 14: "oneapi", 15: "webgpu", 16: "hexagon", 17: "maia"}
# dlpack.h's (DLDataTypeCode, bits) of numpy's types, and of those numpy has only through ml_dtypes.
_NUMPY_TYPES = {**{(0, bits): f"int{bits}" for bits in (8, 16, 32, 64)},
                **{(1, bits): f"uint{bits}" for bits in (8, 16, 32, 64)},
                (2, 16): "float16", (2, 32): "float32", (2, 64): "float64",
                (5, 64): "complex64", (5, 128): "complex128", (6, 8): "bool"}
_ML_DTYPES = {(4, 16): "bfloat16", (7, 8): "float8_e3m4", (8, 8): "float8_e4m3",
              (9, 8): "float8_e4m3b11fnuz", (10, 8): "float8_e4m3fn", (11, 8): "float8_e4m3fnuz",
              (12, 8): "float8_e5m2", (13, 8): "float8_e5m2fnuz", (14, 8): "float8_e8m0fnu"}
_DLPACK_TYPES = {name: key for key, name in {**_NUMPY_TYPES, **_ML_DTYPES}.items()}

def is_tensor(obj) -> bool:
    """Whether padnd reads ``obj`` through DLPack: anything with ``__dlpack__`` but an ndarray."""
    return not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__")


class _Imported:
    """A DLPack tensor's memory as numpy's ``__array_interface__`` sees it. numpy arrays made
    from it keep it (their ``base``), and it keeps the producer's memory and the tensor."""

    def __init__(self, tensor, owner, address: int, item_bytes: int, shape, strides,
                 read_only: bool):
        self.tensor = tensor
        self.owner = owner
        self.__array_interface__ = {"version": 3, "data": (address, read_only),
                                    "typestr": f"|V{item_bytes}", "shape": tuple(shape),
                                    "strides": tuple(strides)}


def numpy_dtype(name: str, code: int, bits: int, lanes: int) -> np.dtype:
    if lanes == 1 and (code, bits) in _NUMPY_TYPES:
        return np.dtype(_NUMPY_TYPES[code, bits])
    if lanes == 1 and (code, bits) in _ML_DTYPES:
        ml_dtypes = import_optional("ml_dtypes", extra="torch", needed_by=f"padnd ({name})")
        return np.dtype(getattr(ml_dtypes, _ML_DTYPES[code, bits]))
    raise TypeError(f"{name}: DLPack element type (code {code}, {bits} bits, {lanes} lanes) "
                    "has no padnd type")


def device_name(device_type) -> str:
    """dlpack.h's name of a DLPack device type."""
    return _DEVICE_NAMES.get(int(device_type), f"DLPack device type {device_type}")


def dlpack_type(dtype: np.dtype) -> tuple[int, int]:
    """DLPack's (type code, bits) of a dtype that numpy_dtype returns."""
    return _DLPACK_TYPES[dtype.name]


def _check_cpu(tensor, name: str) -> None:
    try:
        device_type, device_id = tensor.__dlpack_device__()
    except (ValueError, RuntimeError) as error:  # a device DLPack has no code for (torch's meta)
        raise ValueError(f"{name}: its __dlpack_device__ failed ({error}); padnd reads tensors "
                         "in CPU memory") from error
    if device_type != _CPU:
        raise ValueError(f"{name}: a tensor on {device_name(device_type)}:{device_id}; this "
                         "function reads tensors in CPU memory (move it there first, e.g. "
                         "tensor.cpu()); padnd.pad and padnd.pad_window also take CUDA "
                         "tensors (docs/gpu.md)")


def lazy_operation(tensor) -> str | None:
    """The operation torch applies to ``tensor``'s memory when it is read (a lazy conjugate or
    negative view), which a DLPack export of that memory leaves out; None for other tensors."""
    for method, operation in (("is_conj", "conjugation"), ("is_neg", "negation")):
        check = getattr(tensor, method, None)
        if callable(check) and check():
            return operation
    return None


def as_numpy(tensor, name: str, writable: bool = False) -> np.ndarray:
    """A numpy array viewing the CPU tensor ``tensor``'s memory (no copy), in its dtype
    (ml_dtypes for bfloat16 and float8), read-only unless ``writable`` (then a tensor its
    producer marks read-only is refused). A lazy conjugate or negative view is read from a
    copy holding its values, and refused as ``writable``. ``name`` is the argument's."""
    _check_cpu(tensor, name)
    if getattr(tensor, "requires_grad", False):
        if writable:
            raise ValueError(f"{name}: requires grad; autograd cannot see padnd write into it "
                             "(pass a tensor that does not, or use padnd.torch.pad)")
        tensor = tensor.detach()  # torch exports no tensor that needs a gradient; pad has none
    lazy = lazy_operation(tensor)
    if lazy is not None and writable:
        raise ValueError(f"{name}: a lazy {lazy} view: its memory does not hold its values, "
                         "so padnd cannot write them (pass a tensor that does, e.g. "
                         "resolve_conj() or resolve_neg() of it)")
    if lazy is not None:
        tensor = tensor.resolve_conj().resolve_neg()
    if writable and not _padnd.dlpack_states_writable(tensor):
        raise ValueError(f"{name}: is read-only (its DLPack producer does not state that it "
                         "may be written: immutable, or DLPack before 1.0)")
    importer = _padnd.dlpack_import_writable if writable else _padnd.dlpack_import
    try:
        owner, address, (code, bits, lanes), shape, strides, _ = importer(tensor, name)
    except TypeError:
        _raise_refusal(tensor, name)
    dtype = numpy_dtype(name, code, bits, lanes)
    memory = _Imported(tensor, owner, address, dtype.itemsize, shape, strides,
                       read_only=not writable)
    return np.asarray(memory).view(dtype)


def _raise_refusal(tensor, name: str):
    """Why nanobind did not import ``tensor`` (its caster does not say): the producer's own
    error, else a tensor DLPack importers do not take (more than 64 axes, say)."""
    try:
        tensor.__dlpack__()
    except Exception as error:
        raise TypeError(f"{name}: its __dlpack__ failed: {error}") from error
    raise TypeError(f"{name}: a {type(tensor).__name__} that padnd cannot import through DLPack")


def source_tensor(array: np.ndarray):
    """The tensor that ``as_numpy`` made ``array`` from, or None for any other array."""
    base = array.base
    while isinstance(base, np.ndarray):  # numpy keeps a view's view as its base
        base = base.base
    return base.tensor if isinstance(base, _Imported) else None


def namespace(tensor):
    """The module whose ``from_dlpack`` makes arrays of ``tensor``'s type: its array API
    namespace (JAX, array-api-strict, CuPy), else its top-level package (torch)."""
    if hasattr(tensor, "__array_namespace__"):
        return tensor.__array_namespace__()
    package = importlib.import_module(type(tensor).__module__.partition(".")[0])
    if not hasattr(package, "from_dlpack"):
        raise TypeError(f"cannot return a {type(tensor).__qualname__}: neither it nor its "
                        f"package {package.__name__!r} offers from_dlpack")
    return package


def like(result: np.ndarray, tensor) -> Any:
    """``result`` as an array of ``tensor``'s framework, sharing its memory."""
    code, bits = dlpack_type(result.dtype)  # the dtype of a tensor numpy_dtype read
    producer = _padnd.dlpack_export(result, result.__array_interface__["data"][0], code, bits,
                                    list(result.shape), list(result.strides))
    return namespace(tensor).from_dlpack(producer)


def call_on_numpy(function: Callable, array, out, **arguments) -> Any:
    """``function(array, out=out, **arguments)`` (padnd.pad, pad_window) with DLPack tensors
    viewed as numpy arrays: returns ``out`` itself, or the result in ``array``'s type."""
    data = as_numpy(array, "array") if is_tensor(array) else array
    target = as_numpy(out, "out", writable=True) if is_tensor(out) else out
    result = function(data, out=target, **arguments)
    if out is not None:
        return out
    return like(result, array) if data is not array else result
