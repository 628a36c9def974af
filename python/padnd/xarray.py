# SPDX-License-Identifier: Apache-2.0
# padnd.xarray.pad: xarray's pad with padnd's results (numpy's, in every mode) for the data.
"""``padnd.xarray.pad``: ``DataArray.pad`` / ``Dataset.pad`` with the data padded by padnd.

Coordinates are padded by xarray's rule for its own ``pad``; data variables and coordinates go
through :func:`padnd.pad` (numpy-backed) or :func:`padnd.dask.pad` (dask-backed), so every
mode gives numpy.pad's values (median, odd reflection and wide pads on dask too). The one deliberate
difference: the default constant is numpy's 0, not xarray's NaN with its dtype promotion; pass
``constant_values=np.nan`` to get xarray's missing-value fill (docs/dask.md).
"""
from __future__ import annotations

import contextlib
import numbers
import re
from collections.abc import Mapping

import numpy as np

from ._numpy_pad import pad as _numpy_backed_pad
from ._optional import import_optional

xr = import_optional("xarray", extra="xarray", needed_by="padnd.xarray")
from xarray.core import dtypes  # noqa: E402  (xarray is optional)

__all__ = ["pad"]


def pad(obj, pad_width=None, mode="constant", *, stat_length=None, constant_values=None,
        end_values=None, reflect_type=None, keep_attrs=None, **pad_width_kwargs):
    """``obj.pad(...)`` for a DataArray or Dataset, with numpy.pad's values in every mode.

    The arguments are ``xarray.DataArray.pad``'s: ``pad_width`` maps dimension names to
    ``(before, after)`` or one int (or give them as keywords, ``x=(1, 2)``); ``stat_length``,
    ``constant_values`` and ``end_values`` may be mappings by dimension (and, for a Dataset,
    ``constant_values`` by variable name). Coordinates are padded as xarray pads them (the same
    mode for edge, reflect, symmetric and wrap, else NaN), and indexes of padded dimensions are
    rebuilt. Values: numpy.pad's, through padnd.dask.pad where the data is a dask array.

    Unlike xarray, ``mode="constant"`` without ``constant_values`` pads with 0 in the data's
    dtype (numpy's default); ``constant_values=np.nan`` (or xarray's ``dtypes.NA``) asks for
    xarray's fill: the data promoted as xarray promotes it (int to float, times to NaT) and
    padded with the missing value.
    """
    if pad_width is None:
        pad_width = pad_width_kwargs
    elif pad_width_kwargs:
        raise ValueError("padnd.xarray.pad: give pad_width or its keywords, not both")
    if keep_attrs is None:
        keep_attrs = xr.get_options()["keep_attrs"] in ("default", True)
    options = {"stat_length": stat_length, "end_values": end_values,
               "reflect_type": reflect_type}
    coords = _pad_coordinates(obj.coords, pad_width, mode, constant_values, options, keep_attrs)
    if isinstance(obj, xr.DataArray):
        data = _pad_variable(obj.variable, pad_width, mode, constant_values, options,
                             keep_attrs)
        return xr.DataArray(data, coords=coords, name=obj.name)
    variables = {name: _pad_variable(obj.variables[name], pad_width, mode,
                                     _variable_constants(constant_values, name, obj[name].dims),
                                     options, keep_attrs)
                 for name in obj.data_vars}
    result = coords.to_dataset().assign(variables)
    result.attrs = dict(obj.attrs) if keep_attrs else {}
    result.encoding = dict(obj.encoding)
    return result


