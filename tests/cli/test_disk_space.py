# SPDX-License-Identifier: Apache-2.0
"""An output the file system cannot hold is refused before anything is written, in the index
modes (written window by window) as in the value modes (mapped), for padnd and pad_file: a
1 PiB output against the free space statvfs reports. The children run with a 64 MiB file size
limit (SIGXFSZ ignored), so that code that starts writing fails there, not on a full disk."""
import os
import resource
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest

LIMIT = 64 << 20
PIB_PADS = "--pads=0,0,0,1125899906842624"  # 1 PiB of uint8 after one row: (1, 2**50 + 4)


def limited():
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def assert_refused_before_writing(result, tmp_path):
    assert result.returncode != 0
    text = result.stderr if isinstance(result.stderr, str) else result.stderr.decode()
    assert "1125899906842756 bytes, but its file system has" in text, text
    assert "File too large" not in text
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]
    assert (tmp_path / "out.npy").read_bytes() == b"old"


@pytest.mark.parametrize("mode", ["constant", "edge", "mean"])
def test_padnd_refuses_an_output_larger_than_the_free_space(exe, tmp_path, mode):
    assert shutil.disk_usage(tmp_path).free < 2**50  # the oracle: no disk holds 1 PiB here
    np.save(tmp_path / "in.npy", np.zeros((1, 4), np.uint8))
    (tmp_path / "out.npy").write_bytes(b"old")
    result = subprocess.run([exe, "in.npy", "-o", "out.npy", "--no-fsync", "--spec=numpy",
                             f"--mode={mode}", "--pads=0,0,0,1125899906842624"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120,
                            preexec_fn=limited)
    assert_refused_before_writing(result, tmp_path)


PAD_FILE = """
import sys
import padnd
padnd.pad_file("in.npy", "out.npy", ((0, 0), (0, 2**50)), sys.argv[1], fsync=False)
"""


@pytest.mark.parametrize("mode", ["constant", "edge", "mean"])
def test_pad_file_refuses_an_output_larger_than_the_free_space(tmp_path, mode):
    pytest.importorskip("padnd")
    np.save(tmp_path / "in.npy", np.zeros((1, 4), np.uint8))
    (tmp_path / "out.npy").write_bytes(b"old")
    result = subprocess.run([sys.executable, "-c", PAD_FILE, mode], capture_output=True,
                            text=True, cwd=tmp_path, timeout=120, preexec_fn=limited)
    assert_refused_before_writing(result, tmp_path)
    assert "OSError: out.npy: the output needs" in result.stderr
