#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One pad of np.zeros(1, uint8) by WIDTH on each side, in this fresh process: time and peak RSS.

    python bench/huge_pad.py padnd|numpy WIDTH

Issue 13's memory-bomb check: WIDTH 2**28 (a 512 MiB output) against numpy.pad, and 2**40
(a 2 TiB output), which must fail at once. Run each case in its own process (peak RSS).
"""
import resource
import sys
import time

import numpy as np
which, width = sys.argv[1], int(sys.argv[2])
a = np.zeros(1, np.uint8)
if which == "padnd":
    import padnd
    fn = lambda: padnd.pad(a, width)
else:
    fn = lambda: np.pad(a, width)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
try:
    out = fn()
    status = f"ok {out.shape}"
    del out
except Exception as e:  # noqa: BLE001
    status = f"{type(e).__name__}: {str(e)[:120]}"
dt = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{which} {width}: {dt*1e3:.2f} ms, peak RSS {peak/1024:.0f} MiB (before {base/1024:.0f} MiB): {status}")
