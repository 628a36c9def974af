# SPDX-License-Identifier: Apache-2.0
# padnd: N-dimensional padding (numpy.pad's modes) on a C++ engine that never copies input.
"""N-dimensional tensor padding.

``padnd.pad`` is a drop-in for ``numpy.pad`` in every mode (constant, edge, reflect and
symmetric with reflect_type "even" or "odd", wrap, empty, linear_ramp, maximum, mean, median,
minimum), with one mode per axis as an extension; see its docstring. ``padnd.infer_shape``
gives its result shape without data, and ``padnd.pad_window`` computes one window of the result
(``pad(...)[window]``) without the rest; ``padnd.input_window`` names the part of the input a
window reads, so that ``pad_window`` can run on just that part (``input_shape=``,
``input_start=``); ``padnd.prepare_windows`` computes numpy's statistics once for many
windows. ``padnd.pad_file`` pads ``.npy`` files larger than memory.
``padnd.torch.pad`` (F.pad without its limits, with autograd) and ``padnd.jax.pad`` (jit through an
XLA FFI handler) are loaded on first use of ``padnd.torch`` and ``padnd.jax``; every function
takes DLPack tensors (docs/frameworks.md). ``padnd.dask.pad`` and ``padnd.xarray.pad`` pad dask
arrays and xarray objects (docs/dask.md), loaded on first use as well.
``padnd.onnx.pad``, ``padnd.openvino.pad`` and ``padnd.ngraph.pad`` follow those frameworks' Pad
operators exactly (each with an ``infer_shape`` that needs no data).
Large outputs come from a cache of recently freed outputs: ``padnd.set_output_cache`` and
``padnd.output_cache_info`` (docs/python.md, "Output cache").
"""
import importlib

from . import ngraph, onnx, openvino
from ._files import pad_file
from ._output_cache import output_cache_info, set_output_cache
from ._numpy_pad import infer_shape, input_window, pad, pad_window
from ._prepared import PreparedWindows, prepare_windows
from ._padnd import __version__  # project(padnd VERSION) in CMakeLists.txt, the one source

__all__ = [
    "pad", "pad_window", "prepare_windows", "PreparedWindows", "input_window", "infer_shape",
    "pad_file", "set_output_cache", "output_cache_info", "onnx", "openvino", "ngraph",
    "__version__",
]

# Submodules whose frameworks are optional (and slow to import): loaded on first attribute
# access, as scientific Python packages do (PEP 562), so ``import padnd`` stays light.
_LAZY_SUBMODULES = frozenset({"dask", "jax", "torch", "xarray"})


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | _LAZY_SUBMODULES)
