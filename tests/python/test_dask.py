# SPDX-License-Identifier: Apache-2.0
# padnd.dask.pad against numpy.pad on the computed input: random requests (every mode, per-axis
# modes, crops, interior padding, dtypes) on random chunkings (one-element chunks, chunks
# larger than the pad, empty chunks, pads wider than the axis, empty axes), on the synchronous
# scheduler and on a distributed.LocalCluster with worker processes (marker "cluster"); graph
# sizes, the chunk rule, errors, and the dask.array.pad bugs padnd.dask.pad does not have.
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
import padnd  # noqa: E402
import padnd.dask  # noqa: E402
from numpy_oracle import numpy_pad  # noqa: E402

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
VALUE_MODES = ["linear_ramp", "maximum", "mean", "median", "minimum"]
STAT_MODES = VALUE_MODES[1:]
DTYPES = ["i4", "f8", "u1", "?", "c16", ">f8", "S3", "U2", "M8[s]", "m8[ms]"]


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()  # bit-exact


def sample(shape, dtype, seed=0):
    """Values without float rounding games (small integers in floats, so that sums and means
    are exact in any order) and raw bytes otherwise (NaT included)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind in "fcb":
        return rng.integers(-50 * (dtype.kind != "b"), 50, shape).astype(dtype)
    raw = rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


@st.composite
def axis_chunks(draw, n):
    """A chunking of an axis of n: one-element chunks, one chunk, or random cuts (which may
    leave empty chunks)."""
    kind = draw(st.sampled_from(["ones", "whole", "cuts"]))
    if n == 0 or kind == "whole":
        return (n,)
    if kind == "ones":
        return (1,) * n
    bounds = [0, *sorted(draw(st.lists(st.integers(0, n), max_size=4))), n]
    return tuple(b - a for a, b in zip(bounds, bounds[1:]))


@st.composite
def requests(draw, modes, max_ndim=3):
    """(shape, chunks, pad widths, mode, keywords): widths up to 9 (wider than the axes),
    one mode or one per axis, and the modes' keywords in numpy's forms."""
    ndim = draw(st.integers(1, max_ndim))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(axis_chunks(n)) for n in shape)
    widths = tuple((draw(st.integers(0, 9)), draw(st.integers(0, 9))) for _ in range(ndim))
    per_axis = draw(st.booleans())
    mode = (tuple(draw(st.sampled_from(modes)) for _ in range(ndim)) if per_axis
            else draw(st.sampled_from(modes)))
    used = set(mode) if per_axis else {mode}
    pair = st.tuples(st.integers(-9, 9), st.integers(-9, 9))
    kwargs = {}
    if "constant" in used and draw(st.booleans()):
        kwargs["constant_values"] = draw(st.integers(0, 9) | pair
                                         | st.tuples(*[pair] * ndim))
    if "linear_ramp" in used and draw(st.booleans()):
        kwargs["end_values"] = draw(st.integers(-9, 9) | st.tuples(*[pair] * ndim))
    if used & set(STAT_MODES) and draw(st.booleans()):
        length = st.integers(1, 8)
        kwargs["stat_length"] = draw(length | st.tuples(*[st.tuples(length, length)] * ndim))
    if used & {"reflect", "symmetric"} and draw(st.booleans()):
        kwargs["reflect_type"] = draw(st.sampled_from(["even", "odd"]))
    return shape, chunks, widths, mode, kwargs


def check_request(request, dtype, scheduler, out_chunks=None):
    """padnd.dask.pad raises padnd.pad's errors before any graph exists, and computes
    numpy.pad's result otherwise."""
    shape, chunks, widths, mode, kwargs = request
    a = sample(shape, dtype)
    x = da.from_array(a, chunks=chunks)
    try:
        padnd.pad(a, widths, mode, **kwargs)
    except Exception as error:
        with pytest.raises(type(error)):
            padnd.dask.pad(x, widths, mode, chunks=out_chunks, **kwargs)
        return
    expected = numpy_pad(a, widths, mode, **kwargs)
    result = padnd.dask.pad(x, widths, mode, chunks=out_chunks, **kwargs)
    assert result.shape == expected.shape and result.dtype == expected.dtype
    same(result.compute(scheduler=scheduler), expected)


