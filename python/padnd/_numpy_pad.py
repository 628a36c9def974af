# SPDX-License-Identifier: Apache-2.0
# padnd.pad: numpy.pad's signature and results for the index modes, on padnd's C++ engine.
from __future__ import annotations

import operator

import numpy as np

from . import _padnd
from ._dtypes import element_type_name
from ._pairs import pad_pairs, value_pairs

# The keywords numpy.pad accepts per mode (so unknown ones fail the same way).
_ALLOWED_KWARGS = {
    "empty": (), "edge": (), "wrap": (),
    "constant": ("constant_values",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}
_VALUE_MODES = ("linear_ramp", "maximum", "mean", "median", "minimum")
_NEGATIVE_ORDERS = ("map_on_original", "crop_then_pad")


def _not_yet(what: str) -> ValueError:
    return ValueError(f"{what} is not supported yet by padnd; use numpy.pad")


def _check_mode(mode: str, kwargs: dict) -> None:
    if mode not in _ALLOWED_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if mode in _VALUE_MODES:
        raise _not_yet(f"mode '{mode}'")
    if kwargs.get("reflect_type", "even") == "odd":
        raise _not_yet("reflect_type='odd'")


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


def _check_out(out, shape: tuple, dtype: np.dtype, array: np.ndarray) -> np.ndarray:
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out: shape {out.shape} does not match the result shape {shape}")
    if out.dtype != dtype:
        raise ValueError(f"out: dtype {out.dtype} does not match the result dtype {dtype}")
    if not out.flags.c_contiguous:
        raise ValueError("out: must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError("out: is read-only")
    if np.may_share_memory(out, array):
        raise ValueError("out: overlaps the input array")
    return out


def _check_threads(threads) -> int:
    """The engine's thread count: 0 (one per core) for None, else an int >= 1."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads: expected None or an int >= 1, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads: expected None or an int >= 1, got {threads}")
    return threads


def pad(array, pad_width, mode="constant", *, negative=None, interior=None, out=None,
        threads=None, **kwargs):
    """Pad an array exactly like ``numpy.pad``, without copying the input.

    Parameters are numpy.pad's: ``pad_width`` (int, ``(n,)``, ``(before, after)``, one pair
    per axis, or a dict ``{axis: width}``), ``mode`` and the mode's keywords
    (``constant_values`` for "constant", ``reflect_type`` for "reflect"/"symmetric").
    The result has the input's dtype and equals ``numpy.pad``'s (numpy >= 2.1) for the modes
    "constant" (including different constants per axis and side; later axes own the corners, as
    in numpy), "edge", "reflect" and "symmetric" (``reflect_type="even"``), "wrap" and "empty"
    (padnd fills "empty" pads with zero bits; numpy leaves them uninitialised).

    Every non-object dtype works (bool, integers, floats, complex, S, U, void, datetime64,
    timedelta64, ml_dtypes types), in any memory layout: the engine reads the input through its
    byte strides (views, negative strides, Fortran order, 0-d and zero-size arrays).

    Not handled by padnd:
      * object arrays and a callable ``mode`` are passed to ``numpy.pad`` unchanged;
      * the value-computing modes "linear_ramp", "maximum", "mean", "median", "minimum" and
        ``reflect_type="odd"`` raise ValueError ("... is not supported yet by padnd; use
        numpy.pad"); there is no silent fallback.

    padnd extensions (keyword-only):
      negative: None (default) rejects negative pad widths with numpy's error.
        "map_on_original" lets a negative width crop that side; other modes then take their
        values from the uncropped input (OpenVINO / nGraph). "crop_then_pad" crops first and
        pads the cropped data (ONNX).
      interior: int or one int per axis, elements of the constant inserted between neighbours
        (mode "constant" with a single constant value only).
      out: a C-contiguous, writeable array of the result's shape and dtype, not overlapping the
        input, to write into (returned). Anything else raises ValueError naming the mismatch.
      threads: None (default: up to one thread per core) or an int >= 1 (1 = serial). The engine
        splits a pad into tasks of at least 512 KiB, so small pads always run on the calling
        thread. It releases the GIL while copying large outputs, so separate Python threads run
        concurrently.

    Errors from padnd's planner (sizes, overflow, crops beyond the data) are ValueError.
    """
    if negative is None and interior is None and out is None and threads is None and (
            not kwargs or (len(kwargs) == 1 and kwargs.get("constant_values") is not None)):
        # One C++ call for the common requests (see python/src/fast_path.cpp); None = general.
        result = _padnd.pad_fast(array, pad_width, mode, kwargs.get("constant_values"), 0)
        if result is not None:
            return result
    thread_count = _check_threads(threads)
    array = np.asarray(array)
    if array.dtype.hasobject or callable(mode):
        if negative is not None or interior is not None or out is not None:
            raise ValueError("negative=, interior= and out= need padnd's engine, which does not "
                             "take object arrays or a callable mode")
        return np.pad(array, pad_width, mode, **kwargs)
    if negative is not None and negative not in _NEGATIVE_ORDERS:
        raise ValueError(f"negative: expected None, 'map_on_original' or 'crop_then_pad', "
                         f"got {negative!r}")
    ndim = array.ndim
    pairs = pad_pairs(pad_width, ndim, allow_negative=negative is not None)
    _check_mode(mode, kwargs)
    interiors = _interiors(interior, ndim)
    if any(interiors) and mode != "constant":
        raise ValueError("interior: only mode 'constant' supports interior padding")
    if mode not in ("constant", "empty") and array.size == 0:
        for axis, (before, after) in enumerate(pairs):
            if array.shape[axis] == 0 and (before or after):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")

    cells = []  # per axis (before, after) constants as 0-d arrays of the result dtype
    if mode == "constant":
        for before, after in value_pairs(kwargs.get("constant_values", 0), ndim):
            cells.append((_element_bytes(before, array.dtype), _element_bytes(after, array.dtype)))
    distinct = {cell.tobytes() for pair in cells for cell in pair}
    if len(distinct) > 1 and any(interiors):
        raise ValueError("interior: needs a single constant value, not one per axis/side")
    fill = cells[0][0].tobytes() if cells else b""

    begins = [b for b, _ in pairs]
    ends = [a for _, a in pairs]
    engine_mode = "constant" if mode == "empty" else mode
    crop_then_pad = negative == "crop_then_pad"
    shape = tuple(_padnd.infer_shape(list(array.shape), begins, ends, interiors, engine_mode,
                                     crop_then_pad))
    if out is None:
        out = np.empty(shape, dtype=array.dtype)
    else:
        _check_out(out, shape, array.dtype, array)
    _padnd.execute(array.__array_interface__["data"][0], element_type_name(array.dtype),
                   list(array.shape), list(array.strides), begins, ends, interiors, engine_mode,
                   fill, crop_then_pad, out.__array_interface__["data"][0], out.nbytes,
                   thread_count)
    if len(distinct) > 1:
        _paint_constant_sides(out, pairs, cells)
    return out


def _paint_constant_sides(out: np.ndarray, pairs, cells) -> None:
    # numpy fills axis by axis over the full extent of the other axes, so later axes overwrite
    # the corners; repeating that order reproduces its result cell for cell.
    for axis, ((before, after), (first, last)) in enumerate(zip(pairs, cells)):
        lead = (slice(None),) * axis
        if before > 0:
            out[lead + (slice(0, before),)] = first
        if after > 0:
            out[lead + (slice(out.shape[axis] - after, None),)] = last
