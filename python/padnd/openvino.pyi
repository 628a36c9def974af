# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.openvino.
from typing import Any, Literal, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["pad", "infer_shape", "extension_path", "read_model"]

def extension_path() -> str: ...
def read_model(model: Any, core: Any | None = None, replace_pad: bool = False) -> Any: ...

_Mode = Literal["constant", "edge", "reflect", "symmetric"]
_Ints = Sequence[int] | npt.NDArray[np.integer[Any]]

def pad(
    data: npt.ArrayLike,
    pads_begin: _Ints,
    pads_end: _Ints,
    pad_mode: _Mode,
    pad_value: Any | None = None,
    version: Literal[1, 12] = 12,
    *,
    window: slice | tuple[slice, ...] | None = None,
) -> np.ndarray: ...
def infer_shape(
    shape: int | Sequence[int],
    pads_begin: _Ints,
    pads_end: _Ints,
    pad_mode: _Mode,
    pad_value: Any | None = None,
    version: Literal[1, 12] = 12,
    dtype: npt.DTypeLike = "float32",
) -> tuple[int, ...]: ...
