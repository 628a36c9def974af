#!/usr/bin/env python3
"""Fails unless every padnd CUDA kernel in an nvcc build log (-Xptxas -v) was compiled, for
every kernel width, without stack frame, spill stores or spill loads (local memory in the hot
loop). Usage: check_ptxas.py BUILD_LOG."""
import re
import sys

ENTRY = re.compile(r"Compiling entry function '(\S*pad_kernelILi(\d+)E\S*)' for '(sm_\d+)'")
USAGE = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGISTERS = re.compile(r"Used (\d+) registers")


def main(path):
    kernels = {}
    current = None
    for line in open(path, encoding="utf-8", errors="replace"):
        if m := ENTRY.search(line):
            current = (int(m.group(2)), m.group(3))
            kernels[current] = {"stack": 0, "spills": 0, "registers": None}
        elif current and (m := USAGE.search(line)):
            kernels[current]["stack"] = int(m.group(1))
            kernels[current]["spills"] = int(m.group(2)) + int(m.group(3))
        elif current and (m := REGISTERS.search(line)):
            kernels[current]["registers"] = int(m.group(1))
    widths = {width for width, _ in kernels}
    expected = {16, 8, 4, 2, 1, 0}
    failures = [f"kernel width {w} not compiled" for w in sorted(expected - widths)]
    for (width, arch), k in sorted(kernels.items()):
        print(f"pad_kernel<{width}> {arch}: {k['registers']} registers, "
              f"{k['stack']} bytes stack, {k['spills']} bytes spilled")
        if k["stack"] or k["spills"]:
            failures.append(f"pad_kernel<{width}> on {arch} uses local memory")
    if failures:
        sys.exit("check_ptxas: " + "; ".join(failures))


if __name__ == "__main__":
    main(sys.argv[1])
