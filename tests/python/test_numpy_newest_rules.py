# SPDX-License-Identifier: Apache-2.0
# Requests whose output is padded by nothing, or holds nothing, against numpy.pad: numpy's
# newest rules validate the keywords even then, and an empty output costs nothing.
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
        np.testing.assert_array_equal(padnd.pad(a, pad_width, "linear_ramp", **kwargs),
                                      np.pad(a, pad_width, "linear_ramp", **kwargs))
