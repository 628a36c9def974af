# SPDX-License-Identifier: Apache-2.0
# The type stubs (.pyi) match the installed package: mypy's stubtest imports every public module
# and compares each stub signature, default and __all__ with the runtime object.
import pathlib
import subprocess
import sys


def test_stubs_match_the_runtime(tmp_path):
    allowlist = pathlib.Path(__file__).with_name("stubtest_allowlist.txt")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "padnd", "--allowlist", str(allowlist),
         "--mypy-config-file", str(tmp_path / "none.ini")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
