# SPDX-License-Identifier: Apache-2.0
# F.pad's geometry as padnd pads it, and the adjoint's folds: numpy, no torch. padnd.torch's
# backward folds numpy arrays (CPU tensors) or, through _torch_device.fold, tensors on a device.
from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import numpy as np

from ._numpy_pad import pad as _numpy_pad

# F.pad's mode names (and symmetric, which F.pad lacks) -> numpy.pad's.
_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap",
          "symmetric": "symmetric"}


def _negative_order(mode: str) -> str:
    """padnd.pad's ``negative=`` for F.pad's crops in ``mode`` (padnd.torch's module doc)."""
    return "crop_then_pad" if mode in ("constant", "circular") else "map_on_original"


def _pad_width(pads, ndim: int) -> list:
    """F.pad's flat pads (last dimension first) as numpy's (before, after) pair per axis."""
    # pads[-2::-2] are the begins from the first padded axis on, pads[-1::-2] their ends.
    return [(0, 0)] * (ndim - len(pads) // 2) + list(zip(pads[-2::-2], pads[-1::-2]))


def _numpy_pad_width(pads, ndim: int):
    """_pad_width as numpy.pad takes it: a 0-d input (F.pad allows no pads there, and returns
    the value) gets 0, since numpy.pad refuses an empty pad_width."""
    return _pad_width(pads, ndim) if ndim else 0


def _output_shape(shape, pads) -> list:
    pairs = _pad_width(pads, len(shape))
    return [size + before + after for size, (before, after) in zip(shape, pairs)]


def _sources(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position of one axis, the input index it reads (-1: the pad value)."""
    return _numpy_pad(np.arange(size, dtype=np.int64), [(before, after)], _MODES[mode],
                      negative="crop_then_pad", **({"constant_values": -1}
                                                   if mode == "constant" else {}))


class _Side(NamedTuple):
    """One pad side of one axis, as the backward folds it: the output positions ``slab`` of
    the axis read the kept (cropped) input indices ``low`` to ``low + span - 1``; ``take``
    (slab-local positions in increasing source order, None: the slab in order) and ``starts``
    (where each source's run begins in that order, None: one position per source) give the
    sums per source, ``reads`` which of the span's indices have one (None: all). ``ranks``
    (for a span over 1, else empty) are the same sums as gathers: rank r holds, for each index
    of the span, the slab-local position of its (r+1)-th reading position, or the slab's
    length where it has none (a zero appended to the slab); summing the ranks' gathers in
    order adds each source's positions in increasing order."""
    slab: slice
    low: int
    span: int
    take: np.ndarray | slice | None
    starts: np.ndarray | None
    reads: np.ndarray | None
    ranks: tuple = ()


def _side(slab: slice, sources: np.ndarray) -> _Side:
    low = int(sources.min())
    local = sources - low
    span = int(local.max()) + 1
    order = np.argsort(local, kind="stable")  # equal sources keep increasing positions
    counts = np.bincount(local, minlength=span)
    reads = None if counts.all() else np.flatnonzero(counts)
    if reads is None and span == local.size:  # each source read once: a permutation
        take = (None if (order == np.arange(span)).all() else
                slice(None, None, -1) if (order == np.arange(span)[::-1]).all() else order)
        return _Side(slab, low, span, take, None, None)
    starts = (np.cumsum(counts) - counts)[counts > 0]
    return _Side(slab, low, span, order, starts, reads, _ranks(order, counts))


def _ranks(order: np.ndarray, counts: np.ndarray) -> tuple:
    """_Side.ranks of a side whose span's indices are read ``counts`` times, by the slab-local
    positions ``order`` lists in increasing source order."""
    if counts.size == 1:
        return ()
    first = np.cumsum(counts) - counts  # where each span index's positions begin in order
    ranks = []
    for r in range(int(counts.max())):
        rank = np.full(counts.size, order.size, dtype=np.int64)
        has = counts > r
        rank[has] = order[first[has] + r]
        ranks.append(rank)
    return tuple(ranks)


class _Axis(NamedTuple):
    """One axis of padnd::pad's geometry: the input keeps ``kept`` elements from ``crop``
    on, which land at output ``pad``; ``sides`` are the pad sides whose values it reads."""
    crop: int
    kept: int
    pad: int
    sides: tuple


@functools.lru_cache(maxsize=256)
def _geometry(input_shape: tuple, pads: tuple, mode: str) -> tuple:
    """padnd::pad's per-axis geometry (_Axis), for the backward (cached: a training loop
    repeats the same request)."""
    axes = []
    for size, (before, after) in zip(input_shape, _pad_width(pads, len(input_shape))):
        crop, kept = max(0, -before), size - max(0, -before) - max(0, -after)
        grow_before, grow_after = max(0, before), max(0, after)
        sides = []
        if mode != "constant" and kept > 0 and grow_before + grow_after > 0:
            sources = _sources(kept, grow_before, grow_after, mode)
            end = grow_before + kept
            for slab in (slice(0, grow_before), slice(end, end + grow_after)):
                if slab.stop > slab.start:
                    sides.append(_side(slab, sources[slab]))
        axes.append(_Axis(crop, kept, grow_before, tuple(sides)))
    return tuple(axes)


def _fold(region: np.ndarray, axis: int, side: _Side) -> np.ndarray:
    """The adjoint of one pad side along ``axis``: per source index of the span, the sum of
    ``region``'s positions that read it, added in increasing position order (numpy's
    sequential add.reduceat: the same bits on every run)."""
    if side.take is None:  # each source once, in order
        return region
    if isinstance(side.take, slice):  # each source once, reversed
        return region[(slice(None),) * axis + (side.take,)]
    if side.starts is None:  # each source once: a reordering
        return np.take(region, side.take, axis=axis)
    sums = np.add.reduceat(np.take(region, side.take, axis=axis), side.starts, axis=axis)
    if side.reads is None:
        return sums
    shape = list(region.shape)
    shape[axis] = side.span
    block = np.zeros(shape, dtype=region.dtype)
    block[(slice(None),) * axis + (side.reads,)] = sums
    return block


def _add_pad_contributions(grad, kept, geometry: tuple, fold=_fold) -> None:
    """Adds into ``kept`` (the kept input's gradient, holding grad's interior) what the pad
    positions read from it: the adjoint is the product over axes of (interior + sides), so
    each output region with some axes on a side and the others interior folds along those
    axes into a block of the input, pad-sized. Regions are added in a fixed order. numpy
    arrays, or with ``fold`` _torch_device.fold, tensors on any device."""
    choices = [(None, *axis.sides) for axis in geometry]
    for combination in itertools.product(*choices):
        if all(side is None for side in combination):
            continue  # the interior: already in kept
        region = grad[tuple(slice(axis.pad, axis.pad + axis.kept) if side is None else
                            side.slab for axis, side in zip(geometry, combination))]
        target = []
        for axis, side in enumerate(combination):
            if side is None:
                target.append(slice(None))
            else:
                region = fold(region, axis, side)
                target.append(slice(side.low, side.low + side.span))
        kept[tuple(target)] += region
