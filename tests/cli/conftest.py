# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the padnd CLI tests: find the binary (PADND_CLI) and run it on .npy files."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    path = pathlib.Path(os.environ.get("PADND_CLI", "build/padnd"))
    if not path.is_absolute() and not path.exists():
        path = REPO / path
    return path.resolve()  # the CLI runs inside a temporary directory


def option_args(pads=None, **options):
    """Keyword options -> CLI arguments; lists become comma-separated values."""
    args = [] if pads is None else ["--pads=" + ",".join(str(p) for p in pads)]
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        args.append(f"--{name}={value}")
    return args


class Padnd:
    """Runs the CLI inside one temporary directory."""

    def __init__(self, exe, workdir):
        self.exe = exe
        self.dir = workdir

    def run(self, *args):
        return subprocess.run([self.exe, *map(str, args)], capture_output=True, text=True,
                              cwd=self.dir, timeout=60)

    def save(self, array, name="in.npy", fortran=False):
        path = self.dir / name
        np.save(path, np.asfortranarray(array) if fortran else array)
        return path

    def pad(self, array, pads, fortran=False, **options):
        """Pads `array` through the CLI and returns the loaded result (asserts success)."""
        src = self.save(array, fortran=fortran)
        out = self.dir / "out.npy"
        if out.exists():
            out.unlink()
        # --no-fsync: hundreds of outputs here need no durability (test_cli tests the default).
        result = self.run(src, "-o", out, "--no-fsync", *option_args(pads, **options))
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        return np.load(out)

    def fail(self, *args, code=1):
        """Runs, expects exit status `code` and the error prefix; returns stderr."""
        result = self.run(*args)
        assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
        assert result.stderr.startswith("padnd: error: "), result.stderr
        return result.stderr


@pytest.fixture(scope="session")
def exe():
    path = cli_path()
    if not path.is_file():
        pytest.fail(f"padnd binary not found at {path}; build it or set PADND_CLI")
    return str(path)


@pytest.fixture
def padnd(exe, tmp_path):
    return Padnd(exe, tmp_path)
