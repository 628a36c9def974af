#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""padnd.pad against numpy, torch, cv2, onnxruntime and openvino on bench/workloads.py.

    python bench/compare.py [--quick] [--check-only] [--repetitions N] [--filter REGEX]
                            [--peers a,b,...] [--markdown OUT.md] [--plot OUT.png]
                            [--json OUT.json] [--torch]

Every library's output is compared with padnd's, bit for bit; a mismatch is printed and the
script exits with status 1. Times are medians of per-call times, every repetition timing each
library once in rotated order; GB/s counts bytes read + bytes written. The libraries allocate
their output (see bench/peers.py for how each is called), except "padnd out=" (padnd.pad into
a preallocated array) and openvino (its infer request's own output buffer, reused), which are
compared with each other. The bound of a large workload is an all-core copy of the input into a
fresh numpy.empty buffer of the output's size, the rest of it filled (the pad's own bytes and
page faults; numpy advises huge pages for it), timed in the same rotation: numpy.copyto on one
contiguous part per core, in threads (copyto releases the GIL).
Medium and tiny workloads live in cache, where a threaded copy measures thread wake-ups, so
they get no bound. --quick runs the medium and tiny workloads with few repetitions; --check-only only
checks the outputs (no timing claims), as the tests do.
--json writes every repetition's per-call time of every library, the bound's, and each n/a
reason, for bench/plot.py. With --json a large workload also gets a second bound timed in the
same rotation, for the preallocated variants: the same copy into an output-sized buffer that
exists and was written before (no page faults), as "padnd out=" and openvino write.
--torch adds a table of padnd.torch.pad against F.pad on torch tensors (forward, and forward
with backward for float data) on every workload F.pad can express, timed in the same process.
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import pathlib
import re
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from peers import PEERS, PREALLOCATED, NotExpressible  # noqa: E402
from workloads import WORKLOADS, out_shape  # noqa: E402

MEDIUM_SPEEDUP_TARGET = 3.0
TINY_PADND_TARGET_S = 2e-6


class Workload(NamedTuple):
    name: str
    size: str
    dtype: str
    shape: tuple
    pads: list
    mode: str
    interior: list | None


class Result(NamedTuple):
    seconds: float | None  # median per call; None: not timed
    note: str  # "reference" (padnd), "bit-exact" (same bytes as padnd's), "n/a: why", "MISMATCH"
    samples: tuple = ()  # per-call seconds of every repetition, in repetition order


def make_input(w: Workload, rng: np.random.Generator) -> np.ndarray:
    if w.dtype == "uint8":
        return rng.integers(0, 256, w.shape, dtype=np.uint8)
    wide = np.float64 if w.dtype == "float64" else np.float32
    return rng.random(w.shape, dtype=wide).astype(w.dtype, copy=False)


def read_write_bytes(w: Workload) -> tuple[int, int]:
    """Bytes read (the input left after crops) and bytes written."""
    itemsize = np.dtype(w.dtype).itemsize
    read = 1
    for d, (b, e) in zip(w.shape, w.pads):
        read *= max(0, d - max(0, -b) - max(0, -e))
    return itemsize * read, itemsize * int(np.prod(out_shape(w.shape, w.pads, w.interior)))


def traffic_bytes(w: Workload) -> int:
    """Bytes read + bytes written."""
    return sum(read_write_bytes(w))


def same_bits(a, b: np.ndarray) -> bool:
    a = np.asarray(a)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    flat = lambda v: np.ascontiguousarray(v).reshape(-1).view(np.uint8)  # noqa: E731
    return np.array_equal(flat(a), flat(b))


def calls_per_sample(fn, min_sample_s: float) -> int:
    """Calls per timing sample so that a sample lasts at least min_sample_s (after a warm-up)."""
    fn()  # warm-up: first-touch page faults, lazy initialisation
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_sample_s or calls >= 1 << 20:
            return calls
        calls *= min(100, max(2, int(min_sample_s / max(elapsed, 1e-9)) + 1))


