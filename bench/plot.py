#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws bench/compare.py's JSON (--json) as the README's plot.

    python bench/plot.py docs/perf.json docs/perf.png

Large workloads (top panels, one per workload, one shared linear y axis): each library's speed
as a fraction of the copy bound timed in the same run, in the same rotation. For repetition r
the fraction is median(bound seconds) / library_seconds[r] (1.0 = as fast as the all-core copy
of the same bytes); the bar is the median over the repetitions, the whisker their
interquartile range (25th to 75th percentile), and two dots their minimum and maximum. The
bound's own spread is the band around the dashed line at 1.0: median / its 75th percentile to
median / its 25th. Allocating calls (padnd.pad, numpy, torch, cv2, onnxruntime) are measured
against the fresh-buffer bound (copy into a new numpy.empty buffer, page faults included);
preallocated ones ("padnd out=", openvino's own reused output) against the written-buffer
bound (the same copy into a buffer that exists and was written before). The two groups stand
side by side in each panel, the preallocated bars hatched on a shaded background.

Medium and tiny workloads (bottom row) live in cache and compare.py times no bound for them;
their panels show GB/s (bytes read + written per second, own linear y axis per panel) with
the same bar, whisker and dots, and the median per-call time written on each bar.

Every library compare.py could not time has an empty slot with "n/a: <reason>" written in it,
the reason shortened from compare.py's note (not installed, no such mode, rejects the
request, not bit-exact).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys

ALLOCATING = ["padnd", "numpy", "torch", "cv2", "onnxruntime"]
PREALLOCATED = ["padnd out=", "openvino"]
COLOURS = {"padnd": "#1f4e9c", "padnd out=": "#1f4e9c", "numpy": "#7f7f7f", "torch": "#e07b00",
           "cv2": "#2ca02c", "onnxruntime": "#9467bd", "openvino": "#d62728"}
TICK = {"padnd": "padnd", "numpy": "numpy", "torch": "torch", "cv2": "cv2",
        "onnxruntime": "ORT", "padnd out=": "padnd\nout=", "openvino": "OV"}


def short_reason(note: str) -> str:
    """compare.py's n/a note, short enough to stand upright in a bar's slot."""
    reason = note.removeprefix("n/a: ")
    if reason.startswith("not installed"):
        return "not installed"
    if reason.startswith("MISMATCH"):
        return "output differs"
    if reason.startswith("rejects"):
        if m := re.search(r"pre-pad \((\d+)\) exceeds maximum allowed \((\d+)\)", reason):
            return f"rejects: pad {m[1]} > {m[2]}"
        if "data_shape[D] - 1" in reason:
            return "rejects: pad > axis - 1"
        return "rejects the request"
    if "float64 as float32" in reason:
        return "f64 rounded via f32"
    if reason.startswith("pads 2 adjacent axes"):
        return "> 2 padded axes"
    return reason


def x_positions() -> dict:
    """Slot of each library in a panel: the allocating group, a gap, the preallocated one."""
    slots = {lib: float(i) for i, lib in enumerate(ALLOCATING)}
    slots.update({lib: len(ALLOCATING) + 0.6 + i for i, lib in enumerate(PREALLOCATED)})
    return slots


def fractions(bound: list, seconds: list) -> list:
    """Each repetition's speed as a fraction of the bound's median speed."""
    typical = statistics.median(bound)
    return [typical / s for s in seconds]


def quartiles(values: list) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q3


