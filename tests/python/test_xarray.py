# SPDX-License-Identifier: Apache-2.0
# padnd.xarray.pad against xarray's own pad (coordinates, indexes, attributes, names) and
# numpy.pad (values), for DataArrays and Datasets backed by numpy and by dask.
import types

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

xr = pytest.importorskip("xarray")
import padnd.xarray  # noqa: E402

MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "mean",
         "median", "minimum"]


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def data_array(backend: str, dtype="i8"):
    values = np.arange(5 * 6, dtype=dtype).reshape(5, 6) * 3 % 17
    array = xr.DataArray(values, dims=("y", "x"), name="v", attrs={"units": "m"},
                         coords={"x": np.arange(6) * 10.0, "y": [1, 2, 4, 8, 16],
                                 "label": ("x", np.arange(6) + 100), "scalar": 7,
                                 "name": ("x", list("abcdef"))})
    return array.chunk({"x": 4, "y": 2}) if backend == "dask" else array


def numpy_widths(array, pad_width):
    return [pad_width.get(dim, (0, 0)) for dim in array.dims]


@pytest.mark.parametrize("backend", ["numpy", "dask"])
@pytest.mark.parametrize("mode", MODES)
def test_data_array_values_are_numpys_and_coords_xarrays(backend, mode):
    if backend == "dask":
        pytest.importorskip("dask.array")
    array = data_array(backend)
    pad_width = {"x": (2, 7), "y": (1, 0)}  # x padded wider than it is
    result = padnd.xarray.pad(array, pad_width, mode)
    expected = np.pad(array.values, numpy_widths(array, pad_width), mode)
    same(result.values, expected)
    assert result.dims == array.dims and result.name == "v" and result.attrs == array.attrs
    assert type(result.data) is type(array.data)
    # xarray's own pad of the numpy-backed array (on dask-backed coordinates it runs
    # dask.array.pad, whose wide reflect pads have the wrong shape): the same coordinates.
    reference = data_array("numpy").pad(pad_width, mode)
    assert result.coords.to_dataset().identical(reference.coords.to_dataset())
    assert set(result.xindexes) == set(reference.xindexes)


def test_constant_defaults_to_numpys_zero_and_nan_asks_for_xarrays_fill():
    array = data_array("numpy")
    zero = padnd.xarray.pad(array, x=1)
    assert zero.dtype == array.dtype and (zero.values[:, 0] == 0).all()
    filled = padnd.xarray.pad(array, x=1, constant_values=np.nan)
    assert filled.identical(array.pad(x=1))  # xarray's default: float64 and NaN
    times = xr.DataArray(np.array(["2020-01-01", "2021-01-01"], dtype="M8[s]"), dims="t")
    assert np.isnat(padnd.xarray.pad(times, t=1, constant_values=np.nan).values[0])


@pytest.mark.parametrize("backend", ["numpy", "dask"])
def test_dataset_variables_and_constants_by_name(backend):
    if backend == "dask":
        pytest.importorskip("dask.array")
    array = data_array(backend)
    dataset = array.to_dataset().assign(w=("x", np.arange(6.0)), z=("y", np.arange(5)),
                                        still=("t", [1, 2]))
    dataset.attrs["title"] = "t"
    constants = {"v": {"x": (3, 4)}, "w": 9}
    result = padnd.xarray.pad(dataset, {"x": (1, 2)}, constant_values=constants)
    same(result["v"].values, np.pad(dataset["v"].values, ((0, 0), (1, 2)),
                                    constant_values=((0, 0), (3, 4))))
    same(result["w"].values, np.pad(dataset["w"].values, (1, 2), constant_values=9))
    assert result["z"].identical(dataset["z"]) and result["still"].identical(dataset["still"])
    assert result.attrs == {"title": "t"}
    reference = dataset.compute().pad({"x": (1, 2)}, constant_values=constants)
    assert result.coords.to_dataset().identical(reference.coords.to_dataset())
    assert list(result.data_vars) == list(dataset.data_vars)


def test_keywords_by_dimension_and_keep_attrs():
    array = data_array("numpy", "f8")
    result = padnd.xarray.pad(array, {"x": 3, "y": (2, 1)}, "mean", stat_length={"x": 2},
                              keep_attrs=False)
    same(result.values, np.pad(array.values, ((2, 1), (3, 3)), "mean",
                               stat_length=((5, 5), (2, 2))))
    assert result.attrs == {}
    ramp = padnd.xarray.pad(array, {"x": 2}, "linear_ramp", end_values={"x": (1, -1)})
    same(ramp.values, np.pad(array.values, ((0, 0), (2, 2)), "linear_ramp",
                             end_values=((0, 0), (1, -1))))
    odd = padnd.xarray.pad(array.drop_vars("name"), {"y": 4}, "reflect", reflect_type="odd")
    same(odd.values, np.pad(array.values, ((4, 4), (0, 0)), "reflect", reflect_type="odd"))
    with pytest.raises(ValueError):
        padnd.xarray.pad(array, {"x": 1}, y=1)
    # Any mapping by dimension, as xarray takes (found by fuzzing: only dicts were read).
    constants = types.MappingProxyType({"x": 5})
    xr.testing.assert_identical(padnd.xarray.pad(array, x=1, constant_values=constants),
                                array.pad(x=1, constant_values=constants))


@settings(max_examples=40)
@given(st.sampled_from(MODES), st.integers(0, 8), st.integers(0, 8), st.booleans())
def test_random_pads_on_dask_data(mode, before, after, odd):
    pytest.importorskip("dask.array")
    array = data_array("dask", "f8").drop_vars("name")  # odd reflection has no strings
    kwargs = {"reflect_type": "odd"} if odd and mode in ("reflect", "symmetric") else {}
    result = padnd.xarray.pad(array, {"x": (before, after), "y": (after, before)}, mode,
                              **kwargs)
    same(result.values, np.pad(array.values, ((after, before), (before, after)), mode,
                               **kwargs))
