# SPDX-License-Identifier: Apache-2.0
# padnd.dask.pad: numpy.pad's results on dask arrays, with one task per output chunk.
"""``padnd.dask.pad``: :func:`padnd.pad` on dask arrays (``pip install '.[dask]'`` in padnd's
checkout).

The graph is built from the output chunks: each output chunk is one task that gathers only the
input blocks its window reads and runs :func:`padnd.pad_window` on them, or, where it is an
unchanged input block, that block itself. numpy's value modes run in two phases per axis:
the pad values of each line of blocks are reduced from its edge blocks first, then the chunks
holding pads are filled from them. docs/dask.md describes the graph, the chunk rule and the
memory each mode needs.
"""
from __future__ import annotations

import bisect
import itertools
import numbers
from typing import NamedTuple

import numpy as np

from ._numpy_pad import (_ALLOWED_KWARGS, _STAT_MODES, _check_numpy_fallback, _geometry,
                         _ramp_type, infer_shape, input_window, pad as _pad, pad_window)
from ._optional import import_optional
from ._pairs import pad_pairs, stat_pairs, value_pairs

da = import_optional("dask.array", extra="dask", needed_by="padnd.dask")
from dask._task_spec import Alias, List, Task, TaskRef  # noqa: E402  (dask is optional)
from dask.array.core import normalize_chunks  # noqa: E402
from dask.base import tokenize  # noqa: E402
from dask.highlevelgraph import HighLevelGraph  # noqa: E402

__all__ = ["pad"]


def pad(x, pad_width, mode="constant", *, chunks=None, negative=None, interior=None, **kwargs):
    """``numpy.pad`` on a dask array: a dask array whose computed value is
    ``padnd.pad(x.compute(), pad_width, mode, ...)``, which is ``numpy.pad``'s in every mode.

    The arguments are :func:`padnd.pad`'s (every mode and keyword of numpy.pad, one mode per
    axis, ``negative=`` and ``interior=``), validated as it validates them before any graph is
    built, plus ``chunks``: the output's chunks, anything ``dask.array.core.normalize_chunks``
    takes for the output shape. By default the output follows the input's chunks; a pad of at
    most half the axis's largest chunk joins its neighbouring chunk, a wider one becomes chunks
    about that size, or larger ones up to dask's ``array.chunk-size`` (docs/dask.md, "Chunks"),
    so there are no sliver chunks and no more tasks than the output's bytes need. A request that
    pads and crops nothing returns ``x`` itself, as dask.array.pad does.

    Every output chunk is one graph entry: a task reading only the input blocks its window
    needs, or the input block it equals. The value modes (linear_ramp, maximum, mean, median,
    minimum) also add one task per line of blocks along each padded axis, which reduces the
    edge blocks to the pad values; odd reflection reads whole lines along its axis.

    Inputs with unknown (NaN) chunk sizes raise ValueError: call ``x.compute_chunk_sizes()``
    first. Object arrays and a callable ``mode`` (which padnd.pad hands to numpy.pad) run
    numpy.pad's own algorithm on blocks holding whole lines, one axis at a time.
    """
    x = da.asarray(x)
    if any(size != size for axis in x.chunks for size in axis):  # NaN is not equal to itself
        raise ValueError("padnd.dask.pad: the array has unknown (NaN) chunk sizes; call "
                         "x.compute_chunk_sizes() first")
    if x.dtype.hasobject or callable(mode):
        _check_numpy_fallback(negative, interior, None)
        return _pad_by_lines(x, pad_width, mode, chunks, kwargs)
    args = _pad_args(x, pad_width, mode, negative, interior, kwargs)
    shape = infer_shape(x.shape, pad_width, mode, negative=negative, interior=interior, **kwargs)
    out_chunks = _output_chunks(x, args, shape, chunks)
    if out_chunks == x.chunks and all(pair == (0, 0) for pair in args.pairs) and not any(
            args.interiors):
        return x  # nothing padded or cropped: x itself, as dask.array.pad returns it
    name = "padnd-pad-" + tokenize(x.name, args, out_chunks)
    layer: dict = {}
    blocks = _blocks_of(x)
    steps = _steps(args, x.size == 0)
    for number, (axes, value_mode) in enumerate(steps):
        step_name = name if number == len(steps) - 1 else f"{name}-{number}"
        if value_mode:
            blocks = _value_step(layer, blocks, args, axes[0], out_chunks[axes[0]], step_name)
        else:
            blocks = _index_step(layer, blocks, args.step(axes), axes, out_chunks, step_name)
    for index, key in blocks.keys.items():
        if key != (name, *index):  # an unchanged block of an earlier array
            layer[(name, *index)] = Alias((name, *index), key)
    return _array(x, layer, name, out_chunks)