def interleaved_samples(fns: dict, repetitions: int, min_sample_s: float) -> dict:
    """Per-call seconds of each function, one per repetition. Every repetition times every
    function once, in a rotated order, so that a slow spell on the shared machine spreads over
    all of them."""
    calls = {name: calls_per_sample(fn, min_sample_s) for name, fn in fns.items()}
    names = list(fns)
    samples = {name: [] for name in names}
    for rep in range(repetitions):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            start = time.perf_counter()
            for _ in range(calls[name]):
                fns[name]()
            samples[name].append((time.perf_counter() - start) / calls[name])
    return samples


class CopyBound:
    """All-core copy: numpy.copyto of one contiguous part per core, one thread each."""

    def __init__(self, threads: int):
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads)

    def _copy_into(self, dst: np.ndarray, src: np.ndarray) -> None:
        """Copies `src` to the start of `dst` and zero-fills the rest, one share per thread."""
        copied, written = src.size, dst.size

        def part(t: int) -> None:  # thread t's share of the copy and the fill
            c0, c1 = copied * t // self.threads, copied * (t + 1) // self.threads
            rest = written - copied
            f0 = copied + rest * t // self.threads
            f1 = copied + rest * (t + 1) // self.threads
            np.copyto(dst[c0:c1], src[c0:c1])
            np.copyto(dst[f0:f1], 0)

        for done in [self.pool.submit(part, t) for t in range(self.threads)]:
            done.result()

    def fresh_copy(self, read: int, written: int):
        """A function that copies `read` bytes into a fresh numpy.empty buffer of `written`
        bytes and fills the rest: the pad's own traffic and page faults (a copy of half the
        traffic would fault only half of interior_f32's output, 4 times its input)."""
        src = np.ones(min(read, written), np.uint8)
        return lambda: self._copy_into(np.empty(written, np.uint8), src)

    def written_copy(self, read: int, written: int):
        """The same copy and fill into one output-sized buffer allocated and written once, as
        a preallocated output is (no page faults): the bound of "padnd out=" and openvino."""
        src = np.ones(min(read, written), np.uint8)
        dst = np.zeros(written, np.uint8)
        return lambda: self._copy_into(dst, src)


BOUND = "memcpy bound"
BOUND_WRITTEN = "memcpy bound (written buffer)"


def run_workload(w: Workload, libraries, bound: CopyBound | None, repetitions: int,
                 min_sample_s: float, written_bound: bool = False):
    """{library: Result}, the bound's median seconds (None without a bound), and the per-call
    samples of the bounds ({} without a bound; with written_bound also the written-buffer
    bound's)."""
    x = make_input(w, np.random.default_rng(0))
    reference = PEERS["padnd"](x, w)()
    results, fns = {}, {}
    for lib in libraries:
        try:
            importlib.import_module(re.split(r"[ +]", lib)[0])
        except ImportError:
            results[lib] = Result(None, "n/a: not installed (pip install -r bench/requirements.txt)")
            continue
        try:
            fn = PEERS[lib](x, w)
            output = fn()
        except NotExpressible as e:
            results[lib] = Result(None, f"n/a: {e}")
            continue
        except Exception as e:  # noqa: BLE001 - the library rejects the request: report why
            message = str(e).strip().splitlines()[-1]
            results[lib] = Result(None, f"n/a: rejects: {'…' * (len(message) > 90)}{message[-90:]}")
            continue
        if lib == "padnd":
            note = "reference"  # every other library's output is compared with this one
        elif same_bits(output, reference):
            note = "bit-exact"
        else:
            results[lib] = Result(None, "MISMATCH: output differs from padnd's")
            continue
        del output
        results[lib] = Result(None, note)
        fns[lib] = fn
    if repetitions == 0:
        return results, None, {}
    if bound is not None:
        fns[BOUND] = bound.fresh_copy(*read_write_bytes(w))
        if written_bound:
            fns[BOUND_WRITTEN] = bound.written_copy(*read_write_bytes(w))
    samples = interleaved_samples(fns, repetitions, min_sample_s)
    for lib in results:
        if lib in samples:
            results[lib] = results[lib]._replace(seconds=statistics.median(samples[lib]),
                                                 samples=tuple(samples[lib]))
    bound_samples = {name: samples[name] for name in (BOUND, BOUND_WRITTEN) if name in samples}
    median_bound = statistics.median(samples[BOUND]) if BOUND in samples else None
    return results, median_bound, bound_samples


