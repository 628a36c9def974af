# SPDX-License-Identifier: Apache-2.0
# Type stubs for the padnd package.
import os
from typing import Any, Callable, Literal, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from . import dask as dask, jax as jax, ngraph as ngraph, onnx as onnx, openvino as openvino
from . import torch as torch, xarray as xarray

__version__: str
__all__ = [
    "pad", "pad_window", "prepare_windows", "PreparedWindows", "input_window", "infer_shape",
    "pad_file", "set_output_cache", "output_cache_info", "onnx", "openvino", "ngraph",
    "__version__",
]

def set_output_cache(limit_bytes: int | str | None = None, *,
                     idle_seconds: float | None = None) -> dict[str, Any]: ...
def output_cache_info() -> dict[str, Any]: ...

_PadWidth = (int | Sequence[int] | Sequence[Sequence[int]] | npt.ArrayLike
             | Mapping[int, int | tuple[int, int]])

def pad(
    array: npt.ArrayLike,
    pad_width: _PadWidth,
    mode: str | Sequence[str] | Callable[..., Any] = "constant",
    *,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    out: np.ndarray | None = None,
    threads: int | None = None,
    constant_values: Any = ...,
    end_values: Any = ...,
    stat_length: Any = ...,
    reflect_type: Literal["even", "odd"] = ...,
    **kwargs: Any,
) -> np.ndarray: ...

_Window = slice | tuple[slice, ...]

def pad_window(
    array: npt.ArrayLike,
    pad_width: _PadWidth,
    mode: str | Sequence[str] | Callable[..., Any] = "constant",
    *,
    window: _Window,
    input_shape: Sequence[int] | None = None,
    input_start: Sequence[int] | None = None,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    out: np.ndarray | None = None,
    threads: int | None = None,
    constant_values: Any = ...,
    end_values: Any = ...,
    stat_length: Any = ...,
    reflect_type: Literal["even", "odd"] = ...,
    **kwargs: Any,
) -> np.ndarray: ...

class PreparedWindows:
    def __init__(
        self,
        array: npt.ArrayLike,
        pad_width: _PadWidth,
        mode: str | Sequence[str] | Callable[..., Any] = "constant",
        *,
        negative: Literal["map_on_original", "crop_then_pad"] | None = None,
        interior: int | Sequence[int] | None = None,
        threads: int | None = None,
        constant_values: Any = ...,
        end_values: Any = ...,
        stat_length: Any = ...,
        reflect_type: Literal["even", "odd"] = ...,
        **kwargs: Any,
    ) -> None: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def prepared_bytes(self) -> int: ...
    def window(self, window: _Window, out: np.ndarray | None = None) -> np.ndarray: ...
    def __getitem__(self, window: _Window) -> np.ndarray: ...

prepare_windows = PreparedWindows

def input_window(
    shape: Sequence[int],
    pad_width: _PadWidth,
    mode: str | Sequence[str] = "constant",
    *,
    window: _Window,
    dtype: npt.DTypeLike | None = None,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    **kwargs: Any,
) -> tuple[slice, ...]: ...

def infer_shape(
    shape: Sequence[int],
    pad_width: _PadWidth,
    mode: str | Sequence[str] = "constant",
    *,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    **kwargs: Any,
) -> tuple[int, ...]: ...

def pad_file(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    pad_width: _PadWidth,
    mode: str | Sequence[str] = "constant",
    *,
    memory: int | str | None = None,
    progress: bool | None = None,
    fsync: bool = True,
    negative: Literal["map_on_original", "crop_then_pad"] | None = None,
    interior: int | Sequence[int] | None = None,
    constant_values: Any = ...,
    end_values: Any = ...,
    stat_length: Any = ...,
    reflect_type: Literal["even", "odd"] = ...,
    **kwargs: Any,
) -> None: ...
