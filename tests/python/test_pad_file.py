# SPDX-License-Identifier: Apache-2.0
# padnd.pad_file (the CLI's out-of-core engine on .npy files) against numpy.pad and padnd.pad,
# through budgets small enough for many windows, and its errors.
import os
import signal
import subprocess
import sys
import threading
import time
import zlib

import numpy as np
import pytest

import padnd

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
VALUE_MODES = ["mean", "median", "maximum", "minimum", "linear_ramp"]
DTYPES = ["?", "i1", "u2", "i4", "i8", "f2", "f4", "f8", ">f8", ">i4", "c8", ">c16", "S3", "U2",
          ">U2", "V5", "M8[s]", ">m8[ns]"]
NUMBERS = ["u1", "i2", "i8", "f4", "f8", ">f8", ">i4", "c8"]


def rng_for(*names):
    return np.random.default_rng(zlib.crc32(repr(names).encode()))


def random_array(dtype, shape, rng):
    raw = rng.integers(0, 256, size=(*shape, np.dtype(dtype).itemsize), dtype=np.uint8)
    if np.dtype(dtype).kind in "fc":  # no NaN bit patterns: numpy's NaN choices differ
        return rng.integers(-40, 40, size=shape).astype(dtype)
    return np.ascontiguousarray(raw).view(dtype).reshape(shape)


def random_request(seed):
    """(array, pad_width, mode, keywords) for numpy.pad, with padnd's per-axis modes too."""
    rng = rng_for("pad_file", seed)
    rank = int(rng.integers(1, 4))
    shape = tuple(int(n) for n in rng.integers(1, 6, size=rank))
    pad_width = tuple((int(b), int(e)) for b, e in rng.integers(0, 4, size=(rank, 2)))
    kind = seed % 4
    if kind == 0:  # an index mode, any dtype
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        return random_array(dtype, shape, rng), pad_width, INDEX_MODES[seed % 5], {}
    a = random_array(NUMBERS[int(rng.integers(len(NUMBERS)))], shape, rng)
    if kind == 1:  # a value mode
        mode = VALUE_MODES[seed % 5]
        keywords = ({"end_values": int(rng.integers(-9, 9))} if mode == "linear_ramp"
                    else {"stat_length": int(rng.integers(1, 4))})
        return a, pad_width, mode, keywords
    if kind == 2:  # per-side constants, or odd reflection
        if seed % 8 == 2:
            return a, pad_width, "constant", {"constant_values": ((1, 2),) * rank}
        return a, pad_width, "symmetric", {"reflect_type": "odd"}
    modes = tuple(INDEX_MODES[int(m)] for m in rng.integers(0, 5, size=rank))
    return a, pad_width, modes, {}  # padnd's one mode per axis


def numpy_result(a, pad_width, mode, keywords):
    if isinstance(mode, tuple):  # numpy.pad one axis at a time, axis 0 first
        for axis, m in enumerate(mode):
            widths = [(0, 0)] * a.ndim
            widths[axis] = pad_width[axis]
            a = np.pad(a, widths, m)
        return a
    return np.pad(a, pad_width, mode, **keywords)


@pytest.mark.parametrize("seed", range(48))
def test_random_requests_equal_numpy_pad(tmp_path, seed):
    a, pad_width, mode, keywords = random_request(seed)
    fortran = seed % 3 == 0 and a.ndim > 1
    src, dst = tmp_path / "in.npy", tmp_path / "out.npy"
    np.save(src, np.asfortranarray(a) if fortran else a)
    # A budget of a few hundred bytes: many windows, single rows and single elements; a
    # non-native input of a value mode is converted in memory, so it takes the input too.
    memory = int(rng_for("memory", seed).integers(16, 600)) + (0 if a.dtype.isnative else a.nbytes)
    padnd.pad_file(src, dst, pad_width, mode, memory=memory if seed % 2 else f"{memory}",
                   fsync=False, **keywords)
    out = np.load(dst)
    expected = padnd.pad(a, pad_width, mode, **keywords)
    assert out.dtype == a.dtype and out.flags.c_contiguous
    assert out.tobytes() == np.ascontiguousarray(expected).tobytes()  # padnd.pad's bits
    reference = numpy_result(a, pad_width, mode, keywords)
    if mode == "mean" and a.dtype.kind in "fc":  # numpy's summation order (conformance.md)
        np.testing.assert_allclose(out, reference, rtol=1e-6)
    else:
        assert out.tobytes() == reference.tobytes()
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]


