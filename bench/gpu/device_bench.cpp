// SPDX-License-Identifier: Apache-2.0
// The CUDA executor on every shared workload (bench/workload.hpp) against a device-to-device
// cudaMemcpyAsync of the same traffic, in one process, timed with CUDA events: the median of
// `repetitions` runs each. Prints JSON lines, one per workload (bench/gpu/device_check.sh turns
// them into a table). Needs a GPU; built with PADND_CUDA.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "padnd/cuda.hpp"
#include "padnd/padnd.hpp"
#include "workload.hpp"

namespace {

using padnd::bench::Workload;

void check(cudaError_t status) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "CUDA: %s\n", cudaGetErrorString(status));
    std::exit(1);
  }
}

/// Median milliseconds of `repetitions` runs of `run` on `stream`, after one warm-up run.
template <class Run>
double median_ms(cudaStream_t stream, int repetitions, Run run) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start));
  check(cudaEventCreate(&stop));
  run();
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    check(cudaEventRecord(start, stream));
    run();
    check(cudaEventRecord(stop, stream));
    check(cudaEventSynchronize(stop));
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  check(cudaEventDestroy(start));
  check(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void bench(const Workload& w, cudaStream_t stream, int repetitions) {
  const padnd::ElementType type{w.dtype};
  const padnd::Plan plan = padnd::make_plan(type, w.shape, {}, padnd::bench::spec_of(w));
  const auto in_bytes =
      static_cast<std::size_t>(padnd::storage_bytes(type, padnd::element_count(w.shape)));
  const auto out_bytes = static_cast<std::size_t>(plan.output_bytes());
  const auto copy_bytes = static_cast<std::size_t>(padnd::bench::bound_copy_bytes(w));
  void *in, *out, *copy_in, *copy_out;
  check(cudaMalloc(&in, in_bytes));
  check(cudaMalloc(&out, out_bytes));
  check(cudaMalloc(&copy_in, copy_bytes));
  check(cudaMalloc(&copy_out, copy_bytes));
  check(cudaMemset(in, 7, in_bytes));
  const double pad_ms = median_ms(stream, repetitions, [&] {
    padnd::cuda::execute(plan, in, out, static_cast<std::int64_t>(out_bytes), stream);
  });
  const double copy_ms = median_ms(stream, repetitions, [&] {
    check(cudaMemcpyAsync(copy_out, copy_in, copy_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  std::printf(
      "{\"workload\": \"%s\", \"size\": \"%s\", \"pad_ms\": %.5f, \"copy_ms\": %.5f, "
      "\"traffic_bytes\": %lld, \"fraction_of_copy\": %.3f}\n",
      w.name, w.size_class, pad_ms, copy_ms,
      static_cast<long long>(padnd::bench::read_bytes(w) + padnd::bench::write_bytes(w)),
      copy_ms / pad_ms);
  for (void* p : {in, out, copy_in, copy_out}) check(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 21;
  cudaStream_t stream;
  check(cudaStreamCreate(&stream));
  for (const Workload& w : padnd::bench::kWorkloads) bench(w, stream, repetitions);
  check(cudaStreamDestroy(stream));
}
