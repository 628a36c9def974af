# SPDX-License-Identifier: Apache-2.0
# numpy dtype -> padnd element-type name (the engine moves bits, so only the size must be right).
# The map is the core's element-type table (padnd::numpy_kind), shared with the CLI and the
# fast path; nothing is listed here.
from __future__ import annotations

import numpy as np

from . import _padnd


def _core_table() -> tuple[dict[tuple[str, int], str], frozenset[str]]:
    """(kind, itemsize) -> padnd name, and the names of numpy's own types, from the core."""
    names: dict[tuple[str, int], str] = {}
    numpy_only_names = set()
    for kind, itemsize, name, only in _padnd.numpy_dtypes():
        names.setdefault((kind, itemsize), name)  # the first of a kind and size is the type
        if only:
            numpy_only_names.add(name)
    return names, frozenset(numpy_only_names)


_NATIVE_NAMES, _NUMPY_ONLY = _core_table()


def numpy_only(dtype: np.dtype) -> bool:
    """datetime64, timedelta64 and long double: numpy's types that no framework spec has."""
    return _NATIVE_NAMES.get((dtype.kind, dtype.itemsize)) in _NUMPY_ONLY


def element_type_name(dtype: np.dtype) -> str:
    """The padnd type for `dtype`; anything without a native name (S, U, V,
    swapped byte order, ml_dtypes' one-per-byte types) is an opaque block of itemsize bytes."""
    if dtype.hasobject:
        raise TypeError("object arrays hold references, not values; padnd cannot move them")
    if dtype.isnative:
        name = _NATIVE_NAMES.get((dtype.kind, dtype.itemsize))
        if name is not None:
            return name
    return f"opaque{dtype.itemsize}"
