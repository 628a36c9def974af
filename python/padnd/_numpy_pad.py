# SPDX-License-Identifier: Apache-2.0
# padnd.pad: numpy.pad's signature and results in every mode, on padnd's C++ engine.
from __future__ import annotations

import contextlib
import itertools
import numbers
import operator
import sys
import warnings
from typing import NamedTuple

import numpy as np

from . import _cuda, _dlpack, _padnd
from ._dtypes import element_type_name
from ._output_cache import empty
from ._pairs import pad_pairs, stat_pairs, value_pairs
from ._window import window_ranges

# The keywords numpy.pad accepts per mode (so unknown ones fail the same way): the numpy
# adapter's mode table.
_ALLOWED_KWARGS = {name: (keyword,) if keyword else () for name, keyword in _padnd.numpy_modes()}
_STAT_MODES = tuple(name for name, keyword in _padnd.numpy_modes() if keyword == "stat_length")
_NEGATIVE_ORDERS = ("map_on_original", "crop_then_pad")
_INDEX_MODES = tuple(name for name, keyword in _padnd.numpy_modes()
                     if keyword not in ("end_values", "stat_length"))
# numpy.pad itself, for object arrays and callable modes (bound now, so that replacing np.pad by
# padnd.pad, as tests/numpy_suite does, cannot make padnd call itself).
_numpy_pad = np.pad


def _modes(mode, ndim: int) -> tuple[str, ...]:
    """One mode name, or (padnd's extension) a sequence with one mode name per axis."""
    if isinstance(mode, str):
        modes = (mode,)
    elif isinstance(mode, (tuple, list)) and all(isinstance(m, str) for m in mode):
        modes = tuple(mode)
        if len(modes) != ndim:
            raise ValueError(f"mode: expected one mode per axis ({ndim}), got {len(modes)}")
    else:
        raise ValueError(f"mode '{mode}' is not supported")
    for name in modes:
        if name not in _ALLOWED_KWARGS:
            raise ValueError(f"mode '{name}' is not supported")
    return modes


def _check_keywords(modes: tuple[str, ...], kwargs: dict) -> None:
    """numpy's check; with one mode per axis, a keyword must belong to some axis's mode."""
    allowed = {kw for name in modes for kw in _ALLOWED_KWARGS[name]}
    unsupported = set(kwargs) - allowed
    if unsupported:
        which = f"mode '{modes[0]}'" if len(set(modes)) == 1 else f"modes {modes}"
        raise ValueError(f"unsupported keyword arguments for {which}: {unsupported}")


def _beyond_int64(value) -> bool:
    """A Python int that numpy holds only as an object (outside int64 and uint64)."""
    return type(value) is int and not -2**63 <= value < 2**64


def _ramp_type(starts, dtype: np.dtype) -> np.dtype:
    """The dtype np.linspace(start, edge, dtype=dtype) computes in: the promotion of the start
    (a numpy scalar, or a Python scalar that numpy treats as weak) with the data, made inexact.
    A Python int beyond int64, an object to numpy, is still a number to linspace. Non-numbers
    raise TypeError, as np.linspace's arithmetic on them does in numpy: strings, bytes and
    times numpy's DTypePromotionError (a TypeError), whatever the widths (numpy >= 2.4)."""
    for start in starts:
        kind = np.asarray(start).dtype.kind
        if kind in "biufc" or _beyond_int64(start):
            continue
        if kind in "MmSU":  # numpy's promotion with the data refuses it
            raise np.exceptions.DTypePromotionError(
                f"end_values: {start!r} is not a number (numpy cannot promote its dtype with "
                f"{dtype})")
        if isinstance(start, numbers.Number):  # docs/conformance.md, deviations
            raise TypeError(f"end_values: {start!r} is a Python object to numpy; padnd computes "
                            f"ramps in numpy's numeric types: pass float({start!r})")
        raise TypeError(f"end_values: {start!r} is not a number")  # numpy: "unsupported operand"
    ramp = np.result_type(*starts, dtype)
    if ramp.kind not in "fc":
        ramp = np.result_type(ramp, np.float64)
    return ramp


