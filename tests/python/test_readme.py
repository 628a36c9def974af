# SPDX-License-Identifier: Apache-2.0
"""What a newcomer runs first, as written: every Python block of README.md (in an empty folder),
the quick start's build (the library and the tool it runs, not the tests) and scripts/test.sh's
first steps on a fresh machine (system packages, python3 and git among them, before python3)."""
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
PYTHON_BLOCKS = re.findall(r"^```python\n(.*?)^```", README, re.M | re.S)


def test_readme_has_python_blocks():
    assert PYTHON_BLOCKS


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.splitlines()[0])
def test_readme_python_block_runs_as_written(block, tmp_path):
    result = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def test_quick_start_builds_no_tests_and_the_test_command_does():
    quick_start = re.search(r"^```sh\n(.*?)^```", README, re.M | re.S).group(1)
    assert "cmake -S . -B build -DPADND_BUILD_TESTS=OFF" in quick_start
    test_sh = (ROOT / "scripts" / "test.sh").read_text()
    configure = re.search(r"^.*cmake -S \. -B build .*(\n  .*)*", test_sh, re.M).group(0)
    assert "-DPADND_BUILD_TESTS=ON" in configure


def test_test_sh_installs_python3_and_git_before_running_python3():
    lines = [line for line in (ROOT / "scripts" / "test.sh").read_text().splitlines()
             if not line.lstrip().startswith("#")]
    install = next(i for i, line in enumerate(lines) if "apt-get install" in line)
    first_python = next(i for i, line in enumerate(lines) if re.match(r"\s*python3\s", line))
    assert install < first_python, lines[first_python]
    packages = " ".join(lines[:install])
    assert re.search(r"\bpython3\b.*\bpython3-venv\b.*\bgit\b", packages), packages


def test_wheel_check_copies_a_tree_without_git():
    script = (ROOT / "scripts" / "wheel_check.sh").read_text()
    git_runs = [line for line in script.splitlines()
                if re.search(r"(?<![./\w-])git\s+[-a-z]", line) and not line.lstrip().startswith("#")]
    only_for_checkouts = script[script.index('if [ -e "$repo/.git" ]'):script.index("\nelse\n")]
    assert git_runs and all(line in only_for_checkouts for line in git_runs), git_runs
