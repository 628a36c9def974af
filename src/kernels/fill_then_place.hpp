// SPDX-License-Identifier: Apache-2.0
// Small constant pads: one fill of the whole output, then each input row copied into its place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "bytes_rows.hpp"
#include "moves.hpp"
#include "padnd/plan.hpp"

namespace padnd::detail {

/// Outputs of constant pads up to kFillThenPlaceMaxBytes, or up to kFillThenPlaceShortMaxBytes
/// when the input rows are at most kFillThenPlaceShortRowBytes long, are written by
/// fill_then_place: filling the bytes that the input then overwrites costs less, in cache, than
/// the row walk's work per row and per pad block. Measured on one thread, (64,7,7) float32 padded
/// by 1: 0.45 us against 3.1 us; (128,14,14): 6.0 against 10.6 us; with 224-byte rows, (8,56,56):
/// 5.2 against 3.4 us. The limit keeps them serial: from 256 KiB on, the row walk runs in threads.
constexpr std::int64_t kFillThenPlaceMaxBytes = std::int64_t{16} << 10;
constexpr std::int64_t kFillThenPlaceShortMaxBytes = std::int64_t{256} << 10;
constexpr std::int64_t kFillThenPlaceShortRowBytes = 64;

/// Whether a plan (byte storage, `unit_bytes` per position) can be written by fill_then_place:
/// every position outside the axes' middle runs is the pad value, and the row's middle run is
/// contiguous in the input and in the output.
inline bool fits_fill_then_place(std::span<const PlanAxis> axes, std::span<const std::int64_t> table,
                                 std::int64_t unit_bytes, std::int64_t out_bytes) {
  const PlanAxis& row = axes.back();
  const bool short_rows = row.mid_len * unit_bytes <= kFillThenPlaceShortRowBytes;
  if (out_bytes > (short_rows ? kFillThenPlaceShortMaxBytes : kFillThenPlaceMaxBytes) ||
      axes.size() > Plan::kInlineAxes || row.mid_step != 1 || row.in_stride != unit_bytes) {
    return false;
  }
  for (const std::int64_t s : table) {
    if (s != PlanAxis::kPad) return false;
  }
  return true;
}

/// Writes the plan's output: the pad value (fill_long's `fill_byte` and `pattern`) over all of
/// it, then the input row of every middle position of the outer axes into the row's middle run.
inline void fill_then_place(const Plan& plan, const std::byte* in, std::byte* out, int fill_byte,
                            const std::string& pattern) {
  fill_long(out, plan.output_bytes(), fill_byte, pattern);
  const std::span<const PlanAxis> axes = plan.axes();
  const PlanAxis& row = axes.back();
  const std::int64_t unit = plan.unit_bytes();
  const auto copy_bytes_n = static_cast<std::size_t>(row.mid_len * unit);
  if (copy_bytes_n == 0) return;
  const std::size_t outer = axes.size() - 1;
  // Per outer axis: sources in its middle run, and the bytes one source moves on in the output
  // and in the input.
  std::int64_t count[Plan::kInlineAxes];
  std::int64_t out_step[Plan::kInlineAxes];
  std::int64_t in_step[Plan::kInlineAxes];
  std::int64_t out_at = row.head_len * unit;
  std::int64_t in_at = plan.view_offset() + row.mid_src * unit;
  std::int64_t out_stride = row.out_len * unit;  // bytes per position of the axis
  for (std::size_t k = outer; k-- > 0;) {
    const PlanAxis& a = axes[k];
    count[k] = a.mid_len == 0 ? 0 : (a.mid_len - 1) / a.mid_step + 1;
    if (count[k] == 0) return;
    out_step[k] = a.mid_step * out_stride;
    in_step[k] = a.in_stride;
    out_at += a.head_len * out_stride;
    in_at += a.mid_src * a.in_stride;
    out_stride *= a.out_len;
  }
  if (outer == 0) {
    copy_bytes(out + out_at, in + in_at, copy_bytes_n);
    return;
  }
  // An odometer over the outer middle positions; the innermost outer axis is a loop of copies.
  std::int64_t index[Plan::kInlineAxes] = {};
  const std::size_t inner = outer - 1;
  for (;;) {
    for (std::int64_t i = 0; i < count[inner]; ++i) {
      copy_bytes(out + out_at + i * out_step[inner], in + in_at + i * in_step[inner], copy_bytes_n);
    }
    std::size_t k = inner;
    for (;;) {
      if (k-- == 0) return;
      out_at += out_step[k];
      in_at += in_step[k];
      if (++index[k] < count[k]) break;
      out_at -= count[k] * out_step[k];
      in_at -= count[k] * in_step[k];
      index[k] = 0;
    }
  }
}

}  // namespace padnd::detail
