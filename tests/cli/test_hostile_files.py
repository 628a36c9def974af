# SPDX-License-Identifier: Apache-2.0
# Generated malformed .npy files through the CLI (issue 15's hostile-input suite): truncations at
# every part, lying lengths, huge, negative and overflowing shapes, bad dtypes, deep nesting,
# huge headers and special files. Each run is bounded: a hang guard, its own peak memory
# (wait4's maxrss) under 100 MB, and afterwards no output and no temporary file. numpy's own
# reader is the oracle for what is valid: a file np.load rejects must be rejected with a
# message, and one it accepts must pad as numpy.pad does.
import io
import os
import subprocess
import sys

import numpy as np
import pytest

MAX_RSS_BYTES = 100 << 20  # issue 15: under 100 MB beyond the work the output needs (none here)
HANG_GUARD_S = 10  # a hang check, not a timing: these cases take milliseconds


def npy_bytes(array, version=(1, 0)):
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, version=version)
    return buffer.getvalue()


def with_header(header: bytes, data=b"", major=1, length=None) -> bytes:
    """A file with `header` used as given; `length` overrides the header length field."""
    prefix = 10 if major == 1 else 12
    header = header + b" " * (-(prefix + len(header) + 1) % 64) + b"\n"
    size = len(header) if length is None else length
    return b"\x93NUMPY" + bytes([major, 0]) + size.to_bytes(2 if major == 1 else 4, "little") + \
        header + data


def header(descr="'<f4'", shape="(2,)", fortran="False") -> bytes:
    return f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}".encode()


def truncations():
    whole = npy_bytes(np.arange(6, dtype="<i4").reshape(2, 3))
    cuts = [0, 3, 6, 7, 8, 9, 10, 20, 60, len(whole) - 24, len(whole) - 1]
    return {f"truncated_at_{n}": whole[:n] for n in cuts}


def lying_lengths():
    data = np.zeros(2, "<f4").tobytes()
    return {
        "header_length_beyond_file": with_header(header(), data, length=60000),
        "header_length_too_short": with_header(header(), data, length=20),
        "header_length_zero": with_header(header(), data, length=0),
        "v2_header_length_4_gib": with_header(header(), data, major=2, length=2**32 - 1),
        "data_shorter_than_shape": with_header(header(shape="(1000,)"), data),
        "bad_magic": b"\x93NUMPX" + with_header(header(), data)[6:],
        "version_9": b"\x93NUMPY\x09\x00" + with_header(header(), data)[8:],
    }


def bad_shapes():
    shapes = ["(2**62, 2**62)", "(9223372036854775807, 2)", "(-1,)", "(2, -3)", "('a',)",
              "(2.0,)", "(True,)", "((2,),)", "[2]", "(2,) * 3", "(" + "1, " * 100 + ")",
              "(4611686018427387904,)", "(18446744073709551616,)", "None", "(0, 2**63)"]
    return {f"shape_{i}": with_header(header(shape=s), b"\0" * 8) for i, s in enumerate(shapes)}


def bad_dtypes():
    descrs = ["'<f3'", "'|V0'", "'|O'", "'<M8[xyz]'", "'abc'", "''", "[('a', '<i4')]", "7",
              "'<U-1'", "'|S99999999999999999999'", "'<c4'", "None", "'<i4' 'x'", "'\\x00'"]
    return {f"descr_{i}": with_header(header(descr=d), b"\0" * 64) for i, d in enumerate(descrs)}


def bad_syntax():
    return {
        "nested_lists": with_header(b"{'descr': '<f4', 'shape': " + b"[" * 5000 + b"]}"),
        "nested_dicts": with_header(b"{'a': " * 3000 + b"1" + b"}" * 3000),
        "duplicate_key": with_header(b"{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, "
                                     b"'shape': (1,), }", b"\0" * 8),
        "missing_key": with_header(b"{'descr': '<f4', 'shape': (1,), }", b"\0" * 4),
        "extra_key": with_header(header()[:-1] + b"'x': 1, }", b"\0" * 8),
        "fortran_not_bool": with_header(header(fortran="1"), b"\0" * 8),
        "not_a_dict": with_header(b"('<f4', False, (2,))", b"\0" * 8),
        "nul_in_header": with_header(b"{'descr': '<f4\x00', 'fortran_order': False, "
                                     b"'shape': (2,), }", b"\0" * 8),
        "huge_header": with_header(b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
                                   b"'pad': '" + b"x" * 200000 + b"'}", major=2),
        "unterminated_string": with_header(b"{'descr': '<f4", b"\0" * 8),
        "control_characters": with_header(b"{'descr': '\x1b[31m', 'fortran_order': False, "
                                          b"'shape': (2,), }", b"\0" * 8),
    }


