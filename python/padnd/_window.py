# SPDX-License-Identifier: Apache-2.0
# Windows of a padded result: numpy's basic slicing (step 1) of the output, as starts and lengths.
from __future__ import annotations

import operator


def window_ranges(window, shape) -> tuple[list[int], list[int]]:
    """Starts and lengths of ``result[window]`` for a result of ``shape``: ``window`` is a slice
    or a tuple of slices (step 1 or None; negative and out-of-range bounds as numpy clips them);
    axes without a slice are whole."""
    slices = window if isinstance(window, tuple) else (window,)
    if len(slices) > len(shape):
        raise IndexError(f"window: {len(slices)} slices for an output of {len(shape)} axes")
    starts, lengths = [], []
    for axis, n in enumerate(shape):
        item = slices[axis] if axis < len(slices) else slice(None)
        if not isinstance(item, slice):
            raise TypeError(f"window: axis {axis}: expected a slice, got {item!r}")
        step = 1 if item.step is None else operator.index(item.step)
        if step != 1:
            raise ValueError(f"window: axis {axis}: step {step} is not supported (only 1)")
        start, stop, _ = slice(item.start, item.stop).indices(n)
        starts.append(start)
        lengths.append(max(0, stop - start))
    return starts, lengths