@settings(max_examples=250)
@given(requests(INDEX_MODES + VALUE_MODES), st.sampled_from(DTYPES),
       st.none() | st.integers(1, 5))
def test_random_requests_equal_numpy(request, dtype, out_chunks):
    check_request(request, dtype, "synchronous", out_chunks)


@settings(max_examples=100)
@given(requests(INDEX_MODES + ["empty"]), st.sampled_from(DTYPES),
       st.sampled_from([None, "map_on_original", "crop_then_pad"]), st.integers(-4, 0),
       st.data())
def test_crops_and_interior_equal_padnd_pad(request, dtype, negative, crop, data):
    """padnd's extensions (and "empty", which numpy leaves uninitialised) against padnd.pad."""
    shape, chunks, widths, mode, kwargs = request
    widths = ((crop, widths[0][1]),) + widths[1:] if negative else widths
    interior = None
    if negative is None and mode == "constant" and np.ndim(kwargs.get("constant_values", 0)) == 0:
        interior = data.draw(st.lists(st.integers(0, 3), min_size=len(shape),
                                      max_size=len(shape)))
    a = sample(shape, dtype)
    x = da.from_array(a, chunks=chunks)
    try:
        expected = padnd.pad(a, widths, mode, negative=negative, interior=interior, **kwargs)
    except Exception as error:
        with pytest.raises(type(error)):
            padnd.dask.pad(x, widths, mode, negative=negative, interior=interior, **kwargs)
        return
    result = padnd.dask.pad(x, widths, mode, negative=negative, interior=interior, **kwargs)
    same(result.compute(scheduler="synchronous"), expected)


def test_ramp_formula_follows_every_line_of_the_pass():
    """numpy switches every line's ramp formula when one line's step is 0 (numpy gh-5437): a
    chunk whose lines have no zero step must still see the other chunks' (row 0 here)."""
    a = np.array([[1.0, 5.0], [0.0, 19.0], [0.0, 29.0], [3.0, 7.0]])
    for chunks in [(1, 2), (2, 1), (1, 1)]:
        x = da.from_array(a, chunks=chunks)
        for widths in [((0, 0), (0, 13)), ((2, 9), (0, 13)), ((13, 0), (0, 0))]:
            result = padnd.dask.pad(x, widths, "linear_ramp", end_values=5)
            same(result.compute(scheduler="synchronous"),
                 np.pad(a, widths, "linear_ramp", end_values=5))


@settings(max_examples=40)
@given(st.tuples(*[st.integers(1, 10)] * 3), st.integers(1, 3), st.integers(0, 5),
       st.none() | st.integers(1, 10), st.sampled_from(["f8", "f4", "c16"]))
def test_means_of_inexact_values_add_in_numpys_order(shape, chunk, width, stat_length, dtype):
    """Means of values that do not add exactly: numpy adds pairwise along a run only where
    every later axis has length 1, so a line of blocks one element wide must keep the order
    of the whole pass (means of earlier axes' means included)."""
    a = (np.random.default_rng(1).standard_normal(shape) * 1e3).astype(dtype)
    x = da.from_array(a, chunks=chunk)
    same(padnd.dask.pad(x, width, "mean", stat_length=stat_length).compute(
        scheduler="synchronous"), np.pad(a, width, "mean", stat_length=stat_length))