_FPAD_MODES = {"constant": "constant", "edge": "replicate", "reflect": "reflect",
               "wrap": "circular"}


def fpad_request(w: Workload):
    """(flat pads, last axis first; F.pad's mode) of a workload F.pad can express, or None:
    no interior; non-constant modes pad at most the last 3 axes, without crops."""
    padded = [k for k, (b, e) in enumerate(w.pads) if b or e]
    first = padded[0] if padded else len(w.shape)
    flat = [p for pair in reversed(w.pads[first:]) for p in pair]
    if w.interior or w.mode not in _FPAD_MODES:
        return None
    if w.mode != "constant" and (len(w.shape) - first > 3 or min(flat) < 0):
        return None
    return flat, _FPAD_MODES[w.mode]


def torch_rows(w: Workload, repetitions: int, min_sample_s: float) -> dict:
    """{row: Result} of padnd.torch.pad against F.pad on torch tensors: the forward, and for
    float data the forward with its backward; outputs (and gradients) checked first."""
    import padnd.torch as padnd_torch
    import torch
    import torch.nn.functional as F

    flat, mode = fpad_request(w)
    tensor = torch.from_numpy(make_input(w, np.random.default_rng(0)))
    if mode != "constant":  # F.pad's non-constant modes need a batch axis in front
        tensor = tensor.reshape(-1, *tensor.shape[len(tensor.shape) - len(flat) // 2:])
    forward = {"padnd.torch.pad": lambda: padnd_torch.pad(tensor, flat, mode),
               "F.pad": lambda: F.pad(tensor, flat, mode)}
    try:
        expected = forward["F.pad"]()
    except RuntimeError as error:  # e.g. a reflect pad as wide as the axis
        return {"padnd.torch.pad": Result(None, f"n/a: F.pad rejects: {str(error)[:60]}…")}
    if not torch.equal(forward["padnd.torch.pad"](), expected):
        return {"padnd.torch.pad": Result(None, "MISMATCH: output differs from F.pad's")}
    fns = dict(forward)
    if tensor.dtype.is_floating_point:
        leaf = tensor.clone().requires_grad_()
        grad = torch.ones_like(expected)
        for name, pad in (("padnd.torch.pad fwd+bwd", padnd_torch.pad), ("F.pad fwd+bwd", F.pad)):
            fns[name] = lambda pad=pad: torch.autograd.grad(pad(leaf, flat, mode), leaf, grad)
        if not torch.allclose(fns["padnd.torch.pad fwd+bwd"]()[0], fns["F.pad fwd+bwd"]()[0]):
            return {"padnd.torch.pad fwd+bwd": Result(None, "MISMATCH: gradient differs")}
    samples = interleaved_samples(fns, repetitions, min_sample_s)
    return {name: Result(statistics.median(times), "", tuple(times))
            for name, times in samples.items()}


def torch_table(workloads, rows: dict) -> str:
    lines = ["| workload | padnd.torch.pad | F.pad | speed-up | padnd.torch fwd+bwd | "
             "F.pad fwd+bwd | speed-up |", "|---|---:|---:|---:|---:|---:|---:|"]
    for w in workloads:
        if w.name not in rows:
            continue
        cells = []
        for ours, theirs in (("padnd.torch.pad", "F.pad"),
                             ("padnd.torch.pad fwd+bwd", "F.pad fwd+bwd")):
            mine, peer = rows[w.name].get(ours), rows[w.name].get(theirs)
            if mine is None or mine.seconds is None or peer is None:
                cells += [mine.note if mine else "—", "—", "—"]
                continue
            cells += [fmt_time(mine.seconds), fmt_time(peer.seconds),
                      f"{peer.seconds / mine.seconds:.2f}×"]
        lines.append(f"| {w.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def best_peer(results, preallocated: bool):
    timed = [(r.seconds, lib) for lib, r in results.items()
             if not lib.startswith("padnd") and r.seconds and (lib in PREALLOCATED) == preallocated]
    return min(timed) if timed else (None, None)


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def tables(workloads, all_results, bounds) -> str:
    rows = ["| workload | library | median | GB/s | % of bound | note |",
            "|---|---|---:|---:|---:|---|"]
    summary = ["| workload | padnd | GB/s | % of bound | fastest allocating peer | its median | "
               "speed-up | target | padnd out= | openvino (own buffer) | speed-up |",
               "|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|"]
    for w in workloads:
        results, bound, traffic = all_results[w.name], bounds.get(w.name), traffic_bytes(w)
        for lib, r in results.items():
            gbps = traffic / r.seconds / 1e9 if r.seconds else None
            rows.append(f"| {w.name} | {lib} | {fmt_time(r.seconds) if r.seconds else '—'} | "
                        f"{f'{gbps:.2f}' if gbps else '—'} | "
                        f"{f'{100 * bound / r.seconds:.0f} %' if gbps and bound else '—'} | "
                        f"{r.note} |")
        mine = results["padnd"].seconds
        if not mine:
            continue
        peer_s, peer = best_peer(results, preallocated=False)
        speedup = peer_s / mine if peer_s else None
        target = {"large": (speedup or 0) > 1.0 if peer else None,
                  "medium": (speedup or 0) >= MEDIUM_SPEEDUP_TARGET if peer else None,
                  "tiny": mine <= TINY_PADND_TARGET_S if w.name == "tiny_const" else None}[w.size]
        goal = {"large": "faster than peers", "medium": f"≥ {MEDIUM_SPEEDUP_TARGET:g}× peers",
                "tiny": f"≤ {TINY_PADND_TARGET_S * 1e6:g} µs"}[w.size]
        mine_out = results.get("padnd out=", Result(None, "")).seconds
        ov_s, _ = best_peer(results, preallocated=True)
        summary.append(
            f"| {w.name} | {fmt_time(mine)} | {traffic / mine / 1e9:.2f} | "
            f"{f'{100 * bound / mine:.0f} %' if bound else '—'} | {peer or '—'} | "
            f"{fmt_time(peer_s) if peer_s else '—'} | {f'{speedup:.2f}×' if speedup else '—'} | "
            f"{'' if target is None else ('met' if target else 'MISSED')} ({goal}) | "
            f"{fmt_time(mine_out) if mine_out else '—'} | {fmt_time(ov_s) if ov_s else '—'} | "
            f"{f'{ov_s / mine_out:.2f}×' if ov_s and mine_out else '—'} |")
    return "\n".join(rows) + ("\n\n" + "\n".join(summary) if len(summary) > 2 else "")


def plot(path: str, workloads, all_results) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    libs = list(next(iter(all_results.values())))
    fig, ax = plt.subplots(figsize=(16, 6))
    width = 0.8 / len(libs)
    for i, lib in enumerate(libs):
        xs, ys = [], []
        for k, w in enumerate(workloads):
            r = all_results[w.name][lib]
            if r.seconds:
                xs.append(k + i * width)
                ys.append(traffic_bytes(w) / r.seconds / 1e9)
        ax.bar(xs, ys, width, label=lib)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(workloads))])
    ax.set_xticklabels([w.name for w in workloads], rotation=35, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("GB/s (bytes read + written), log scale")
    ax.set_title("padnd.pad and peers, median per workload (missing bar: n/a)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def library_version(lib: str) -> str | None:
    try:
        return str(importlib.import_module(re.split(r"[ +]", lib)[0]).__version__)
    except (ImportError, AttributeError):
        return None


def cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_json(path: str, meta: dict, workloads, all_results, bound_samples) -> None:
    """Every repetition's per-call seconds of every library and bound (bench/plot.py reads it)."""
    entries = []
    for w in workloads:
        read, written = read_write_bytes(w)
        bounds = bound_samples.get(w.name) or {}
        entries.append({
            "name": w.name, "size": w.size, "dtype": w.dtype, "shape": list(w.shape),
            "pads": [list(p) for p in w.pads], "mode": w.mode, "interior": w.interior,
            "bytes_read": read, "bytes_written": written, "traffic_bytes": read + written,
            # None: no bound (medium and tiny workloads live in cache)
            "bound_seconds": {"allocating": bounds.get(BOUND),
                              "preallocated": bounds.get(BOUND_WRITTEN)},
            "libraries": {lib: {"preallocated": lib in PREALLOCATED, "note": r.note,
                                "median_seconds": r.seconds, "seconds": list(r.samples)}
                          for lib, r in all_results[w.name].items()},
        })
    pathlib.Path(path).write_text(json.dumps({**meta, "workloads": entries}, indent=1) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="medium and tiny workloads, 3 repetitions")
    ap.add_argument("--check-only", action="store_true", help="check outputs, time nothing")
    ap.add_argument("--repetitions", type=int, default=None)
    ap.add_argument("--filter", default="", help="regex on workload names")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated libraries")
    ap.add_argument("--markdown")
    ap.add_argument("--plot")
    ap.add_argument("--json", help="every repetition's times, the bounds and n/a reasons")
    ap.add_argument("--torch", action="store_true",
                    help="also padnd.torch.pad against F.pad on torch tensors, forward and "
                         "forward+backward, on the workloads F.pad can express")
    args = ap.parse_args()
    libraries = ["padnd", "padnd cold", "padnd out="] + [p for p in args.peers.split(",")
                                           if p and not p.startswith("padnd")]
    unknown = set(libraries) - set(PEERS)
    if unknown:
        ap.error(f"unknown peers: {sorted(unknown)}")
    repetitions = args.repetitions or (3 if args.quick else 7)
    min_sample_s = 0.005 if args.quick else 0.05
    workloads = [Workload(*w) for w in WORKLOADS
                 if re.search(args.filter, w[0]) and (not args.quick or w[1] != "large")]
    bound = CopyBound(os.cpu_count() or 1)
    started = datetime.datetime.now(datetime.timezone.utc)
    all_results, bounds, bound_samples = {}, {}, {}
    for w in workloads:
        all_results[w.name], bounds[w.name], bound_samples[w.name] = run_workload(
            w, libraries, bound if w.size == "large" else None,
            0 if args.check_only else repetitions, min_sample_s, written_bound=bool(args.json))
        print(f"{w.name}: " + ", ".join(f"{lib} {fmt_time(r.seconds) if r.seconds else r.note}"
                                        for lib, r in all_results[w.name].items()),
              file=sys.stderr)
    heading = ("every library's output against padnd.pad's, bit for bit (no timing)"
               if args.check_only else
               f"padnd.pad vs peers on {os.cpu_count()} CPUs, medians of {repetitions} "
               f"repetitions; bound: all-core copy of the input into a fresh output-sized "
               f"buffer, the rest filled ({bound.threads} threads)")
    text = heading + "\n\n" + tables(workloads, all_results, bounds)
    torch_results = {}
    if args.torch and not args.check_only:
        torch_results = {w.name: torch_rows(w, repetitions, min_sample_s) for w in workloads
                         if fpad_request(w) is not None}
        text += ("\n\npadnd.torch.pad against torch.nn.functional.pad on CPU tensors, medians "
                 f"of {repetitions} repetitions (fwd+bwd: forward, then torch.autograd.grad "
                 "with a ones gradient); speed-up = F.pad's time / padnd's\n\n"
                 + torch_table(workloads, torch_results))
    print(text)
    if args.markdown:
        pathlib.Path(args.markdown).write_text(text + "\n")
    if args.plot and not args.check_only:
        plot(args.plot, workloads, all_results)
    if args.json:
        meta = {
            "command": " ".join(["bench/compare.py"] + sys.argv[1:]),
            "started_utc": started.isoformat(timespec="seconds"),
            "finished_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "repetitions": 0 if args.check_only else repetitions, "min_sample_s": min_sample_s,
            "bound_threads": bound.threads,
            "machine": {"cpus": os.cpu_count(), "cpu_model": cpu_model(),
                        "platform": platform.platform(), "python": platform.python_version()},
            "versions": {lib: library_version(lib) for lib in ["numpy"] + libraries
                         if lib != "padnd out="},
            "bounds": {"allocating": "all-core copy of the input into a fresh numpy.empty "
                                     "buffer of the output's size, the rest filled",
                       "preallocated": "the same copy and fill into an output-sized buffer "
                                       "allocated and written before"},
        }
        write_json(args.json, meta, workloads, all_results, bound_samples)
    mismatches = [(w, lib) for results in (all_results, torch_results)
                  for w, res in results.items() for lib, r in res.items()
                  if r.note.startswith("MISMATCH")]
    for w, lib in mismatches:
        print(f"MISMATCH: {lib} on {w} differs from padnd", file=sys.stderr)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
