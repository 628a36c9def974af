# SPDX-License-Identifier: Apache-2.0
# Requests whose output is padded by nothing, or holds nothing, against numpy.pad: numpy's
# newest rules validate the keywords even then, and an empty output costs nothing.
import subprocess
import sys
import warnings

import numpy as np
import pytest

import padnd


def outcome(function):
    """(the exception type or None, the warning categories) of function()."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            function()
            error = None
        except Exception as e:  # noqa: BLE001 (compared with numpy's)
            error = type(e)
    return error, [w.category for w in caught]


@pytest.mark.parametrize("end_values", ["abc", b"x", np.array("x"), np.datetime64(1, "s"),
                                        1j, (1, 1j), 2.5, None])
@pytest.mark.parametrize("pad_width", [0, ((0, 0), (0, 0)), ((0, 0), (1, 2))])
@pytest.mark.parametrize("dtype", ["f8", "f4", "i4", "c8"])
def test_end_values_checked_as_numpy_checks_them(end_values, pad_width, dtype):
    """numpy >= 2.4 promotes end_values with the data even where nothing is padded: strings,
    bytes and times raise its DTypePromotionError, a complex one into real data warns
    ComplexWarning. padnd raises and warns the same (its messages name end_values)."""
    a = np.ones((3, 4), dtype)
    kwargs = {} if end_values is None else {"end_values": end_values}
    theirs = outcome(lambda: np.pad(a, pad_width, "linear_ramp", **kwargs))
    assert outcome(lambda: padnd.pad(a, pad_width, "linear_ramp", **kwargs)) == theirs
    if theirs[0] is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # compared above
            np.testing.assert_array_equal(padnd.pad(a, pad_width, "linear_ramp", **kwargs),
                                          np.pad(a, pad_width, "linear_ramp", **kwargs))


EMPTY_OUTPUT_CASES = """
import resource
import numpy as np
import padnd


def outcome(function):
    try:
        return function().shape
    except Exception as e:
        return type(e)


def oracle(a):
    # a, or where numpy itself fails to cast into its long strings (MemoryError), the same
    # array of 3-character strings, into which numpy casts alike.
    return a if a.dtype.kind == "V" else a.astype(a.dtype.kind + "3")


cases = [(np.zeros(shape, dtype), pad_width, mode, kwargs)
         for dtype in ["V2000000000", "S400000000", "U100000000"]
         for shape, pad_width, mode, kwargs in [
             ((0,), 0, "constant", {}),
             ((0,), 0, "constant", {"constant_values": np.zeros(1, "S3")}),
             ((0, 3), ((0, 0), (1, 2)), "constant", {}),
             ((2, 0), 0, "reflect", {}),
             ((0,), 0, "constant", {"constant_values": 1.5}),
             ((0,), 0, "constant", {"constant_values": [1, 2]}),
             ((0,), 0, "constant", {"constant_values": None}),
         ]]
# numpy.pad's results (its element is never touched, so it costs nothing but address space)
expected = [outcome(lambda: np.pad(oracle(a), pad_width, mode, **kwargs))
            for a, pad_width, mode, kwargs in cases]
resource.setrlimit(resource.RLIMIT_AS, (BYTES, BYTES))
for (a, pad_width, mode, kwargs), theirs in zip(cases, expected):
    assert outcome(lambda: padnd.pad(a, pad_width, mode, **kwargs)) == theirs, (a.dtype, kwargs)
    if isinstance(theirs, type):
        continue
    assert padnd.pad(a, pad_width, mode, **kwargs).dtype == a.dtype
    out = np.empty(theirs, a.dtype)
    assert padnd.pad(a, pad_width, mode, out=out, **kwargs) is out
    window = padnd.pad_window(a, pad_width, mode, window=(slice(0, 0),) * a.ndim, **kwargs)
    assert window.shape == (0,) * a.ndim and window.dtype == a.dtype
    for extension in [{"interior": 1}, {"negative": "crop_then_pad"}]:
        if mode == "constant" and a.ndim == 1:
            assert padnd.pad(a, pad_width, (mode,), **extension, **kwargs).shape == (0,)
print("done")
"""


def test_empty_outputs_of_huge_elements_cost_nothing():
    """numpy.pad (the oracle) returns an empty result of 2 GB elements at once; padnd under
    a 1.5 GiB address-space limit returns the same, and raises numpy's errors for constants
    that do not cast: no element is built for a result of none (strings too, of which numpy
    casts into 3-character ones in the oracle: its own cast of 400 MB strings fails)."""
    code = EMPTY_OUTPUT_CASES.replace("BYTES", str(3 << 29))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0 and "done" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("dtype", ["V3", "S5", "U2", "bfloat16", [("a", "i4"), ("b", "S2")]])
@pytest.mark.parametrize("shape, pad_width", [((0,), 0), ((0, 2), ((0, 0), (1, 1))),
                                              ((2, 0), 0)])
def test_empty_outputs_keep_their_dtype(dtype, shape, pad_width):
    """The one-byte stand-in is for numpy's own S, U and V dtypes only: ml_dtypes' types
    (kind V too) and structured dtypes are padded as they are, as numpy.pad pads them."""
    if dtype == "bfloat16":
        dtype = pytest.importorskip("ml_dtypes").bfloat16
    a = np.zeros(shape, dtype)
    expected = np.pad(a, pad_width)
    got = padnd.pad(a, pad_width)
    assert got.dtype == expected.dtype and got.shape == expected.shape