@pytest.mark.parametrize("mode", INDEX_MODES + VALUE_MODES + ["empty"])
def test_zero_dimensional_and_empty_arrays(mode):
    for a in [np.array(7.0), np.zeros((0, 3)), np.zeros((3, 0))]:
        x = da.from_array(a)
        widths = ((0, 0), (2, 1)) if a.ndim else 1
        try:
            expected = padnd.pad(a, widths, mode)
        except ValueError:
            with pytest.raises(ValueError):
                padnd.dask.pad(x, widths, mode)
            continue
        same(padnd.dask.pad(x, widths, mode).compute(scheduler="synchronous"), expected)


def test_numpy_input_object_arrays_and_callable_modes():
    a = np.arange(12.0).reshape(3, 4)
    same(padnd.dask.pad(a, 2, "reflect").compute(scheduler="synchronous"),
         np.pad(a, 2, "reflect"))
    objects = np.array([[1, "a"], [None, 2.5]], dtype=object)
    for mode, data in [("edge", objects), ("wrap", objects), ("constant", objects[:0])]:
        result = padnd.dask.pad(da.from_array(data, chunks=1), (1, 3), mode)
        expected = np.pad(data, (1, 3), mode)
        assert result.shape == expected.shape
        assert (result.compute(scheduler="synchronous") == expected).all()
    with pytest.raises(ValueError, match="negative="):  # padnd's extensions need its engine
        padnd.dask.pad(da.from_array(objects, chunks=1), 1, negative="crop_then_pad")


@pytest.mark.parametrize("chunks", [((3,), (1, 1, 1, 1)), ((1, 2), (4,)), 1, -1])
def test_object_ramps_do_not_depend_on_the_chunks(chunks):
    """numpy ramps an axis's lines with one linspace, whose formula depends on all of them."""
    rng = np.random.default_rng(133)
    a = np.empty((3, 4), dtype=object)
    a[...] = [[Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 5))) for _ in range(4)]
              for _ in range(3)]
    widths = ((1, 5), (4, 7))
    got = padnd.dask.pad(da.from_array(a, chunks=chunks), widths, "linear_ramp").compute()
    expected = np.pad(a, widths, "linear_ramp")
    assert [(type(v), v) for v in got.ravel()] == [(type(v), v) for v in expected.ravel()]


@pytest.mark.parametrize("dtype, args, kwargs", [
    ("f8", (1, "bogus"), {}),
    ("f8", (-1, "edge"), {}),
    ("f8", (1, "edge"), {"constant_values": 3}),
    ("f8", (1, "maximum"), {"stat_length": 0}),
    ("f8", (1, ("edge",)), {}),
    ("U2", (1, "mean"), {}),
    ("f8", (1, "reflect"), {"interior": 1}),
    ("f8", (((1, 2), (3, 4), (5, 6)),), {}),
    ("i4", (1,), {"constant_values": "x"}),
])
def test_errors_are_padnd_pads_before_any_graph(dtype, args, kwargs):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    with pytest.raises(Exception) as expected:
        padnd.pad(a, *args, **kwargs)
    with pytest.raises(expected.type) as got:
        padnd.dask.pad(da.from_array(a, chunks=1), *args, **kwargs)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("chunks, axis", [(0, 0), ((2, 0), 1), ({1: 0}, 1),
                                          ((np.int64(0), 3), 0)])
def test_a_zero_chunk_size_names_chunks_and_the_axis(chunks, axis):
    """dask's normalize_chunks divides by it (ZeroDivisionError): a ValueError that names
    the argument, the axis and the value instead."""
    x = da.ones((4, 4), chunks=2)
    with pytest.raises(ZeroDivisionError):
        da.ones((6, 6)).rechunk(chunks)  # dask's own behaviour, which padnd does not pass on
    with pytest.raises(ValueError, match=rf"^padnd\.dask\.pad: chunks: axis {axis}: a chunk "
                                         rf"size of 0 .* chunks={re.escape(repr(chunks))}\)$"):
        padnd.dask.pad(x, 1, chunks=chunks)