def _array(x, layer: dict, name: str, chunks: tuple):
    """The dask array of `layer`'s blocks (name, i, j, ...), which read x's blocks."""
    if da.array_expr_enabled():  # dask's opt-in expression arrays take a whole graph
        from dask.array._array_expr._collection import from_graph

        keys = [(name, *index) for index in np.ndindex(*map(len, chunks))]
        return from_graph({**dict(x.__dask_graph__()), **layer}, x._meta, chunks, keys, name)
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[x])
    return da.Array(graph, name, chunks, meta=x)


class _PadArgs(NamedTuple):
    """A numpy.pad request, one entry per axis (as padnd normalises it)."""
    pairs: tuple  # (before, after) widths
    modes: tuple  # mode names
    interiors: tuple
    reflect_type: str  # "even" or "odd"
    negative: str | None
    kwargs: dict  # the mode keywords, as given

    def value_axis(self, axis: int) -> bool:
        """Whether the axis's pads are computed from values (statistics, ramps, odd
        reflection), rather than copied from input positions."""
        mode = self.modes[axis]
        return max(self.pairs[axis]) > 0 and (
            mode in _STAT_MODES or mode == "linear_ramp"
            or (mode in ("reflect", "symmetric") and self.reflect_type == "odd"))

    def step(self, axes) -> dict:
        """padnd.pad_window's arguments padding only `axes` (the other widths 0). The keywords
        keep their values, so that numpy's casts and ramp types are those of the request."""
        padded = [k for k in axes if self.pairs[k] != (0, 0) or self.interiors[k]]
        filler = self.modes[padded[0]] if padded else "constant"
        modes = tuple(self.modes[k] if k in padded else filler for k in range(len(self.modes)))
        allowed = {keyword for mode in modes for keyword in _ALLOWED_KWARGS[mode]}
        interiors = tuple(self.interiors[k] if k in axes else 0 for k in range(len(modes)))
        return {"pad_width": tuple(self.pairs[k] if k in axes else (0, 0)
                                   for k in range(len(modes))),
                "mode": modes, "negative": self.negative,
                "interior": interiors if any(interiors) else None,
                **{key: value for key, value in self.kwargs.items() if key in allowed}}


def _pad_args(x, pad_width, mode, negative, interior, kwargs: dict) -> _PadArgs:
    """The request, validated by padnd for an input of x's shape and dtype (every error
    padnd.pad raises for that request), before any graph exists."""
    input_window(x.shape, pad_width, mode, window=(slice(0, 0),) * x.ndim, dtype=x.dtype,
                 negative=negative, interior=interior, **kwargs)
    pairs, modes, interiors, reflect_type = _geometry(x.ndim, pad_width, mode, negative,
                                                      interior, kwargs)
    modes = modes if len(modes) == x.ndim else modes * x.ndim  # one name: every axis
    return _PadArgs(tuple(pairs), modes, tuple(interiors), reflect_type, negative, dict(kwargs))


def _steps(args: _PadArgs, empty: bool) -> list[tuple[tuple[int, ...], bool]]:
    """The passes in numpy's axis order, as (axes, whether a value pass): each value axis
    alone (its pads read what the earlier axes wrote), runs of index axes together. numpy
    computes nothing for an empty input."""
    steps, run = [], []
    for axis in range(len(args.modes)):
        if empty or not args.value_axis(axis):
            run.append(axis)
            continue
        if run:
            steps.append((tuple(run), False))
            run = []
        odd = args.modes[axis] in ("reflect", "symmetric")  # reads whole lines: an index pass
        steps.append(((axis,), not odd))
    if run or not steps:
        steps.append((tuple(run), False))
    return steps


