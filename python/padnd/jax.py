# SPDX-License-Identifier: Apache-2.0
# padnd.jax.pad: numpy.pad's signature on JAX arrays, eagerly through DLPack and inside jax.jit
# through jax.pure_callback.
"""``padnd.jax.pad(array, pad_width, mode="constant", **kwargs)`` takes :func:`padnd.pad`'s
arguments and returns a JAX array. An eager call on a CPU array reads it where it lies (DLPack)
and hands the result to JAX without copying. Inside ``jax.jit`` (or any other trace) it is a
``jax.pure_callback`` that runs :func:`padnd.pad` on the host with the array's value: the result
shape is known at trace time (:func:`padnd.infer_shape`), ``pad_width`` and the mode keywords
must be static (Python or numpy values, not traced), and the callback has no derivative rules
(``jax.grad`` through it raises; use ``jnp.pad`` where gradients are needed). ``vmap`` runs the
callback once per batch element (``vmap_method="sequential"``). See docs/frameworks.md.
"""
from __future__ import annotations

import functools

import numpy as np

from . import _dlpack
from ._numpy_pad import infer_shape
from ._numpy_pad import pad as _numpy_pad
from ._optional import import_optional

jax = import_optional("jax", extra="jax", needed_by="padnd.jax")

__all__ = ["pad"]


def pad(array, pad_width, mode="constant", **kwargs):
    """:func:`padnd.pad` (numpy.pad's arguments and results, padnd's keywords ``negative``,
    ``interior`` and ``threads``) on a JAX array, returning a JAX array; traced arrays (inside
    ``jax.jit``) go through ``jax.pure_callback``."""
    if "out" in kwargs:
        raise TypeError("out: JAX arrays are immutable; padnd.jax.pad returns a new array")
    if not isinstance(array, jax.core.Tracer):
        return _numpy_pad(jax.numpy.asarray(array), pad_width, mode, **kwargs)
    shape = infer_shape(array.shape, pad_width, mode, **_shape_keywords(kwargs))
    result = jax.ShapeDtypeStruct(shape, array.dtype)
    on_host = functools.partial(_pad_on_host, pad_width=pad_width, mode=mode, kwargs=kwargs)
    return jax.pure_callback(on_host, result, array, vmap_method="sequential")


def _shape_keywords(kwargs: dict) -> dict:
    """The keywords infer_shape takes: all but threads (which does not change the shape)."""
    return {name: value for name, value in kwargs.items() if name != "threads"}


def _pad_on_host(array, *, pad_width, mode, kwargs: dict) -> np.ndarray:
    data = _dlpack.as_numpy(array, "array") if _dlpack.is_tensor(array) else np.asarray(array)
    return _numpy_pad(data, pad_width, mode, **kwargs)