def _end_value_bytes(end_values, dtype: np.dtype, ndim: int, ramp_axes: int):
    if dtype.kind not in "biufc":
        return [], "float64"  # the planner rejects data without arithmetic (TypeError, as numpy)
    pairs = value_pairs(end_values, ndim)
    ramp = _ramp_type([v for pair in pairs for v in pair], dtype)
    # Into integers, the planner's TypeError (numpy cannot floor a complex ramp); into bool,
    # numpy does not warn.
    if ramp.kind == "c" and dtype.kind == "f":
        # numpy's np.linspace(..., dtype=dtype) casts each side's complex ramp to the data.
        for _ in range(2 * ramp_axes):
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=5)
    cells = [(np.asarray(b).astype(ramp).tobytes(), np.asarray(a).astype(ramp).tobytes())
             for b, a in pairs]
    return cells, element_type_name(ramp)


def _element_bytes(value, dtype: np.dtype) -> np.ndarray:
    # numpy.pad assigns each constant into the padded array; a 0-d assignment casts (and fails)
    # exactly the same way.
    cell = np.empty((), dtype=dtype)
    cell[()] = value
    return cell


def _interiors(interior, ndim: int) -> list[int]:
    if interior is None:
        return [0] * ndim
    per_axis = [interior] * ndim if np.ndim(interior) == 0 else list(interior)
    if len(per_axis) != ndim:
        raise ValueError(f"interior: expected {ndim} values (one per axis), got {len(per_axis)}")
    return [operator.index(r) for r in per_axis]


