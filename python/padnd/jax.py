# SPDX-License-Identifier: Apache-2.0
# padnd.jax.pad: numpy.pad's signature on JAX arrays, eagerly through DLPack and inside jax.jit
# through padnd's XLA FFI handler (or jax.pure_callback where the package was built without it).
"""``padnd.jax.pad(array, pad_width, mode="constant", **kwargs)`` takes :func:`padnd.pad`'s
arguments and returns a JAX array. An eager call on a CPU array reads it where it lies (DLPack)
and hands the result to JAX without copying.

Inside ``jax.jit`` (or any other trace) the request is checked and normalised at trace time
(``pad_width`` and the mode keywords must be static: Python or numpy values, not traced; errors
are raised while tracing) and becomes one XLA custom call, ``padnd_pad``: padnd's XLA FFI
handler (python/src/xla_ffi.cpp), registered for the CPU, which pads XLA's buffer in place of
the compiled program. A package built without jaxlib's FFI headers (``padnd.jax.HAS_XLA_FFI``
is False: an isolated build) runs the pad as a ``jax.pure_callback`` on the host instead, several
times slower, and says so once with a warning; ``pip install --no-build-isolation '.[jax]'``
in padnd's checkout, with jax and the build requirements installed, builds the handler.

``vmap`` hands the handler the whole batch (``vmap_method="broadcast_all"``: leading axes are
batch axes, padded by nothing); the pure_callback fallback runs once per batch element.
``jax.grad`` works for the index modes ("constant", "edge", "reflect", "symmetric", "wrap",
"empty"; with ``negative`` and ``interior``): the gradient of each input element is the sum of
the output gradients at the positions that read it. numpy's value modes and
``reflect_type="odd"`` compute values and raise NotImplementedError when differentiated; use
``jnp.pad`` there. See docs/frameworks.md.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np

from . import _dlpack, _padnd
from ._dtypes import element_type_name
from ._numpy_pad import _check_numpy_fallback, _check_threads, _shape_request, numpy_computes
from ._numpy_pad import pad as _numpy_pad
from ._optional import import_optional

jax = import_optional("jax", extra="jax", needed_by="padnd.jax")
try:  # private (its weak_type argument): a jax that moves it loses only the weak type
    from jax._src.lax.lax import _convert_element_type  # noqa: E402
except ImportError:  # pragma: no cover - depends on the installed jax
    _convert_element_type = None

__all__ = ["HAS_XLA_FFI", "pad"]

# Whether this build has the XLA FFI handler (CMake found jaxlib's FFI headers: PADND_XLA_FFI).
HAS_XLA_FFI: bool = hasattr(_padnd, "_xla_ffi_pad")
_TARGET = "padnd_pad"
# The modes whose output elements are input elements or constants: their gradient is a sum.
_INDEX_MODES = frozenset({"constant", "edge", "reflect", "symmetric", "wrap", "empty"})


def pad(array, pad_width, mode="constant", **kwargs):
    """:func:`padnd.pad` (numpy.pad's arguments and results, padnd's keywords ``negative``,
    ``interior`` and ``threads``) on a JAX array, returning a JAX array; traced arrays (inside
    ``jax.jit``) go through padnd's XLA FFI handler (or ``jax.pure_callback``). The result is
    weakly typed where the input is, as jnp.pad's. A callable ``mode`` is jnp.pad's (the
    function gets and returns JAX vectors), eagerly and traced: jnp.pad computes it."""
    if "out" in kwargs:
        raise TypeError("out: JAX arrays are immutable; padnd.jax.pad returns a new array")
    if callable(mode):
        return _callable_pad(array, pad_width, mode, dict(kwargs))
    if not isinstance(array, jax.core.Tracer):
        array = jax.numpy.asarray(array)
        result = _numpy_pad(array, pad_width, mode, **kwargs)
    else:
        result = _traced_pad(array, pad_width, mode, dict(kwargs))
    # padnd's results are strongly typed; jnp.pad keeps a weak type (a Python scalar's), which
    # decides later promotions (weak float32 + bfloat16 is bfloat16). No public API sets it.
    if not array.weak_type or _convert_element_type is None:
        return result
    return _convert_element_type(result, result.dtype, weak_type=True)


def _callable_pad(array, pad_width, mode, kwargs: dict):
    """jnp.pad with a callable ``mode``: padnd's engine computes nothing, so its keywords
    are checked and have nothing to do (as padnd.pad hands a callable to numpy.pad)."""
    _check_threads(kwargs.pop("threads", None))
    _check_numpy_fallback(kwargs.pop("negative", None), kwargs.pop("interior", None), None)
    return jax.numpy.pad(array, pad_width, mode, **kwargs)


def _traced_pad(array, pad_width, mode, kwargs: dict):
    """The pad of a traced array: the request checked now, the data padded when XLA runs."""
    negative = kwargs.pop("negative", None)
    interior = kwargs.pop("interior", None)
    threads = _check_threads(kwargs.pop("threads", None))
    dtype = np.dtype(array.dtype)
    if jax.dtypes.itemsize_bits(dtype) != 8 * dtype.itemsize:
        raise TypeError(f"padnd.jax.pad: {dtype} packs several elements per byte in JAX; "
                        "padnd.jax cannot read it")
    # numpy.pad's rules (padnd._numpy_pad): pad widths, modes, keywords, constants' casts.
    _, request = _shape_request(array.shape, dtype, pad_width, mode, negative, interior, kwargs)
    # Values numpy.pad computes (ml_dtypes' value modes) are computed on the host, as eagerly.
    by_numpy = numpy_computes(dtype, request.modes, request.reflect_type)
    if by_numpy:  # refused as padnd.pad refuses them, while tracing
        _check_numpy_fallback(negative, interior, None)
    if HAS_XLA_FFI and not by_numpy:
        primal = functools.partial(_ffi_pad, request=request, threads=threads)
    else:
        if not HAS_XLA_FFI:
            _warn_without_handler()
        shape = _planned_shape(request, dtype, plan=not by_numpy)
        keywords = dict(kwargs, negative=negative, interior=interior, threads=threads or None)
        primal = functools.partial(_callback_pad, shape=shape, pad_width=pad_width, mode=mode,
                                   kwargs=keywords)
    return _differentiable(primal, request)(array)


@functools.cache
def _warn_without_handler() -> None:
    """Says, once per process, that traced pads take the slow path, and how to get the fast."""
    warnings.warn(
        "padnd.jax: this padnd build has no XLA FFI handler (padnd.jax.HAS_XLA_FFI is False: "
        "pip's isolated build had no jaxlib), so padnd.jax.pad under jax.jit runs as a "
        "jax.pure_callback, several times slower. To build the handler, in padnd's checkout: "
        "pip install jax 'scikit-build-core>=0.11' 'nanobind>=3.0' && "
        "pip install --no-build-isolation '.[jax]' (docs/frameworks.md)",
        RuntimeWarning, stacklevel=4)


@functools.cache
def _register_target() -> None:
    """Registers the handler with XLA, once per process."""
    jax.ffi.register_ffi_target(_TARGET, _padnd._xla_ffi_pad(), platform="cpu")


def _ffi_pad(array, *, request, threads: int):
    """The custom call padnd_pad on `array`; its request is planned (and checked) now."""
    _register_target()
    attribute, shape = _padnd._xla_ffi_request(element_type_name(np.dtype(array.dtype)),
                                               threads, *request)
    result = jax.ShapeDtypeStruct(tuple(shape), array.dtype)
    # broadcast_all: under vmap the handler gets the batch as leading axes and pads each.
    call = jax.ffi.ffi_call(_TARGET, result, vmap_method="broadcast_all")
    return call(array, request=np.frombuffer(attribute, dtype=np.uint8))


def _planned_shape(request, dtype: np.dtype, plan: bool) -> tuple:
    """The output shape of `request`, planned (and the plan dropped) if `plan`, so that the
    planner's errors (interior next to two constants, a mode the element type cannot compute
    with) come while tracing, as _padnd._xla_ffi_request's do."""
    spec = request.spec()
    if plan:
        nothing = [0] * len(request.shape)  # an empty window: planning is the whole cost
        _padnd.input_window(spec, element_type_name(dtype), list(request.shape), nothing,
                            nothing)
    return tuple(_padnd.spec_shape(spec, list(request.shape)))