def _pad_by_lines(x, pad_width, mode, chunks, kwargs: dict):
    """numpy.pad's algorithm where padnd's engine does not apply: each axis in turn, over
    blocks holding whole lines along it. Object arrays: numpy.pad of that axis; a callable
    mode: numpy's zero padding, then the function called on every line of each axis."""
    pairs = pad_pairs(pad_width, x.ndim, allow_negative=False)
    if not callable(mode):
        infer_shape(x.shape, pad_width, mode, **kwargs)  # numpy's errors, before any graph
    fill, fill_kwargs = ("constant", {}) if callable(mode) else (mode, kwargs)
    # Given, not inferred: inferring it calls np.pad on an empty block, which edge and reflect
    # refuse, and array expressions then fail to rechunk the result.
    meta = np.empty((0,) * x.ndim, dtype=x.dtype)
    padded = x
    for axis in range(x.ndim):
        widths = _at(axis, pairs[axis], ((0, 0),) * x.ndim)
        # numpy ramps all lines of an axis with one linspace, whose formula depends on all
        # of them (numpy gh-5437): a ramp's pass is one block.
        lines = padded.rechunk(-1 if fill == "linear_ramp" else {axis: -1})
        padded = lines.map_blocks(np.pad, widths, fill, **fill_kwargs, dtype=x.dtype,
                                  chunks=_at(axis, (sum(pairs[axis]) + x.shape[axis],),
                                             lines.chunks), meta=meta)
    for axis in range(x.ndim) if callable(mode) else ():
        padded = padded.rechunk({axis: -1}).map_blocks(_call_on_lines, mode, pairs[axis],
                                                       axis, kwargs, dtype=x.dtype, meta=meta)
    cores = [_core_chunks(x.chunks[k], *pairs[k], 0, padded.shape[k]) for k in range(x.ndim)]
    rule = tuple(None if core is None else _axis_chunks(core, *pairs[k], padded.shape[k],
                                                        max(core))
                 for k, core in enumerate(cores))
    # An axis that is all pad is one chunk: dask cannot size "auto" chunks of objects.
    return padded.rechunk(normalize_chunks(
        tuple(-1 if c is None else c for c in rule) if chunks is None else chunks,
        padded.shape, dtype=x.dtype))


def _call_on_lines(block, function, widths, axis: int, kwargs: dict):
    """numpy.pad's callable mode on a block of whole lines: function(line, widths, axis,
    kwargs) on each line along `axis`, in place."""
    block = block.copy()
    lines = np.moveaxis(block, axis, -1)
    for index in np.ndindex(lines.shape[:-1]):
        function(lines[index], widths, axis, kwargs)
    return block


# --- Chunks -------------------------------------------------------------------------------


def _output_chunks(x, args: _PadArgs, shape: tuple, chunks) -> tuple:
    """The output's chunks: `chunks` as dask normalises it, else the rule of _axis_chunks
    (dask's "auto" on axes without an input chunk next to their pads)."""
    cores = [_core_chunks(x.chunks[k], *args.pairs[k], args.interiors[k], shape[k])
             for k in range(x.ndim)]
    pad_sizes = _pad_chunk_sizes(x.dtype, args, shape, cores)
    rule = tuple(None if core is None else _axis_chunks(core, *args.pairs[k], shape[k],
                                                        pad_sizes[k])
                 for k, core in enumerate(cores))
    if chunks is not None:
        try:
            return normalize_chunks(chunks, shape, dtype=x.dtype,
                                    previous_chunks=None if None in rule else rule)
        except ZeroDivisionError:  # dask divides an axis's length by its chunk size
            axis = _zero_chunk_axis(chunks, shape)
            raise ValueError(f"padnd.dask.pad: chunks: axis {axis}: a chunk size of 0 cannot "
                             f"cover the output's {shape[axis]} elements (output shape {shape}, "
                             f"chunks={chunks!r})") from None
    return normalize_chunks(tuple("auto" if c is None else c for c in rule), shape,
                            dtype=x.dtype)