def _check_out(out, shape: tuple, dtype: np.dtype, array: np.ndarray,
               contiguous: bool) -> np.ndarray:
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out: shape {out.shape} does not match the result shape {shape}")
    if out.dtype != dtype:
        raise ValueError(f"out: dtype {out.dtype} does not match the result dtype {dtype}")
    if contiguous and not out.flags.c_contiguous:
        raise ValueError("out: must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError("out: is read-only")
    if np.may_share_memory(out, array):
        raise ValueError("out: overlaps the input array")
    return out


_MAX_THREADS = 2**31 - 1  # the engine's thread count is a C int


def _check_threads(threads) -> int:
    """The engine's thread count: 0 (one per core) for None, else an int >= 1."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads: expected None or an int >= 1, got {threads!r}")
    if not 1 <= threads <= _MAX_THREADS:
        raise ValueError(
            f"threads: expected None or an int from 1 to {_MAX_THREADS}, got {threads}")
    return threads


def _geometry(ndim: int, pad_width, mode, negative, interior, kwargs: dict):
    """What fixes the output shape, validated as numpy.pad (and padnd's extensions) do:
    (pad pairs, one mode per axis, interiors, reflect_type "even" or "odd")."""
    if negative is not None and negative not in _NEGATIVE_ORDERS:
        raise ValueError(f"negative: expected None, 'map_on_original' or 'crop_then_pad', "
                         f"got {negative!r}")
    pairs = pad_pairs(pad_width, ndim, allow_negative=negative is not None)
    modes = _modes(mode, ndim)
    _check_keywords(modes, kwargs)
    reflect_type = "odd" if kwargs.get("reflect_type", "even") == "odd" else "even"  # as numpy
    return pairs, modes, _interiors(interior, ndim), reflect_type


def infer_shape(shape, pad_width, mode="constant", *, negative=None, interior=None, **kwargs):
    """The shape ``pad(array, pad_width, mode, ...)`` returns for an array of ``shape``, without
    any data: ``pad_width``, ``mode``, the mode keywords' names, ``negative`` and ``interior``
    are validated exactly as :func:`pad` does (the keywords' values need the dtype and are not
    read). Raises ValueError where :func:`pad` would for any array of that shape."""
    dims = [operator.index(d) for d in shape]
    pairs, modes, interiors, reflect_type = _geometry(len(dims), pad_width, mode, negative,
                                                      interior, kwargs)
    spec = _padnd.numpy_spec(pairs, list(modes), [], [], "float64", [], reflect_type, negative,
                             interiors, dims)
    return tuple(_padnd.spec_shape(spec, dims))


def pad(array, pad_width, mode="constant", *, negative=None, interior=None, out=None,
        threads=None, **kwargs):
    """Pad an array exactly like ``numpy.pad``, without copying the input.

    Parameters are numpy.pad's: ``pad_width`` (int, ``(n,)``, ``(before, after)``, one pair
    per axis, or a dict ``{axis: width}``), ``mode`` and the mode's keywords
    (``constant_values`` for "constant", ``end_values`` for "linear_ramp", ``stat_length`` for
    "maximum", "mean", "median" and "minimum", ``reflect_type`` for "reflect" and "symmetric"),
    broadcast the way numpy broadcasts them (scalar, ``(before, after)`` or one pair per axis).
    The result has the input's dtype and equals ``numpy.pad``'s (numpy >= 2.1) in every mode:
    "constant" (different constants per axis and side; later axes own the corners, as in
    numpy), "edge", "reflect" and "symmetric" (``reflect_type`` "even" or "odd": numpy's chunked
    odd reflection ``2 * edge - x``), "wrap", "empty" (padnd fills the pads with zero bits, numpy
    leaves them uninitialised), "linear_ramp" (np.linspace's arithmetic, floored for integers),
    "maximum", "minimum", "mean" and "median" (integer means and medians rounded half to even,
    as numpy does). Float means can differ from numpy's in the last bits, because numpy's
    summation order depends on the memory layout (docs/conformance.md).

    The result's layout is numpy's: Fortran order for a Fortran-contiguous input that is not
    also C-contiguous, C order otherwise. Warnings are numpy's for the casts of constants and
    end values (ComplexWarning, RuntimeWarning on overflow; docs/conformance.md).

    Every non-object dtype works with the index modes (bool, integers, floats, complex, S, U,
    void, datetime64, timedelta64, ml_dtypes types), in any memory layout: the engine reads the
    input through its byte strides (views, negative strides, Fortran order, 0-d and zero-size
    arrays). The value modes and ``reflect_type="odd"`` need bool, integer, float16/32/64,
    complex, longdouble or clongdouble data (computed in C++ ``long double``, numpy's type; equal
    by value, the unused padding bytes of an x87 long double are arbitrary), in either byte
    order, and compute what numpy computes for times: "maximum"
    and "minimum" of datetime64 (NaT wins) and odd reflection of timedelta64 (int64
    arithmetic, NaT in NaT out, overflow wraps). Those of dtypes numpy does not define
    (ml_dtypes' bfloat16, float8, int4, ...) are numpy.pad's own computation, with the types'
    ufuncs (no ``negative`` or ``interior``). Other dtypes and modes raise TypeError, as
    numpy's ufuncs do.

    ``mode`` may also be a sequence with one mode name per axis (padnd's extension), e.g.
    ``mode=("constant", "reflect")``: each axis is padded in its mode with that mode's
    keywords, axis 0 first, each over the already padded earlier axes (numpy's order). A
    keyword that no axis's mode accepts is an error.

    Object arrays and a callable ``mode`` are passed to ``numpy.pad`` unchanged.

    ``array`` (and ``out``) may be any CPU tensor with ``__dlpack__`` (torch, JAX, CuPy,
    array-api-strict): it is read where it lies, and the result is an array of its framework
    (docs/frameworks.md).

    padnd extensions (keyword-only):
      negative: None (default) rejects negative pad widths with numpy's error.
        "map_on_original" lets a negative width crop that side; index modes then take their
        values from the uncropped input (OpenVINO / nGraph). "crop_then_pad" crops first and
        pads the cropped data (ONNX). The value modes cannot crop.
      interior: int or one int per axis, elements of the constant inserted between neighbours
        (constant axes with a single constant value only).
      out: a C-contiguous, writeable array of the result's shape and dtype, not overlapping the
        input, to write into (returned). Anything else raises ValueError naming the mismatch.
        Ctrl-C stops a pad of 64 MiB or more between the engine's tasks (KeyboardInterrupt):
        ``out`` then holds the tasks that ran, the rest as it was.
      threads: None (default: up to one thread per core) or an int from 1 (serial) to 2**31 - 1
        (the engine's C int). The engine
        splits a pad into tasks of at least 512 KiB (128 KiB while its workers are awake after a
        recent pad), so outputs below 1 MiB (256 KiB) run on the calling thread. It releases the
        GIL while padding large outputs, so separate Python threads run concurrently. The value
        passes run on one thread.

    Errors from padnd's adapter and planner (sizes, overflow, crops beyond the data, stat
    lengths) are ValueError; element types a mode cannot compute with are TypeError.
    """
    if negative is None and interior is None and (
            threads is None or (type(threads) is int and 1 <= threads <= _MAX_THREADS)) and (
            not kwargs or (len(kwargs) == 1 and kwargs.get("constant_values") is not None)):
        # One C++ call for the common requests (see python/src/fast_path.cpp); None = general.
        # threads: the values _check_threads accepts (the others raise there, below).
        result = _padnd.pad_fast(array, pad_width, mode, kwargs.get("constant_values"),
                                 threads or 0, out)
        if result is not None:
            return result
    if _cuda.involved(array, out):
        _check_untracked(array, "padnd.pad")
        _check_threads(threads)  # the CPU's setting: a CUDA pad runs on the device
        return _cuda.pad("padnd.pad", array, out, pad_width, mode, None, negative, interior,
                         kwargs)
    if _dlpack.is_tensor(array) or _dlpack.is_tensor(out):
        _check_untracked(array, "padnd.pad")
        return _dlpack.call_on_numpy(pad, array, out, pad_width=pad_width, mode=mode,
                                     negative=negative, interior=interior, threads=threads,
                                     **kwargs)
    thread_count = _check_threads(threads)
    array = np.asarray(array)
    if array.dtype.hasobject or callable(mode):
        _check_numpy_fallback(negative, interior, out)
        return _numpy_pad(array, pad_width, mode, **kwargs)
    if numpy_computes(array.dtype, mode, kwargs.get("reflect_type")):
        return _pad_in_numpy(array, pad_width, mode, negative, interior, out, kwargs)
    data, request = _request(array, pad_width, mode, negative, interior, kwargs)
    spec = request.spec()
    shape = tuple(_padnd.spec_shape(spec, list(array.shape)))
    if out is not None:
        _check_out(out, shape, array.dtype, array, contiguous=True)
        result, fresh = (out, False) if data is array else empty(shape, data.dtype)
        _execute(spec, data, result, thread_count, fresh_output=fresh)
    elif array.flags.fnc:  # numpy's layout: Fortran in (and not also C), Fortran out
        result = _fortran_result(request, spec, data, shape, thread_count)
    else:
        result, fresh = empty(shape, data.dtype)
        _execute(spec, data, result, thread_count, fresh_output=fresh)
    return _in_dtype(result, array, data, out)


def _fortran_result(request: _Request, spec, data: np.ndarray, shape: tuple, threads: int):
    """The result in Fortran order: the transposed request written into the transposed (C)
    result where the axis order does not matter, else the C result copied."""
    if request.axis_order_free():
        result, fresh = empty(shape, data.dtype, "F")
        _execute(request.reversed_axes().spec(), data.T, result.T, threads, fresh_output=fresh)
        return result
    result, fresh = empty(shape, data.dtype)
    _execute(spec, data, result, threads, fresh_output=fresh)
    return np.asfortranarray(result)


def pad_window(array, pad_width, mode="constant", *, window, input_shape=None, input_start=None,
               negative=None, interior=None, out=None, threads=None, **kwargs):
    """``pad(array, pad_width, mode, ...)[window]``, computed without the rest of the result.

    ``window`` is a slice or a tuple of slices of the padded result, as numpy indexes it: step
    1 (or None), negative and out-of-range bounds as numpy reads them, axes without a slice
    whole. The arguments and errors are :func:`pad`'s. The work and memory are those of the
    window, not of the whole result, except in numpy's value modes (linear_ramp, maximum,
    mean, median, minimum, odd reflection), where a window with pad positions also computes
    what they read: one position per side of a statistic with its ``stat_length`` elements,
    a ramp's edge element, odd reflection's whole axis (the window's own positions in the first
    chunk mirrored next to each edge); a window holding only some lanes of a ramp side also
    computes all their edge elements, a bounded piece at a time (numpy decides the side's
    formula over every lane). For many windows of one pad, :func:`prepare_windows` computes
    those once.

    ``out``: a writeable array of the window's shape and dtype, in any layout (a view into a
    larger array, for tiles written in place), not overlapping the input.

    ``input_shape`` and ``input_start`` (both or neither): ``array`` is only the part
    ``input[input_start[0]:input_start[0] + array.shape[0], ...]`` of an input of
    ``input_shape`` (a chunk, a tile read from a file), which must hold what
    :func:`input_window` names for this window (else ValueError naming the axis).
    """
    if _cuda.involved(array, out):
        _check_untracked(array, "padnd.pad_window")
        _check_threads(threads)
        if input_shape is not None or input_start is not None:
            raise ValueError("input_shape and input_start: not taken for CUDA tensors (pass "
                             "the whole input; padnd's CUDA executor reads only what the "
                             "window needs)")
        return _cuda.pad("padnd.pad_window", array, out, pad_width, mode, window, negative,
                         interior, kwargs)
    if _dlpack.is_tensor(array) or _dlpack.is_tensor(out):
        _check_untracked(array, "padnd.pad_window")
        return _dlpack.call_on_numpy(pad_window, array, out, pad_width=pad_width, mode=mode,
                                     window=window, input_shape=input_shape,
                                     input_start=input_start, negative=negative,
                                     interior=interior, threads=threads, **kwargs)
    thread_count = _check_threads(threads)
    array = np.asarray(array)
    if array.dtype.hasobject or callable(mode):
        _check_numpy_fallback(negative, interior, out, input_shape)
        full = _numpy_pad(array, pad_width, mode, **kwargs)
        return full[tuple(slice(s, s + n) for s, n in zip(*window_ranges(window, full.shape)))]
    shape, box = _input_box(array, input_shape, input_start)
    data, request = _request(array, pad_width, mode, negative, interior, kwargs, shape)
    spec = request.spec()
    starts, lengths = window_ranges(window, _padnd.spec_shape(spec, list(shape)))
    result, fresh = _window_buffer(out, lengths, array, data)
    _execute(spec, data, result, thread_count, fresh_output=fresh, window=(starts, lengths),
             input_box=box, input_shape=shape)
    return _in_dtype(result, array, data, out)


def _window_buffer(out, lengths, array: np.ndarray, data: np.ndarray) -> tuple:
    """(where the engine writes a window of ``lengths``, whether that memory is fresh): ``out``
    (checked) when it reads ``array`` itself, else a new array of ``data``'s dtype
    (``_in_dtype`` then gives the result)."""
    if out is not None:
        _check_out(out, tuple(lengths), array.dtype, array, contiguous=False)
    return (out, False) if out is not None and data is array else empty(lengths, data.dtype)


def _input_box(array: np.ndarray, input_shape, input_start):
    """(the input's shape, the box ``array`` holds as (starts, lengths), or None: all of it)."""
    if input_shape is None and input_start is None:
        return array.shape, None
    if input_shape is None or input_start is None:
        raise ValueError("input_shape and input_start: give both or neither")
    shape = tuple(operator.index(d) for d in input_shape)
    starts = [operator.index(s) for s in input_start]
    if len(shape) != array.ndim or len(starts) != array.ndim:
        raise ValueError(f"input_shape and input_start: expected {array.ndim} values each (the "
                         f"array's axes), got {len(shape)} and {len(starts)}")
    return shape, (starts, list(array.shape))


def input_window(shape, pad_width, mode="constant", *, window, dtype=None, negative=None,
                 interior=None, **kwargs) -> tuple:
    """The part of an input of ``shape`` that ``pad_window(input, pad_width, mode,
    window=window, ...)`` reads, as one ``slice(start, stop)`` per input axis: pass just that
    part to :func:`pad_window` with ``input_shape`` and ``input_start`` (tiles of an array on
    disk, chunks of a distributed one). Where the window reads no input element (only pad
    values, or an empty window) every slice is ``slice(0, 0)``. Index modes read, per axis,
    the range the window's positions map to; where the window holds pad positions of numpy's
    value modes, they read the ``stat_length`` elements next to each edge (by default the
    whole axis), a ramp's edge element, odd reflection's whole extent. ``dtype`` (default float64) is the input's; the other arguments are
    :func:`pad`'s, validated as it validates them."""
    dims = tuple(operator.index(d) for d in shape)
    dtype = np.dtype(np.float64 if dtype is None else dtype)
    with warnings.catch_warnings():  # casts of constants warn in pad, for the data
        warnings.simplefilter("ignore")
        native, request = _shape_request(dims, dtype, pad_width, mode, negative, interior,
                                         kwargs)
    spec = request.spec()
    starts, lengths = window_ranges(window, _padnd.spec_shape(spec, list(dims)))
    element = element_type_name(native)
    with _naming_numpy_dtype(element, dtype):
        first, counts = _padnd.input_window(spec, element, list(dims), starts, lengths)
    return tuple(slice(s, s + n) for s, n in zip(first, counts))


def numpy_computes(dtype: np.dtype, mode, reflect_type) -> bool:
    """Whether numpy.pad computes this request's values in place of padnd's engine: a value
    mode or odd reflection on a dtype that numpy does not define (a user dtype: ml_dtypes'
    bfloat16, float8, int4, ...), whose arithmetic is the type's own ufuncs. The engine
    computes in numpy's types only; index modes move any type's bits."""
    if dtype.isbuiltin != 2:
        return False
    modes = (mode,) if isinstance(mode, str) else mode if isinstance(mode, (tuple, list)) else ()
    return reflect_type == "odd" or any(m in _STAT_MODES or m == "linear_ramp" for m in modes)


def _pad_in_numpy(array: np.ndarray, pad_width, mode, negative, interior, out, kwargs: dict):
    """padnd.pad by numpy.pad's algorithm (numpy_computes): one mode, or one axis at a time
    for one mode per axis (numpy's order: each axis over the earlier ones, already padded)."""
    pairs, modes, _, _ = _geometry(array.ndim, pad_width, mode, negative, interior, kwargs)
    _check_numpy_fallback(negative, interior, None)
    if len(modes) == 1:  # pairs is [] for a 0-d array, which numpy.pad takes as 0
        result = _numpy_pad(array, pairs or 0, modes[0], **kwargs)
    else:
        result = array
        for axis, name in enumerate(modes):
            widths = [pair if k == axis else (0, 0) for k, pair in enumerate(pairs)]
            keywords = {k: v for k, v in kwargs.items() if k in _ALLOWED_KWARGS[name]}
            result = _numpy_pad(result, widths, name, **keywords)
    if out is None:
        return result
    _check_out(out, result.shape, array.dtype, array, contiguous=True)[...] = result
    return out


def _check_untracked(array, function: str) -> None:
    """Refuses a torch tensor that autograd tracks (requires grad, grad mode on): the result
    would silently have no gradient. numpy.pad refuses it too (RuntimeError, torch's)."""
    torch = sys.modules.get("torch")
    if (torch is not None and isinstance(array, torch.Tensor) and array.requires_grad
            and torch.is_grad_enabled()):
        raise RuntimeError(f"array: a torch tensor that requires grad; {function}'s result "
                           "would not track its gradient: use padnd.torch.pad, which autograd "
                           "differentiates, or pass array.detach()")


def _check_numpy_fallback(negative, interior, out, input_shape=None) -> None:
    if negative is not None or interior is not None or out is not None or input_shape is not None:
        raise ValueError("negative=, interior=, out= and input_shape= need padnd's engine, which "
                         "does not take object arrays or a callable mode (nor, for negative= "
                         "and interior=, value modes of dtypes numpy does not define)")


class _Request(NamedTuple):
    """numpy.pad's arguments normalised to one entry per axis (padnd._padnd.numpy_spec's)."""
    pairs: list
    modes: list
    constants: list
    ends: list
    ramp: str
    stats: list
    reflect_type: str
    negative: str | None
    interiors: list
    shape: list

    def spec(self):
        return _padnd.numpy_spec(*self)

    def reversed_axes(self) -> _Request:
        """The request on the transposed array (axes in reverse order)."""
        per_axis = ("pairs", "modes", "constants", "ends", "stats", "interiors", "shape")
        return self._replace(**{name: getattr(self, name)[::-1] for name in per_axis})

    def axis_order_free(self) -> bool:
        """Whether the result is the same whichever axis is padded first: numpy pads axis 0
        first and each later axis over it, which matters only where a corner reads a value
        another axis wrote (different constants, statistics, ramps, odd reflection)."""
        return (self.reflect_type == "even" and all(m in _INDEX_MODES for m in self.modes)
                and len({v for pair in self.constants for v in pair}) <= 1)


def _request(array: np.ndarray, pad_width, mode, negative, interior, kwargs: dict,
             shape: tuple | None = None):
    """(the data as the engine reads it, the _Request) of a numpy.pad request on `array`, or on
    an input of `shape` that `array` is a box of."""
    dtype, request = _shape_request(array.shape if shape is None else shape, array.dtype,
                                    pad_width, mode, negative, interior, kwargs)
    return (array if dtype == array.dtype else array.astype(dtype)), request


def _warn_empty_means(shape: tuple, dtype: np.dtype, modes: list, stats: list) -> None:
    """numpy's RuntimeWarnings for each mean or median it takes of 0 elements (a stat length
    of 0), written or not: the same reduction on an empty chunk of the same rank warns the
    same way in every numpy version. Negative lengths are left to the adapter's error."""
    if dtype.kind not in "biufc" or 0 in shape or any(n is not None and n < 0
                                                      for pair in stats for n in pair):
        return
    for axis, (size, (begin, end)) in enumerate(zip(shape, stats)):
        mode = modes[axis] if len(modes) > 1 else modes[0]
        if mode not in ("mean", "median"):
            continue
        begin, end = (size if n is None else min(n, size) for n in (begin, end))
        # numpy reuses the begin side's statistic when both sides read the whole axis.
        for length in (begin,) if begin == end == size else (begin, end):
            if length == 0:
                chunk = np.empty((1,) * axis + (0,) + (1,) * (len(shape) - axis - 1), dtype)
                getattr(np, mode)(chunk, axis=axis, keepdims=True)


def _shape_request(shape: tuple, dtype: np.dtype, pad_width, mode, negative, interior,
                   kwargs: dict):
    """(the dtype the engine reads, the _Request) of a numpy.pad request on an array of
    ``shape`` and ``dtype``: non-native data is read natively where values are computed."""
    ndim = len(shape)
    pairs, modes, interiors, reflect_type = _geometry(ndim, pad_width, mode, negative, interior,
                                                      kwargs)
    value_modes = any(m in _STAT_MODES or m == "linear_ramp" for m in modes)
    # numpy reads end_values and stat_length only for a non-empty array. With one mode per axis
    # (padnd's), a later value axis of an empty input sees the earlier axes' constant pads.
    computes = value_modes and (0 not in shape or len(modes) > 1)
    if (value_modes or reflect_type == "odd") and not dtype.isnative:
        dtype = dtype.newbyteorder("=")  # the value passes compute natively
    # numpy casts each constant into the data's dtype (and fails) even for unpadded axes.
    values = value_pairs(kwargs.get("constant_values", 0), ndim) if "constant" in modes else []
    ends, ramp = [], "float64"
    if computes and "linear_ramp" in modes:
        ends, ramp = _end_value_bytes(kwargs.get("end_values", 0), dtype, ndim,
                                      ndim if len(modes) == 1 else modes.count("linear_ramp"))
    stats = []
    if computes and any(m in _STAT_MODES for m in modes):
        stats = stat_pairs(kwargs.get("stat_length"), ndim)
        _warn_empty_means(shape, dtype, modes, stats)
    request = _Request(pairs, list(modes), [], ends, ramp, stats, reflect_type, negative,
                       interiors, list(shape))
    if dtype.kind in "SUV" and dtype.isbuiltin == 0 and dtype.fields is None and dtype.itemsize > 1:
        # An empty output of long elements (up to 2 GiB each) is planned and computed with a
        # one-byte stand-in, as numpy builds no element for it: the constants are cast (and
        # fail) as numpy casts them, into a one-character element of the kind, which casts
        # alike, and nothing costs more than the result's header. (numpy's own flexible dtypes:
        # a user dtype such as ml_dtypes' bfloat16 has kind V too, and no cast to V1.)
        for value in itertools.chain.from_iterable(values):
            _element_bytes(value, np.dtype(dtype.kind + "1"))
        stand_in = request._replace(constants=[(b"\0", b"\0")] * len(values))
        if 0 in _padnd.spec_shape(stand_in.spec(), list(shape)):
            return np.dtype("V1"), stand_in
    return dtype, request._replace(constants=[
        (_element_bytes(b, dtype).tobytes(), _element_bytes(a, dtype).tobytes())
        for b, a in values])


def _execute(spec, data: np.ndarray, result: np.ndarray, threads: int, fresh_output: bool,
             window=None, input_box=None, input_shape=None) -> None:
    """Writes the result (or its window: (starts, lengths)) of `spec` on `data` into `result`;
    `data` holds the box input_box (starts, lengths) of an input of `input_shape`, if given."""
    starts, lengths = window if window is not None else (None, None)
    box_start, box_shape = input_box if input_box is not None else (None, None)
    dtype = data.dtype
    if dtype.itemsize == 0:  # numpy's V0: no bytes move; V1 stand-ins plan (and check) it
        data = np.lib.stride_tricks.as_strided(np.zeros(1, "V1"), data.shape, (0,) * data.ndim)
        empty = (0,) * result.ndim if result.ndim else ()  # a 0-d result is one element
        result, starts, lengths = np.empty(empty, "V1"), list(empty), list(empty)
    strided = window is not None and (input_box is not None or not result.flags.c_contiguous)
    element = element_type_name(data.dtype)
    with _naming_numpy_dtype(element, dtype):
        _padnd.execute_spec(spec, data.__array_interface__["data"][0], element,
                            list(data.shape if input_shape is None else input_shape),
                            list(data.strides), result.__array_interface__["data"][0],
                            result.nbytes, threads, fresh_output=fresh_output,
                            window_start=starts, window_shape=lengths,
                            out_strides=list(result.strides) if strided else None,
                            input_box_start=box_start, input_box_shape=box_shape)


@contextlib.contextmanager
def _naming_numpy_dtype(element: str, dtype: np.dtype):
    """A TypeError about a type the engine holds as opaque bytes names numpy's dtype instead."""
    try:
        yield
    except TypeError as e:
        if not element.startswith("opaque") or f"got {element}" not in str(e):
            raise
        raise TypeError(str(e).replace(f"got {element}", f"got {dtype!r}")) from None


def _in_dtype(result: np.ndarray, array: np.ndarray, data: np.ndarray, out):
    """The result in the input's dtype (the engine computed a non-native input natively, or
    an empty output with a stand-in: numpy's casts to it allocate an element all the same)."""
    if data is array:
        return result
    if out is None:
        return result.astype(array.dtype) if result.size else np.empty(result.shape, array.dtype)
    if result.size:
        out[...] = result
    return out
