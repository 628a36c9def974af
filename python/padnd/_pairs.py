# SPDX-License-Identifier: Apache-2.0
# numpy.pad's broadcasting of `pad_width`, `constant_values`, `end_values` and `stat_length` to one
# (before, after) pair per axis.
from __future__ import annotations

from typing import Any

import numpy as np


def _dict_to_sequence(pad_width: dict, ndim: int) -> list:
    # numpy >= 2.3 accepts {axis: int | (before, after)}; unlisted axes get (0, 0).
    seq: list = [(0, 0)] * ndim
    for axis, width in pad_width.items():
        if isinstance(width, int):
            seq[axis] = (width, width)
        elif (isinstance(width, tuple) and len(width) == 2
              and all(isinstance(w, int) for w in width)):
            seq[axis] = width
        else:
            raise AssertionError(f"Expected code to be unreachable, but got: {width!r}")
    return seq


def pad_pairs(pad_width, ndim: int, allow_negative: bool) -> list[tuple[int, int]]:
    """(before, after) per axis, with numpy.pad's rules and error messages.

    `allow_negative` drops only the "can't contain negative values" check (padnd's crop extension).
    """
    if isinstance(pad_width, dict):
        pad_width = _dict_to_sequence(pad_width, ndim)
    widths = np.asarray(pad_width)
    if widths.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    widths = widths.astype(np.intp, copy=False)
    negative = "index can't contain negative values"
    if widths.ndim < 3 and widths.size == 1:
        both = int(widths.ravel()[0])
        if both < 0 and not allow_negative:
            raise ValueError(negative)
        return [(both, both)] * ndim
    # Two numbers are (before, after) for every axis, except the column [[b], [a]] (one per axis).
    if widths.ndim < 3 and widths.size == 2 and widths.shape != (2, 1):
        before, after = (int(w) for w in widths.ravel())
        if (before < 0 or after < 0) and not allow_negative:
            raise ValueError(negative)
        return [(before, after)] * ndim
    lowest = widths.min()  # also raises numpy's own error for an empty pad_width
    if lowest < 0 and not allow_negative:
        raise ValueError(negative)
    return [(int(b), int(a)) for b, a in np.broadcast_to(widths, (ndim, 2)).tolist()]


def value_pairs(values, ndim: int) -> list[tuple[Any, Any]]:
    """constant_values as numpy.pad broadcasts them: scalar, (before, after), or per axis."""
    if values is None:
        return [(None, None)] * ndim
    arr = np.array(values)
    if arr.ndim < 3 and arr.size == 1:
        one = arr.ravel()[0]
        return [(one, one)] * ndim
    if arr.ndim < 3 and arr.size == 2 and arr.shape != (2, 1):
        flat = arr.ravel()
        return [(flat[0], flat[1])] * ndim
    return [tuple(pair) for pair in np.broadcast_to(arr, (ndim, 2)).tolist()]


def stat_pairs(stat_length, ndim: int) -> list[tuple[int | None, int | None]]:
    """stat_length as numpy.pad rounds (np.round, then intp) and broadcasts it; negative lengths
    are left to padnd's numpy adapter, which rejects them with numpy's message."""
    if stat_length is None:
        return [(None, None)] * ndim
    rounded = np.round(np.array(stat_length)).astype(np.intp, copy=False)
    if ndim == 0 and rounded.min() < 0:  # numpy checks (and takes the minimum) with no axis
        raise ValueError("index can't contain negative values")
    return [(int(b), int(a)) for b, a in value_pairs(rounded, ndim)]
