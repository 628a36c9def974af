# SPDX-License-Identifier: Apache-2.0
# The framework drop-ins as a user switching to them meets them: submodules reached from
# ``import padnd`` alone, the errors and warnings they give, and ml_dtypes' value modes.
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import padnd


@pytest.mark.parametrize("submodule, framework, call", [
    ("dask", "dask.array", "padnd.dask.pad(fw.ones((4, 4), chunks=2), 1, 'edge').compute()"),
    ("torch", "torch", "padnd.torch.pad(fw.ones(4, 4), (1, 1, 1, 1), 'replicate').numpy()"),
    ("jax", "jax.numpy", "np.asarray(padnd.jax.pad(fw.ones((4, 4)), 1, 'edge'))"),
    ("xarray", "xarray",
     "padnd.xarray.pad(fw.DataArray(np.ones((4, 4)), dims=('x', 'y')), x=1, y=1, "
     "mode='edge').values"),
])
def test_submodules_load_on_first_attribute_access(submodule, framework, call):
    """``import padnd`` then ``padnd.<framework>.pad``, in a fresh interpreter that imported
    neither the submodule nor its framework by name: numpy.pad's result."""
    pytest.importorskip(framework)
    script = textwrap.dedent(f"""
        import importlib, sys
        import numpy as np
        import padnd
        assert "padnd.{submodule}" not in sys.modules
        assert "{submodule}" in dir(padnd)
        fw = importlib.import_module("{framework}")
        result = {call}
        assert (result == np.pad(np.ones((4, 4)), 1, "edge")).all(), result
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr


def test_unknown_attribute_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        padnd.nonexistent  # noqa: B018


# ---- padnd.torch: forward-mode AD, torch.func, F.pad's exception types ----

TORCH_MODES = ["constant", "reflect", "replicate", "circular"]


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def padnd_torch():
    return pytest.importorskip("padnd.torch")


@pytest.mark.parametrize("mode", TORCH_MODES)
@pytest.mark.parametrize("requires_grad", [False, True])
def test_forward_ad_pads_the_tangent_as_f_pad(torch, padnd_torch, mode, requires_grad):
    forward_ad = torch.autograd.forward_ad
    primal = torch.rand(3, 4, requires_grad=requires_grad)
    tangent = torch.rand(3, 4)
    results = []
    for pad in (torch.nn.functional.pad, padnd_torch.pad):
        with forward_ad.dual_level():
            out = forward_ad.unpack_dual(pad(forward_ad.make_dual(primal, tangent), (1, 2), mode))
            results.append((out.primal.detach(), out.tangent))
    (expected, expected_tangent), (got, got_tangent) = results
    assert got_tangent is not None
    torch.testing.assert_close(got, expected, rtol=0, atol=0)
    torch.testing.assert_close(got_tangent, expected_tangent, rtol=0, atol=0)


def test_forward_ad_of_a_tensor_value(torch, padnd_torch):
    """The value's tangent lands where the value does: F.pad of the input's tangent with the
    value's tangent as value (pad is linear in both)."""
    forward_ad = torch.autograd.forward_ad
    x, x_tangent = torch.rand(2, 3), torch.rand(2, 3)
    value, value_tangent = torch.tensor(5.0), torch.tensor(0.5)
    with forward_ad.dual_level():
        dual_value = forward_ad.make_dual(value, value_tangent)
        both = forward_ad.unpack_dual(padnd_torch.pad(forward_ad.make_dual(x, x_tangent),
                                                      (1, 1, 2, 0), "constant", dual_value))
        value_only = forward_ad.unpack_dual(padnd_torch.pad(x, (1, 1, 2, 0), "constant",
                                                            dual_value))
    F = torch.nn.functional
    torch.testing.assert_close(both.tangent, F.pad(x_tangent, (1, 1, 2, 0), value=0.5))
    torch.testing.assert_close(value_only.tangent,
                               F.pad(torch.zeros(2, 3), (1, 1, 2, 0), value=0.5))


def _transforms(torch):
    func = torch.func

    def loss(f):
        return lambda x: f(x).pow(3).sum()

    return {
        "vmap": lambda f: func.vmap(f),
        "grad": lambda f: func.grad(loss(f)),
        "jvp": lambda f: lambda x: func.jvp(f, (x,), (torch.ones_like(x) / 3,))[1],
        "vjp": lambda f: lambda x: func.vjp(f, x)[1](f(x))[0],
        "jacrev": lambda f: func.jacrev(f),
        "jacfwd": lambda f: func.jacfwd(f),
        "hessian": lambda f: func.hessian(loss(f)),
        "vmap(grad)": lambda f: func.vmap(func.grad(loss(f))),
        "grad(grad)": lambda f: func.grad(lambda x: func.grad(loss(f))(x).sum()),
    }


@pytest.mark.parametrize("transform", ["vmap", "grad", "jvp", "vjp", "jacrev", "jacfwd",
                                       "hessian", "vmap(grad)", "grad(grad)"])
@pytest.mark.parametrize("mode", TORCH_MODES)
def test_torch_func_transforms_match_f_pad(torch, padnd_torch, transform, mode):
    """Each transform of padnd.torch.pad equals the same transform of F.pad (on 3-D inputs,
    vmapped to 2-D, the ranks F.pad pads in every mode)."""
    x = torch.rand(2, 3, 4, dtype=torch.float64)
    make = _transforms(torch)[transform]
    expected = make(lambda a: torch.nn.functional.pad(a, (1, 2), mode))(x)
    got = make(lambda a: padnd_torch.pad(a, (1, 2), mode))(x)
    torch.testing.assert_close(got, expected)


def test_vmap_over_tensor_values(torch, padnd_torch):
    """A batch of constant values pads each element with its own (F.pad takes no tensor
    value: the oracle pads each element with F.pad), and their per-element gradients."""
    x, values = torch.rand(3, 4), torch.tensor([1.0, -2.0, 3.0])
    got = torch.func.vmap(lambda a, v: padnd_torch.pad(a, (2, 1), "constant", v))(x, values)
    expected = torch.stack([torch.nn.functional.pad(a, (2, 1), value=float(v))
                            for a, v in zip(x, values)])
    torch.testing.assert_close(got, expected, rtol=0, atol=0)
    grads = torch.func.vmap(torch.func.grad(
        lambda v, a: padnd_torch.pad(a, (2, 1), "constant", v).square().sum()))(values, x)
    torch.testing.assert_close(grads, 2 * 3 * values)  # 3 pad positions, d(v^2)/dv = 2v


@pytest.mark.parametrize("input_shape, pad, mode, value", [
    ((), (1, 1), "constant", None),           # a 0-d tensor takes no pads
    ((3,), (1,), "constant", None),           # an odd number of pads
    ((3,), (1, 1, 1, 1), "constant", None),   # more pads than dimensions
    ((3,), (-2, -2), "constant", None),       # crops beyond the dimension
    ((2, 3), (1, 1), "reflect", 2.0),         # a value in a mode without one
    ((2, 3), (1, 1), "unknown", None),        # F.pad: NotImplementedError
])
def test_errors_are_f_pads_types_and_value_errors(torch, padnd_torch, input_shape, pad, mode,
                                                   value):
    """Where F.pad raises RuntimeError (or NotImplementedError), padnd.torch.pad raises an
    exception of that type which is also numpy's ValueError, naming the argument."""
    x = torch.rand(input_shape)
    with pytest.raises(RuntimeError) as expected:
        torch.nn.functional.pad(x, pad, mode, value)
    with pytest.raises(type(expected.value)) as got:
        padnd_torch.pad(x, pad, mode, value)
    assert isinstance(got.value, ValueError) and isinstance(got.value, padnd_torch.PadError)
    assert str(got.value).split(":")[0] in ("pad", "mode", "value")


@pytest.mark.parametrize("function", [
    lambda array: padnd.pad(array, 1, "edge"),
    lambda array: padnd.pad_window(array, 1, "edge", window=(slice(0, 2), slice(0, 2))),
])
def test_a_tensor_autograd_tracks_is_refused_as_numpy_pad_refuses_it(torch, function):
    """numpy.pad refuses a tensor that requires grad (RuntimeError); padnd did not, and
    returned a result without a gradient. Under no_grad both take it."""
    x = torch.rand(3, 4, requires_grad=True)
    with pytest.raises(RuntimeError):
        np.pad(x, 1, "edge")
    with pytest.raises(RuntimeError, match=r"array: .*requires grad.*padnd\.torch\.pad"):
        function(x)
    with torch.no_grad():
        np.testing.assert_array_equal(np.asarray(function(x)),
                                      function(x.detach().numpy()))


# ---- padnd.jax: the pure_callback fallback's warning, weak types, callable modes ----

@pytest.fixture(scope="module")
def jax():
    return pytest.importorskip("jax")


@pytest.fixture(scope="module")
def padnd_jax():
    return pytest.importorskip("padnd.jax")


def test_jit_without_the_ffi_handler_warns_once(jax, padnd_jax, monkeypatch):
    """A build without the handler falls back to jax.pure_callback, and says so once (even
    with every warning shown: the once is padnd's), naming the install that builds it; the
    results stay jnp.pad's."""
    monkeypatch.setattr(padnd_jax, "HAS_XLA_FFI", False)
    padnd_jax._warn_without_handler.cache_clear()
    x = jax.numpy.arange(12.0).reshape(3, 4)
    with pytest.warns(RuntimeWarning) as record:
        warnings.simplefilter("always")
        for width in (1, 2):  # two traces
            got = jax.jit(lambda a, w=width: padnd_jax.pad(a, w, "reflect"))(x)
            np.testing.assert_array_equal(got, jax.numpy.pad(x, width, "reflect"))
    ours = [w for w in record if "XLA FFI handler" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in ours]
    assert "pip install --no-build-isolation '.[jax]'" in str(ours[0].message)
    assert ours[0].filename == __file__  # the caller's line


@pytest.mark.parametrize("make", [
    lambda jnp: jnp.array(1.0)[None],           # weak: a Python scalar's type
    lambda jnp: jnp.full((2, 3), 2.0),
    lambda jnp: jnp.ones((2, 3), jnp.float32),  # strong
    lambda jnp: jnp.asarray(2.5),
])
@pytest.mark.parametrize("jit", [False, True])
def test_weak_type_is_jnp_pads(jax, padnd_jax, make, jit):
    """The result is weakly typed where jnp.pad's is, so later promotions agree (weak float32
    + bfloat16 is bfloat16, strong float32 + bfloat16 float32)."""
    jnp = jax.numpy
    x = make(jnp)

    def promoted(pad):
        function = lambda a: (pad(a, 1, "edge"), pad(a, 1, "edge") + jnp.bfloat16(1))
        padded, sum_ = (jax.jit(function) if jit else function)(x)
        return padded.weak_type, sum_.dtype, np.asarray(padded)

    (weak, dtype, expected), (got_weak, got_dtype, got) = promoted(jnp.pad), promoted(
        padnd_jax.pad)
    assert (got_weak, got_dtype) == (weak, dtype)
    np.testing.assert_array_equal(got, expected)


def _jnp_pad_with(vector, pad_width, iaxis, kwargs):
    """jax's testPadWithNumpyFunction callable: jnp.pad's contract, a vector in, one out."""
    pad_value = kwargs.get("padder", 10)
    vector = vector.at[:pad_width[0]].set(pad_value)
    return vector.at[vector.shape[0] - pad_width[1]:].set(pad_value)


@pytest.mark.parametrize("pad_width", [1, ((2, 0), (1, 3))])
@pytest.mark.parametrize("kwargs", [{}, {"padder": -3}])
@pytest.mark.parametrize("jit", [False, True])
def test_callable_mode_is_jnp_pads_eagerly_and_under_jit(jax, padnd_jax, pad_width, kwargs,
                                                        jit):
    jnp = jax.numpy
    x = jnp.arange(12.0).reshape(3, 4)
    function = lambda pad: (lambda a: pad(a, pad_width, _jnp_pad_with, **kwargs))
    wrap = jax.jit if jit else (lambda f: f)
    np.testing.assert_array_equal(wrap(function(padnd_jax.pad))(x),
                                  wrap(function(jnp.pad))(x))


def test_callable_mode_refuses_padnds_engine_keywords(jax, padnd_jax):
    with pytest.raises(ValueError, match="negative=, interior="):
        padnd_jax.pad(jax.numpy.ones(3), 1, _jnp_pad_with, interior=1)


# ---- ml_dtypes' value modes: numpy.pad's results ----

ml_dtypes = pytest.importorskip("ml_dtypes")
USER_DTYPES = sorted(name for name in dir(ml_dtypes)
                     if isinstance(getattr(ml_dtypes, name), type)
                     and issubclass(getattr(ml_dtypes, name), np.generic)
                     and np.dtype(getattr(ml_dtypes, name)).isbuiltin == 2)
VALUE_REQUESTS = [("mean", {}), ("median", {"stat_length": 2}), ("minimum", {}),
                  ("maximum", {"stat_length": ((1, 2), (3, 1))}),
                  ("linear_ramp", {"end_values": 1}), ("reflect", {"reflect_type": "odd"}),
                  ("symmetric", {"reflect_type": "odd"})]


def _user_array(name: str) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # negative values into unsigned types
        return np.arange(-3, 9, dtype=np.float32).reshape(3, 4).astype(getattr(ml_dtypes, name))


def _numpy_or_error(function):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function()
        except Exception as error:  # noqa: BLE001 (the oracle's error type is the expectation)
            return type(error)


def _bits(array: np.ndarray) -> np.ndarray:
    return np.asarray(array).view(f"u{array.dtype.itemsize}")


@pytest.mark.parametrize("name", USER_DTYPES)
@pytest.mark.parametrize("mode, kwargs", VALUE_REQUESTS)
def test_ml_dtypes_value_modes_are_numpy_pads(name, mode, kwargs):
    array = _user_array(name)
    expected = _numpy_or_error(lambda: np.pad(array, ((2, 1), (1, 3)), mode, **kwargs))
    got = _numpy_or_error(lambda: padnd.pad(array, ((2, 1), (1, 3)), mode, **kwargs))
    if isinstance(expected, type):
        assert got is expected
        return
    assert got.dtype == array.dtype and got.flags.c_contiguous == expected.flags.c_contiguous
    np.testing.assert_array_equal(_bits(got), _bits(expected))


def test_ml_dtypes_per_axis_modes_and_out():
    """One mode per axis is numpy.pad one axis at a time; out= receives the result."""
    array = _user_array("bfloat16")
    expected = np.pad(np.pad(array, ((1, 2), (0, 0)), "mean"), ((0, 0), (3, 1)), "linear_ramp",
                      end_values=((0, 0), (5, -1)))
    got = padnd.pad(array, ((1, 2), (3, 1)), ("mean", "linear_ramp"),
                    end_values=((0, 0), (5, -1)))
    np.testing.assert_array_equal(_bits(got), _bits(expected))
    out = np.empty(expected.shape, array.dtype)
    assert padnd.pad(array, ((1, 2), (3, 1)), ("mean", "linear_ramp"), out=out,
                     end_values=((0, 0), (5, -1))) is out
    np.testing.assert_array_equal(_bits(out), _bits(expected))
    with pytest.raises(ValueError, match="interior="):
        padnd.pad(array, 1, ("constant", "mean"), interior=(1, 0))


@pytest.mark.parametrize("array", [np.array(1.5, ml_dtypes.bfloat16),
                                   np.zeros((0, 2), ml_dtypes.bfloat16)])
def test_ml_dtypes_0d_and_empty_arrays(array):
    """numpy.pad's result (a new array) or its error."""
    for pad_width in (0, 1, ((0, 0), (1, 1))[:array.ndim] or 0):
        expected = _numpy_or_error(lambda: np.pad(array, pad_width, "mean"))
        got = _numpy_or_error(lambda: padnd.pad(array, pad_width, "mean"))
        if isinstance(expected, type):
            assert got is expected
            continue
        assert got.shape == expected.shape and not np.shares_memory(got, array)
        np.testing.assert_array_equal(_bits(got), _bits(expected))


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("mode, kwargs", VALUE_REQUESTS)
@pytest.mark.parametrize("jit", [False, True])
def test_jax_ml_dtypes_value_modes_are_numpy_pads(jax, padnd_jax, name, mode, kwargs, jit):
    array = _user_array(name)
    expected = _numpy_or_error(lambda: np.pad(array, 2, mode, **kwargs))
    function = lambda a: padnd_jax.pad(a, 2, mode, **kwargs)
    got = (jax.jit(function) if jit else function)(jax.numpy.asarray(array))
    np.testing.assert_array_equal(_bits(np.asarray(got)), _bits(expected))
