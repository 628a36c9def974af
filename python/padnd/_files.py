# SPDX-License-Identifier: Apache-2.0
# padnd.pad_file: numpy.pad on .npy files larger than memory, with the CLI's C++ engine.
from __future__ import annotations

import contextlib
import os
import signal
import threading

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
    over it once complete, so an error or KeyboardInterrupt (checked between windows, and
    after a value mode's computation) leaves no file and an existing ``dst`` untouched; a
    FIFO or device is written in place. Called from the main thread, SIGTERM and SIGHUP (where
    their default action is set) remove the temporary file too, then end the process as their
    default action does. Errors
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

    with _ending_cleanly_on(signal.SIGTERM, signal.SIGHUP):
        _padnd.pad_file(src, dst, spec_for, memory, progress, bool(fsync))


class _Ended(BaseException):
    """A signal whose default action ends the process, raised where the pad checks signals."""

    def __init__(self, signum: int):
        super().__init__(f"signal {signum}")
        self.signum = signum


def _raise_ended(signum, frame):
    raise _Ended(signum)


@contextlib.contextmanager
def _ending_cleanly_on(*signums):
    """Within, those of `signums` whose default action is set raise _Ended where Python checks
    signals (between the pad's windows): the pad's temporary file is removed as the exception
    unwinds, and then the signal ends the process as its default action does. Handlers can
    only be set in the main thread; elsewhere the signals act as they are set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _raise_ended) for signum in signums
                if signal.getsignal(signum) is signal.SIG_DFL}
    try:
        yield
    except _Ended as ended:
        signal.signal(ended.signum, signal.SIG_DFL)
        os.kill(os.getpid(), ended.signum)  # delivered at once: the default action ends it
        raise  # not reached
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
