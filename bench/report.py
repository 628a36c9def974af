#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs bench/padnd_bench and prints padnd against the memcpy bounds of the same run.

    python3 bench/report.py build/bench/padnd_bench [--repetitions 5] [--filter REGEX]
                            [--min-time SECONDS] [--markdown OUT.md]
    python3 bench/report.py build/bench/padnd_bench --baseline OLD/padnd_bench [--rounds 5]
    python3 bench/report.py build/bench/padnd_bench --tiles REGEX [--rounds 11]

With --baseline: padnd's own benchmarks (pad/, alloc/, overhead/) of both binaries, run in
turns in one session (baseline, current, baseline, ...: one repetition each per round), each
side's median and range over the rounds; a benchmark is called slower or faster only when the
two ranges do not overlap (otherwise the difference is within the run's noise).

With --tiles: for the large workloads whose names match REGEX, the 64 tiles (tiles64/) against
the whole pad (pad/.../threads:all), both in each round (one repetition each, in random order):
each round's ratio, so that a slow spell of the shared machine falls on both sides of it; the
median ratio and its range over the rounds. Beside it, the same for a copy of the output's
bytes with padnd's streamed stores, as the 64 tiles against whole (stream_tiles64/ against
stream_output/): what the tiles' memory pattern costs without any padding.