def _zero_chunk_axis(chunks, shape: tuple) -> int:
    """The first axis of nonzero length that `chunks` (an int, one entry per axis, or a dict
    by axis) gives a chunk size of 0: the one dask's normalize_chunks divides by."""
    sizes = ((chunks.get(k) if isinstance(chunks, dict) else
              chunks[k] if isinstance(chunks, (tuple, list)) else chunks)
             for k in range(len(shape)))
    return next(k for k, size in enumerate(sizes)
                if shape[k] and isinstance(size, numbers.Integral) and size == 0)


def _core_chunks(in_chunks: tuple, before: int, after: int, interior: int, length: int):
    """One axis's copied part's chunks: the input's (cut where the input's chunks end, scaled
    by interior padding, edge chunks shrunk by crops); None when the axis is all pad."""
    low, high = max(before, 0), length - max(after, 0)
    if high <= low:
        return None
    cuts = {low, high}
    start = 0
    for size in in_chunks[:-1]:
        start += size
        cut = before + start * (1 + interior)
        if low < cut < high:
            cuts.add(cut)
    return np.diff(sorted(cuts)).tolist()


def _pad_chunk_sizes(dtype: np.dtype, args: _PadArgs, shape: tuple, cores: list) -> list:
    """The length of each axis's pad chunks: its largest chunk, or dask's "auto" length for
    the axis where that is longer (the padded axes grown together until a chunk that is the
    other axes' largest holds dask's array.chunk-size), so that wide pads of small chunks make
    tasks in proportion to the output's bytes, not to the pads' lengths. An empty output's
    pads are one chunk each."""
    padded = [core is not None and max(args.pairs[k]) > 0 for k, core in enumerate(cores)]
    largest = [None if core is None else max(core) for core in cores]
    if not any(padded):
        return largest
    if 0 in shape or dtype.itemsize == 0:  # no bytes to bound
        return list(shape)
    auto = normalize_chunks(tuple("auto" if padded[k] or n is None else n
                                  for k, n in enumerate(largest)), shape, dtype=dtype)
    return [max(max(sizes), n) if padded[k] else n
            for k, (sizes, n) in enumerate(zip(auto, largest))]


def _axis_chunks(core: list, before: int, after: int, length: int, pad_size: int) -> tuple:
    """One axis's output chunks: its copied part's (_core_chunks); each pad joins its
    neighbouring chunk (_pad_chunks) or is split into chunks of about `pad_size`."""
    low, high = max(before, 0), length - max(after, 0)
    largest = max(core)
    head = _pad_chunks(low, core[0], largest, pad_size)
    if not head:
        core[0] += low
    tail = _pad_chunks(length - high, core[-1], largest, pad_size)
    if not tail:
        core[-1] += length - high
    return head + tuple(core) + tail