@pytest.mark.parametrize("mode", INDEX_MODES + VALUE_MODES + ["empty"])
@pytest.mark.parametrize("pad_width", [0, (0, 0), ((0, 0), (0, 0))])
def test_nothing_padded_returns_the_array_itself(mode, pad_width):
    """As dask.array.pad does: the same array object (no new graph), after padnd's checks."""
    x = da.from_array(sample((4, 5), "f8"), chunks=2)
    if mode != "median":  # dask has no median
        assert da.pad(x, pad_width, mode) is x  # the oracle
    assert padnd.dask.pad(x, pad_width, mode) is x
    kwargs = {"end_values": "abc"} if mode == "linear_ramp" else {"constant_values": "abc"}
    if mode in ("linear_ramp", "constant"):  # still validated, as padnd.pad validates them
        with pytest.raises(TypeError if mode == "linear_ramp" else ValueError):
            padnd.dask.pad(x, pad_width, mode, **kwargs)
    cropped = padnd.dask.pad(x, ((-1, 1), (0, 0)), negative="crop_then_pad")
    assert cropped is not x and cropped.shape == x.shape
    assert padnd.dask.pad(x, 0, chunks=(4, 5)).chunks == ((4,), (5,))


@pytest.mark.parametrize("mode", INDEX_MODES + VALUE_MODES)
def test_unknown_chunk_sizes_say_what_to_do(mode):
    x = da.from_array(np.arange(10.0), chunks=3)
    unknown = x[x > 4]
    with pytest.raises(ValueError, match=r"compute_chunk_sizes\(\)"):
        padnd.dask.pad(unknown, 1, mode)
    same(padnd.dask.pad(unknown.compute_chunk_sizes(), 1, mode).compute(),
         np.pad(np.arange(5.0, 10.0), 1, mode))


