# SPDX-License-Identifier: Apache-2.0
# JAX arrays: padnd.pad through DLPack (every dtype JAX shares with padnd), and padnd.jax.pad
# eagerly and inside jax.jit, against jnp.pad and numpy.pad.
import numpy as np
import pytest
from hypothesis import given, settings
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


# Inside jax.jit: padnd's XLA FFI handler (padnd_pad) where the package was built with jaxlib's
# FFI headers, jax.pure_callback otherwise. Every request is checked against padnd.pad on the
# same data as a numpy array (which tests/python/test_pad_vs_numpy.py holds to numpy.pad).
VALUE_MODES = ["linear_ramp", "maximum", "mean", "median", "minimum"]
NUMBER_DTYPES = [np.int8, np.int32, np.int64, np.uint16, np.float16, np.float32, np.float64,
                 np.complex64, np.complex128]
needs_ffi = pytest.mark.skipif(not padnd_jax.HAS_XLA_FFI,
                               reason="built without jaxlib's FFI headers (pure_callback only)")


@st.composite
def jit_requests(draw):
    """(array, pad_width, mode, keywords): index modes on every dtype, numpy's value modes on
    numbers, pads wider than the axis, crops (negative=), interior=, one mode per axis."""
    shape = draw(st.lists(st.integers(1, 5), min_size=0, max_size=3))
    kind = draw(st.sampled_from(["index", "value", "negative", "interior", "per_axis"]))
    dtype = draw(st.sampled_from(NUMBER_DTYPES if kind == "value" else JAX_DTYPES))
    array = random_array(dtype, shape, draw(st.integers(0, 2**32 - 1)))
    low = -3 if kind == "negative" else 0
    widths = [(draw(st.integers(low, 8)), draw(st.integers(low, 8))) for _ in shape]
    keywords = {}
    if kind == "value":
        mode = draw(st.sampled_from(VALUE_MODES))
        if mode == "linear_ramp":
            keywords["end_values"] = draw(st.sampled_from([0, 5, (1, -2)]))
        elif draw(st.booleans()):
            keywords["stat_length"] = draw(st.sampled_from([1, 2, (1, 3)]))
    elif kind == "per_axis":
        mode = [draw(st.sampled_from(INDEX_MODES + VALUE_MODES[1:] if np.dtype(dtype).kind in
                                     "iufc" else INDEX_MODES)) for _ in shape]
    else:
        mode = draw(st.sampled_from(["constant"] if kind == "interior" else INDEX_MODES))
    if kind == "negative":
        keywords["negative"] = draw(st.sampled_from(["map_on_original", "crop_then_pad"]))
    if kind == "interior":
        keywords["interior"] = [draw(st.integers(0, 3)) for _ in shape]
    if "constant" in (mode if isinstance(mode, list) else [mode]) and draw(st.booleans()):
        keywords["constant_values"] = draw(st.sampled_from([1, (2, 3)]))
    if mode in ("reflect", "symmetric") and np.dtype(dtype).kind in "iufc":
        keywords["reflect_type"] = draw(st.sampled_from(["even", "odd"]))
    return array, widths, mode, keywords


def eager_or_error(array: np.ndarray, widths, mode, keywords):
    """padnd.pad's result, or the type of the error it raises."""
    try:
        return padnd.pad(array, widths, mode, **keywords)
    except (ValueError, TypeError) as error:
        return type(error)


@settings(max_examples=300)
@given(jit_requests())
def test_jit_equals_eager_padnd(request):
    array, widths, mode, keywords = request
    expected = eager_or_error(array, widths, mode, keywords)
    jitted = jax.jit(lambda a: padnd_jax.pad(a, widths, mode, **keywords))
    if isinstance(expected, type):  # the same error, raised while tracing
        with pytest.raises(expected):
            jitted.lower(jnp.asarray(array))
        return
    result = jitted(jnp.asarray(array))
    assert result.shape == expected.shape and result.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(result).view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, np.float16,
                                   np.bool_, np.complex64])
@pytest.mark.parametrize("widths, mode, keywords", [
    (((2, 7), (1, 0)), "reflect", {}),
    (((4, 1), (0, 6)), ["symmetric", "wrap"], {}),
    (((-1, 3), (2, -2)), "edge", {"negative": "map_on_original"}),
    (((1, 1), (2, 0)), "constant", {"interior": (1, 2), "constant_values": 1}),
])
def test_jit_small_floats_and_bool(dtype, widths, mode, keywords):
    array = random_array(dtype, (3, 4), seed=3)
    result = jax.jit(lambda a: padnd_jax.pad(a, widths, mode, **keywords))(jnp.asarray(array))
    assert result.dtype == array.dtype
    np.testing.assert_array_equal(np.asarray(result).view(np.uint8),
                                  padnd.pad(array, widths, mode, **keywords).view(np.uint8))