Medians over repetitions. Preallocated output is compared with the all-core memcpy into a
touched buffer (target >= 90 %), allocating with the all-core memcpy into a fresh huge-page
buffer (target >= 85 %); the per-call overhead of tiny_const with its targets (plan+execute
<= 200 ns, execute of a reused plan <= 60 ns).
"""
import argparse
import json
import pathlib
import re
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
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{binary}: no benchmark ran for --filter {pattern!r} "
                         f"(exit {done.returncode}): {done.stderr.strip()[-300:]}")
    data = json.loads(done.stdout)
    medians = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            raise SystemExit(f"{binary}: {b['name']}: {b.get('error_message', 'failed')}")
        # One repetition has no aggregates: its run is its median.
        if b.get("aggregate_name") != "median" and not (
                repetitions == 1 and b.get("run_type") == "iteration"):
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


def tiles_table(medians):
    """Windows: the 64 tiles against the whole pad and the tiling's own memcpy cost."""
    rows = ["| workload | whole ms | 64 tiles ms | tiles / whole | memcpy whole ms | "
            "memcpy 64 tiles ms | memcpy tiles / whole |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, size, *_ in WORKLOADS:
        entries = [medians.get(k) for k in (f"pad/{name}/threads:all", f"tiles64/{name}",
                                            f"memcpy_output/{name}", f"memcpy_tiles64/{name}")]
        if None in entries:
            continue
        whole, tiles, mem_whole, mem_tiles = (ms(e) for e in entries)
        rows.append(f"| {name} | {whole:.2f} | {tiles:.2f} | {tiles / whole:.2f} | "
                    f"{mem_whole:.2f} | {mem_tiles:.2f} | {mem_tiles / mem_whole:.2f} |")
    return "\n".join(rows) if len(rows) > 2 else ""


def ms(entry):
    return entry["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3}[entry["time_unit"]]


PADND_OWN = r"^(pad|alloc|overhead|tiles64)/"


def compare(binary, baseline, rounds, pattern, min_time_s):
    """Per benchmark: [baseline times], [current times] in ms, one per round. The filter goes
    to the binaries as it is (it may be anchored, or an alternation); padnd's own benchmarks
    are picked from what it runs."""
    times = {}
    own = re.compile(PADND_OWN)
    for _ in range(rounds):
        for side, path in ((0, baseline), (1, binary)):
            _, medians = run(path, 1, pattern or PADND_OWN, min_time_s)
            for name, entry in medians.items():
                if own.match(name):
                    times.setdefault(name, ([], []))[side].append(ms(entry))
    return {k: v for k, v in times.items() if v[0] and v[1]}


def median(values):
    v = sorted(values)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def duration(ms_value):
    for unit, scale in (("ms", 1.0), ("us", 1e-3), ("ns", 1e-6)):
        if ms_value >= scale or unit == "ns":
            return f"{ms_value / scale:.3g} {unit}"
    return ""


def spread(values):
    return f"{duration(median(values))} ({duration(min(values))} to {duration(max(values))})"


def compare_table(times):
    rows = ["| benchmark | baseline: median (range) | current: median (range) | "
            "current / baseline | |", "|---|---:|---:|---:|---|"]
    for name, (old, new) in sorted(times.items()):
        verdict = ("slower" if min(new) > max(old) else
                   "faster" if max(new) < min(old) else "within noise")
        rows.append(f"| {name} | {spread(old)} | {spread(new)} | "
                    f"{median(new) / median(old):.2f} | {verdict} |")
    return "\n".join(rows)


TILES_SERIES = ("pad/{}/threads:all", "tiles64/{}", "stream_output/{}", "stream_tiles64/{}")


def tiles_rounds(binary, rounds, names_pattern, min_time_s):
    """Per large workload matching `names_pattern`: a list of ms per round for each of
    TILES_SERIES (the whole pad, its 64 tiles, and the streamed copy of the output's bytes
    whole and as the tiles)."""
    names = [n for n, size, *_ in WORKLOADS if size == "large" and re.search(names_pattern, n)]
    if not names:
        raise SystemExit(f"--tiles {names_pattern!r}: no large workload matches")
    alternatives = "|".join(re.escape(n) for n in names)
    pattern = (f"^(pad/({alternatives})/threads:all|(tiles64|stream_output|stream_tiles64)/"
               f"({alternatives}))(/real_time)?$")
    times = {n: tuple([] for _ in TILES_SERIES) for n in names}
    for _ in range(rounds):
        _, medians = run(binary, 1, pattern, min_time_s)
        for n in names:
            for series, key in zip(times[n], TILES_SERIES):
                series.append(ms(medians[key.format(n)]))
    return times


def tiles_rounds_table(times):
    rows = ["| workload | whole: median (range) | 64 tiles: median (range) | "
            "tiles / whole: median of the rounds' (range) | the same bytes streamed: "
            "tiles / whole (range) |", "|---|---:|---:|---:|---:|"]
    for name, (whole, tiles, copy_whole, copy_tiles) in times.items():
        cells = []
        for num, den in ((tiles, whole), (copy_tiles, copy_whole)):
            ratios = [t / w for w, t in zip(den, num)]
            cells.append(f"{median(ratios):.3f} ({min(ratios):.3f} to {max(ratios):.3f})")
        rows.append(f"| {name} | {spread(whole)} | {spread(tiles)} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--filter", default="")
    ap.add_argument("--min-time", type=float, help="seconds per benchmark (Google Benchmark's)")
    ap.add_argument("--markdown")
    ap.add_argument("--baseline", help="an older padnd_bench to compare with, in the same run")
    ap.add_argument("--rounds", type=int, default=5,
                    help="with --baseline: turns of each; with --tiles: rounds")
    ap.add_argument("--tiles", metavar="REGEX",
                    help="64 tiles against the whole pad, a ratio per round (large workloads)")
    args = ap.parse_args()
    if args.tiles:
        text = (f"{args.binary}: 64 tiles against the whole pad, {args.rounds} rounds, one "
                "repetition of each per round\n\n"
                + tiles_rounds_table(tiles_rounds(args.binary, args.rounds, args.tiles,
                                                  args.min_time)))
        print(text)
        if args.markdown:
            pathlib.Path(args.markdown).write_text(text + "\n")
        return
    if args.baseline:
        times = compare(args.binary, args.baseline, args.rounds, args.filter, args.min_time)
        text = (f"{args.binary} against {args.baseline}, {args.rounds} rounds in turns, "
                "one repetition each\n\n" + compare_table(times))
        print(text)
        if args.markdown:
            pathlib.Path(args.markdown).write_text(text + "\n")
        return
    context, medians = run(args.binary, args.repetitions, args.filter, args.min_time)
    text = (f"padnd_bench on {context.get('num_cpus')} CPUs, {context.get('mhz_per_cpu')} MHz, "
            f"medians of {args.repetitions} repetitions (bytes read + written per second)\n\n"
            + table(medians))
    tiles = tiles_table(medians)
    if tiles:
        text += "\n\nWindows: 64 tiles (8 x 8 of the last two axes) against the whole pad\n\n" + tiles
    print(text)
    if args.markdown:
        pathlib.Path(args.markdown).write_text(text + "\n")


if __name__ == "__main__":
    main()
