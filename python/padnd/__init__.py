# SPDX-License-Identifier: Apache-2.0
# padnd: N-dimensional padding (numpy.pad's index modes) on a C++ engine that never copies input.
"""N-dimensional tensor padding.

``padnd.pad`` is a drop-in for ``numpy.pad`` in the modes constant, edge, reflect, symmetric,
wrap and empty; see its docstring for the extensions and for what is not supported yet.
``padnd.onnx.pad``, ``padnd.openvino.pad`` and ``padnd.ngraph.pad`` follow those frameworks' Pad
operators exactly (each with an ``infer_shape`` that needs no data).
"""
from . import ngraph, onnx, openvino
from ._numpy_pad import pad

__version__ = "0.1.0"
__all__ = ["pad", "onnx", "openvino", "ngraph", "__version__"]