def test_jit_without_padding_and_empty_arrays():
    for array, widths, mode in [(np.float32(3), 1, "edge"), (np.zeros((0, 3)), 2, "constant"),
                                (np.ones((2, 0), np.int8), ((0, 0), (1, 2)), "constant"),
                                (np.arange(6.0).reshape(2, 3), 0, "wrap")]:
        result = jax.jit(lambda a: padnd_jax.pad(a, widths, mode))(jnp.asarray(array))
        np.testing.assert_array_equal(np.asarray(result), np.pad(array, widths, mode))


@pytest.mark.parametrize("widths, keywords, error, match", [
    ((-1, 2), {}, ValueError, "index can't contain negative values"),
    (((1, 2), (3, 4), (5, 6)), {}, ValueError, "operands could not be broadcast"),
    ((1, 1), {"stat_length": -1}, ValueError, "stat_length"),
    ((1, 1), {"negative": "sideways"}, ValueError, "negative: expected None"),
    ((1, 1), {"threads": 0}, ValueError, "threads"),
    ((1, 1), {"end_values": 1}, ValueError, "unsupported keyword arguments"),
])
def test_bad_requests_raise_while_tracing(widths, keywords, error, match):
    jitted = jax.jit(lambda a: padnd_jax.pad(a, widths, "mean", **keywords))
    with pytest.raises(error, match=match):
        jitted.lower(jnp.ones((2, 3)))


def test_packed_types_raise_while_tracing():
    """(bfloat16's value modes are numpy.pad's: test_drop_in_hardening.py.)"""
    with pytest.raises(TypeError, match="packs several elements per byte"):
        jax.jit(lambda a: padnd_jax.pad(a, 1)).lower(jnp.ones(3, jnp.int4))


def lowered_text(function, *arrays) -> str:
    return jax.jit(function).lower(*arrays).as_text()


@needs_ffi
def test_jit_runs_the_ffi_handler_not_a_callback():
    text = lowered_text(lambda a: padnd_jax.pad(a, ((1, 2), (0, 3)), "median"), jnp.ones((3, 4)))
    assert "custom_call @padnd_pad" in text
    assert "callback" not in text


@pytest.mark.filterwarnings("ignore:padnd.jax. this padnd build has no XLA FFI handler")
def test_without_the_handler_jit_uses_pure_callback(monkeypatch):
    monkeypatch.setattr(padnd_jax, "HAS_XLA_FFI", False)
    array = np.arange(12.0).reshape(3, 4)
    function = lambda a: padnd_jax.pad(a, ((1, 2), (4, 0)), ["reflect", "mean"], stat_length=2,
                                       reflect_type="odd")
    text = lowered_text(function, jnp.asarray(array))
    assert "padnd_pad" not in text and "callback" in text
    expected = padnd.pad(array, ((1, 2), (4, 0)), ["reflect", "mean"], stat_length=2,
                         reflect_type="odd")
    np.testing.assert_array_equal(np.asarray(jax.jit(function)(jnp.asarray(array))), expected)
    mapped = jax.jit(jax.vmap(lambda row: padnd_jax.pad(row, (1, 2), "wrap")))(jnp.asarray(array))
    np.testing.assert_array_equal(np.asarray(mapped), np.pad(array, ((0, 0), (1, 2)), "wrap"))
    gradient = jax.grad(lambda a: padnd_jax.pad(a, 2, "symmetric").sum())(jnp.asarray(array))
    expected = jax.grad(lambda a: jnp.pad(a, 2, "symmetric").sum())(jnp.asarray(array))
    np.testing.assert_array_equal(np.asarray(gradient), np.asarray(expected))
    with pytest.raises(ValueError, match="index can't contain negative values"):
        jax.jit(lambda a: padnd_jax.pad(a, -1)).lower(jnp.ones(3))


@pytest.mark.parametrize("mode, keywords", [("constant", {"constant_values": (1, 2)}),
                                            ("mean", {"stat_length": 2}),
                                            (["linear_ramp", "edge"], {"end_values": 7}),
                                            ("wrap", {"negative": "crop_then_pad"})])
