# SPDX-License-Identifier: Apache-2.0
# padnd.pad_file: numpy.pad on .npy files larger than memory, with the CLI's C++ engine.
from __future__ import annotations

import os

import numpy as np

from . import _padnd
from ._numpy_pad import _shape_request


def _memory_text(memory) -> str | None:
    if memory is None or isinstance(memory, str):
        return memory
    if isinstance(memory, int) and not isinstance(memory, bool):
        return str(memory)
    raise TypeError(f"memory: expected None, an int (bytes) or a str such as '512M', "
                    f"got {memory!r}")


def pad_file(src, dst, pad_width, mode="constant", *, memory=None, progress=None, fsync=True,
             negative=None, interior=None, **kwargs) -> None:
    """``np.save(dst, pad(np.load(src), pad_width, mode, ...))`` for ``.npy`` files of any size.

    The arguments after ``dst`` are :func:`pad`'s: numpy.pad's ``pad_width``, ``mode`` (a name,
    or one name per axis) and its keywords, and padnd's ``negative`` and ``interior``. The
    result is written to ``dst`` in C order with the input's dtype, byte for byte what
    :func:`pad` would give; a Fortran-order ``src`` is read as it lies. It is the ``padnd``
    tool's engine (docs/out-of-core.md): ``src`` is memory-mapped (a FIFO is read into memory),
    and the result is computed and written window by window through one buffer of at most
    ``memory``, so neither file has to fit in memory. numpy's value modes (and per-axis modes
    and per-side constants) compute the whole result at once: in memory when ``memory``
    allows it, otherwise in the memory-mapped ``dst`` file (a regular file then).

    memory: the most memory the pad allocates for data: None (1 GiB, or a quarter of the
      physical memory when less), an int of bytes, or a str such as "512M", "2G" or "64KiB"
      (K, M, G and T are powers of 1024).
    progress: None draws a progress bar on standard error when it is a terminal; True always,
      False never.
    fsync: sync ``dst`` and its directory before returning (durable, slower).

    ``dst`` is written atomically: a temporary file beside it (``.padnd-XXXXXX``) is renamed
    over it once complete, so an error or KeyboardInterrupt (checked between windows) leaves
    no file and an existing ``dst`` untouched; a FIFO or device is written in place. Errors
    are :func:`pad`'s, FileNotFoundError for a missing ``src``, OSError for a file that cannot
    be read or written, ValueError for a file that is not a valid ``.npy`` (as np.load) and for
    a bad ``memory`` or one too small for the request, MemoryError where an allocation fails;
    each names the argument or the file.
    """
    src, dst = os.fsdecode(src), os.fsdecode(dst)  # bytes paths too, as np.load takes them
    memory = _memory_text(memory)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress: expected None, True or False, got {progress!r}")
    if callable(mode):
        raise TypeError("mode: pad_file takes numpy.pad's mode names, not a callable")
    os.stat(src)  # FileNotFoundError, as np.load raises it

    def spec_for(descr: str, shape: list[int]):
        # pad()'s request for the file's header (for the host's byte order where the request
        # computes on numbers: the engine then pads the file's data in that order).
        _, request = _shape_request(tuple(shape), np.dtype(descr), pad_width, mode, negative,
                                    interior, kwargs)
        return request.spec()

    _padnd.pad_file(src, dst, spec_for, memory, progress, bool(fsync))