def test_dask_array_expressions():
    """dask's opt-in array expressions (a setting read once, when dask.array is imported)."""
    code = ("import numpy as np, dask.array as da, padnd.dask\n"
            "assert da.array_expr_enabled()\n"
            "a = np.arange(20.0).reshape(4, 5)\n"
            "for mode in ['reflect', 'median', 'linear_ramp']:\n"
            "    padded = padnd.dask.pad(da.from_array(a, chunks=2), 3, mode)\n"
            "    assert np.array_equal((padded + 1).compute(), np.pad(a, 3, mode) + 1), mode\n"
            "objects = np.array([1, None, 'a'], dtype=object)\n"
            "for mode in ['edge', 'reflect', 'constant']:\n"
            "    padded = padnd.dask.pad(da.from_array(objects, chunks=1), 2, mode).compute()\n"
            "    assert padded.tolist() == np.pad(objects, 2, mode).tolist(), mode\n")
    environment = {**os.environ, "DASK_ARRAY__QUERY_PLANNING": "True"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=environment, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# --- Graph sizes and chunks -----------------------------------------------------------------


def new_entries(result, x) -> int:
    """Graph entries padnd.dask.pad added to x's graph (tasks and aliases)."""
    return len(result.__dask_graph__()) - len(x.__dask_graph__())


def pad_chunk_count(sizes, before, after) -> int:
    """Chunks of an output axis that hold pad positions."""
    bounds = np.cumsum((0,) + tuple(sizes))
    length = bounds[-1]
    return sum(1 for lo, hi in zip(bounds[:-1], bounds[1:])
               if hi > lo and (lo < before or hi > length - after))


@settings(max_examples=100)
@given(requests(INDEX_MODES))
def test_index_modes_make_one_entry_per_output_chunk(request):
    """One graph entry per output chunk (a task, or the input block it copies), so at most
    the issue's bound: output chunks + input edge chunks; none when nothing is padded."""
    shape, chunks, widths, mode, kwargs = request
    kwargs.pop("reflect_type", None)  # odd reflection is a value pass
    x = da.from_array(sample(shape, "i4"), chunks=chunks)
    try:
        result = padnd.dask.pad(x, widths, mode, **kwargs)
    except ValueError:
        return  # an empty axis padded in a mode that copies
    assert new_entries(result, x) == (0 if result is x else result.npartitions)


@settings(max_examples=100)
@given(requests(VALUE_MODES + ["reflect"], max_ndim=3))
def test_value_modes_graph_bound(request):
    """Per padded value axis k: one statistics task per line of blocks (LB_k: the blocks of
    the other axes, output chunks before k, input chunks after it) and one task per chunk
    holding its pads (p_k per line), plus one zero-step task per ramp axis:
    entries <= output chunks + sum_k LB_k * (1 + p_k) + ramp axes."""
    shape, chunks, widths, mode, kwargs = request
    kwargs["reflect_type"] = "odd"
    modes = mode if isinstance(mode, tuple) else (mode,) * len(shape)
    kwargs = {k: v for k, v in kwargs.items() if k != "reflect_type" or "reflect" in modes}
    x = da.from_array(sample(shape, "i4"), chunks=chunks)
    try:
        result = padnd.dask.pad(x, widths, mode, **kwargs)
    except (ValueError, TypeError):
        return
    bound = result.npartitions
    for k, (name, pair) in enumerate(zip(modes, widths)):
        if max(pair) == 0 or x.size == 0:
            continue
        lines = np.prod([len(result.chunks[j]) if j < k else len(x.chunks[j])
                         for j in range(len(shape)) if j != k], dtype=int)
        bound += lines * (1 + pad_chunk_count(result.chunks[k], *pair)) + (name == "linear_ramp")
    assert new_entries(result, x) <= bound


def test_chunks_follow_the_input_without_slivers():
    """The issue's example: 100 chunks padded by 5 in reflect mode stay 100 chunks (the pads
    merge into the edge chunks), with one entry each; dask.array.pad makes 5-element chunks
    and several times the tasks."""
    x = da.zeros((1000, 1000), chunks=100)
    result = padnd.dask.pad(x, 5, "reflect")
    assert result.chunks == ((105,) + (100,) * 8 + (105,),) * 2
    assert new_entries(result, x) == 100
    aliases = [node for node in dict(result.__dask_graph__()).values()
               if isinstance(node, dask._task_spec.Alias)]
    assert len(aliases) == 8 * 8  # the inner blocks are the input's own
    theirs = da.pad(x, 5, "reflect")
    assert min(map(min, theirs.chunks)) == 5 and new_entries(theirs, x) > 3 * 100


@settings(max_examples=200)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=6), st.integers(0, 40),
       st.integers(0, 40), st.integers(0, 2), st.sampled_from([8, 40, 2**27]))
def test_chunk_rule_bounds(in_chunks, before, after, interior, chunk_bytes):
    """Without interior padding: every chunk is at most 1.5 times the larger of the axis's
    largest input chunk and dask's array.chunk-size (twice it where one chunk takes both
    pads), or a whole pad; chunks made only of pad are at least half of the largest input
    chunk (no slivers), and chunks without pad positions are the input's. With it, the
    copied chunks grow with the inserted elements."""
    length = sum(in_chunks)
    if length == 0:
        return
    x = da.zeros(length, chunks=(tuple(in_chunks),))
    with dask.config.set({"array.chunk-size": chunk_bytes}):
        sizes = padnd.dask.pad(x, (before, after), interior=interior).chunks[0]
    largest = max(in_chunks)
    one_chunk = len([size for size in in_chunks if size]) == 1
    bound = (2 if one_chunk else 1.5) * max(largest, chunk_bytes // 8) * (1 + interior)
    assert max(sizes) <= max(bound, before + largest, after + largest)
    if interior:
        return
    bounds = np.cumsum((0,) + sizes)
    spans = list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))
    core = (before, bounds[-1] - after)
    assert all(2 * (hi - lo) >= largest for lo, hi in spans if hi <= core[0] or lo >= core[1])
    assert all(hi - lo in in_chunks for lo, hi in spans if core[0] <= lo and hi <= core[1])


