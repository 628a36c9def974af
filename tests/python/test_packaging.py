# SPDX-License-Identifier: Apache-2.0
# The installed distribution: one version everywhere (CMakeLists.txt -> wheel metadata ->
# padnd.__version__ -> the `padnd` console script), the LICENSE in .dist-info, the extras, and
# the message an optional dependency's absence gives.
import importlib.metadata
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

import numpy as np

import padnd

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cmake_project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(\s*padnd\s+VERSION\s+([0-9.]+)", text).group(1)


def _console_script() -> str:
    # pip installs the wheel's .data/scripts next to the interpreter (venv/bin).
    found = shutil.which("padnd", path=sysconfig.get_path("scripts"))
    assert found, f"no padnd console script in {sysconfig.get_path('scripts')}"
    return found


def test_version_is_the_distributions_and_cmakes():
    assert padnd.__version__ == importlib.metadata.version("padnd")
    assert padnd.__version__ == _cmake_project_version()


def test_wheel_carries_the_license():
    dist = importlib.metadata.distribution("padnd")
    assert dist.metadata["License-Expression"] == "Apache-2.0"
    licenses = [f for f in dist.files if f.name == "LICENSE" and ".dist-info" in str(f)]
    assert licenses, [str(f) for f in dist.files]
    assert "Apache License" in licenses[0].read_text(encoding="utf-8")


def test_extras_are_declared():
    dist = importlib.metadata.distribution("padnd")
    extras = set(dist.metadata.get_all("Provides-Extra"))
    assert {"onnx", "dask", "xarray", "torch", "jax"} <= extras
    requires = dist.requires or []
    for name, extra in [("onnx", "onnx"), ("dask[array]", "dask"), ("distributed", "dask"),
                        ("xarray", "xarray"), ("torch", "torch"), ("jax", "jax")]:
        assert any(r.startswith(name) and f'extra == "{extra}"' in r for r in requires), requires


def test_console_script_is_the_cli(tmp_path):
    exe = _console_script()
    version = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"padnd {padnd.__version__}"
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.save(tmp_path / "in.npy", x)
    subprocess.run([exe, str(tmp_path / "in.npy"), "-o", str(tmp_path / "out.npy"),
                    "--pads", "1,0,0,2", "--mode", "reflect"], check=True, capture_output=True)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"),
                                  np.pad(x, ((1, 0), (0, 2)), mode="reflect"))
    demo = subprocess.run([exe, "demo"], capture_output=True, text=True, check=True)
    assert demo.stdout


def test_onnx_backend_without_onnx_names_the_extra():
    code = ("import sys\n"
            "sys.modules['onnx'] = None\n"
            "try:\n"
            "    import padnd.onnx.backend\n"
            "except ImportError as error:\n"
            "    print(error)\n"
            "else:\n"
            "    raise SystemExit('padnd.onnx.backend imported without onnx')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    message = result.stdout
    assert "padnd.onnx.backend" in message and "'onnx'" in message, message
    assert "pip install '.[onnx]' in padnd's checkout" in message, message
    # The rest of padnd does not need onnx.
    code = "import sys\nsys.modules['onnx'] = None\nimport padnd, padnd.onnx\nprint(padnd.__version__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_optional_import_helper():
    from padnd._optional import import_optional

    assert import_optional("json", extra="x", needed_by="y").__name__ == "json"
    try:
        import_optional("padnd_no_such_module.sub", extra="nothing", needed_by="padnd.test")
    except ImportError as error:
        assert str(error) == ("padnd.test needs the 'padnd_no_such_module' package: "
                              "pip install '.[nothing]' in padnd's checkout")
        assert error.name == "padnd_no_such_module"
        assert isinstance(error.__cause__, ImportError)
    else:
        raise AssertionError("no ImportError")
