# SPDX-License-Identifier: Apache-2.0
"""Writes the C++ table of bench/workloads.py (the benchmark's only source of workloads).

Usage: python3 gen_workloads.py OUT.inc   (run by bench/CMakeLists.txt at build time)
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from workloads import WORKLOADS  # noqa: E402

# The workload dtypes padnd::DType spells the same way (a new one must be added here on purpose).
DTYPES = {"float16", "float32", "float64", "uint8"}


def row(name, size, dtype, shape, pads, mode, interior):
    if dtype not in DTYPES:
        raise SystemExit(f"gen_workloads.py: workload {name}: dtype {dtype} is not in DTYPES")
    ints = lambda xs: "{" + ", ".join(str(int(x)) for x in xs) + "}"  # noqa: E731
    return (f'  {{"{name}", "{size}", padnd::DType::{dtype}, {ints(shape)}, '
            f"{ints(b for b, _ in pads)}, {ints(e for _, e in pads)}, "
            f"{ints(interior or [0] * len(shape))}, padnd::Mode::{mode}}},")


def main(out_path):
    lines = ["// Generated from bench/workloads.py by bench/gen_workloads.py. Do not edit."]
    lines += [row(*w) for w in WORKLOADS]
    text = "\n".join(lines) + "\n"
    out = pathlib.Path(out_path)
    if not out.exists() or out.read_text() != text:
        out.write_text(text)


if __name__ == "__main__":
    main(sys.argv[1])