@pytest.mark.parametrize("widths, mode", [
    (((2**16, 0), (0, 0)), "edge"),  # the issue's: 65,540 tasks for 2 MiB
    (((2**18, 0), (0, 0)), "constant"),
    (((0, 2**30), (0, 0)), "reflect"),  # 32 GiB of output
    (((2**16, 3), (2**16, 0)), "wrap"),
    (((2**12, 0), (0, 0)), "mean"),
    (((0, 2**12), (1, 2**12)), "linear_ramp"),
])
def test_tasks_grow_with_the_output_bytes_not_the_pad_widths(widths, mode):
    """Pads of small chunks: chunks of up to dask's array.chunk-size, so the graph has about
    output bytes / chunk-size + input blocks entries, however wide the pads."""
    x = da.ones((4, 4), chunks=2)
    result = padnd.dask.pad(x, widths, mode)
    limit = dask.utils.parse_bytes(dask.config.get("array.chunk-size"))
    assert new_entries(result, x) <= 8 * (result.nbytes // limit + x.npartitions) + 16
    assert result.shape == tuple(4 + sum(pair) for pair in widths)


@pytest.mark.parametrize("mode", INDEX_MODES + VALUE_MODES)
def test_wide_pads_of_small_chunks_with_a_small_chunk_size(mode):
    """dask's array.chunk-size set to 4 KiB: pad chunks are split at about that size, and the
    values are numpy.pad's."""
    a = sample((5, 7), "f8")
    widths = ((300, 41), (3, 250))
    with dask.config.set({"array.chunk-size": "4KiB"}):
        result = padnd.dask.pad(da.from_array(a, chunks=2), widths, mode)
    assert 1 < len(result.chunks[0]) and max(map(max, result.chunks)) <= 512 * 2
    same(result.compute(scheduler="synchronous"), np.pad(a, widths, mode))


def test_chunks_argument_overrides_the_rule():
    a = sample((9, 7), "i4")
    x = da.from_array(a, chunks=(2, 3))
    result = padnd.dask.pad(x, ((3, 1), (0, 4)), "wrap", chunks=4)
    assert result.chunks == ((4, 4, 4, 1), (4, 4, 3))
    same(result.compute(scheduler="synchronous"), np.pad(a, ((3, 1), (0, 4)), "wrap"))
    assert padnd.dask.pad(x, 1, chunks=-1).chunks == ((11,), (9,))


def test_tasks_read_only_the_blocks_their_window_needs():
    """A reflect pad narrower than the chunks: each task reads exactly one input block."""
    x = da.from_array(sample((8, 9), "f8"), chunks=(4, 3))
    result = padnd.dask.pad(x, 2, "reflect")
    graph = dict(result.__dask_graph__())
    for key, node in graph.items():
        if key[0] == result.name and not isinstance(node, dask._task_spec.Alias):
            assert len(node.dependencies) == 1


def test_wrap_tasks_read_both_ends_not_the_whole_axis():
    """A wrap chunk holding pads and copied elements reads the far end of the axis and its own
    blocks: a corner chunk four blocks, each piece's box only what it reads."""
    a = sample((40, 30), "f4")
    x = da.from_array(a, chunks=10)
    result = padnd.dask.pad(x, 3, "wrap")
    graph = dict(result.__dask_graph__())
    for key, node in graph.items():
        if key[0] == result.name and not isinstance(node, dask._task_spec.Alias):
            assert len(node.dependencies) <= 4
            for _, box_shape, *_ in node.args[1]:
                assert np.prod(box_shape) <= 10 * 10  # one block's worth, at most
    assert len(graph[(result.name, 0, 0)].dependencies) == 4
    same(result.compute(scheduler="synchronous"), np.pad(a, 3, "wrap"))


def test_to_zarr_with_regular_chunks(tmp_path):
    """The documented zarr example: zarr needs regular chunks, which chunks= gives."""
    zarr = pytest.importorskip("zarr")
    a = sample((30, 20), "f4")
    x = da.from_array(a, chunks=(7, 6))
    padded = padnd.dask.pad(x, ((3, 3), (5, 0)), "symmetric", chunks=(8, 8))
    padded.to_zarr(str(tmp_path / "padded.zarr"))
    same(zarr.open_array(str(tmp_path / "padded.zarr"), mode="r")[...],
         np.pad(a, ((3, 3), (5, 0)), "symmetric"))


# --- dask.array.pad's bugs (dask 2026.8), right in padnd.dask.pad ---------------------------


def test_odd_reflection_is_not_ignored():
    """dask#6882: dask.array.pad ignores reflect_type="odd" (it reads a keyword "reflect")."""
    a = np.arange(6.0) ** 2
    x = da.from_array(a, chunks=3)
    expected = np.pad(a, 2, "reflect", reflect_type="odd")
    assert not np.array_equal(da.pad(x, 2, "reflect", reflect_type="odd").compute(), expected)
    same(padnd.dask.pad(x, 2, "reflect", reflect_type="odd").compute(), expected)


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
def test_pads_wider_than_the_axis(mode):
    """dask#6127, #5303: dask.array.pad returns the wrong shape for pads wider than the axis."""
    a = np.arange(3.0)
    x = da.from_array(a, chunks=2)
    expected = np.pad(a, 8, mode)
    assert da.pad(x, 8, mode).shape != expected.shape
    same(padnd.dask.pad(x, 8, mode).compute(), expected)


def test_callable_modes_follow_numpys_convention():
    """numpy's callable mode pads each line in place; dask.array.pad stores what it returns
    (None, so NaN), padnd.dask.pad calls it as numpy does."""
    a = np.arange(12.0).reshape(3, 4)
    x = da.from_array(a, chunks=2)

    def ones_before(line, widths, axis, kwargs):
        line[:widths[0]] = 1

    expected = np.pad(a, (2, 1), ones_before)
    assert np.isnan(da.pad(x, (2, 1), ones_before).compute()).any()
    same(padnd.dask.pad(x, (2, 1), ones_before).compute(), expected)
    with pytest.raises(ValueError, match="negative="):
        padnd.dask.pad(x, 1, ones_before, negative="crop_then_pad")


def test_median_is_implemented():
    a = np.array([[3.0, 1.0, 7.0, 5.0], [2.0, 8.0, 6.0, 4.0]])
    x = da.from_array(a, chunks=(1, 2))
    with pytest.raises(NotImplementedError):
        da.pad(x, 2, "median")
    same(padnd.dask.pad(x, 2, "median", stat_length=3).compute(),
         np.pad(a, 2, "median", stat_length=3))


# --- A distributed.LocalCluster with worker processes ----------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as local, \
            distributed.Client(local, set_as_default=False) as client:
        yield client


@pytest.mark.cluster
@settings(max_examples=25)
@given(requests(INDEX_MODES + VALUE_MODES), st.sampled_from(["i4", "f8", ">f8", "S3"]))
def test_random_requests_on_a_cluster(cluster, request, dtype):
    check_request(request, dtype, cluster)


@pytest.mark.cluster
def test_every_mode_on_a_cluster(cluster):
    a = sample((7, 9, 5), "f8")
    x = da.from_array(a, chunks=(3, 4, 2))
    for mode, kwargs in [("median", {"stat_length": 2}), ("reflect", {"reflect_type": "odd"}),
                         ("linear_ramp", {"end_values": 5}), ("mean", {}), ("wrap", {}),
                         (("edge", "maximum", "symmetric"), {})]:
        expected = numpy_pad(a, ((2, 11), (0, 3), (4, 1)), mode, **kwargs)
        result = padnd.dask.pad(x, ((2, 11), (0, 3), (4, 1)), mode, **kwargs)
        same(cluster.compute(result).result(), expected)
