// SPDX-License-Identifier: Apache-2.0
// Small constant pads: one fill of the whole output, then each input row copied into its place
// (chosen at planning: plan.cpp, fits_fill_then_place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "executors/cpu/kernels/bytes_rows.hpp"
#include "executors/cpu/kernels/moves.hpp"
#include "padnd/plan.hpp"
#include "plan/plan_access.hpp"

namespace padnd::detail {

/// Writes the plan's output: the pad value (fill_long's `fill_byte` and `pattern`) over all of
/// it, then the input row of every middle position of the outer axes into the row's middle run.
/// Serial, with cached stores whatever ExecOptions say: the output is at most 256 KiB.
inline void fill_then_place(const Plan& plan, const std::byte* in, std::byte* out, int fill_byte,
                            const std::string& pattern) {
  fill_long(out, plan.output_bytes(), fill_byte, pattern);
  const std::span<const PlanAxis> axes = detail::program(plan).axes();
  const PlanAxis& row = axes.back();
  const std::int64_t unit = detail::program(plan).unit_bytes();
  const auto row_copy_bytes = static_cast<std::size_t>(row.mid_len * unit);
  if (row_copy_bytes == 0) return;
  const std::size_t outer = axes.size() - 1;
  // Per outer axis: sources in its middle run, and the bytes one source moves on in the output
  // and in the input.
  std::int64_t count[Program::kInlineAxes];
  std::int64_t out_step[Program::kInlineAxes];
  std::int64_t in_step[Program::kInlineAxes];
  std::int64_t out_at = row.head_len * unit;
  std::int64_t in_at = detail::program(plan).view_offset() + row.mid_src * unit;
  std::int64_t out_stride = row.out_len * unit;  // bytes per position of the axis
  for (std::size_t k = outer; k-- > 0;) {
    const PlanAxis& a = axes[k];
    count[k] = a.mid_len == 0 ? 0 : (a.mid_len - 1) / a.mid_step + 1;
    if (count[k] == 0) return;
    // One source: its step is never taken (and interior + 1 times the stride may not fit).
    out_step[k] = count[k] > 1 ? a.mid_step * out_stride : 0;
    in_step[k] = a.in_stride;
    out_at += a.head_len * out_stride;
    in_at += a.mid_src * a.in_stride;
    out_stride *= a.out_len;
  }
  if (outer == 0) {
    copy_bytes(out + out_at, in + in_at, row_copy_bytes);
    return;
  }
  // An odometer over the outer middle positions; the innermost outer axis is a loop of copies.
  std::int64_t index[Program::kInlineAxes] = {};
  const std::size_t inner = outer - 1;
  for (;;) {
    for (std::int64_t i = 0; i < count[inner]; ++i) {
      copy_bytes(out + out_at + i * out_step[inner], in + in_at + i * in_step[inner],
                 row_copy_bytes);
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
