#!/usr/bin/env bash
# Builds, on a machine with nvcc and no GPU, what bench/gpu/device_check.sh runs on a GPU
# machine: the GPU test and the device benchmark, cudart linked statically, copied to
# build-gpu/carry (a few MiB: the device tool's carry limit is 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPADND_CUDA=ON -DPADND_BUILD_CLI=OFF \
  -DPADND_INSTALL=OFF >/dev/null
# The kernels' ptxas report (-Xptxas -v), which scripts/check_ptxas.py reads from this build's
# log, is printed only when cuda_executor.cu compiles: compile it every time.
rm -f build-gpu/CMakeFiles/padnd.dir/src/executors/cuda/cuda_executor.cu.o
cmake --build build-gpu -j"$(nproc)" --target gpu_executor_test padnd_device_bench
mkdir -p build-gpu/carry
cp build-gpu/tests/gpu_executor_test build-gpu/bench/gpu/padnd_device_bench build-gpu/carry/
strip build-gpu/carry/*
du -sh build-gpu/carry
