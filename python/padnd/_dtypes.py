# SPDX-License-Identifier: Apache-2.0
# numpy dtype -> padnd element-type name (the engine moves bits, so only the size must be right).
from __future__ import annotations

import numpy as np

_NATIVE_NAMES = {
    ("b", 1): "bool",
    ("i", 1): "int8", ("i", 2): "int16", ("i", 4): "int32", ("i", 8): "int64",
    ("u", 1): "uint8", ("u", 2): "uint16", ("u", 4): "uint32", ("u", 8): "uint64",
    ("f", 2): "float16", ("f", 4): "float32", ("f", 8): "float64",
    ("c", 8): "complex64", ("c", 16): "complex128",
    ("M", 8): "datetime64", ("m", 8): "timedelta64",  # any unit: int64 ticks
}


_LONG_DOUBLES: tuple[type, ...] = (np.longdouble, np.clongdouble)


def numpy_only(dtype: np.dtype) -> bool:
    """datetime64, timedelta64 and long double: numpy's types that no framework spec has."""
    return dtype.kind in "Mm" or dtype.type in _LONG_DOUBLES


def element_type_name(dtype: np.dtype) -> str:
    """The padnd type for `dtype`; anything without a native name (S, U, V,
    swapped byte order, ml_dtypes' one-per-byte types) is an opaque block of itemsize bytes."""
    if dtype.hasobject:
        raise TypeError("object arrays hold references, not values; padnd cannot move them")
    if dtype.isnative:
        if dtype.type in _LONG_DOUBLES:  # C++ long double, whatever its size
            return "longdouble" if dtype.type is np.longdouble else "clongdouble"
        name = _NATIVE_NAMES.get((dtype.kind, dtype.itemsize))
        if name is not None:
            return name
    return f"opaque{dtype.itemsize}"
