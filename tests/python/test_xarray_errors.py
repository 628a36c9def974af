# SPDX-License-Identifier: Apache-2.0
# padnd.xarray.pad's errors name the dimension, as its callers know it, where padnd.pad's name
# an axis of the variable; numpy-backed and dask-backed data alike.
import numpy as np
import pytest

xr = pytest.importorskip("xarray")
pytest.importorskip("dask.array")
import padnd  # noqa: E402
import padnd.xarray  # noqa: E402


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("widths, dim, axis", [
    ({"x": 2**62}, "x", 0),
    ({"y": (1, 2**62)}, "y", 1),
    ({"y": (0, 2**63 - 1)}, "y", 1),
])
def test_overflowing_widths_name_the_dimension(chunked, widths, dim, axis):
    """padnd.pad refuses the same request on the data (the oracle) naming "axis k"; the
    xarray message is that one with the dimension's name."""
    da = xr.DataArray(np.zeros((2, 3)), dims=("x", "y"))
    pairs = [widths.get(d, (0, 0)) for d in da.dims]
    pairs = [(p, p) if isinstance(p, int) else p for p in pairs]
    with pytest.raises(ValueError) as theirs:
        padnd.pad(da.values, pairs)
    assert f"axis {axis}" in str(theirs.value)
    with pytest.raises(ValueError) as ours:
        padnd.xarray.pad(da.chunk(1) if chunked else da, **widths)
    assert str(ours.value) == str(theirs.value).replace(f"axis {axis}",
                                                        f"dimension {dim!r} (axis {axis})")
