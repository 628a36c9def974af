#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Allocating padnd.pad next to other libraries in one process: default threads, threads=1, numpy.

    python bench/neighbours.py [--filter REGEX] [--repetitions N]
                               [--phases alone,after,side,cold] [--cold-gib G]

Times the large workloads of bench/workloads.py allocating their output (padnd.pad with the
default threads, padnd.pad with threads=1, numpy.pad), each repetition timing each once in a
rotated order, in phases that run in this order in one process:
  alone  nothing else has run (numpy's own threads aside);
  after  an ONNX Runtime session (CPU provider, 2 intra-op threads) and an OpenVINO compiled
         model, each one Pad node, have run the workload's pad (a mode they have if they lack
         its own), and the timing starts 2 s later;
  side   the two run their pad in the rotation too, right before padnd (as bench/compare.py
         times them side by side);
  cold   before each workload, G GiB are written and freed and the process idles for 5 s: a
         VM with free page reporting (virtio-balloon) hands that memory back to its host, and
         the next page faults each cost a host fault, as on a just-started machine (no warm-up
         call: the first repetitions take those faults).
Prints medians, padnd's ratio to threads=1 and to numpy.pad, and for padnd's default calls the
runqueue wait of the process's threads per call (time runnable but not running, from
/proc/self/task/*/schedstat: threads stacked on one core wait about as long as they run),
the kernel time per call (page faults of the fresh output), and the CPUs the calling thread
may use. Without onnxruntime and openvino the after and side phases are left out.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import resource
import statistics
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from workloads import WORKLOADS  # noqa: E402

import padnd  # noqa: E402

DEFAULT_FILTER = "edge_3d|reflect_img|wrap_2d|symmetric_2d|crop_mix"
PAUSE_S = 2.0
COLD_IDLE_S = 5.0


def make_memory_cold(gib: float) -> None:
    """Writes and frees `gib` GiB, then idles: see the cold phase."""
    block = np.empty(int(gib * (1 << 30)), np.uint8)
    block.fill(1)
    del block
    time.sleep(COLD_IDLE_S)


def schedstat_ns() -> tuple[int, int]:
    """(run, runqueue wait) nanoseconds summed over the process's threads."""
    run = wait = 0
    for tid in os.listdir("/proc/self/task"):
        try:
            fields = pathlib.Path(f"/proc/self/task/{tid}/schedstat").read_text().split()
        except OSError:  # the thread has exited
            continue
        run, wait = run + int(fields[0]), wait + int(fields[1])
    return run, wait


class Probe:
    """Accumulates wall time, runqueue wait and kernel time of the calls it wraps."""

    def __init__(self):
        self.seconds, self.wait_ns, self.sys_s = [], 0, 0.0

    def wrap(self, fn):
        def timed():
            usage, (_, wait) = resource.getrusage(resource.RUSAGE_SELF), schedstat_ns()
            start = time.perf_counter()
            fn()
            self.seconds.append(time.perf_counter() - start)
            self.wait_ns += schedstat_ns()[1] - wait
            self.sys_s += resource.getrusage(resource.RUSAGE_SELF).ru_stime - usage.ru_stime
        return timed


def crop_view(x, pads):
    """numpy.pad's arguments for `pads` with crops: a sliced view and non-negative pads."""
    slices = tuple(slice(max(0, -b), d - max(0, -e)) for d, (b, e) in zip(x.shape, pads))
    return x[slices], [(max(0, b), max(0, e)) for b, e in pads]


def onnxruntime_pad(x, pads, mode):
    """A one-node Pad model in an ONNX Runtime session with 2 intra-op threads, or None."""
    try:
        import onnxruntime as ort
        from onnx import helper, numpy_helper
    except ImportError:
        return None
    mode = {"symmetric": "reflect"}.get(mode, mode)
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    widths = np.array([b for b, _ in pads] + [e for _, e in pads], np.int64)
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)], "pad",
        [helper.make_tensor_value_info("x", elem, list(x.shape))],
        [helper.make_tensor_value_info("y", elem, None)],
        [numpy_helper.from_array(widths, "pads")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return lambda: session.run(None, {"x": x})[0]


def openvino_pad(x, pads, mode):
    """A compiled one-node Pad-12 model on OpenVINO's CPU plugin, or None."""
    try:
        import openvino as ov
        import openvino.opset12 as ops
    except ImportError:
        return None
    mode = {"wrap": "reflect"}.get(mode, mode)
    param = ops.parameter(list(x.shape), x.dtype)
    begins = ops.constant(np.array([b for b, _ in pads], np.int64))
    ends = ops.constant(np.array([e for _, e in pads], np.int64))
    model = ov.Model([ops.pad(param, begins, ends, mode)], [param])
    request = ov.Core().compile_model(model, "CPU").create_infer_request()
    return lambda: request.infer({0: x}, share_inputs=True, share_outputs=True)[0]


def time_rotation(fns: dict, repetitions: int, peers: list, warm_up: bool = True) -> dict:
    """{name: Probe}: every repetition calls every function once, in a rotated order; `peers`
    run right before each padnd call (untimed)."""
    probes = {name: Probe() for name in fns}
    timed = {name: probes[name].wrap(fn) for name, fn in fns.items()}
    names = list(fns)
    for fn in fns.values() if warm_up else ():
        fn()  # warm-up: the pool's threads, the plan cache
    for rep in range(repetitions):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            if name.startswith("padnd"):
                for peer in peers:
                    peer()
            timed[name]()
    return probes


def row(name: str, phase: str, probes: dict, repetitions: int) -> str:
    med = {k: statistics.median(p.seconds) * 1e3 for k, p in probes.items()}
    mine = probes["padnd"]
    return (f"| {name} | {phase} | {med['padnd']:.1f} | {med['padnd threads=1']:.1f} | "
            f"{med['numpy']:.1f} | {med['padnd'] / med['padnd threads=1']:.2f} | "
            f"{med['padnd'] / med['numpy']:.2f} | {mine.wait_ns / repetitions / 1e6:.1f} | "
            f"{mine.sys_s / repetitions * 1e3:.1f} | "
            f"{','.join(map(str, sorted(os.sched_getaffinity(0))))} |")


class Case:
    """One workload: its input and the three timed functions; its peers once made."""

    def __init__(self, w):
        self.name, _, dtype, shape, pads, self.mode, _ = w
        self.x = np.random.default_rng(0).random(shape, dtype=np.float32).astype(dtype)
        self.pads = pads
        view, np_pads = crop_view(self.x, pads)
        kwargs = {"negative": "crop_then_pad"} if any(b < 0 or e < 0 for b, e in pads) else {}
        x = self.x
        self.fns = {"padnd": lambda: padnd.pad(x, pads, self.mode, **kwargs),
                    "padnd threads=1": lambda: padnd.pad(x, pads, self.mode, threads=1, **kwargs),
                    "numpy": lambda: np.pad(view, np_pads, self.mode)}
        self.peers = []

    def make_peers(self) -> None:
        """Builds and runs once the ONNX Runtime and OpenVINO pads (kept: their threads and
        buffers stay alive, as in an application that holds the models)."""
        made = (onnxruntime_pad(self.x, self.pads, self.mode),
                openvino_pad(self.x, self.pads, self.mode))
        self.peers = [p for p in made if p is not None]
        for peer in self.peers:
            peer()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", default=DEFAULT_FILTER, help="regex on workload names")
    ap.add_argument("--repetitions", type=int, default=9)
    ap.add_argument("--phases", default="alone,after,side,cold")
    ap.add_argument("--cold-gib", type=float, default=2.0)
    args = ap.parse_args()
    phases = args.phases.split(",")
    print(f"padnd {padnd.__file__}; {os.cpu_count()} CPUs; medians of {args.repetitions} "
          f"repetitions (ms); wait and sys: padnd's default calls, per call\n")
    print("| workload | phase | padnd | threads=1 | numpy | ÷ threads=1 | ÷ numpy | wait ms | "
          "sys ms | caller CPUs |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    cases = [Case(w) for w in WORKLOADS if w[1] == "large" and re.search(args.filter, w[0])]
    reps = args.repetitions
    if "alone" in phases:
        for case in cases:
            print(row(case.name, "alone", time_rotation(case.fns, reps, []), reps), flush=True)
    if "after" in phases or "side" in phases:
        for case in cases:
            case.make_peers()
        if not any(case.peers for case in cases):
            print("(neither onnxruntime nor openvino is installed: no after and side phases)")
            phases = [p for p in phases if p not in ("after", "side")]
    if "after" in phases:
        time.sleep(PAUSE_S)
        for case in cases:
            print(row(case.name, "after", time_rotation(case.fns, reps, []), reps), flush=True)
    if "side" in phases:
        for case in cases:
            probes = time_rotation(case.fns, reps, case.peers)
            print(row(case.name, "side", probes, reps), flush=True)
    if "cold" in phases:
        for case in cases:
            make_memory_cold(args.cold_gib)
            probes = time_rotation(case.fns, reps, [], warm_up=False)
            print(row(case.name, "cold", probes, reps), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
