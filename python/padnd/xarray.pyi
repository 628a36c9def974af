# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.xarray.
from typing import Any, Hashable, Literal, Mapping, TypeVar

import xarray as xr

__all__ = ["pad"]

_T = TypeVar("_T", xr.DataArray, xr.Dataset)

def pad(
    obj: _T,
    pad_width: Mapping[Hashable, int | tuple[int, int]] | None = None,
    mode: str = "constant",
    *,
    stat_length: Any = None,
    constant_values: Any = None,
    end_values: Any = None,
    reflect_type: Literal["even", "odd"] | None = None,
    keep_attrs: bool | None = None,
    **pad_width_kwargs: Any,
) -> _T: ...
