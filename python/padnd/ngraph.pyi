# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.ngraph.
from typing import Any, Literal, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["pad", "infer_shape"]

_Ints = Sequence[int] | npt.NDArray[np.integer[Any]]

def pad(
    arg: npt.ArrayLike,
    pad_value: Any | None,
    padding_below: _Ints,
    padding_above: _Ints,
    padding_interior: _Ints | None = None,
    mode: str = "constant",
    version: Literal["v0", "v1"] = "v0",
    *,
    window: slice | tuple[slice, ...] | None = None,
) -> np.ndarray: ...
def infer_shape(
    shape: int | Sequence[int],
    pad_value: Any | None,
    padding_below: _Ints,
    padding_above: _Ints,
    padding_interior: _Ints | None = None,
    mode: str = "constant",
    version: Literal["v0", "v1"] = "v0",
    dtype: npt.DTypeLike = "float32",
) -> tuple[int, ...]: ...
