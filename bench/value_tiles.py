#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A value-mode pad written as 8 x 8 tiles: pad_window per tile against prepare_windows.

    python bench/value_tiles.py [--repetitions N]

On a (2048, 2048) float32 array padded by 64 in numpy's statistic modes, times (medians, the
three ways in rotated order each repetition): the whole pad (padnd.pad), the 64 tiles of the
padded plane each by padnd.pad_window (each computes its own box: a whole-axis statistic puts
that axis whole in it), and padnd.prepare_windows followed by the same 64 tiles (the
statistics computed once). Every tile is checked against the whole pad's slice first; a
mismatch exits with status 1.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import padnd
from value_modes import time_calls

ARRAY = np.random.default_rng(1).random((2048, 2048), dtype=np.float32)
WIDTH = 64
MODES = [("mean (whole axis)", "mean", {}),
         ("median, stat_length=8", "median", {"stat_length": 8}),
         ("maximum (whole axis)", "maximum", {})]


def tiles(shape) -> list:
    """The 8 x 8 tiles of a 2-D shape, as tuples of slices."""
    cuts = [[n * i // 8 for i in range(9)] for n in shape]
    return [(slice(cuts[0][i], cuts[0][i + 1]), slice(cuts[1][j], cuts[1][j + 1]))
            for i in range(8) for j in range(8)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args()
    for label, mode, kwargs in MODES:
        whole = padnd.pad(ARRAY, WIDTH, mode, **kwargs)
        windows = tiles(whole.shape)
        prepared = padnd.prepare_windows(ARRAY, WIDTH, mode, **kwargs)
        if not all(np.array_equal(prepared[w], whole[w]) and
                   np.array_equal(padnd.pad_window(ARRAY, WIDTH, mode, window=w, **kwargs),
                                  whole[w]) for w in windows):
            print(f"{label}: MISMATCH")
            return 1
        medians = time_calls({
            "whole": lambda: padnd.pad(ARRAY, WIDTH, mode, **kwargs),
            "pad_window": lambda: [padnd.pad_window(ARRAY, WIDTH, mode, window=w, **kwargs)
                                   for w in windows],
            "prepared": lambda: [p[w] for p in [padnd.prepare_windows(ARRAY, WIDTH, mode,
                                                                        **kwargs)]
                                 for w in windows],
        }, args.repetitions)
        ms = {name: f"{seconds * 1e3:7.2f} ms" for name, seconds in medians.items()}
        ratio = medians["pad_window"] / medians["prepared"]
        print(f"{label:24s} whole {ms['whole']}  64 pad_window tiles {ms['pad_window']}  "
              f"prepare_windows + 64 tiles {ms['prepared']} ({ratio:.1f}x; prepared "
              f"{prepared.prepared_bytes / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