def test_vmap_pads_each_batch_element(mode, keywords):
    batch = random_array(np.float64, (2, 3, 4, 5), seed=7)
    widths = ((2, -1), (1, 3)) if "negative" in keywords else ((2, 1), (1, 3))
    one = lambda a: padnd_jax.pad(a, widths, mode, **keywords)
    mapped = jax.jit(jax.vmap(jax.vmap(one)))(jnp.asarray(batch))
    for i in range(2):
        for j in range(3):
            np.testing.assert_array_equal(np.asarray(mapped[i, j]),
                                          padnd.pad(batch[i, j], widths, mode, **keywords))


def linear_part(array: np.ndarray, widths, mode, keywords) -> np.ndarray:
    """The matrix of array -> pad(array) - pad(zeros) (output positions x input positions)."""
    zero = padnd.pad(np.zeros_like(array), widths, mode, **keywords).reshape(-1)
    columns = []
    for k in range(array.size):
        unit = np.zeros(array.size)
        unit[k] = 1
        columns.append(padnd.pad(unit.reshape(array.shape), widths, mode, **keywords).reshape(-1)
                       - zero)
    return np.stack(columns, axis=1)


@st.composite
def index_requests(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    negative = draw(st.sampled_from([None, "map_on_original", "crop_then_pad"]))
    low = 0 if negative is None else -2
    widths = [(draw(st.integers(low, 6)), draw(st.integers(low, 6))) for _ in shape]
    modes = [draw(st.sampled_from(INDEX_MODES + ["empty"])) for _ in shape]
    keywords = {"negative": negative, "constant_values": 3} if "constant" in modes else {
        "negative": negative}
    if all(m == "constant" for m in modes) and negative is None:
        keywords["interior"] = draw(st.integers(0, 2))
    return shape, widths, modes, keywords


@given(index_requests(), st.integers(0, 2**32 - 1))
def test_grad_of_index_modes_is_the_adjoint(request, seed):
    shape, widths, modes, keywords = request
    array = random_array(np.float64, shape, seed)
    try:
        padnd.pad(array, widths, modes, **keywords)
    except ValueError:  # a crop beyond the data
        return
    weights = random_array(np.float64, padnd.pad(array, widths, modes, **keywords).shape, seed)
    loss = lambda a: (padnd_jax.pad(a, widths, modes, **keywords) * weights).sum()
    gradient = jax.jit(jax.grad(loss))(jnp.asarray(array))
    expected = linear_part(array, widths, modes, keywords).T @ weights.reshape(-1)
    np.testing.assert_array_equal(np.asarray(gradient), expected.reshape(shape))


@pytest.mark.parametrize("mode", INDEX_MODES)
def test_grad_of_a_0d_input_is_jnp_pads(mode):
    # A 0-d input has no axis to pad: the output is the input, its gradient the cotangent.
    x = jnp.float32(3.0)
    for transform in (lambda f: f, jax.jit):
        got = transform(jax.grad(lambda a: padnd_jax.pad(a, 2, mode).sum() * 5))(x)
        expected = jax.grad(lambda a: jnp.pad(a, 2, mode).sum() * 5)(x)
        assert got == expected == 5
    output, pullback = jax.vjp(lambda a: padnd_jax.pad(a, 1, mode), x)
    assert output.shape == () and pullback(jnp.float32(2))[0] == 2


@pytest.mark.parametrize("mode, keywords", [("mean", {}), ("reflect", {"reflect_type": "odd"})])
def test_grad_of_value_modes_raises(mode, keywords):
    with pytest.raises(NotImplementedError, match="no gradient for modes"):
        jax.grad(lambda a: padnd_jax.pad(a, 1, mode, **keywords).sum())(jnp.ones(3))


@needs_ffi
def test_handler_refuses_requests_it_did_not_write():
    call = jax.ffi.ffi_call("padnd_pad", jax.ShapeDtypeStruct((5,), jnp.float32))
    padnd_jax.pad(jnp.ones(3, jnp.float32), 1)  # registers the target
    with pytest.raises(Exception, match="not one this padnd build wrote"):
        jax.block_until_ready(call(jnp.ones(3, jnp.float32),
                                   request=np.arange(40, dtype=np.uint8)))
    attribute, _ = padnd._padnd._xla_ffi_request("float32", 0, [(1, 1)], ["edge"], [], [],
                                                  "float64", [], "even", None, [0], [3])
    with pytest.raises(Exception, match=r"buffers \(4\) -> \(5\) do not match the request"):
        jax.block_until_ready(call(jnp.ones(4, jnp.float32),
                                   request=np.frombuffer(attribute, np.uint8)))
