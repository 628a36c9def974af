# SPDX-License-Identifier: Apache-2.0
"""The CLI's standard streams and descriptors: outputs named by descriptor paths, closed
streams, a standard input read from inside its file, and a file-size limit."""
import io
import os
import resource
import subprocess

import numpy as np
import pytest

A = np.arange(12, dtype=np.float32).reshape(3, 4)
PADDED = np.pad(A, ((0, 1), (1, 0)))
PADS = "--pads=0,1,1,0"


def npy_bytes(array):
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def run(padnd, *args, **kwargs):
    return subprocess.run([padnd.exe, *map(str, args)], cwd=padnd.dir, timeout=60, **kwargs)


def test_dev_stdout_into_a_pipe(padnd):
    src = padnd.save(A)
    for path in ("/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"):
        result = run(padnd, src, "-o", path, PADS, "--quiet", capture_output=True)
        assert result.returncode == 0, result.stderr
        np.testing.assert_array_equal(np.load(io.BytesIO(result.stdout)), PADDED)


def test_descriptor_path_keeps_append_mode(padnd):
    # `>> log` with -o /dev/stdout appends: the log is written through its descriptor, not
    # replaced by a new file.
    src = padnd.save(A)
    log = padnd.dir / "log.bin"
    log.write_bytes(b"LOG-LINE")
    with open(log, "ab") as out:
        result = run(padnd, src, "-o", "/dev/stdout", PADS, "--quiet", stdout=out)
    assert result.returncode == 0
    data = log.read_bytes()
    assert data.startswith(b"LOG-LINE")
    np.testing.assert_array_equal(np.load(io.BytesIO(data[8:])), PADDED)


def test_descriptor_path_of_an_inherited_pipe(padnd):
    src = padnd.save(A)
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen([padnd.exe, src, "-o", f"/dev/fd/{write_end}", PADS, "--quiet"],
                                cwd=padnd.dir, pass_fds=(write_end,))
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        assert proc.wait(timeout=60) == 0
    finally:
        for fd in (read_end, write_end):
            try:
                os.close(fd)
            except OSError:
                pass
    np.testing.assert_array_equal(np.load(io.BytesIO(data)), PADDED)


def test_another_process_s_descriptor_path(padnd):
    # /proc/<pid>/fd/N of a pipe that padnd does not hold: the kernel opens the pipe itself.
    src = padnd.save(A)
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as pipe, os.fdopen(write_end, "wb"):
        proc = subprocess.Popen([padnd.exe, src, "-o", f"/proc/{os.getpid()}/fd/{write_end}",
                                 PADS, "--quiet"], cwd=padnd.dir)
        assert proc.wait(timeout=60) == 0
        os.set_blocking(read_end, False)
        data = pipe.read()
    np.testing.assert_array_equal(np.load(io.BytesIO(data)), PADDED)


def test_descriptor_that_is_not_open_or_not_writable(padnd):
    src = padnd.save(A)
    err = padnd.fail(src, "-o", "/dev/fd/57", PADS)
    assert "/dev/fd/57: descriptor 57 is not open" in err
    result = run(padnd, src, "-o", "/dev/stdin", PADS, stdin=open(src, "rb"),
                 capture_output=True, text=True)
    assert result.returncode == 1
    assert "descriptor 0 is open for reading only" in result.stderr
    assert sorted(p.name for p in padnd.dir.iterdir()) == ["in.npy"]


def test_closed_standard_streams_stay_out_of_the_output(padnd):
    # With stdin and stderr closed, the temporary output must not become descriptor 2, where
    # --progress writes.
    src = padnd.save(A)

    def close_streams():
        os.close(0)
        os.close(2)

    result = run(padnd, src, "-o", "out.npy", PADS, "--progress", preexec_fn=close_streams)
    assert result.returncode == 0
    np.testing.assert_array_equal(np.load(padnd.dir / "out.npy"), PADDED)
    assert (padnd.dir / "out.npy").stat().st_size == len(npy_bytes(PADDED))


@pytest.mark.parametrize("mode", ["constant", "mean"])  # written, and mapped then computed
def test_file_size_limit_is_an_error_without_leftovers(padnd, mode):
    src = padnd.save(np.zeros((100, 100)))

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    result = run(padnd, src, "-o", "out.npy", "--pads=1,1,1,1", "--spec=numpy", f"--mode={mode}",
                 "--quiet", preexec_fn=limit, capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert "out.npy" in result.stderr and "File too large" in result.stderr
    assert sorted(p.name for p in padnd.dir.iterdir()) == ["in.npy"]


def test_standard_input_read_from_inside_its_file(padnd):
    # A caller that consumed a prefix hands padnd the rest: the .npy starts at the offset.
    whole = padnd.dir / "prefixed.bin"
    whole.write_bytes(b"PREFIX!!" + npy_bytes(A))
    truncated = padnd.dir / "truncated.bin"
    truncated.write_bytes(b"PREFIX!!" + npy_bytes(A)[:-8])
    for path, ok in ((whole, True), (truncated, False)):
        with open(path, "rb") as f:
            f.seek(8)
            result = run(padnd, "-", "-o", "out.npy", PADS, "--quiet", stdin=f,
                         capture_output=True, text=True)
        if ok:
            assert result.returncode == 0, result.stderr
            np.testing.assert_array_equal(np.load(padnd.dir / "out.npy"), PADDED)
        else:
            assert result.returncode == 1
            assert "truncated file" in result.stderr and "the file holds 40" in result.stderr