def _pad_coordinates(coords, pad_width, mode, constant_values, options: dict, keep_attrs):
    """The coordinates as xarray's Dataset.pad pads them: in the data's mode for edge,
    reflect, symmetric and wrap, else with NaN (xarray's promotion); the padded dimension
    coordinates get new default indexes, other indexes stay. Their data go through padnd as
    well (xarray's own pad hands dask-backed ones to dask.array.pad)."""
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        mode, constant_values = "constant", dtypes.NA
        options = dict.fromkeys(options)
    dataset = coords.to_dataset()
    padded = {name: _pad_variable(variable, pad_width, mode, constant_values, options,
                                  keep_attrs)
              for name, variable in dataset.variables.items()
              if not set(variable.dims).isdisjoint(pad_width)}
    return dataset.drop_vars(list(padded)).assign_coords(padded).coords


def _variable_constants(constant_values, name, dims):
    """A Dataset's constant_values for one data variable, chosen as xarray chooses them: by
    the variable's name, else by its dimensions, else 0 when the mapping names neither."""
    if not isinstance(constant_values, Mapping):  # any mapping, as xarray takes
        return constant_values
    if name in constant_values:
        return constant_values[name]
    if not set(dims).isdisjoint(constant_values):
        return {dim: value for dim, value in constant_values.items() if dim in dims}
    return 0


def _pad_variable(variable, pad_width, mode, constant_values, options: dict, keep_attrs):
    """One data variable padded by padnd, its pad_width and keywords by dimension turned into
    numpy.pad's per-axis form as xarray does; unpadded variables are returned unchanged."""
    widths = {dim: width for dim, width in pad_width.items() if dim in variable.dims}
    if not widths:
        return variable
    data = variable.data
    keywords = {}
    if mode == "constant" and _asks_for_missing(constant_values):
        dtype, constant_values = dtypes.maybe_promote(variable.dtype)
        data = data.astype(dtype)
    if constant_values is not None:
        keywords["constant_values"] = _by_axis(constant_values, variable)
    if options["stat_length"] is not None:
        keywords["stat_length"] = _by_axis(options["stat_length"], variable, whole=True)
    if options["end_values"] is not None:
        keywords["end_values"] = _by_axis(options["end_values"], variable)
    if options["reflect_type"] is not None:
        keywords["reflect_type"] = options["reflect_type"]
    pairs = _by_axis(widths, variable)
    with _naming_dimensions(variable.dims):
        if _is_dask(data):
            from . import dask as padnd_dask  # dask is optional: imported only for dask data

            padded = padnd_dask.pad(data, pairs, mode, **keywords)
        else:
            padded = _numpy_backed_pad(np.asarray(data), pairs, mode, **keywords)
    return xr.Variable(variable.dims, padded, attrs=variable.attrs if keep_attrs else None)


@contextlib.contextmanager
def _naming_dimensions(dims: tuple):
    """padnd's errors about "axis k" of a variable name its dimension instead, as xarray's
    callers know it: "dimension 'x' (axis 0)"."""
    try:
        yield
    except (ValueError, TypeError, OverflowError) as e:
        def name(match: re.Match) -> str:
            k = int(match[1])
            return f"dimension {dims[k]!r} (axis {k})" if k < len(dims) else match[0]

        text = re.sub(r"\baxis (\d+)\b", name, str(e))
        if text == str(e):
            raise
        raise type(e)(text) from e


def _asks_for_missing(constant_values) -> bool:
    """xarray's NA, or a NaN scalar: the caller asks for xarray's missing-value fill."""
    if constant_values is dtypes.NA:
        return True
    return isinstance(constant_values, numbers.Real) and bool(np.isnan(constant_values))


def _by_axis(option, variable, whole: bool = False):
    """A mapping by dimension as numpy's one pair per axis (a number n meaning (n, n));
    dimensions it does not name get (0, 0), or the whole axis for stat_length. Anything else
    is numpy's form already and is passed on."""
    if not isinstance(option, Mapping):
        return option
    pairs = {dim: (value, value) if isinstance(value, numbers.Number) else value
             for dim, value in option.items()}
    return [pairs.get(dim, (n, n) if whole else (0, 0))
            for dim, n in zip(variable.dims, variable.shape)]


def _is_dask(data) -> bool:
    return type(data).__module__.split(".")[0] == "dask"