def _pad_chunks(width: int, neighbour: int, largest: int, size: int) -> tuple:
    """Chunks of a pad of `width` beside a chunk of `neighbour` elements, on an axis whose
    largest chunk is `largest`: () where it merges into the neighbour (a pad of at most half
    the largest chunk, or one that leaves the neighbour at most 1.5 times it), else
    round(width / size) near-equal chunks (at least one), each between 0.5 and 1.5 times
    `size` (at least `largest`), or the whole pad."""
    if 2 * width <= largest or 2 * (neighbour + width) <= 3 * largest:
        return ()
    count = max(1, (2 * width + size) // (2 * size))
    size, larger = divmod(width, count)
    return (size + 1,) * larger + (size,) * (count - larger)


# --- Blocks ---------------------------------------------------------------------------------


class _Blocks(NamedTuple):
    """A chunked array of the graph being built: its chunks, each block's graph key, dtype."""
    chunks: tuple
    keys: dict  # block index -> key
    dtype: np.dtype

    @property
    def shape(self) -> tuple:
        return tuple(sum(sizes) for sizes in self.chunks)

    def block_shape(self, index) -> tuple:
        return tuple(sizes[i] for sizes, i in zip(self.chunks, index))


def _blocks_of(x) -> _Blocks:
    keys = {index: (x.name, *index) for index in np.ndindex(*x.numblocks)}
    return _Blocks(x.chunks, keys, x.dtype)


def _starts(sizes) -> list[int]:
    """Where each block of an axis starts, then the axis's length."""
    return [0, *itertools.accumulate(sizes)]


def _spans(sizes):
    """(start, stop) of each chunk of an axis."""
    starts = _starts(sizes)
    return list(zip(starts[:-1], starts[1:]))


def _overlaps(starts: list, low: int, high: int) -> list[tuple[int, int, int, int]]:
    """The non-empty blocks of an axis that hold part of [low, high), each as (block, start
    and stop inside the block, position of that start counted from `low`)."""
    if high <= low:
        return []
    parts = []
    for block in range(max(bisect.bisect_right(starts, low) - 1, 0), len(starts) - 1):
        begin, end = starts[block], starts[block + 1]
        if begin >= high:
            break
        if end > max(begin, low):
            part_start, part_stop = max(low, begin), min(high, end)
            parts.append((block, part_start - begin, part_stop - begin, part_start - low))
    return parts


def _at(axis: int, item, index: tuple) -> tuple:
    """`index` with `item` at `axis`."""
    return index[:axis] + (item,) + index[axis + 1:]


# --- Task bodies (plain arguments, so that tasks pickle small) ------------------------------


def _copy_into(target: np.ndarray, blocks, placements) -> None:
    """Copies each block's part into target: per axis (start, stop, position in target)."""
    for block, place in zip(blocks, placements):
        target[tuple(slice(d, d + stop - start) for start, stop, d in place)] = \
            block[tuple(slice(start, stop) for start, stop, _ in place)]


def _gather(blocks, placements, shape: tuple, dtype) -> np.ndarray:
    """The box made of the blocks' parts: a view where one block holds all of it."""
    if len(blocks) == 1:
        return blocks[0][tuple(slice(start, stop) for start, stop, _ in placements[0])]
    box = np.empty(shape, dtype=dtype)
    _copy_into(box, blocks, placements)
    return box


def _pad_chunk(blocks, pieces, chunk_shape, dtype, input_shape, step):
    """One output chunk: for each piece of its window (placements of its blocks, box shape
    and start, the window, where it lies in the chunk), pad_window on the box it reads."""
    out = None if len(pieces) == 1 else np.empty(chunk_shape, dtype=dtype)
    first = 0
    for placements, box_shape, box_start, window, place in pieces:
        box = _gather(blocks[first:first + len(placements)], placements, box_shape, dtype)
        first += len(placements)
        result = pad_window(box, window=window, input_shape=input_shape, input_start=box_start,
                            threads=1, out=None if out is None else out[place], **step)
    return result if out is None else out


def _line_edges(blocks, placements, shape, dtype, axis: int, stat_step, across_rows: bool):
    """Phase 1 of a value pass for one line of blocks: its pad values, thickness 2 along
    `axis` (before, after). The blocks' parts form the edge slabs; padnd.pad computes the
    statistic over them (numpy's arithmetic exactly); a ramp needs only the edge elements."""
    slabs = _gather(blocks, placements, shape, dtype)
    if stat_step is None:
        return np.take(slabs, [0, -1], axis=axis)
    # numpy (and padnd) sum pairwise along the axis only where every later axis has length 1,
    # else row after row: a line one element wide keeps the pass's order beside a copy.
    widen = across_rows and 0 < slabs.size and all(n == 1 for n in slabs.shape[axis + 1:])
    if widen:
        slabs = np.concatenate([slabs, slabs], axis=-1)
    values = np.take(_pad(slabs, threads=1, **stat_step), [0, -1], axis=axis)
    return values[..., :1] if widen else values


def _fill_chunk(edges, zero_steps, blocks, placements, shape, dtype, axis: int, pads,
                ramp_step):
    """Phase 2: a chunk of a value pass, its copied part from the blocks and each pad piece
    (start, stop, side, position in the padded edges) from the line's pad values: broadcast
    for a statistic, a window of the ramp padnd computes on the edges for linear_ramp."""
    chunk = np.empty(shape, dtype=dtype)
    _copy_into(chunk, blocks, placements)
    if pads and ramp_step is not None:
        edges = _with_zero_steps(edges, zero_steps, axis)
    for start, stop, side, position in pads:
        target = chunk[_at(axis, slice(start, stop), (slice(None),) * chunk.ndim)]
        if ramp_step is None:
            target[...] = np.take(edges, [side], axis=axis)
            continue
        # The window keeps a line _with_zero_steps added: padnd decides the formula from
        # the window's lines.
        ramp = pad_window(edges, window=_at(axis, slice(position, position + stop - start),
                                            (slice(None),) * chunk.ndim),
                          threads=1, **ramp_step)
        target[...] = ramp[tuple(slice(0, n) for n in target.shape)]
    return chunk


def _zero_steps(line_edges, axis: int, end_values: tuple, widths: tuple) -> list:
    """numpy's vectorised linspace computes every line of a ramp with another formula when
    the step (edge - end) / width of any line of the pass is 0 (numpy gh-5437), so a chunk's
    ramp depends on the other lines: per side, an edge value of such a line, else None."""
    found = [None, None]
    for side in (0, 1):
        for edges in line_edges if widths[side] else ():
            edge = np.take(edges, side, axis=axis)
            with np.errstate(all="ignore"):
                zero = np.subtract(edge, end_values[side],
                                   dtype=_ramp_type([end_values[side]], edge.dtype))
                zero = zero / widths[side] == 0
            if zero.any():
                found[side] = edge[zero][0]
                break
    return found


def _with_zero_steps(edges: np.ndarray, zero_steps: list, axis: int) -> np.ndarray:
    """The line's edges, plus one line holding the pass's zero-step edge values, if any, so
    that padnd picks numpy's formula for the whole pass."""
    if edges.ndim < 2 or edges.size == 0 or zero_steps == [None, None]:
        return edges
    other = 1 if axis == 0 else 0
    line = np.take(edges, [0], axis=other)  # an existing line: its other side adds no zero
    for side, value in enumerate(zero_steps):
        if value is not None:
            line[_at(axis, side, (slice(None),) * edges.ndim)] = value
    return np.concatenate([edges, line], axis=other)


# --- Index passes ---------------------------------------------------------------------------


class _Piece(NamedTuple):
    """Part of an output chunk's window along one axis, with the input it reads."""
    window: tuple  # (start, stop) in the pass's output
    box: tuple  # (start, stop) of the input it reads; empty when it reads none
    sources: list  # _overlaps of the box


class _AxisPart(NamedTuple):
    """One output chunk along one axis of an index pass: one piece, or where that reads less,
    one per region of the axis it holds (begin pad, copied part, end pad): a wrap chunk
    holding pads and copied elements reads both ends of the axis, not all between them."""
    window: tuple  # (start, stop) in the pass's output
    pieces: list  # _Piece
    copy_of: int | None  # the input block it is an unchanged copy of


def _index_step(layer: dict, source: _Blocks, step: dict, axes, out_chunks, name) -> _Blocks:
    """An index pass over `axes` (widths and modes in `step`): one task per output chunk
    that is not an unchanged input block, running pad_window on what its window reads."""
    ndim = len(source.chunks)
    chunks = tuple(out_chunks[k] if k in axes else source.chunks[k] for k in range(ndim))
    interiors = step["interior"] or (0,) * ndim
    parts = [_unchanged_axis_parts(chunks[k]) if step["pad_width"][k] == (0, 0)
             and not interiors[k] and chunks[k] == source.chunks[k]
             else _index_axis_parts(source, step, k, chunks[k]) for k in range(ndim)]
    keys = {}
    for index in itertools.product(*(range(len(axis_parts)) for axis_parts in parts)):
        chosen = [parts[k][i] for k, i in enumerate(index)]
        if all(part.copy_of is not None for part in chosen):
            keys[index] = source.keys[tuple(part.copy_of for part in chosen)]
            continue
        keys[index] = key = (name, *index)
        layer[key] = _index_task(key, source, chosen, step)
    return _Blocks(chunks, keys, source.dtype)


def _index_axis_parts(source: _Blocks, step: dict, axis: int, sizes) -> list[_AxisPart]:
    """The parts of one padded axis: input_window of each chunk's window (the other axes
    whole: an index mode reads each axis independently of the others)."""
    starts = _starts(source.chunks[axis])
    before, after = step["pad_width"][axis]
    low, high = max(before, 0), sum(sizes) - max(after, 0)  # the copied part of the output
    interior = step["interior"][axis] if step["interior"] else 0
    blocks = {(begin, end): block for block, (begin, end) in enumerate(_spans(source.chunks[axis]))
              if end > begin}

    def piece(begin: int, end: int) -> _Piece:
        window = _at(axis, slice(begin, end), (slice(None),) * len(source.chunks))
        read = input_window(source.shape, window=window, dtype=source.dtype, **step)[axis]
        return _Piece((begin, end), (read.start, read.stop),
                      _overlaps(starts, read.start, read.stop))

    parts = []
    for begin, end in _spans(sizes):
        cuts = [begin, *sorted({cut for cut in (low, high) if begin < cut < end}), end]
        pieces = [piece(a, b) for a, b in zip(cuts[:-1], cuts[1:])]
        if len(pieces) > 1:  # one piece reads as much as the pieces: keep it whole
            whole = piece(begin, end)
            if sum(p.box[1] - p.box[0] for p in pieces) >= whole.box[1] - whole.box[0]:
                pieces = [whole]
        copied = interior == 0 and low <= begin and end <= high
        parts.append(_AxisPart((begin, end), pieces,
                               blocks.get((begin - before, end - before)) if copied else None))
    return parts


def _unchanged_axis_parts(sizes) -> list[_AxisPart]:
    return [_AxisPart((begin, end), [_Piece((begin, end), (begin, end),
                                            [(block, 0, end - begin, 0)] * (end > begin))], block)
            for block, (begin, end) in enumerate(_spans(sizes))]


def _index_task(key, source: _Blocks, chosen: list[_AxisPart], step: dict) -> Task:
    """The task of one output chunk: each combination of its axes' pieces reads its own box."""
    refs, pieces = [], []
    for combination in itertools.product(*(part.pieces for part in chosen)):
        reads = all(piece.box[1] > piece.box[0] for piece in combination)
        placements = []
        for blocks in itertools.product(*(piece.sources for piece in combination)) if reads else ():
            refs.append(TaskRef(source.keys[tuple(block[0] for block in blocks)]))
            placements.append(tuple(block[1:] for block in blocks))
        pieces.append((tuple(placements),
                       tuple(p.box[1] - p.box[0] if reads else 0 for p in combination),
                       tuple(p.box[0] if reads else 0 for p in combination),
                       tuple(slice(*p.window) for p in combination),
                       tuple(slice(p.window[0] - part.window[0], p.window[1] - part.window[0])
                             for p, part in zip(combination, chosen))))
    chunk_shape = tuple(part.window[1] - part.window[0] for part in chosen)
    return Task(key, _pad_chunk, List(*refs), tuple(pieces), chunk_shape, source.dtype,
                source.shape, step)


# --- Value passes ---------------------------------------------------------------------------


class _ValuePart(NamedTuple):
    """One output chunk along the axis of a value pass."""
    sources: list  # _overlaps of its copied part, placed in the chunk
    pads: list  # (start, stop in the chunk, side 0 before / 1 after, position in padded edges)
    copy_of: int | None  # the input block it is an unchanged copy of
    size: int


def _value_step(layer: dict, source: _Blocks, args: _PadArgs, axis: int, sizes, name) -> _Blocks:
    """A value pass over `axis`, in two phases: per line of blocks, one task reduces the edge
    slabs to the pad values (_edge_tasks); then each chunk holding pads is filled from its
    line's values and the blocks it copies, and unchanged blocks are reused."""
    edges = _edge_tasks(layer, source, args, axis, f"{name}-edges")
    ramp_step = zero_steps = None
    if args.modes[axis] == "linear_ramp":
        ramp_step = args.step((axis,))
        zero_steps = TaskRef(_zero_steps_task(layer, args, axis, edges, f"{name}-zero-steps"))
    parts = _value_axis_parts(source, args.pairs[axis][0], axis, sizes)
    keys = {}
    for line in _lines(source, axis):
        for position, part in enumerate(parts):
            index = _at(axis, position, line)
            if part.copy_of is not None:
                keys[index] = source.keys[_at(axis, part.copy_of, line)]
                continue
            keys[index] = key = (name, *index)
            refs = [TaskRef(source.keys[_at(axis, piece[0], line)]) for piece in part.sources]
            whole = tuple((0, size, 0) for size in source.block_shape(line))
            placements = tuple(_at(axis, piece[1:], whole) for piece in part.sources)
            layer[key] = Task(key, _fill_chunk, TaskRef(edges[line]) if part.pads else None,
                              zero_steps if part.pads else None, List(*refs), placements,
                              _at(axis, part.size, source.block_shape(line)), source.dtype,
                              axis, part.pads, ramp_step)
    return _Blocks(_at(axis, tuple(sizes), source.chunks), keys, source.dtype)


def _lines(source: _Blocks, axis: int):
    """The lines of blocks along `axis`: block indices with 0 at `axis`."""
    return itertools.product(*(range(len(sizes)) if k != axis else (0,)
                               for k, sizes in enumerate(source.chunks)))


def _value_axis_parts(source: _Blocks, before: int, axis: int, sizes) -> list[_ValuePart]:
    length = source.shape[axis]
    starts = _starts(source.chunks[axis])
    parts = []
    for begin, end in _spans(sizes):
        low, high = max(begin, before), min(end, before + length)  # the copied part
        sources = [(block, start, stop, at + low - begin) for block, start, stop, at
                   in _overlaps(starts, low - before, high - before)]
        pads = []
        if begin < before:
            pads.append((0, min(end, before) - begin, 0, begin))
        if end > before + length:
            start = max(begin, before + length)  # padded edges: before + 2 + after elements
            pads.append((start - begin, end - begin, 1, start - length + 2))
        whole = (len(sources) == 1 and sources[0][1] == 0
                 and sources[0][2] == source.chunks[axis][sources[0][0]])
        parts.append(_ValuePart(sources, pads, sources[0][0] if whole and not pads else None,
                                end - begin))
    return parts


def _edge_tasks(layer: dict, source: _Blocks, args: _PadArgs, axis: int, name) -> dict:
    """Phase 1 of a value pass: per line of blocks, a task gathering only the edge slabs
    (stat_length elements at each side, the edge element for a ramp) into one small array
    and reducing it to the pad values (_line_edges). Returns {line: key}."""
    slabs, stat_step = _slabs(args, axis, source.shape[axis])
    across_rows = any(n > 1 for n in source.shape[axis + 1:])
    starts = _starts(source.chunks[axis])
    pieces, length = [], 0
    for low, high in slabs:
        pieces += [(block, start, stop, at + length)
                   for block, start, stop, at in _overlaps(starts, low, high)]
        length += high - low
    keys = {}
    for line in _lines(source, axis):
        keys[line] = key = (name, *line)
        whole = tuple((0, size, 0) for size in source.block_shape(line))
        refs = [TaskRef(source.keys[_at(axis, piece[0], line)]) for piece in pieces]
        placements = tuple(_at(axis, piece[1:], whole) for piece in pieces)
        layer[key] = Task(key, _line_edges, List(*refs), placements,
                          _at(axis, length, source.block_shape(line)), source.dtype, axis,
                          stat_step, across_rows)
    return keys


def _zero_steps_task(layer: dict, args: _PadArgs, axis: int, edges: dict, key) -> tuple:
    """A ramp pass's task gathering every line's edges to find zero steps (_zero_steps)."""
    end_values = value_pairs(args.kwargs.get("end_values", 0), len(args.modes))[axis]
    layer[key] = Task(key, _zero_steps, List(*(TaskRef(k) for k in edges.values())), axis,
                      tuple(end_values), args.pairs[axis])
    return key


def _slabs(args: _PadArgs, axis: int, length: int):
    """(the (start, stop) ranges along `axis` the pad values read, the padnd.pad arguments
    that reduce them to a statistic at each side; None for a ramp, which needs the edges)."""
    if args.modes[axis] == "linear_ramp":
        return [(0, 1), (length - 1, length)], None
    stat = stat_pairs(args.kwargs.get("stat_length"), len(args.modes))
    before, after = (length if n is None else min(n, length) for n in stat[axis])
    # numpy clips the lengths to the axis; a zero length still reads (none of) an element
    slabs = ([(0, length)] if before + after >= length
             else [(0, max(before, 1)), (length - after, length)])
    step = args.step((axis,))
    step["pad_width"] = _at(axis, (1, 1), step["pad_width"])
    step["stat_length"] = _at(axis, (before, after), ((1, 1),) * len(args.modes))
    return slabs, step
