#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Out-of-core padding with the padnd CLI against a plain sequential copy of the same bytes.

    python bench/out_of_core.py [--padnd build/padnd] [--size 4G] [--memory 1G] [--rounds 5]
                                [--dir DIR] [--fsync] [--window-sizes 4M,64M,...]

Makes a float32 .npy of --size bytes in --dir (kept between runs when it already has the
shape), then alternates, for --rounds rounds: (a) a plain copy, which reads the input with
8 MiB read()s and writes an output of the padded size with 8 MiB write()s (the input's bytes,
then the pad's bytes); (b) `padnd IN -o OUT --pads 8,8,8,8 --mode reflect --memory M
--no-fsync` (with --fsync: both sync their output before they end, padnd without --no-fsync).
Each run writes a new output, which is deleted and then `sync`ed away before the next run, so
that no run writes back another's pages. The input stays in the page cache (the machine has
the memory and dropping caches needs root): both sides read it from memory, which is the
harder comparison for padnd, whose own work is then not hidden behind a disk. While padnd
runs, /proc/PID/status is sampled every 5 ms for RssAnon (its anonymous memory: buffers and
heap; the mapped input is file memory) and wait4 gives its peak resident size (VmHWM, the
mapped input's pages included). Prints the medians, the ratio copy time / padnd time and the
peak anonymous memory against --memory; padnd's output is checked once against the copy's
layout (shape and a sample of rows against numpy.pad).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

PAD = 8  # elements on each side of both axes
COPY_CHUNK_BYTES = 8 << 20
SAMPLE_S = 0.005


def parse_size(text: str) -> int:
    match = re.fullmatch(r"(\d+)([KMGT]?)", text.upper())
    if not match:
        raise argparse.ArgumentTypeError(f"expected a size such as 512M or 4G, got {text!r}")
    return int(match[1]) << (10 * " KMGT".index(match[2] or " "))


def make_input(path: pathlib.Path, size_bytes: int) -> tuple[int, int]:
    """A float32 array of about size_bytes, 16384 columns, written in slabs; reused if there."""
    cols = 16384
    rows = size_bytes // (4 * cols)
    if path.exists():
        existing = np.load(path, mmap_mode="r")
        if existing.shape == (rows, cols) and existing.dtype == np.float32:
            return rows, cols
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(rows, cols))
    rng = np.random.default_rng(0)
    step = max(1, (256 << 20) // (4 * cols))
    for r in range(0, rows, step):
        out[r:r + step] = rng.random((min(step, rows - r), cols), dtype=np.float32)
    out.flush()
    del out
    return rows, cols


def plain_copy(src: pathlib.Path, dst: pathlib.Path, out_bytes: int, fsync: bool) -> None:
    """Reads src and writes out_bytes to dst with large read()s and write()s."""
    buffer = bytearray(COPY_CHUNK_BYTES)
    view = memoryview(buffer)
    written = 0
    with open(src, "rb", buffering=0) as fin, open(dst, "wb", buffering=0) as fout:
        while True:
            n = fin.readinto(buffer)
            if not n:
                break
            fout.write(view[:n])
            written += n
        while written < out_bytes:  # the pad's bytes: the padded output is this much larger
            n = min(COPY_CHUNK_BYTES, out_bytes - written)
            fout.write(view[:n])
            written += n
        if fsync:
            os.fsync(fout.fileno())


def rss_anon_bytes(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def run_padnd(cmd: list[str]) -> tuple[float, int, int]:
    """(seconds, peak sampled RssAnon, ru_maxrss) of one CLI run."""
    peak = [0]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    done = threading.Event()

    def sample():
        while not done.is_set():
            value = rss_anon_bytes(proc.pid)
            if value is not None:
                peak[0] = max(peak[0], value)
            time.sleep(SAMPLE_S)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"padnd failed with status {proc.returncode}: {' '.join(cmd)}")
    return elapsed, peak[0], usage.ru_maxrss * 1024


def check_output(src: pathlib.Path, out: pathlib.Path) -> None:
    """padnd's output against numpy.pad on its first and last rows and a middle slab: a padded
    row reads at most PAD + 1 input rows away, so slabs of input rows pad those rows alike."""
    a = np.load(src, mmap_mode="r")
    b = np.load(out, mmap_mode="r")
    assert b.shape == (a.shape[0] + 2 * PAD, a.shape[1] + 2 * PAD), b.shape
    rows = 2 * PAD + 1
    top = np.pad(a[:rows], PAD, "reflect")[:PAD + rows]
    bottom = np.pad(a[-rows:], PAD, "reflect")[-(PAD + rows):]
    middle = a.shape[0] // 2
    inner = np.pad(a[middle:middle + rows], ((0, 0), (PAD, PAD)), "reflect")
    assert np.array_equal(b[:PAD + rows], top), "the first rows differ from numpy.pad"
    assert np.array_equal(b[-(PAD + rows):], bottom), "the last rows differ from numpy.pad"
    assert np.array_equal(b[PAD + middle:PAD + middle + rows], inner), "middle rows differ"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--padnd", default="build/padnd")
    parser.add_argument("--size", type=parse_size, default=parse_size("4G"))
    parser.add_argument("--memory", default="1G")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dir", type=pathlib.Path, default=pathlib.Path("/tmp/padnd-ooc-bench"))
    parser.add_argument("--fsync", action="store_true", help="sync both outputs before the end")
    args = parser.parse_args()
    memory = parse_size(args.memory)
    args.dir.mkdir(parents=True, exist_ok=True)
    src = args.dir / "in.npy"
    rows, cols = make_input(src, args.size)
    in_bytes = src.stat().st_size
    header = in_bytes - rows * cols * 4
    out_bytes = header + (rows + 2 * PAD) * (cols + 2 * PAD) * 4
    out = args.dir / "out.npy"
    cmd = [args.padnd, str(src), "-o", str(out), f"--pads={PAD},{PAD},{PAD},{PAD}",
           "--mode=reflect", f"--memory={args.memory}", "--quiet"]
    if not args.fsync:
        cmd.append("--no-fsync")
    print(f"input  {src}: ({rows}, {cols}) float32, {in_bytes} bytes "
          f"({in_bytes / memory:.2f} x --memory {args.memory})")
    print(f"output {out_bytes} bytes; command: {' '.join(cmd)}")
    subprocess.run(["cat", str(src)], stdout=subprocess.DEVNULL, check=True)  # into the cache
    copies, pads, anon_peaks, hwms = [], [], [], []
    for rnd in range(args.rounds):
        for side in ("copy", "padnd") if rnd % 2 == 0 else ("padnd", "copy"):
            out.unlink(missing_ok=True)
            os.sync()
            if side == "copy":
                start = time.perf_counter()
                plain_copy(src, out, out_bytes, args.fsync)
                copies.append(time.perf_counter() - start)
            else:
                seconds, anon, hwm = run_padnd(cmd)
                pads.append(seconds)
                anon_peaks.append(anon)
                hwms.append(hwm)
                if rnd == 0:
                    check_output(src, out)
            print(f"round {rnd}: {side:5s} {(copies if side == 'copy' else pads)[-1]:.2f} s",
                  flush=True)
    out.unlink(missing_ok=True)
    copy_s, pad_s = statistics.median(copies), statistics.median(pads)
    print(f"\nmedian plain copy   {copy_s:.2f} s ({out_bytes / copy_s / 1e9:.2f} GB/s written)")
    print(f"median padnd        {pad_s:.2f} s ({out_bytes / pad_s / 1e9:.2f} GB/s written)")
    print(f"padnd speed / copy speed: {copy_s / pad_s:.2f}")
    print(f"peak RssAnon (5 ms samples): max {max(anon_peaks) / 2**20:.1f} MiB over "
          f"{len(anon_peaks)} runs; --memory {memory / 2**20:.0f} MiB; "
          f"limit --memory + 64 MiB = {(memory + (64 << 20)) / 2**20:.0f} MiB")
    print(f"peak resident size (VmHWM, mapped input pages included): "
          f"max {max(hwms) / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