def test_extensions_and_path_types(tmp_path):
    a = np.arange(30, dtype=np.int16).reshape(5, 6)
    np.save(tmp_path / "in.npy", a)
    padnd.pad_file(str(tmp_path / "in.npy"), tmp_path / "out.npy", ((-1, 2), (0, -3)), "edge",
                   negative="crop_then_pad", memory="1K")
    expected = padnd.pad(a, ((-1, 2), (0, -3)), "edge", negative="crop_then_pad")
    assert np.array_equal(np.load(tmp_path / "out.npy"), expected)
    padnd.pad_file(tmp_path / "in.npy", tmp_path / "out.npy", 1, interior=(1, 0),
                   constant_values=7, memory=100)
    assert np.array_equal(np.load(tmp_path / "out.npy"),
                          padnd.pad(a, 1, interior=(1, 0), constant_values=7))
    padnd.pad_file(os.fsencode(tmp_path / "in.npy"), os.fsencode(tmp_path / "b.npy"), 2)
    assert np.array_equal(np.load(tmp_path / "b.npy"), np.pad(a, 2))  # bytes, as np.load takes


def test_value_modes_beyond_the_budget_are_computed_in_the_output_file(tmp_path):
    a = np.random.default_rng(3).random((300, 200))
    np.save(tmp_path / "in.npy", a)
    padnd.pad_file(tmp_path / "in.npy", tmp_path / "out.npy", ((4, 5), (6, 7)), "median",
                   memory="64K", stat_length=9)  # the result: 0.5 MB
    assert np.array_equal(np.load(tmp_path / "out.npy"),
                          np.pad(a, ((4, 5), (6, 7)), "median", stat_length=9))


@pytest.mark.parametrize("memory, error, message", [
    ("lots", ValueError, "memory: expected a size such as 512M, 2G or 1048576 (bytes; K, M, G "
                         "and T are powers of 1024), got 'lots'"),
    (0, ValueError, "memory: the size must be at least 1 byte, got '0'"),
    (-4, ValueError, "memory: expected a size such as"),
    ("3Q", ValueError, "memory: unknown unit (expected K, M, G or T), got '3Q'"),
    (1.5, TypeError, "memory: expected None, an int (bytes) or a str such as '512M', got 1.5"),
    (True, TypeError, "memory: expected None, an int"),
    (4, ValueError, "memory: one element of '<f8' takes 8 bytes, but memory allows 4 bytes"),
])
def test_bad_memory_values_name_the_argument(tmp_path, memory, error, message):
    np.save(tmp_path / "in.npy", np.arange(3.0))
    (tmp_path / "out.npy").write_bytes(b"old")
    with pytest.raises(error) as info:
        padnd.pad_file(tmp_path / "in.npy", tmp_path / "out.npy", 1, memory=memory)
    assert message in str(info.value)
    assert (tmp_path / "out.npy").read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]


