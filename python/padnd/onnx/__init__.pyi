# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.onnx.
from typing import Any, Literal, Sequence

import numpy as np
import numpy.typing as npt

from . import backend as backend
from .reference import ReferencePad as ReferencePad

__all__ = ["pad", "infer_shape", "backend", "ReferencePad", "RAW_TYPES"]

_Mode = Literal["constant", "reflect", "edge", "wrap"]
_RawType = Literal["bfloat16", "float4e2m1", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                   "float8e5m2fnuz", "float8e8m0", "int2", "int4", "uint2", "uint4"]

RAW_TYPES: tuple[str, ...]

def pad(
    data: npt.ArrayLike,
    pads: Sequence[int] | npt.NDArray[np.integer[Any]],
    constant_value: Any | None = None,
    axes: Sequence[int] | npt.NDArray[np.integer[Any]] | None = None,
    mode: _Mode = "constant",
    opset: int = 25,
    *,
    dtype: _RawType | None = None,
    shape: int | Sequence[int] | None = None,
    window: slice | tuple[slice, ...] | None = None,
) -> np.ndarray: ...
def infer_shape(
    shape: int | Sequence[int],
    pads: Sequence[int] | npt.NDArray[np.integer[Any]],
    constant_value: Any | None = None,
    axes: Sequence[int] | npt.NDArray[np.integer[Any]] | None = None,
    mode: _Mode = "constant",
    opset: int = 25,
    dtype: npt.DTypeLike | _RawType = "float32",
) -> tuple[int, ...]: ...
