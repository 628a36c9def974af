# SPDX-License-Identifier: Apache-2.0
"""Out-of-core padding through the CLI (docs/out-of-core.md): many windows through a tiny
--memory against numpy.pad and the one-window result, peak anonymous memory on a file several
times larger than --memory (RLIMIT_DATA and sampled RssAnon), interruption, and the errors."""
import fcntl
import io
import os
import resource
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

from conftest import option_args
from test_cli import (BIG_ENDIAN, NUMERIC, OPAQUE, assert_same, numpy_pad, onnx_layout,
                      random_array, random_pads, seeded)

VALUE_MODES = ["mean", "median", "maximum", "minimum", "linear_ramp", "odd"]
MiB = 1 << 20


def run(padnd, *args, preexec_fn=None, stdin=None):
    return subprocess.run([padnd.exe, *map(str, args)], capture_output=True, cwd=padnd.dir,
                          timeout=120, preexec_fn=preexec_fn, input=stdin)


def pad_file(padnd, src, out, *args):
    result = run(padnd, src, "-o", out, "--no-fsync", *args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    return np.load(padnd.dir / out)


def value_options(mode, rng, rank):
    """CLI options and numpy.pad keywords of a value mode ("odd": odd reflection)."""
    if mode == "odd":
        return {"mode": "reflect", "reflect-type": "odd"}, "reflect", {"reflect_type": "odd"}
    if mode == "linear_ramp":
        values = [int(v) for v in rng.integers(-9, 9, size=2 * rank)]
        return ({"mode": mode, "end-values": values}, mode,
                {"end_values": tuple((values[k], values[rank + k]) for k in range(rank))})
    stat = int(rng.integers(1, 4))
    return {"mode": mode, "stat-length": stat}, mode, {"stat_length": stat}


def random_case(seed):
    """(array, CLI options, numpy.pad's expected result, fortran, --memory bytes)."""
    rng = seeded("out_of_core", seed)
    value_mode = seed % 3 == 0
    dtypes = ["i2", "u1", "f4", "f8", "c8", ">f8", ">i4"] if value_mode else \
        NUMERIC + BIG_ENDIAN + OPAQUE
    dtype = np.dtype(dtypes[int(rng.integers(len(dtypes)))])
    rank = int(rng.integers(0 if not value_mode else 1, 5))
    shape = tuple(int(n) for n in rng.integers(1 if value_mode else 0, 6, size=rank))
    a = random_array(dtype, shape, rng)
    if value_mode:
        a = rng.integers(0, 50, size=shape).astype(dtype)  # exact means, no NaN
        mode = VALUE_MODES[int(rng.integers(len(VALUE_MODES)))]
        options, np_mode, keywords = value_options(mode, rng, rank)
        pairs = [tuple(int(p) for p in rng.integers(0, 4, 2)) for _ in shape]
        expected = np.pad(a, pairs, np_mode, **keywords)
    else:
        np_mode = ["constant", "edge", "reflect", "symmetric", "wrap"][int(rng.integers(5))]
        options, pairs = {"mode": np_mode}, random_pads(shape, np_mode, rng)
        expected = numpy_pad(a, pairs, np_mode)
    # From one element up to a few KiB: many windows, and sub-slabs of single rows. A
    # non-native input of a value mode is swapped in memory: the budget holds it and more.
    memory = int(rng.integers(dtype.itemsize, 4096))
    if value_mode and not dtype.isnative:
        memory += a.nbytes + 1
    fortran = rank >= 2 and bool(rng.integers(2))  # (np.asfortranarray makes 0-d arrays 1-d)
    return a, {"spec": "numpy", **options}, pairs, expected, fortran, memory


@pytest.mark.parametrize("seed", range(60))
def test_random_requests_through_a_tiny_memory_equal_numpy_pad(padnd, seed):
    a, options, pairs, expected, fortran, memory = random_case(seed)
    src = padnd.save(a, fortran=fortran)
    args = option_args(onnx_layout(pairs), **options)
    small = pad_file(padnd, src, "small.npy", f"--memory={memory}", *args)
    whole = pad_file(padnd, src, "whole.npy", *args)  # one window: the default budget
    assert (padnd.dir / "small.npy").read_bytes() == (padnd.dir / "whole.npy").read_bytes()
    assert_same(small, expected)
    assert_same(whole, expected)


@pytest.mark.parametrize("spec, mode, pads", [
    ("onnx", "reflect", [-1, 2, 3, 0, -2, 1]), ("onnx", "wrap", [2, -1, 0, 3, 1, -1]),
    ("openvino:12", "symmetric", [-2, 3, 1, 1, -4, 0]), ("ngraph:v1", "edge", [3, -1, 2, 0, 2, -2]),
])
def test_crops_in_windows_equal_one_window(padnd, spec, mode, pads):
    a = np.arange(4 * 5 * 6, dtype=np.int32).reshape(4, 5, 6)
    src = padnd.save(a)
    args = option_args(pads, spec=spec, mode=mode)
    for memory in (4, 20, 100, 1000):
        pad_file(padnd, src, "small.npy", f"--memory={memory}", *args)
        pad_file(padnd, src, "whole.npy", *args)
        assert (padnd.dir / "small.npy").read_bytes() == (padnd.dir / "whole.npy").read_bytes()


@pytest.mark.parametrize("fortran", [False, True])
def test_window_option_through_a_tiny_memory(padnd, fortran):
    a = np.arange(5 * 6 * 7, dtype=np.int16).reshape(5, 6, 7)
    src = padnd.save(a, fortran=fortran)
    full = np.pad(a, ((2, 1), (0, 3), (1, 1)), "wrap")
    for window, slices in (("1:6,2:,:-1", np.s_[1:6, 2:, :-1]), (":,4:5", np.s_[:, 4:5])):
        out = pad_file(padnd, src, "w.npy", "--memory=30", "--spec=numpy", "--mode=wrap",
                       "--pads=2,0,1,1,3,1", f"--window={window}")
        assert_same(out, full[slices])


def test_value_mode_windows_need_their_box_not_the_output(padnd):
    # A 10 x 10 window of a 2 MiB input's mean pad (stat_length 2) holds the window (800
    # bytes) and the box it is computed over: its 10 rows, columns 2-9 (640 bytes).
    a = np.arange(512 * 512, dtype=np.float64).reshape(512, 512)
    src = padnd.save(a)
    args = ["--spec=numpy", "--mode=mean", "--stat-length=2", "--pads=3,3,3,3",
            "--window=100:110,0:10"]
    out = pad_file(padnd, src, "w.npy", "--memory=1440", *args)
    assert_same(out, np.pad(a, 3, "mean", stat_length=2)[100:110, 0:10])
    err = padnd.fail(src, "-o", "w2.npy", "--memory=1439", *args)
    assert "its statistics read, and the window: 1440 bytes, but --memory allows 1439 " \
           "bytes" in err
    assert not (padnd.dir / "w2.npy").exists()


def test_streams_in_and_out_through_a_tiny_memory(padnd):
    a = np.arange(6 * 7, dtype=np.float32).reshape(6, 7)
    padnd.save(a)
    expected = np.pad(a, ((1, 2), (3, 0)), "symmetric")
    args = ["--memory=64", "--spec=numpy", "--mode=symmetric", "--pads=1,3,2,0"]
    result = run(padnd, "-", "-o", "o.npy", *args, stdin=(padnd.dir / "in.npy").read_bytes())
    assert result.returncode == 0, result.stderr
    assert_same(np.load(padnd.dir / "o.npy"), expected)
    result = run(padnd, "in.npy", "-o", "-", *args)
    assert result.returncode == 0, result.stderr
    (padnd.dir / "stdout.npy").write_bytes(result.stdout)
    assert_same(np.load(padnd.dir / "stdout.npy"), expected)


def test_value_modes_into_a_fifo_need_the_whole_output_in_memory(padnd):
    padnd.save(np.arange(40, dtype=np.float64).reshape(5, 8))
    fifo = padnd.dir / "out.fifo"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the writer need not wait
    try:
        args = ["in.npy", "-o", fifo, "--spec=numpy", "--mode=mean", "--pads=1,1,1,1"]
        err = run(padnd, *args, "--memory=100").stderr.decode()
        assert "--memory: numpy's value modes (and per-axis modes) compute the whole output " \
               "before writing it to standard output, a FIFO or a device: 560 bytes, but --memory " \
               "allows 100 bytes" in err
        assert os.read(fd, 1 << 16) == b""  # nothing was written
        assert run(padnd, *args, "--memory=1K").returncode == 0
        got = np.load(io.BytesIO(os.read(fd, 1 << 16)))
    finally:
        os.close(fd)
    assert_same(got, np.pad(np.arange(40, dtype=np.float64).reshape(5, 8), 1, "mean"))


# --- peak memory on a file several times larger than --memory -------------------------------

BIG_SHAPE = (96, 256 * 1024)  # 96 MiB of float32
BUDGET = 16 * MiB
SLACK = 16 * MiB  # the 64 MiB of the 4 GiB target, scaled down with the file


def limited(data_bytes):
    """preexec_fn: RLIMIT_DATA (private writable memory: heap, anonymous mappings, thread
    stacks; not the read-only mapped input, not a shared mapped output) of `data_bytes`."""
    return lambda: resource.setrlimit(resource.RLIMIT_DATA, (data_bytes, data_bytes))


def run_sampled(padnd, args, data_bytes):
    """(result, peak RssAnon sampled every millisecond) of a CLI run under RLIMIT_DATA."""
    proc = subprocess.Popen([padnd.exe, *map(str, args)], cwd=padnd.dir, stderr=subprocess.PIPE,
                            preexec_fn=limited(data_bytes))
    peak = [0]

    def sample():
        while proc.poll() is None:
            try:
                with open(f"/proc/{proc.pid}/status") as status:
                    for line in status:
                        if line.startswith("RssAnon:"):
                            peak[0] = max(peak[0], int(line.split()[1]) * 1024)
            except OSError:
                return
            time.sleep(0.001)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = proc.communicate(timeout=120)
    sampler.join()
    return proc.returncode, err.decode(), peak[0]


@pytest.fixture(scope="module")
def data_baseline(tmp_path_factory, exe):
    """The smallest RLIMIT_DATA (to 1 MiB) under which the CLI pads a 2 MiB output in one 2 MiB
    window: its own heap, libraries and pool threads' stacks, which the limits below add to."""
    workdir = tmp_path_factory.mktemp("baseline")
    np.save(workdir / "in.npy", np.zeros((64, 8192), np.float32))
    lo, hi = 0, 1024 * MiB
    while hi - lo > MiB:
        mid = (lo + hi) // 2
        ok = subprocess.run([exe, "in.npy", "-o", "out.npy", "--pads=1,1,1,1", "--memory=2M",
                             "--no-fsync"], cwd=workdir, capture_output=True,
                            preexec_fn=limited(mid)).returncode == 0
        lo, hi = (lo, mid) if ok else (mid, hi)
    return hi


@pytest.fixture(scope="module")
def big_input(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.npy"
    a = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=BIG_SHAPE)
    a[...] = np.random.default_rng(5).random(BIG_SHAPE, dtype=np.float32)
    a.flush()
    return path


@pytest.mark.parametrize("mode, fortran", [("reflect", False), ("reflect", True),
                                           ("mean", False)])
def test_peak_memory_of_a_file_six_times_the_budget(padnd, big_input, data_baseline, mode,
                                                    fortran):
    src = big_input
    if fortran:
        src = padnd.dir / "f.npy"
        f = np.lib.format.open_memmap(src, mode="w+", dtype=np.float32, shape=BIG_SHAPE,
                                      fortran_order=True)
        f[...] = np.load(big_input, mmap_mode="r")
        f.flush()
        del f
    assert os.path.getsize(src) >= 6 * BUDGET
    args = [src, "-o", "out.npy", "--spec=numpy", f"--mode={mode}", "--pads=3,5,7,2",
            f"--memory={BUDGET}", "--no-fsync"]
    status, err, peak = run_sampled(padnd, args, BUDGET + SLACK + data_baseline)
    assert status == 0, err
    assert 0 < peak <= BUDGET + SLACK, f"peak RssAnon {peak} bytes"
    a = np.load(big_input, mmap_mode="r")
    out = np.load(padnd.dir / "out.npy", mmap_mode="r")
    expected = np.pad(np.asarray(a), ((3, 7), (5, 2)), mode)
    if mode == "mean":  # numpy's float32 summation order: docs/conformance.md
        np.testing.assert_allclose(out, expected, rtol=1e-5)
    else:
        assert out.tobytes() == expected.tobytes()


def test_the_data_limit_catches_a_whole_output_in_memory(padnd, big_input, data_baseline):
    # The same limit with a budget that lets the value mode take the whole output in memory:
    # the allocation fails, and says what it was for.
    args = [big_input, "-o", "out.npy", "--spec=numpy", "--mode=mean", "--pads=3,5,7,2",
            "--memory=1G", "--no-fsync"]
    status, err, _ = run_sampled(padnd, args, BUDGET + SLACK + data_baseline)
    assert status == 1
    assert f"cannot allocate {106 * 262151 * 4} bytes for the output of shape (106, 262151)" \
        in err
    assert os.listdir(padnd.dir) == []


# --- interruption --------------------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_writing_leaves_no_file_and_the_old_output(padnd, sig):
    padnd.save(np.zeros((512, 1024), np.uint8))
    old = padnd.dir / "out.npy"
    old.write_bytes(b"the previous output")
    # Standard error is a pipe that is already full: the progress bar's first line (drawn once
    # the temporary file holds the header) blocks padnd there until the signal ends it.
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    os.set_blocking(write_end, False)
    try:
        while True:
            os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
    proc = subprocess.Popen([padnd.exe, "in.npy", "-o", "out.npy", "--pads=1,1,1,1",
                             "--memory=4K", "--progress"], cwd=padnd.dir, stderr=write_end,
                            preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    os.close(write_end)
    try:
        deadline = time.monotonic() + 30
        while not [n for n in os.listdir(padnd.dir) if n.startswith(".padnd-")]:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.001)
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == -sig
    finally:
        os.close(read_end)
    assert sorted(os.listdir(padnd.dir)) == ["in.npy", "out.npy"]
    assert old.read_bytes() == b"the previous output"


# --- progress and errors -------------------------------------------------------------------

def test_progress_bar_when_asked_and_nothing_when_quiet(padnd):
    padnd.save(np.zeros((100, 100), np.uint8))
    result = run(padnd, "in.npy", "-o", "o.npy", "--pads=0,0,0,0", "--memory=100", "--progress")
    assert result.returncode == 0
    lines = result.stderr.decode().split("\r")
    assert lines[0] == "" and lines[1].startswith("padnd: 0% (0 bytes of 9.8 KiB)")
    assert lines[-1].startswith("padnd: 100% (9.8 KiB of 9.8 KiB)") and lines[-1].endswith("\n")
    assert len(lines) == 102  # '' before the first, then one line per percent
    result = run(padnd, "in.npy", "-o", "o.npy", "--pads=0,0,0,0", "--memory=100", "--quiet")
    assert result.returncode == 0 and result.stderr == b""


@pytest.mark.parametrize("value, message", [
    ("abc", "expected a size such as 512M, 2G or 1048576"), ("-5", "expected a size such as"),
    ("1.5G", "expected a whole number of units (1536M, not 1.5G)"), ("12X", "unknown unit"),
    ("0", "the size must be at least 1 byte"), ("9999999999999T", "the size does not fit in int64"),
    ("", "expected a size such as"),
])
def test_bad_memory_values_are_usage_errors(padnd, value, message):
    padnd.save(np.zeros(3, np.uint8))
    result = run(padnd, "in.npy", "-o", "o.npy", "--pads=1,1", f"--memory={value}")
    assert result.returncode == 2
    assert f"padnd: error: --memory: {message}" in result.stderr.decode()
    assert f"got '{value}'" in result.stderr.decode()


@pytest.mark.parametrize("value, size", [("1048576", 1 << 20), ("512K", 512 << 10),
                                         ("3m", 3 << 20), ("2G", 2 << 30), ("1GiB", 1 << 30),
                                         ("7kb", 7 << 10), ("1T", 1 << 40)])
def test_memory_units(padnd, value, size):
    # A mean over an output 8 bytes larger than the budget, to standard output: the message
    # shows the budget as parsed (nothing is computed).
    padnd.save(np.arange(1.0))
    err = padnd.fail("in.npy", "-o", "-", "--spec=numpy", "--mode=mean", f"--pads=0,{size // 8}",
                     f"--memory={value}")
    assert f": {size + 8} bytes, but --memory allows {size} bytes (" in err


def test_budget_errors_name_memory_and_the_bytes(padnd):
    padnd.save(np.arange(64, dtype=">f8"))
    err = padnd.fail("in.npy", "-o", "o.npy", "--pads=1,1", "--spec=numpy", "--mode=mean",
                     "--memory=100")
    assert "--memory: numpy's value modes compute in the host's byte order, so the '>f8' " \
           "input (512 bytes) is converted in memory, and --memory allows 100 bytes" in err
    err = padnd.fail("in.npy", "-o", "o.npy", "--pads=1,1", "--spec=numpy", "--mode=mean",
                     "--window=0:3", "--memory=600")
    # The mean reads all 64 elements: the box is the begin pad and them (65), and the window 3.
    assert "a --window over the part of the output its statistics read, and the window: " \
           "544 bytes, but --memory allows 88 bytes" in err
    assert sorted(os.listdir(padnd.dir)) == ["in.npy"]


@pytest.mark.parametrize("args, message", [
    (["explain", "in.npy", "--pads=1,1", "--memory=1M"], "--memory does not apply to 'explain'"),
    (["explain", "in.npy", "--pads=1,1", "--progress"], "'explain' writes no file; drop "
                                                        "--progress"),
    (["demo", "--quiet"], "'demo' writes no file; drop --quiet"),
    (["in.npy", "-o", "o.npy", "--pads=1,1", "--progress", "--quiet"], "--progress or --quiet"),
])
def test_option_usage_errors(padnd, args, message):
    padnd.save(np.zeros(3, np.uint8))
    err = padnd.fail(*args, code=2)
    assert message in err


def test_help_lists_the_out_of_core_options(padnd):
    text = padnd.run("--help").stdout
    for option in ("--memory SIZE", "--progress", "--quiet", "docs/out-of-core.md"):
        assert option in text, option
