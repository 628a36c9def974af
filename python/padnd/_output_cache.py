# SPDX-License-Identifier: Apache-2.0
# The output cache's settings and the outputs allocating calls take from it.
"""Large outputs of padnd's allocating calls come from a cache of recently freed outputs
(python/src/output_cache.cpp), so that a loop of pads writes into memory already mapped; the
memory returns to the cache when the array that owns it is freed. docs/python.md, "Output
cache", says what it may hold and how to turn it off."""
from __future__ import annotations

import os

import numpy as np

from . import _padnd

ENVIRONMENT_VARIABLE = "PADND_OUTPUT_CACHE"
_IDLE_SECONDS = 5.0


def _default_limit_bytes() -> int:
    """pad_file's default budget: 1 GiB, or a quarter of the physical memory where that is
    less (a large output of the shared workloads, 512 MiB, fits)."""
    return _padnd.default_memory_bytes()


def set_output_cache(limit_bytes=None, *, idle_seconds=None) -> dict:
    """Sets the output cache: ``limit_bytes``, the most memory idle outputs may hold (an int
    of bytes or a str such as "512M"; 0 turns the cache off; None leaves it), and
    ``idle_seconds``, how long an unused buffer is kept before it goes back to the system
    (None leaves it). What no longer fits is released at once. Returns the settings before,
    as :func:`output_cache_info` names them."""
    info = _padnd.output_cache_info()
    limit = info["limit_bytes"] if limit_bytes is None else _bytes("limit_bytes", limit_bytes)
    idle = info["idle_seconds"] if idle_seconds is None else float(idle_seconds)
    if not idle >= 0:  # NaN too
        raise ValueError(f"idle_seconds: expected a number >= 0, got {idle_seconds!r}")
    before_limit, before_idle = _padnd.set_output_cache(limit, idle)
    return {"limit_bytes": before_limit, "idle_seconds": before_idle}


def output_cache_info() -> dict:
    """The output cache now: ``limit_bytes``, ``idle_seconds``, ``held_bytes`` and
    ``held_buffers`` (idle outputs kept), ``reused`` and ``mapped`` (allocations served by a
    kept buffer, and by new memory, since the process started)."""
    return _padnd.output_cache_info()


def _parse(name: str, text: str) -> int:
    """Bytes of "0" or a size such as "512M" (pad_file's memory= sizes)."""
    return 0 if text.strip() == "0" else _padnd.parse_memory_size(name, text)


def _bytes(name: str, value) -> int:
    if isinstance(value, str):
        return _parse(name, value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int (bytes) or a str such as '512M', got "
                        f"{value!r}")
    if value < 0:
        raise ValueError(f"{name}: expected bytes >= 0, got {value}")
    return value


def empty(shape, dtype, order: str = "C") -> tuple[np.ndarray, bool]:
    """(numpy.empty(shape, dtype, order=order), whether its memory is fresh: never written)."""
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize
    for n in shape:
        nbytes *= n
    return _padnd.empty_output(tuple(shape), dtype, order, nbytes)


def _configure_from_environment() -> None:
    text = os.environ.get(ENVIRONMENT_VARIABLE)
    limit = (_default_limit_bytes() if text is None else
             _parse(f"environment variable {ENVIRONMENT_VARIABLE}", text))
    _padnd.set_output_cache(limit, _IDLE_SECONDS)


_configure_from_environment()