def test_errors_name_the_argument(tmp_path):
    np.save(tmp_path / "s.npy", np.array(["ab", "c"]))
    np.save(tmp_path / "x.npy", np.arange(4.0))
    with pytest.raises(FileNotFoundError, match="missing.npy"):
        padnd.pad_file(tmp_path / "missing.npy", tmp_path / "out.npy", 1)
    with pytest.raises(TypeError, match="mode: axis 0: mean computes values"):
        padnd.pad_file(tmp_path / "s.npy", tmp_path / "out.npy", 1, "mean")
    with pytest.raises(ValueError, match="unsupported keyword arguments for mode 'edge'"):
        padnd.pad_file(tmp_path / "x.npy", tmp_path / "out.npy", 1, "edge", stat_length=2)
    with pytest.raises(TypeError, match="progress: expected None, True or False"):
        padnd.pad_file(tmp_path / "x.npy", tmp_path / "out.npy", 1, progress="yes")
    with pytest.raises(TypeError, match="mode: pad_file takes numpy.pad's mode names"):
        padnd.pad_file(tmp_path / "x.npy", tmp_path / "out.npy", 1, lambda *args: None)
    with pytest.raises(OSError, match="cannot create a temporary file in"):
        padnd.pad_file(tmp_path / "x.npy", tmp_path / "no" / "out.npy", 1)
    (tmp_path / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00" + b"\x10\x00{'descr': '<f8'")
    with pytest.raises(ValueError, match="bad.npy: truncated file"):  # as np.load
        padnd.pad_file(tmp_path / "bad.npy", tmp_path / "out.npy", 1)
    assert sorted(os.listdir(tmp_path)) == ["bad.npy", "s.npy", "x.npy"]


class Interrupted(Exception):
    pass


def _interrupt_once_a_temporary_file_is_in(folder) -> threading.Thread:
    """A started thread that sends this process SIGUSR1 once a pad's temporary file appears in
    ``folder`` (within 10 s)."""
    def watch():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if any(n.startswith(".padnd-") for n in os.listdir(folder)):
                os.kill(os.getpid(), signal.SIGUSR1)
                return
            time.sleep(0.0005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    return watcher


def test_an_exception_from_a_signal_between_windows_leaves_no_file(tmp_path):
    # A Python signal handler runs between two windows (as Ctrl-C's KeyboardInterrupt does):
    # its exception ends the pad, and the temporary file goes with it.
    def handler(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        for rows in (256, 1024, 4096):
            np.save(tmp_path / "in.npy", np.zeros((rows, 8192), np.uint8))
            (tmp_path / "out.npy").write_bytes(b"old")

            watcher = _interrupt_once_a_temporary_file_is_in(tmp_path)
            finished = False
            try:
                padnd.pad_file(tmp_path / "in.npy", tmp_path / "out.npy", 1, memory="8K",
                               fsync=False)
                finished = True
            except Interrupted:
                pass
            try:  # a signal sent as the pad ended lands here
                watcher.join()
                time.sleep(0.05)
            except Interrupted:
                watcher.join()
            if not finished:
                break
        else:
            pytest.skip("the pads ended before a signal could be sent")
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]
    assert (tmp_path / "out.npy").read_bytes() == b"old"


def test_pads_from_several_threads_keep_their_own_temporary_files(tmp_path):
    # Each pad registers its own temporary file: one ending (renamed, or removed on an error)
    # leaves the others' alone.
    from concurrent.futures import ThreadPoolExecutor

    a = np.arange(200 * 300, dtype=np.int32).reshape(200, 300)
    np.save(tmp_path / "in.npy", a)

    def one(k):
        if k % 4 == 3:  # fails after planning, while the others write
            with pytest.raises(OSError):
                padnd.pad_file(tmp_path / "in.npy", tmp_path / "missing" / "out.npy", k)
            return
        padnd.pad_file(tmp_path / "in.npy", tmp_path / f"out{k}.npy", k, "wrap", memory="4K",
                       fsync=False)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(16)))
    for k in range(16):
        if k % 4 != 3:
            assert np.array_equal(np.load(tmp_path / f"out{k}.npy"), np.pad(a, k, "wrap"))
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


def test_a_value_mode_stopped_during_its_computation_leaves_the_target(tmp_path):
    # A value mode computes the whole output at once; a signal's exception raised meanwhile
    # (Ctrl-C's KeyboardInterrupt) is acted on before the output would replace the target.
    def handler(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        for rows in (512, 2048, 8192):
            np.save(tmp_path / "in.npy", np.zeros((rows, 4096), np.float32))
            (tmp_path / "out.npy").write_bytes(b"old")

            watcher = _interrupt_once_a_temporary_file_is_in(tmp_path)
            with pytest.raises(Interrupted):  # during the pad, or as it returns
                try:
                    padnd.pad_file(tmp_path / "in.npy", tmp_path / "out.npy", 2, "mean",
                                   fsync=False)
                finally:
                    watcher.join()
            if sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]:
                assert (tmp_path / "out.npy").read_bytes() == b"old"
                break
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert (tmp_path / "out.npy").read_bytes() == b"old"


@pytest.mark.parametrize("name", ["x.npy\0.bak", "\0"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_nul_in_a_path_is_refused_as_open_refuses_it(tmp_path, name, as_bytes):
    np.save(tmp_path / "in.npy", np.arange(4))
    with pytest.raises(ValueError, match="null byte") as opened:  # the oracle
        open(os.path.join(tmp_path, name), "wb")
    dst = os.path.join(tmp_path, name)
    with pytest.raises(type(opened.value), match=r"dst: .*null byte"):
        padnd.pad_file(tmp_path / "in.npy", os.fsencode(dst) if as_bytes else dst, 1)
    src = os.path.join(tmp_path, "in.npy\0")
    with pytest.raises(ValueError, match="null byte"):
        padnd.pad_file(os.fsencode(src) if as_bytes else src, tmp_path / "out.npy", 1)
    assert os.listdir(tmp_path) == ["in.npy"]


ENDED_BY_A_SIGNAL = """
import sys
import padnd
padnd.pad_file(sys.argv[1], sys.argv[2], ((0, 0), (0, 1 << 20)), progress=False, fsync=False)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_remove_the_temporary_file(tmp_path, signum):
    """The process ends by the signal, as its default action ends it, once the pad's
    temporary file is removed; the target is untouched (the CLI's behaviour)."""
    np.save(tmp_path / "in.npy", np.zeros((1024, 16), np.uint8))  # 1 GiB out: long enough
    (tmp_path / "out.npy").write_bytes(b"old")
    child = subprocess.Popen([sys.executable, "-c", ENDED_BY_A_SIGNAL, tmp_path / "in.npy",
                              tmp_path / "out.npy"], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not any(n.startswith(".padnd-") for n in os.listdir(tmp_path)):
        assert child.poll() is None and time.monotonic() < deadline, child.stderr.read()
        time.sleep(0.001)
    child.send_signal(signum)
    assert child.wait(timeout=60) == -signum, child.stderr.read()
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]
    assert (tmp_path / "out.npy").read_bytes() == b"old"
