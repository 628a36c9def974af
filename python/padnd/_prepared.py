# SPDX-License-Identifier: Apache-2.0
# padnd.prepare_windows: many windows of one padded result, what they share computed once.
from __future__ import annotations

import numpy as np

from . import _dlpack, _padnd
from ._dtypes import element_type_name
from ._numpy_pad import _check_threads, _in_dtype, _request, _window_buffer, pad
from ._window import window_ranges


class PreparedWindows:
    """Windows of ``padnd.pad(array, pad_width, mode, ...)``, each computed without the rest of
    the result, with what they share computed once (``padnd.prepare_windows``, the same class).
    ``prepared[window]`` and ``prepared.window(window, out=None)`` equal
    ``pad_window(array, pad_width, mode, ..., window=window)``; the arguments and errors are
    :func:`pad`'s, and ``threads`` applies to the preparation.

    In numpy's value modes a window reads beyond itself: a statistic reads its ``stat_length``
    elements next to each edge, by default the whole axis, so each ``pad_window`` call computes
    that part again. Here the statistics are computed once, at construction, into a box of the
    result that holds the input's elements and one position of each statistic's, constant's or
    edge's side, other axes whole, pads included (``prepared_bytes`` says its size); each window
    is then a copy out of it. A box larger than twice the input (with two more positions per
    axis), index modes alone and linear_ramp prepare nothing: their windows are computed from
    the input, as ``pad_window`` does.

    The object keeps a reference to the input, which must not change while it is in use.
    """

    def __init__(self, array, pad_width, mode="constant", *, negative=None, interior=None,
                 threads=None, **kwargs):
        thread_count = _check_threads(threads)
        self._like = array if _dlpack.is_tensor(array) else None
        data = _dlpack.as_numpy(array, "array") if self._like is not None else np.asarray(array)
        self._array = data
        self._full = None  # numpy's own pad, for object dtypes and callable modes
        if data.dtype.hasobject or callable(mode):
            self._full = pad(data, pad_width, mode, negative=negative, interior=interior, **kwargs)
            self._data, self._prepared = data, None
            return
        self._data, request = _request(data, pad_width, mode, negative, interior, kwargs)
        self._prepared = _padnd.PreparedPad(
            request.spec(), self._data, self._data.__array_interface__["data"][0],
            element_type_name(self._data.dtype), list(self._data.shape),
            list(self._data.strides), thread_count)

    @property
    def shape(self) -> tuple:
        """The padded result's shape."""
        return self._full.shape if self._full is not None else tuple(self._prepared.shape)

    @property
    def dtype(self) -> np.dtype:
        """The padded result's dtype (the input's)."""
        return self._array.dtype

    @property
    def prepared_bytes(self) -> int:
        """Bytes of the values computed at construction (0: windows are computed from the
        input; numpy's own result for object dtypes and callable modes)."""
        return self._full.nbytes if self._full is not None else self._prepared.prepared_bytes

    def window(self, window, out=None):
        """``padnd.pad(array, pad_width, mode, ...)[window]``, as a new array (or into ``out``:
        a writeable array of the window's shape and dtype, in any layout); ``window`` as
        ``pad_window`` takes it."""
        starts, lengths = window_ranges(window, self.shape)
        target = _dlpack.as_numpy(out, "out", writable=True) if _dlpack.is_tensor(out) else out
        result, _ = _window_buffer(target, lengths, self._array, self._data)
        if self._full is not None:
            np.copyto(result, self._full[tuple(slice(s, s + n) for s, n in zip(starts, lengths))])
        else:
            strided = not result.flags.c_contiguous
            self._prepared.window(starts, lengths, result.__array_interface__["data"][0],
                                  result.nbytes, list(result.strides) if strided else None)
            result = _in_dtype(result, self._array, self._data, target)
        if out is not None:
            return out
        return _dlpack.like(result, self._like) if self._like is not None else result

    def __getitem__(self, window):
        return self.window(window)


# padnd.prepare_windows(array, pad_width, mode, ...) makes one.
prepare_windows = PreparedWindows
