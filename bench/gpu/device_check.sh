#!/usr/bin/env bash
# The device check (docs/gpu.md), run on a GPU machine from the repository root over binaries
# built here by bench/gpu/build.sh (carried in build-gpu/carry): the GPU's summary, the GPU test
# (under compute-sanitizer's memcheck where present), and the device benchmark of every shared
# workload against a device-to-device copy. Writes everything to $OUT (default: ./device-check).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${PADND_GPU_BIN:-build-gpu/carry}
out=${OUT:-device-check}
mkdir -p "$out"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.memory \
  --format=csv | tee "$out/nvidia-smi.csv"
echo "== GPU test"
"$bin/gpu_executor_test" --gtest_output="json:$out/gpu_test.json" | tail -n 5 || status=1
if sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null); then
  echo "== compute-sanitizer memcheck"
  "$sanitizer" --tool memcheck --error-exitcode 1 "$bin/gpu_executor_test" \
    --gtest_filter='*HostPointers*:*Random*' >"$out/memcheck.txt" 2>&1 || status=1
  tail -n 3 "$out/memcheck.txt"
else
  echo "== compute-sanitizer not present: memcheck not run" | tee "$out/memcheck.txt"
fi
echo "== device benchmark (median of 21, CUDA events)"
"$bin/padnd_device_bench" 21 | tee "$out/device_bench.jsonl" || status=1
{
  echo "| workload | size | padnd ms | copy ms | fraction of copy bandwidth |"
  echo "|---|---|---:|---:|---:|"
  sed -E 's/.*"workload": "([^"]*)", "size": "([^"]*)", "pad_ms": ([0-9.]*), "copy_ms": ([0-9.]*).*"fraction_of_copy": ([0-9.]*).*/| \1 | \2 | \3 | \4 | \5 |/' \
    "$out/device_bench.jsonl"
} >"$out/device_bench.md"
cat "$out/device_bench.md"
exit $status
