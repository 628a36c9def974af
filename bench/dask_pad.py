#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# padnd.dask.pad against dask.array.pad on a distributed.LocalCluster: graph entries, tasks
# run, wall time and each worker's peak memory, for three workloads of >= 2 GiB in >= 64
# chunks (docs/dask.md has the table and the command).
"""Benchmark padnd.dask.pad against dask.array.pad on a LocalCluster with worker processes.

Each workload's input is generated on the workers (dask.array.random with a fixed seed, the
same blocks for both sides) and its padded result is consumed on the workers (a float64 sum,
reduced to one number), so nothing large reaches the client. Per side: the graph entries the
pad adds, the tasks the scheduler runs (whole pipeline, optimised), the median wall time of
alternating rounds, and each worker's peak RSS (a thread sampling psutil every 10 ms in each
worker process) and its rise above the idle worker. The input's generation and sum alone are
timed too.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import padnd.dask

# name: (mode, float32 shape of 2 GiB, pad_width, {chunking: input chunks}), each chunking
# 64 chunks of 32 MiB or 256 chunks of 8 MiB.
WORKLOADS = {
    "reflect 2-D image": ("reflect", (32768, 16384), 128,
                          {"64x32MiB": (4096, 2048), "256x8MiB": (2048, 1024)}),
    "edge 3-D volume": ("edge", (1024, 1024, 512), 16,
                        {"64x32MiB": (256, 256, 128), "256x8MiB": (128, 128, 128)}),
    "constant 4-D batch": ("constant", (128, 4, 1024, 1024), ((0, 0), (0, 0), (32, 32), (32, 32)),
                           {"64x32MiB": (8, 4, 512, 512), "256x8MiB": (2, 4, 512, 512)}),
}
CHUNKINGS = ("64x32MiB", "256x8MiB")
PADS = {"padnd.dask.pad": padnd.dask.pad, "dask.array.pad": da.pad}


def start_sampling(dask_worker, interval: float = 0.01) -> int:
    """In a worker process: start a thread recording the peak RSS; returns the idle RSS."""
    import threading

    import psutil

    process = psutil.Process()
    state = {"peak": process.memory_info().rss, "stop": threading.Event()}

    def sample():
        while not state["stop"].is_set():
            state["peak"] = max(state["peak"], process.memory_info().rss)
            state["stop"].wait(interval)

    state["thread"] = threading.Thread(target=sample, daemon=True)
    state["thread"].start()
    dask_worker.padnd_bench_rss = state
    return state["peak"]


def stop_sampling(dask_worker) -> int:
    """In a worker process: stop the sampling thread; returns the peak RSS it saw."""
    state = dask_worker.padnd_bench_rss
    state["stop"].set()
    state["thread"].join()
    return state["peak"]


def generated(shape, chunks):
    return da.random.default_rng(17).random(shape, dtype=np.float32, chunks=chunks)


def consumed(array):
    """The same consumer for both sides: every element read, one float left. float32 values
    in [0, 1) add exactly in float64 at these sizes, so both sides must give the same sum."""
    return array.sum(dtype=np.float64)


def timed_run(client: Client, total) -> dict:
    """Computes `total` on the cluster; wall seconds and per-worker peak and idle RSS."""
    client.run(lambda dask_worker: __import__("gc").collect())
    idle = client.run(start_sampling)
    start = time.perf_counter()
    value = client.compute(total).result()
    seconds = time.perf_counter() - start
    peak = client.run(stop_sampling)
    return {"seconds": seconds, "value": float(value), "peak": [peak[w] for w in sorted(peak)],
            "rise": [peak[w] - idle[w] for w in sorted(peak)]}


def describe(x, padded) -> dict:
    total = consumed(padded)
    return {"entries": len(padded.__dask_graph__()) - len(x.__dask_graph__()),
            "tasks": len(dask.optimize(total)[0].__dask_graph__()),
            "chunks": padded.npartitions,
            "smallest_chunk": int(min(min(c) for c in padded.chunks)),
            "largest_chunk_bytes": int(np.prod([max(c) for c in padded.chunks]) * 4)}


def run_workload(client: Client, name: str, chunking: str, rounds: int) -> dict:
    """One workload: a warm-up run of each side (fresh worker memory is slower), then the
    input alone and the two sides in alternating order, `rounds` times each."""
    mode, shape, pad_width, chunkings = WORKLOADS[name]
    x = generated(shape, chunkings[chunking])
    sides = {side: {**describe(x, pad(x, pad_width, mode)), "runs": []}
             for side, pad in PADS.items()}
    for pad in PADS.values():
        timed_run(client, consumed(pad(x, pad_width, mode)))
    generation = []
    for number in range(rounds):
        generation.append(timed_run(client, consumed(x)))
        for side in list(PADS) if number % 2 == 0 else list(PADS)[::-1]:
            padded = PADS[side](x, pad_width, mode)
            sides[side]["runs"].append(timed_run(client, consumed(padded)))
    values = {run["value"] for side in sides.values() for run in side["runs"]}
    assert len(values) == 1, f"{name}: the sides' sums differ: {values}"
    for side in sides.values():
        side["seconds"] = statistics.median(run["seconds"] for run in side["runs"])
        side["best_seconds"] = min(run["seconds"] for run in side["runs"])
        side["peak_worker_bytes"] = max(max(run["peak"]) for run in side["runs"])
        side["peak_rise_bytes"] = max(max(run["rise"]) for run in side["runs"])
    return {"mode": mode, "shape": shape, "input_chunks": chunkings[chunking],
            "pad_width": pad_width, "input_bytes": int(np.prod(shape)) * 4,
            "input_chunk_count": x.npartitions,
            "input_chunk_bytes": int(np.prod(chunkings[chunking])) * 4,
            "generation_seconds": statistics.median(run["seconds"] for run in generation),
            "generation_best_seconds": min(run["seconds"] for run in generation),
            "sides": sides}


def table(results: dict) -> str:
    lines = ["| workload | side | pad entries | tasks run | output chunks (smallest) | "
             "wall s median (best) | peak worker RSS MiB | peak rise MiB | "
             "2x largest chunk MiB |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, result in results.items():
        for side, s in result["sides"].items():
            largest = max(s["largest_chunk_bytes"], result["input_chunk_bytes"])
            lines.append(
                f"| {name} | {side} | {s['entries']} | {s['tasks']} | "
                f"{s['chunks']} ({s['smallest_chunk']}) | "
                f"{s['seconds']:.2f} ({s['best_seconds']:.2f}) | "
                f"{s['peak_worker_bytes'] / 2**20:.0f} | {s['peak_rise_bytes'] / 2**20:.0f} | "
                f"{2 * largest / 2**20:.0f} |")
        lines.append(f"| {name} | input only (generate + sum) | | | {result['input_chunk_count']}"
                     f" | {result['generation_seconds']:.2f} "
                     f"({result['generation_best_seconds']:.2f}) | | | |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="8GiB", help="per worker")
    parser.add_argument("--workload", action="append", choices=list(WORKLOADS),
                        help="run only these (default: all)")
    parser.add_argument("--chunking", action="append", choices=CHUNKINGS,
                        help="run only these input chunkings (default: both)")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with dask.config.set({"distributed.worker.memory.spill": False}), \
            LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                         memory_limit=args.memory_limit, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        results = {f"{name}, {chunking}": run_workload(client, name, chunking, args.rounds)
                   for chunking in args.chunking or CHUNKINGS
                   for name in args.workload or WORKLOADS}
    print(table(results))
    environment = {"python": sys.version.split()[0], "numpy": np.__version__,
                   "dask": dask.__version__, "padnd": padnd.__version__,
                   "workers": args.workers, "threads_per_worker": 1,
                   "memory_limit": args.memory_limit, "rounds": args.rounds,
                   "cpus": os.cpu_count(), "load_average_before": load_before,
                   "load_average_after": os.getloadavg()}
    report = json.dumps({"environment": environment, "results": results}, indent=1)
    print(report)
    if args.json:
        with open(args.json, "w") as out:
            out.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