def _callback_pad(array, *, shape: tuple, pad_width, mode, kwargs: dict):
    """padnd.pad on the host through jax.pure_callback (a build without the FFI handler)."""
    on_host = functools.partial(_pad_on_host, pad_width=pad_width, mode=mode, kwargs=kwargs)
    result = jax.ShapeDtypeStruct(shape, array.dtype)
    return jax.pure_callback(on_host, result, array, vmap_method="sequential")


def _pad_on_host(array, *, pad_width, mode, kwargs: dict) -> np.ndarray:
    data = _dlpack.as_numpy(array, "array") if _dlpack.is_tensor(array) else np.asarray(array)
    return _numpy_pad(data, pad_width, mode, **kwargs)


def _differentiable(primal, request):
    """`primal` with a VJP: for index modes, the adjoint of the pad (each input element gets the
    sum of the output gradients at the positions that read it); otherwise an error."""
    function = jax.custom_vjp(primal)

    def forward(array):
        return primal(array), None

    def backward(_, gradient):
        if not _is_index_request(request):
            raise NotImplementedError(
                f"padnd.jax.pad: no gradient for modes {tuple(request.modes)} with reflect_type "
                f"{request.reflect_type!r} (numpy's value modes and odd reflection compute "
                "values); differentiate jnp.pad instead")
        sources = jax.numpy.asarray(_source_positions(request))
        size = int(np.prod(request.shape, dtype=np.int64))
        # Out-of-range positions (pad values) are dropped; CPU scatter-adds are deterministic.
        summed = jax.numpy.zeros(size, gradient.dtype).at[sources].add(
            gradient.reshape(-1), mode="drop")
        return (summed.reshape(request.shape),)

    function.defvjp(forward, backward)
    return function


def _is_index_request(request) -> bool:
    return request.reflect_type == "even" and all(m in _INDEX_MODES for m in request.modes)


def _source_positions(request) -> np.ndarray:
    """Per output element (flat, C order), the flat input position it reads; the input's size
    where it reads none (a constant, "empty", interior). Computed by padnd itself: the pad of
    the positions, with -1 as every constant."""
    if not request.shape:  # a 0-d input has no axis to pad: its one element is the output
        return np.zeros(1, np.int64)
    size = int(np.prod(request.shape, dtype=np.int64))
    positions = np.arange(size, dtype=np.int64).reshape(request.shape)
    modes = tuple("constant" if m == "empty" else m for m in request.modes)
    keywords = {"constant_values": -1} if "constant" in modes else {}
    mapped = _numpy_pad(positions, request.pairs, modes[0] if len(modes) == 1 else modes,
                        negative=request.negative, interior=request.interiors, **keywords)
    return np.where(mapped < 0, size, mapped).reshape(-1)
