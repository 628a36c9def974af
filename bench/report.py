#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs bench/padnd_bench and prints padnd against the memcpy bounds of the same run.

    python3 bench/report.py build/bench/padnd_bench [--repetitions 5] [--filter REGEX]
                            [--min-time SECONDS] [--markdown OUT.md]

Medians over repetitions. Preallocated output is compared with the all-core memcpy into a
touched buffer (target >= 90 %), allocating with the all-core memcpy into a fresh huge-page
buffer (target >= 85 %); the per-call overhead of tiny_const with its targets (plan+execute
<= 200 ns, execute of a reused plan <= 60 ns).
"""
import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from workloads import WORKLOADS  # noqa: E402

TARGET_PREALLOCATED = 0.90
TARGET_ALLOCATING = 0.85
TARGET_NS = {"plan+execute": 200.0, "execute": 60.0}


def run(binary, repetitions, pattern, min_time_s):
    # Repetitions of all benchmarks run in random order, so a slow spell on the shared machine
    # spreads over padnd and its bounds instead of falling on one of them.
    cmd = [binary, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
           "--benchmark_report_aggregates_only=true", "--benchmark_enable_random_interleaving=true"]
    if pattern:
        cmd.append(f"--benchmark_filter={pattern}")
    if min_time_s is not None:
        cmd.append(f"--benchmark_min_time={min_time_s}")
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    medians = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"].removesuffix("/real_time")
        medians[name] = b
    return data["context"], medians


def gbps(entry):
    return entry["bytes_per_second"] / 1e9 if entry else None


def cell(entry):
    """GB/s of a benchmark's median, or empty when a filter left it out."""
    return f"{gbps(entry):.1f}" if entry else ""


def table(medians):
    rows = ["| workload | padnd GB/s | memcpy GB/s | % of bound | 1 thread GB/s | "
            "cached stores GB/s | allocating GB/s | fresh-buffer bound GB/s | % of bound | "
            "targets |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, size, *_ in WORKLOADS:
        if size != "large":
            continue
        pad = gbps(medians.get(f"pad/{name}/threads:all"))
        one = gbps(medians.get(f"pad/{name}/threads:1"))
        alloc = gbps(medians.get(f"alloc/{name}"))
        bound = gbps(medians.get(f"memcpy/{name}"))
        fresh = gbps(medians.get(f"memcpy_fresh/{name}"))
        if None in (pad, one, alloc, bound, fresh):
            continue
        ok = pad / bound >= TARGET_PREALLOCATED and alloc / fresh >= TARGET_ALLOCATING
        rows.append(f"| {name} | {pad:.1f} | {bound:.1f} | {100 * pad / bound:.0f} % | "
                    f"{one:.1f} | {cell(medians.get(f'pad_cached/{name}'))} | "
                    f"{alloc:.1f} | {fresh:.1f} | {100 * alloc / fresh:.0f} % | "
                    f"{'met' if ok else 'MISSED'} |")
    for name, size, *_ in WORKLOADS:
        if size != "large" and f"pad/{name}/threads:all" in medians:
            m = medians[f"pad/{name}/threads:all"]
            serial = gbps(medians.get(f"memcpy_serial/{name}"))
            rows.append(f"| {name} ({size}) | {gbps(m):.1f} | "
                        f"{f'{serial:.1f} (1 thread)' if serial else ''} | "
                        f"{f'{100 * gbps(m) / serial:.0f} %' if serial else ''} | "
                        f"{cell(medians.get(f'pad/{name}/threads:1'))} | | "
                        f"{cell(medians.get(f'alloc/{name}'))} | | | (vs peers: bench/compare.py) |")
    rows += ["", "| per-call overhead (serial) | median ns | target ns | |", "|---|---:|---:|---|"]
    for name, size, *_ in WORKLOADS:
        if size != "tiny":
            continue
        for kind, target in TARGET_NS.items():
            entry = medians.get(f"overhead/{kind}/{name}")
            if entry is None:
                continue
            ns = entry["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6}[entry["time_unit"]]
            met = "met" if ns <= target else f"MISSED ({ns / target:.1f}x)"
            rows.append(f"| {kind} {name} | {ns:.0f} | {target:.0f} | "
                        f"{met if name == 'tiny_const' else ''} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--filter", default="")
    ap.add_argument("--min-time", type=float, help="seconds per benchmark (Google Benchmark's)")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    context, medians = run(args.binary, args.repetitions, args.filter, args.min_time)
    text = (f"padnd_bench on {context.get('num_cpus')} CPUs, {context.get('mhz_per_cpu')} MHz, "
            f"medians of {args.repetitions} repetitions (bytes read + written per second)\n\n"
            + table(medians))
    print(text)
    if args.markdown:
        pathlib.Path(args.markdown).write_text(text + "\n")


if __name__ == "__main__":
    main()
