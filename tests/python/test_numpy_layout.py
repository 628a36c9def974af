# SPDX-License-Identifier: Apache-2.0
# padnd.pad against numpy.pad beyond numpy's own suite (tests/numpy_suite): random requests in
# every mode over many memory layouts, comparing values, dtype, the result's layout (numpy
# returns Fortran order for a Fortran input), the exception type and the warnings.
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import padnd

MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "empty", "linear_ramp", "maximum",
         "minimum", "mean", "median"]
DTYPES = ["?", "i1", "u2", "i4", "i8", "f2", "f4", "f8", "c8", "c16", ">i4", "S2", "M8[s]"]
LAYOUTS = {
    "c": lambda a: a,
    "fortran": np.asfortranarray,
    "transposed": lambda a: a.T,
    "negative": lambda a: a[::-1] if a.ndim else a,
    "strided": lambda a: np.repeat(a, 2, axis=-1)[..., ::2] if a.ndim else a,
    "zero_strides": lambda a: np.broadcast_to(a[:1], a.shape) if a.ndim and len(a) else a,
    "axes_swapped": lambda a: np.swapaxes(a, 0, -1) if a.ndim > 2 else a,
}


def _sample(shape, dtype):
    n = int(np.prod(shape))
    values = np.arange(n) * 7 % 23 - 5
    if dtype.kind == "S":
        return np.array([str(v).encode() for v in values], dtype=dtype).reshape(shape)
    if dtype.kind == "M":
        return values.astype("M8[s]").reshape(shape)
    return values.astype(dtype).reshape(shape)


@st.composite
def _requests(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(st.lists(st.integers(0, 4), min_size=0, max_size=3))
    layout = draw(st.sampled_from(sorted(LAYOUTS)))
    a = LAYOUTS[layout](_sample(shape, dtype))
    mode = draw(st.sampled_from(MODES))
    width = st.integers(0, 5)
    pw = draw(st.one_of(width, st.tuples(width, width),
                        st.just(tuple((draw(width), draw(width)) for _ in range(a.ndim)))))
    kwargs = {}
    value = st.one_of(st.integers(-3, 300), st.floats(-1e40, 1e40), st.complex_numbers(
        max_magnitude=10))
    if mode == "constant" and draw(st.booleans()):
        kwargs["constant_values"] = draw(st.one_of(value, st.tuples(value, value)))
    if mode == "linear_ramp" and draw(st.booleans()):
        kwargs["end_values"] = draw(st.one_of(value, st.tuples(value, value)))
    if mode in ("maximum", "minimum", "mean", "median") and draw(st.booleans()):
        kwargs["stat_length"] = draw(st.one_of(st.integers(1, 4), st.tuples(
            st.integers(1, 4), st.integers(1, 4))))
    if mode in ("reflect", "symmetric") and draw(st.booleans()):
        kwargs["reflect_type"] = draw(st.sampled_from(["even", "odd"]))
    return layout, a, pw, mode, kwargs


def _call(pad, a, pw, mode, kwargs):
    """(result or exception type, warnings as (category, message)) of one pad call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = pad(a, pw, mode, **kwargs)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            result = type(e)
    return result, sorted((w.category.__name__, str(w.message)) for w in caught)


@settings(max_examples=1500)
@given(_requests())
def test_values_layout_errors_and_warnings_match_numpy(request):
    layout, a, pw, mode, kwargs = request
    expected, expected_warnings = _call(np.pad, a, pw, mode, kwargs)
    result, result_warnings = _call(padnd.pad, a, pw, mode, kwargs)
    where = f"{layout} {a.dtype} {a.shape} {pw} {mode} {kwargs}"
    if isinstance(expected, type):
        assert isinstance(result, type) and issubclass(expected, result), where
        return
    assert isinstance(result, np.ndarray), f"{where}: raised {result}"
    if mode == "linear_ramp":  # np.linspace's float warnings: not emitted (docs/conformance.md)
        expected_warnings = [w for w in expected_warnings if w[0] != "RuntimeWarning"]
    assert result_warnings == expected_warnings, where
    assert (result.dtype, result.shape) == (expected.dtype, expected.shape), where
    assert result.flags.c_contiguous == expected.flags.c_contiguous, where
    assert result.flags.f_contiguous == expected.flags.f_contiguous, where
    if mode == "empty":  # numpy leaves the pads uninitialised
        inner = tuple(slice(b, b + n) for (b, _), n in zip(np.broadcast_to(pw, (a.ndim, 2)),
                                                           a.shape))
        result, expected = result[inner], expected[inner]
    if mode == "mean" and a.dtype.kind in "fc":  # numpy's summation order: docs/conformance.md
        np.testing.assert_allclose(result, expected, rtol=1e-3, err_msg=where)
    else:
        np.testing.assert_array_equal(result, expected, err_msg=where, strict=True)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "mean", "linear_ramp"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_the_result_keeps_a_contiguous_input_s_order(mode, order):
    a = np.arange(24.0).reshape(4, 6).copy(order=order)
    result = padnd.pad(a, ((1, 2), (3, 0)), mode)
    assert result.flags[f"{'F' if order == 'F' else 'C'}_CONTIGUOUS"]
    np.testing.assert_array_equal(result, np.pad(a, ((1, 2), (3, 0)), mode))


def test_fortran_order_with_different_constants_per_axis():
    # The corners belong to the later axis (numpy's order), also when the result is Fortran.
    a = np.asfortranarray(np.arange(6).reshape(2, 3))
    values = ((1, 2), (3, 4))
    result = padnd.pad(a, 1, constant_values=values)
    assert result.flags.f_contiguous and not result.flags.c_contiguous
    np.testing.assert_array_equal(result, np.pad(a, 1, constant_values=values))
    assert result[0, 0] == 3 and result[-1, -1] == 4


@pytest.mark.parametrize("mode, value, dtype, category", [
    ("constant", 1 + 2j, "f8", np.exceptions.ComplexWarning),
    ("constant", 1e300, "f4", RuntimeWarning),  # the fast path leaves it to numpy's cast
    ("constant", 1e10, "f2", RuntimeWarning),
    ("linear_ramp", 1 + 2j, "f8", np.exceptions.ComplexWarning),
    ("linear_ramp", 1 + 2j, "f2", np.exceptions.ComplexWarning),
])
def test_numpy_s_cast_warnings(mode, value, dtype, category):
    a = np.arange(6, dtype=dtype).reshape(2, 3)
    keyword = "constant_values" if mode == "constant" else "end_values"
    expected, expected_warnings = _call(np.pad, a, 1, mode, {keyword: value})
    result, result_warnings = _call(padnd.pad, a, 1, mode, {keyword: value})
    assert result_warnings == expected_warnings
    assert [c for c, _ in result_warnings] == [category.__name__] * 4  # two sides, two axes
    np.testing.assert_array_equal(result, expected)