CASES = {**truncations(), **lying_lengths(), **bad_shapes(), **bad_dtypes(), **bad_syntax()}


# Runs the CLI from a small Python of its own: a child's maxrss includes the image it was
# exec'ed from (Linux keeps the larger), so the CLI must not be spawned by pytest itself, whose
# resident memory may be gigabytes by now. argv: the pipe to report on, then the command.
_SPAWN = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
os.write(int(sys.argv[1]), str(usage.ru_maxrss * 1024).encode())  # Linux reports KiB
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_bounded(exe, args, cwd):
    """(exit status, stderr, peak resident bytes) of one CLI run, with a hang guard."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.run([sys.executable, "-S", "-c", _SPAWN, str(write_end), exe, *args],
                              cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=HANG_GUARD_S, pass_fds=(write_end,))
        os.close(write_end)
        peak = int(os.read(read_end, 64) or b"0")
    except subprocess.TimeoutExpired:
        pytest.fail(f"padnd {' '.join(args)} still ran after {HANG_GUARD_S} s")
    finally:
        os.close(read_end)
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), peak


# Files numpy reads and padnd refuses on purpose, with a message (docs/fuzzing.md, "Hostile
# files"): zero-size items, numpy's one-character aliases spelled with control characters,
# structured dtypes, and a header that repeats a key (numpy keeps the last value).
STRICTER_THAN_NUMPY = {"descr_1", "descr_13", "descr_6", "duplicate_key"}


def numpy_verdict(data: bytes, command: str):
    """numpy.pad's result of constant-padding the file by one on each side (for explain, which
    reads no data: an empty array of the header's dtype and rank), or the exception numpy's
    reader raises."""
    stream = io.BytesIO(data)
    try:
        if command == "explain":
            version = np.lib.format.read_magic(stream)
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}[version]
            shape, _, dtype = read_header(stream)
            if dtype.hasobject:
                return TypeError("object")
            try:
                np.empty(shape, dtype)  # the shape rules np.load applies after the header
            except MemoryError:
                pass  # valid, only too big for this machine: explain reads no data
            return np.zeros((0,) * len(shape), dtype)
        array = np.load(stream, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - any rejection: the CLI must reject too
        return e
    return np.pad(array, 1) if array.dtype != object else TypeError("object")


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("command", ["pad", "explain"])
def test_hostile_file_is_answered_within_bounds(exe, tmp_path, name, command):
    data = CASES[name]
    (tmp_path / "in.npy").write_bytes(data)
    verdict = numpy_verdict(data, command)
    if name in STRICTER_THAN_NUMPY:
        assert isinstance(verdict, np.ndarray), "numpy rejects it now: move it out of the list"
        verdict = ValueError("refused by padnd's reader")
    rank = verdict.ndim if isinstance(verdict, np.ndarray) else 1
    pads = "--pads=" + ",".join(["1"] * 2 * rank)
    args = (["in.npy", "-o", "out.npy", "--spec=numpy", pads] if command == "pad"
            else ["explain", "in.npy", "--spec=numpy", pads])
    status, err, peak = run_bounded(exe, args, tmp_path)
    assert status >= 0, f"killed by signal {-status}: {err}"
    assert peak < MAX_RSS_BYTES, f"peak resident memory {peak} bytes"
    if isinstance(verdict, np.ndarray):
        assert status == 0, err
        if command == "pad":
            got = np.load(tmp_path / "out.npy")
            assert got.dtype == verdict.dtype and got.tobytes() == verdict.tobytes()
        return
    assert status == 1, (status, err)
    assert err.startswith("padnd: error: ") and err.count("\n") == 1, err
    assert "\x00" not in err and "\x1b" not in err, err  # quoted header text is escaped
    assert sorted(os.listdir(tmp_path)) == ["in.npy"]  # no output, no temporary file


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/dev/urandom", "."])
def test_special_input_files_are_rejected_within_bounds(exe, tmp_path, path):
    status, err, peak = run_bounded(exe, [path, "-o", "out.npy", "--pads=1,1"], tmp_path)
    assert status == 1, (status, err)
    assert err.startswith("padnd: error: "), err
    assert peak < MAX_RSS_BYTES, f"peak resident memory {peak} bytes"
    assert os.listdir(tmp_path) == []
