#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""padnd.pad against numpy.pad on numpy's value modes, per-side constants and odd reflection.

    python bench/value_modes.py [--repetitions N] [--markdown OUT.md] [--check-only]

bench/workloads.py holds the index modes every peer has; these modes only numpy has, so they
are compared here, on two float32 arrays: every mode's output is checked against numpy's
(np.array_equal, NaN equal to NaN) and a mismatch exits with status 1. Times are medians of
per-call times, each repetition timing both libraries in rotated order. --check-only only
checks the outputs (no timing claims), as the tests do.
"""
from __future__ import annotations

import argparse
import functools
import pathlib
import statistics
import sys
import time

import numpy as np

import padnd

ARRAYS = {
    "(2048, 2048) pad 64": (np.random.default_rng(1).random((2048, 2048), dtype=np.float32), 64),
    "(64, 256, 256) pad 8": (np.random.default_rng(2).random((64, 256, 256), dtype=np.float32), 8),
}

# (label, mode, keyword arguments for an array of ndim axes)
MODES = [
    ("constant 3.5 (the engine alone)", "constant", lambda ndim: {"constant_values": 3.5}),
    ("constant, a value per axis and side", "constant",
     lambda ndim: {"constant_values": tuple((k + 1.0, -k - 2.0) for k in range(ndim))}),
    ("linear_ramp", "linear_ramp", lambda ndim: {"end_values": 3}),
    ("maximum (whole axis)", "maximum", lambda ndim: {}),
    ("minimum (whole axis)", "minimum", lambda ndim: {}),
    ("mean (whole axis)", "mean", lambda ndim: {}),
    ("median, stat_length=8", "median", lambda ndim: {"stat_length": 8}),
    ("maximum, stat_length=4", "maximum", lambda ndim: {"stat_length": 4}),
    ("reflect, reflect_type='odd'", "reflect", lambda ndim: {"reflect_type": "odd"}),
]


def time_calls(fns: dict, repetitions: int) -> dict:
    """Median seconds per call of each function, rotating the order every repetition."""
    names = list(fns)
    times = {name: [] for name in names}
    for rep in range(repetitions):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            start = time.perf_counter()
            fns[name]()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--markdown", type=pathlib.Path)
    parser.add_argument("--check-only", action="store_true")
    args = parser.parse_args()
    if args.check_only and args.markdown:
        parser.error("--check-only writes no table: leave out --markdown")

    rows = []
    failed = False
    for array_name, (array, width) in ARRAYS.items():
        for label, mode, kwargs_of in MODES:
            kwargs = kwargs_of(array.ndim)
            got = padnd.pad(array, width, mode=mode, **kwargs)
            want = np.pad(array, width, mode=mode, **kwargs)
            same = np.array_equal(got, want, equal_nan=True)
            failed |= not same
            if args.check_only:
                print(f"{array_name:22s} {label:36s} {'equal' if same else 'MISMATCH'}")
                continue
            medians = time_calls(
                {"padnd": functools.partial(padnd.pad, array, width, mode=mode, **kwargs),
                 "numpy": functools.partial(np.pad, array, width, mode=mode, **kwargs)},
                args.repetitions)
            rows.append((array_name, label, medians["padnd"], medians["numpy"], same))
            print(f"{array_name:22s} {label:36s} padnd {medians['padnd'] * 1e3:8.2f} ms  "
                  f"numpy {medians['numpy'] * 1e3:8.2f} ms  "
                  f"{medians['numpy'] / medians['padnd']:5.2f}x  {'equal' if same else 'MISMATCH'}")
    if args.markdown and not args.check_only:
        lines = [f"padnd.pad vs numpy.pad {np.__version__} on numpy's value modes (float32, "
                 f"medians of {args.repetitions} repetitions)", "",
                 "| array | mode | padnd | numpy.pad | speed-up | output |",
                 "|---|---|---:|---:|---:|---|"]
        for array_name, label, ours, theirs, same in rows:
            lines.append(f"| {array_name} | {label} | {ours * 1e3:.2f} ms | {theirs * 1e3:.2f} ms"
                         f" | {theirs / ours:.2f}× | {'equal' if same else 'MISMATCH'} |")
        args.markdown.write_text("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
