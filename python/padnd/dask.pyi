# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.dask.
from typing import Any, Callable, Literal, Mapping, Sequence

import dask.array as da
import numpy.typing as npt

__all__ = ["pad"]

_PadWidth = (int | Sequence[int] | Sequence[Sequence[int]] | npt.ArrayLike
             | Mapping[int, int | tuple[int, int]])

def pad(
    x: da.Array | npt.ArrayLike,
    pad_width: _PadWidth,
    mode: str | Sequence[str] | Callable[..., Any] = "constant",
    *,
    chunks: Any = None,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    constant_values: Any = ...,
    end_values: Any = ...,
    stat_length: Any = ...,
    reflect_type: Literal["even", "odd"] = ...,
    **kwargs: Any,
) -> da.Array: ...
