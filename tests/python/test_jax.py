# SPDX-License-Identifier: Apache-2.0
# JAX arrays: padnd.pad through DLPack (every dtype JAX shares with padnd), and padnd.jax.pad
# eagerly and inside jax.jit, against jnp.pad and numpy.pad.
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import padnd

jax = pytest.importorskip("jax")
jnp = jax.numpy
padnd_jax = pytest.importorskip("padnd.jax")
ml_dtypes = pytest.importorskip("ml_dtypes")

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
JAX_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
              ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


@pytest.fixture(scope="module", autouse=True)
def x64():
    """64-bit types exist in JAX only with jax_enable_x64."""
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", previous)


def random_array(dtype, shape, seed: int) -> np.ndarray:
    """Random bits of ``dtype`` with NaN patterns cleared (JAX may canonicalise NaNs)."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    values = rng.integers(-100, 100, shape)
    return values.astype(dtype) if np.dtype(dtype).kind != "u" else np.abs(values).astype(dtype)


@given(st.sampled_from(JAX_DTYPES), st.lists(st.integers(1, 5), min_size=1, max_size=4),
       st.sampled_from(INDEX_MODES), st.integers(0, 2**32 - 1), st.data())
def test_pad_round_trip_every_dtype(dtype, shape, mode, seed, data):
    array = random_array(dtype, shape, seed)
    widths = [(data.draw(st.integers(0, 6)), data.draw(st.integers(0, 6))) for _ in shape]
    result = padnd.pad(jnp.asarray(array), widths, mode)
    assert isinstance(result, jax.Array) and result.dtype == array.dtype
    np.testing.assert_array_equal(np.asarray(result).view(np.uint8),
                                  np.pad(array, widths, mode).view(np.uint8))


def test_input_is_not_copied():
    from padnd import _dlpack
    array = jnp.arange(12.0).reshape(3, 4)
    view = _dlpack.as_numpy(array, "array")
    assert view.__array_interface__["data"][0] == array.unsafe_buffer_pointer()
    assert not view.flags.writeable


def test_out_rejects_read_only_jax_arrays():
    with pytest.raises(ValueError, match="out: is read-only"):
        padnd.pad(np.ones(2), 1, out=jnp.zeros(4))
    with pytest.raises(TypeError, match="out: JAX arrays are immutable"):
        padnd_jax.pad(jnp.ones(2), 1, out=np.zeros(4))


def test_spec_function_returns_a_jax_array():
    array = jnp.arange(6, dtype=jnp.bfloat16).reshape(2, 3)
    result = padnd.openvino.pad(array, [0, 1], [1, 0], "symmetric")
    assert isinstance(result, jax.Array) and result.dtype == jnp.bfloat16
    np.testing.assert_array_equal(np.asarray(result),
                                  np.pad(np.asarray(array), ((0, 1), (1, 0)), "symmetric"))


requests = st.tuples(
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    st.sampled_from(INDEX_MODES),
    st.sampled_from([np.float32, np.int32, ml_dtypes.bfloat16]),
    st.integers(0, 2**32 - 1),
)


@given(requests, st.data())
def test_eager_and_jit_equal_jnp_pad(request, data):
    shape, mode, dtype, seed = request
    array = jnp.asarray(random_array(dtype, shape, seed))
    widths = [(data.draw(st.integers(0, 7)), data.draw(st.integers(0, 7))) for _ in shape]
    expected = jnp.pad(array * 2, widths, mode)
    eager = padnd_jax.pad(array * 2, widths, mode)
    jitted = jax.jit(lambda a: padnd_jax.pad(a * 2, widths, mode))(array)
    for result in (eager, jitted):
        assert isinstance(result, jax.Array) and result.dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(result), np.asarray(expected))


def test_jit_value_modes_keywords_and_vmap():
    array = jnp.arange(1.0, 6.0)
    jitted = jax.jit(lambda a: padnd_jax.pad(a, (2, 3), "mean", stat_length=2))(array)
    np.testing.assert_array_equal(np.asarray(jitted), np.pad(np.arange(1.0, 6.0), (2, 3), "mean",
                                                             stat_length=2))
    cropped = jax.jit(lambda a: padnd_jax.pad(a, (-1, 2), "wrap",
                                              negative="crop_then_pad"))(array)
    assert np.asarray(cropped).tolist() == [2.0, 3.0, 4.0, 5.0, 2.0, 3.0]
    batch = jnp.arange(6.0).reshape(2, 3)
    mapped = jax.vmap(lambda row: padnd_jax.pad(row, 1, "reflect"))(batch)
    np.testing.assert_array_equal(np.asarray(mapped), np.pad(np.arange(6.0).reshape(2, 3),
                                                             ((0, 0), (1, 1)), "reflect"))
