# SPDX-License-Identifier: Apache-2.0
# numpy dtype -> padnd element-type name (the engine moves bits, so only the size must be right).
# The map is the core's element-type table (padnd::numpy_kind), shared with the CLI and the
# fast path; nothing is listed here.
from __future__ import annotations

import numpy as np

from . import _padnd

_NATIVE_NAMES: dict[tuple[str, int], str] = {}
_NUMPY_ONLY: set[str] = set()
for _kind, _itemsize, _name, _only in _padnd.numpy_dtypes():
    _NATIVE_NAMES.setdefault((_kind, _itemsize), _name)  # the first of a kind and size wins
    if _only:
        _NUMPY_ONLY.add(_name)


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
