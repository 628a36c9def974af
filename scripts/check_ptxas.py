#!/usr/bin/env python3
"""Fails unless every padnd CUDA kernel in an nvcc build log (-Xptxas -v) was compiled, for
every kernel width, without stack frame, spill stores or spill loads (local memory in the hot
loop). Usage: check_ptxas.py BUILD_LOG."""
import re
import sys

ENTRY = re.compile(r"Compiling entry function '(\S*pad_kernelILi(\d+)E\S*)' for '(sm_\d+)'")
USAGE = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGISTERS = re.compile(r"Used (\d+) registers")
# ptxas prints a "Function properties" block for every function, non-inlined device functions
# too (after the entry's "Used" line): only the entry's own block is the kernel's.
PROPERTIES = re.compile(r"Function properties for (\S+)")
CUMULATIVE = re.compile(r"(\d+) bytes cumulative stack size")


def main(path):
    kernels = {}
    current = None  # the entry being compiled
    entry = None  # its mangled name
    properties = None  # the entry whose "Function properties" block this is, else None
    for line in open(path, encoding="utf-8", errors="replace"):
        if m := ENTRY.search(line):
            current, entry, properties = (int(m.group(2)), m.group(3)), m.group(1), None
            kernels[current] = {"stack": None, "spills": None, "registers": None}
        elif m := PROPERTIES.search(line):
            properties = current if current and m.group(1) == entry else None
        elif properties and (m := USAGE.search(line)):
            kernels[properties]["stack"] = int(m.group(1))
            kernels[properties]["spills"] = int(m.group(2)) + int(m.group(3))
        elif current and (m := REGISTERS.search(line)):
            kernels[current]["registers"] = int(m.group(1))
            if c := CUMULATIVE.search(line):  # frames of the device functions it calls
                kernels[current]["stack"] = max(kernels[current]["stack"] or 0, int(c.group(1)))
    widths = {width for width, _ in kernels}
    expected = {16, 8, 4, 2, 1, 0}
    failures = [f"kernel width {w} not compiled" for w in sorted(expected - widths)]
    for (width, arch), k in sorted(kernels.items()):
        print(f"pad_kernel<{width}> {arch}: {k['registers']} registers, "
              f"{k['stack']} bytes stack, {k['spills']} bytes spilled")
        if k["stack"] is None or k["spills"] is None:
            failures.append(f"pad_kernel<{width}> on {arch}: no stack and spill report")
        elif k["stack"] or k["spills"]:
            failures.append(f"pad_kernel<{width}> on {arch} uses local memory")
    if failures:
        sys.exit("check_ptxas: " + "; ".join(failures))


if __name__ == "__main__":
    main(sys.argv[1])
