# SPDX-License-Identifier: Apache-2.0
# The framework drop-ins as a user switching to them meets them: submodules reached from
# ``import padnd`` alone, the errors and warnings they give, and ml_dtypes' value modes.
import subprocess
import sys
import textwrap

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