def draw_panel(ax, w: dict, value_of, label_of, na_height: float) -> None:
    slots = x_positions()
    libraries = w["libraries"]
    ax.axvspan(len(ALLOCATING) - 0.5 + 0.3, len(ALLOCATING) + len(PREALLOCATED) + 0.1,
               color="#f1f1f1", zorder=0)
    for lib, x in slots.items():
        entry = libraries.get(lib)
        values = value_of(lib, entry) if entry and entry["seconds"] else None
        if not values:
            note = entry["note"] if entry else "n/a: not run (--peers)"
            ax.text(x, na_height, "n/a: " + short_reason(note), rotation=90, ha="center",
                    va="bottom", fontsize=7, color="#444444")
            continue
        mid = statistics.median(values)
        q1, q3 = quartiles(values)
        ax.bar(x, mid, 0.8, color=COLOURS[lib], alpha=0.9 if lib in ALLOCATING else 0.55,
               hatch="//" if lib in PREALLOCATED else None, edgecolor="white", zorder=2)
        ax.errorbar(x, mid, yerr=[[mid - q1], [q3 - mid]], fmt="none", ecolor="black",
                    elinewidth=1.1, capsize=3, zorder=3)
        ax.plot([x, x], [min(values), max(values)], linestyle="none", marker="o",
                markersize=2.2, color="black", zorder=3)
        ax.text(x, max(values), label_of(lib, entry, mid), ha="center", va="bottom",
                fontsize=6.5, zorder=4)
    ax.set_xticks(list(slots.values()), [TICK[lib] for lib in slots], fontsize=7)
    ax.set_xlim(-0.6, max(slots.values()) + 0.6)
    ax.tick_params(axis="x", length=0)


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def plot(data: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    workloads = data["workloads"]
    large = [w for w in workloads if w["bound_seconds"]["allocating"]]
    small = [w for w in workloads if not w["bound_seconds"]["allocating"]]
    columns = 4
    rows_large = math.ceil(len(large) / columns)
    fig = plt.figure(figsize=(17, 4.1 * rows_large + (4.6 if small else 0) + 1.4))
    grid = fig.add_gridspec(rows_large + (1 if small else 0), 1,
                            height_ratios=[1] * rows_large + ([1.05] if small else []),
                            hspace=0.42)

    def bound_of(w: dict, lib: str) -> list:
        b = w["bound_seconds"]
        return b["preallocated"] if lib in PREALLOCATED and b.get("preallocated") else b["allocating"]

    # Large: fraction of the bound, one y scale for all panels.
    top = 0.0
    for w in large:
        for lib, entry in w["libraries"].items():
            if entry["seconds"]:
                top = max(top, max(fractions(bound_of(w, lib), entry["seconds"])))
    top = max(1.1, top * 1.12)
    for row in range(rows_large):
        sub = grid[row].subgridspec(1, columns, wspace=0.12)
        for col in range(columns):
            k = row * columns + col
            ax = fig.add_subplot(sub[col])
            if k >= len(large):
                ax.axis("off")
                continue
            w = large[k]
            draw_panel(ax, w,
                       lambda lib, e, w=w: fractions(bound_of(w, lib), e["seconds"]),
                       lambda lib, e, mid: f"{mid:.2f}", na_height=0.03 * top)
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--", zorder=1)
            slots = x_positions()
            for group in (ALLOCATING, PREALLOCATED):
                bound = bound_of(w, group[0])
                q1, q3 = quartiles(bound)
                ax.fill_between([slots[group[0]] - 0.45, slots[group[-1]] + 0.45],
                                statistics.median(bound) / q3, statistics.median(bound) / q1,
                                color="#f3d36b", alpha=0.35, linewidth=0, zorder=1)
            ax.set_ylim(0, top)
            ax.set_title(f"{w['name']}  ({w['mode']}, {w['dtype']}, "
                         f"{w['traffic_bytes'] / 2**20:.0f} MiB moved)", fontsize=9)
            if col == 0:
                ax.set_ylabel("fraction of the copy bound\n(higher is better)", fontsize=8)
            else:
                ax.tick_params(axis="y", labelleft=False)
            ax.grid(axis="y", color="#dddddd", linewidth=0.6, zorder=0)

    # Medium and tiny: no bound (in cache); GB/s on each panel's own scale.
    if small:
        sub = grid[rows_large].subgridspec(1, len(small), wspace=0.28)
        for k, w in enumerate(small):
            ax = fig.add_subplot(sub[k])
            gbps = lambda lib, e, w=w: [w["traffic_bytes"] / s / 1e9 for s in e["seconds"]]  # noqa: E731
            highest = max((max(gbps(lib, e)) for lib, e in w["libraries"].items()
                           if e["seconds"]), default=1.0) * 1.18
            draw_panel(ax, w, gbps, lambda lib, e, mid: fmt_time(e["median_seconds"]),
                       na_height=0.03 * highest)
            ax.set_ylim(0, highest)
            ax.set_title(f"{w['name']}  ({w['size']}, no bound: in cache)", fontsize=9)
            if k == 0:
                ax.set_ylabel("GB/s read + written\n(higher is better)", fontsize=8)
            ax.tick_params(axis="y", labelsize=7)
            ax.grid(axis="y", color="#dddddd", linewidth=0.6, zorder=0)

    machine = data["machine"]
    reps = data["repetitions"]
    fig.suptitle(
        "padnd against its peers: speed as a fraction of the copy bound timed in the same run "
        f"(bar and label: median of {reps} repetitions, whisker: interquartile range, dots: "
        "min and max; dashed line: the bound, band: its own interquartile range)\n"
        "allocating calls against a copy into a fresh buffer; preallocated ones (hatched, "
        "shaded) against a copy into a buffer written before\n"
        f"{machine['cpus']} CPUs ({machine['cpu_model']}), "
        f"{data['started_utc'][:16].replace('T', ' ')} UTC: {data['command']}",
        fontsize=10, y=0.998)
    handles = [Patch(color=COLOURS[lib], alpha=0.9, label=lib) for lib in ALLOCATING]
    handles += [Patch(facecolor=COLOURS["padnd"], alpha=0.55, hatch="//", edgecolor="white",
                      label="padnd out= (preallocated)"),
                Patch(facecolor=COLOURS["openvino"], alpha=0.55, hatch="//", edgecolor="white",
                      label="openvino, OV (own reused output)")]
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=8,
               bbox_to_anchor=(0.5, 0.958), frameon=False)
    fig.subplots_adjust(left=0.05, right=0.99, top=0.925, bottom=0.035)
    fig.savefig(path, dpi=100)
    # A 256-colour palette keeps the README's image small (matplotlib brings Pillow with it).
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="bench/compare.py --json output")
    ap.add_argument("png", help="image to write")
    args = ap.parse_args()
    with open(args.json, encoding="utf-8") as f:
        data = json.load(f)
    if not data.get("repetitions"):
        ap.error(f"{args.json} holds no timings (a --check-only run?)")
    plot(data, args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
