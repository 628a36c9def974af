// SPDX-License-Identifier: Apache-2.0
// The row kernels of byte storage, listed once: the executor's width dispatch, the kernel unit
// tests (tests/kernels_test.cpp) and the kernel benchmarks (bench/pad_bench.cpp) are generated
// from PADND_ROW_KERNELS.
#pragma once

#include <cstddef>
#include <cstdint>

#include "executors/cpu/kernels/bytes_rows.hpp"
#include "executors/cpu/kernels/masked_rows.hpp"
#include "executors/cpu/kernels/row_context.hpp"
#include "executors/cpu/simd.hpp"

namespace padnd::detail {

/// How a kernel writes whole output rows (docs/design.md, section 5).
enum class RowKernel : std::uint8_t {
  bordered,  ///< BorderedRowWriter: border | copy | border, a row at a time
  segments,  ///< bytes_rows: any row program, in batches of rows
  masked,    ///< MaskedRows: bordered rows of whole 16-byte pieces, from registers
};

/// X(kernel, W) for each unit width with kernels of its own; W = 0 serves every other unit size.
#define PADND_UNIT_WIDTHS(X, kernel) \
  X(kernel, 1) X(kernel, 2) X(kernel, 4) X(kernel, 8) X(kernel, 16) X(kernel, 0)
#if PADND_SSE2
#define PADND_MASKED_KERNELS(X) X(masked, 1) X(masked, 2) X(masked, 4) X(masked, 8) X(masked, 16)
#else
#define PADND_MASKED_KERNELS(X)
#endif
/// X(kernel, W) for every row kernel.
#define PADND_ROW_KERNELS(X) \
  PADND_UNIT_WIDTHS(X, bordered) PADND_UNIT_WIDTHS(X, segments) PADND_MASKED_KERNELS(X)

/// Input rows given as an array of pointers (the form MaskedRows::write_run takes as InRows).
struct PointerRows {
  const std::byte* const* rows;
  const std::byte* operator[](std::int64_t i) const { return rows[i]; }
  [[nodiscard]] PointerRows from(std::int64_t i) const { return {rows + i}; }
};

/// Rows for a kernel: row i at out + i * pitch, from the input row starting at in_rows[i].
/// masked takes pitch == row bytes, a 16-byte aligned `out`, and readable input bytes
/// [in_rows[i] + shift, + row bytes) (MaskedRows::shift).
struct RowRun {
  std::byte* out;
  std::int64_t pitch;
  const std::byte* const* in_rows;
  std::int64_t rows;
};

/// Writes `run` with kernel K for units of W bytes (0: ctx.unit_bytes): the form in which each
/// kernel is tested and benchmarked alone.
template <RowKernel K, std::int64_t W>
void row_kernel(const RowContext& ctx, const RowRun& run) {
  if constexpr (K == RowKernel::bordered) {
    const BorderedRowWriter<W> write_row(ctx);
    for (std::int64_t i = 0; i < run.rows; ++i) write_row(run.out + i * run.pitch, run.in_rows[i]);
  } else if constexpr (K == RowKernel::segments) {
    constexpr std::int64_t kBatch = 64;
    std::byte* dst[kBatch];
    std::byte* seg_dst[kBatch];
    for (std::int64_t r = 0; r < run.rows; r += kBatch) {
      const std::int64_t count = run.rows - r < kBatch ? run.rows - r : kBatch;
      for (std::int64_t i = 0; i < count; ++i) dst[i] = run.out + (r + i) * run.pitch;
      bytes_rows<W>(ctx, RowBatch{count, dst, run.in_rows + r}, 0, ctx.row_len, seg_dst);
    }
  } else {
#if PADND_SSE2
    MaskedRows<W>(ctx, *ctx.bordered).write_run(run.out, PointerRows{run.in_rows}, run.rows);
#endif
  }
}

}  // namespace padnd::detail
