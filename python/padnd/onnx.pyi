# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.onnx.
from typing import Any, Literal, Sequence

import numpy as np
import numpy.typing as npt

_Mode = Literal["constant", "reflect", "edge", "wrap"]

def pad(
    data: npt.ArrayLike,
    pads: Sequence[int] | npt.NDArray[np.integer[Any]],
    constant_value: Any | None = None,
    axes: Sequence[int] | npt.NDArray[np.integer[Any]] | None = None,
    mode: _Mode = "constant",
    opset: int = 25,
) -> np.ndarray: ...
def infer_shape(
    shape: int | Sequence[int],
    pads: Sequence[int] | npt.NDArray[np.integer[Any]],
    constant_value: Any | None = None,
    axes: Sequence[int] | npt.NDArray[np.integer[Any]] | None = None,
    mode: _Mode = "constant",
    opset: int = 25,
    dtype: npt.DTypeLike = "float32",
) -> tuple[int, ...]: ...
