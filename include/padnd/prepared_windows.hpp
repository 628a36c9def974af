// SPDX-License-Identifier: Apache-2.0
// Many windows of one padded output, with what they share computed once.
#pragma once

#include <cstdint>
#include <span>

#include "padnd/export.h"
#include "padnd/plan.hpp"
#include "padnd/tensor.hpp"

PADND_PUBLIC_BEGIN
namespace padnd {

/// Windows of one plan's output over one input, with what they share computed once
/// (docs/design.md, "Prepared windows"). With numpy's value modes, execute_window computes each
/// window over a box of the output, which reaches across a statistic's axis (up to the whole
/// output when it reads every element). Here the constructor computes one box, once: every
/// original element and, on each axis whose sides repeat one value per lane (a statistic, a
/// per-side constant, the edge), one position of each side; other axes whole. Each window is
/// then copied out of it: O(window). The box is kept to at most twice the input (with two more
/// positions per axis): where the axes it holds whole have wide pads, and for plans without
/// those modes or with linear_ramp (whose windows already compute their own positions), each
/// window is written from the input, as execute_window does. `plan` and `in` must outlive the
/// object; its windows may run concurrently from any number of threads.
class PreparedWindows {
 public:
  PreparedWindows(const Plan& plan, const void* in, const ExecOptions& options = {});

  /// execute_window(plan, in, window, out, out_bytes), from the prepared values.
  void execute_window(const Window& window, void* out, std::int64_t out_bytes) const;
  /// execute_window(plan, in, window, out, out_byte_strides), from the prepared values.
  void execute_window(const Window& window, void* out,
                      std::span<const std::int64_t> out_byte_strides) const;

  /// The part of the output the prepared values hold; empty (no axes) when windows are
  /// written from the input.
  [[nodiscard]] const Window& prepared_box() const { return box_; }
  /// Bytes the prepared values take (0 when windows are written from the input).
  [[nodiscard]] std::int64_t prepared_bytes() const { return values_.byte_size(); }

 private:
  /// A checked window from the prepared values, at `out_byte_strides`.
  void copy_window(const Window& window, void* out,
                   std::span<const std::int64_t> out_byte_strides) const;

  const Plan* plan_;
  const void* in_;
  ExecOptions options_;
  Window box_;
  Tensor values_;
};

}  // namespace padnd
PADND_PUBLIC_END
