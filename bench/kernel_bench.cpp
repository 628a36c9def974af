// SPDX-License-Identifier: Apache-2.0
// kernel/<kernel>_<width>: every row kernel of the kernel list
// (src/executors/cpu/kernels/kernel_list.hpp) alone, on 4096 rows of about 256 bytes in cache (a
// border of one pad value, the copy, a border of one repeated element). Bytes/second count bytes
// read + bytes written.
#include "kernel_bench.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "executors/cpu/kernels/kernel_list.hpp"
#include "plan/plan_internal.hpp"

namespace {

using padnd::detail::RowKernel;

constexpr std::int64_t kRows = 4096;
constexpr std::int64_t kRowBytes = 256;

template <RowKernel K, std::int64_t W>
void run_kernel(benchmark::State& state) {
  const std::int64_t unit = W > 0 ? W : 12;
  const std::int64_t row_len = kRowBytes / unit;
  padnd::detail::BorderedRow row;
  row.begin = {1, -1, 0};
  row.copy_src = 0;
  row.copy_len = row_len - 2;
  row.end = {1, 0, 0};
  const std::vector<padnd::detail::RowSegment> segments = {
      {padnd::detail::RowSegment::Kind::fill, 0, 1, 0, 1},
      {padnd::detail::RowSegment::Kind::copy, 1, row_len - 2, 0, 1},
      {padnd::detail::RowSegment::Kind::repeat, row_len - 1, 1, 0, 1}};
  const std::string pattern = padnd::detail::replicate_pattern(std::string(unit, '\x5a'));
  const padnd::detail::RowContext ctx{segments, &row,     nullptr, row_len, unit,
                                      unit,     &pattern, 0x5a,    false};
  std::vector<std::byte> in(static_cast<std::size_t>(kRows * row_len * unit + 2048));
  std::vector<const std::byte*> in_rows;
  for (std::int64_t r = 0; r < kRows; ++r) in_rows.push_back(in.data() + 1024 + r * row_len * unit);
  std::vector<std::byte> out(static_cast<std::size_t>(kRows * row_len * unit + 16));
  auto* aligned =
      reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(out.data()) + 15) / 16 * 16);
  const padnd::detail::RowRun run{aligned, row_len * unit, in_rows.data(), kRows};
  for (auto _ : state) {
    padnd::detail::row_kernel<K, W>(ctx, run);
    benchmark::DoNotOptimize(aligned);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kRows * (2 * row_len - 2) * unit);
}

}  // namespace

void register_kernel_benchmarks() {
#define PADND_KERNEL_BENCH(kernel, W)                                                      \
  benchmark::RegisterBenchmark("kernel/" #kernel "_" #W, run_kernel<RowKernel::kernel, W>) \
      ->Unit(benchmark::kMicrosecond);
  PADND_ROW_KERNELS(PADND_KERNEL_BENCH)
#undef PADND_KERNEL_BENCH
}
