// SPDX-License-Identifier: Apache-2.0
// Walking the output rows of a plan: which input row each one reads, or which pad block it is in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "padnd/plan.hpp"

namespace padnd::detail {

/// Visits the outer (non-row) axes in row-major order, from any starting row. It keeps the input
/// offset of every prefix of the outer axes, so a step recomputes only the axes that changed
/// (usually one), and it knows where a row that is padded because of an outer axis ends its pad
/// block: the rows up to the next step of that axis, which are contiguous in the output.
class OuterWalker {
 public:
  OuterWalker(const Plan& plan, std::int64_t first_row)
      : axes_(plan.axes()), border_table_(plan.border_table().data()), outer_(axes_.size() - 1) {
    if (outer_ > kInlineRank) spilled_.resize(3 * outer_ + 1);
    index_ = outer_ > kInlineRank ? spilled_.data() : inline_;
    rows_below_ = index_ + outer_;
    base_ = rows_below_ + outer_;
    std::int64_t rows = 1;
    for (std::size_t k = outer_; k-- > 0;) {
      rows_below_[k] = rows;
      rows *= axes_[k].out_len;
      index_[k] = first_row == 0 ? 0 : first_row / rows_below_[k] % axes_[k].out_len;
    }
    base_[0] = plan.view_offset();
    update_from(0);
  }

  /// Whether the current row is at a pad position of some outer axis.
  [[nodiscard]] bool pad() const { return pad_axis_ < outer_; }
  /// The current row's input offset (bytes, or elements for packed types); only if !pad().
  [[nodiscard]] std::int64_t offset() const { return base_[outer_]; }
  /// Rows from the current one to the end of its pad block; only if pad().
  [[nodiscard]] std::int64_t pad_rows() const {
    std::int64_t n = rows_below_[pad_axis_];
    for (std::size_t k = pad_axis_ + 1; k < outer_; ++k) n -= index_[k] * rows_below_[k];
    return n;
  }

  void next() {
    // The common step: the innermost outer axis moves on within its middle run.
    if (!pad() && run_rows() > 1) {
      ++index_[outer_ - 1];
      base_[outer_] += axes_[outer_ - 1].in_stride;
      return;
    }
    step(outer_);
  }
  /// Rows from the current one whose input rows follow each other evenly: `rows` (at least 1)
  /// rows, the first at input offset `offset`, each `stride` after the one before.
  struct Run {
    std::int64_t rows;
    std::int64_t offset;
    std::int64_t stride;
  };
  /// The run at the current row, at most `max_rows` long, and moves past it; only if !pad().
  /// Loops write a run with its offsets in registers: through the walker, every row's loads
  /// would wait for the previous row's offset to come back from memory.
  Run take_run(std::int64_t max_rows) {
    const Run run{std::min(max_rows, run_rows()), offset(), run_stride()};
    if (run.rows > 1) {
      index_[outer_ - 1] += run.rows - 1;
      base_[outer_] += (run.rows - 1) * run.stride;
    }
    next();
    return run;
  }

  /// Moves `n` rows into the current pad block, fewer than pad_rows(); only if pad().
  void advance_in_pad(std::int64_t n) {
    for (std::size_t k = outer_; n > 0 && k-- > pad_axis_ + 1;) {
      const std::int64_t at = index_[k] + n;
      index_[k] = at % axes_[k].out_len;
      n = at / axes_[k].out_len;
    }
  }
  /// Moves past the current pad block (pad_rows() rows); only if pad().
  void skip_pad_block() {
    for (std::size_t k = pad_axis_ + 1; k < outer_; ++k) index_[k] = 0;
    step(pad_axis_ + 1);
  }

 private:
  /// Rows from the current one on (at least 1) whose input rows follow each other run_stride()
  /// apart: the innermost outer axis steps through its middle run. Only if !pad().
  [[nodiscard]] std::int64_t run_rows() const {
    if (outer_ == 0) return 1;
    const PlanAxis& a = axes_[outer_ - 1];
    const std::int64_t i = index_[outer_ - 1];
    if (a.mid_step != 1 || i < a.head_len || i >= a.head_len + a.mid_len) return 1;
    return a.head_len + a.mid_len - i;
  }
  [[nodiscard]] std::int64_t run_stride() const {
    return outer_ == 0 ? 0 : axes_[outer_ - 1].in_stride;
  }

  /// Advances the row counter formed by axes [0, end), innermost first.
  void step(std::size_t end) {
    for (std::size_t k = end; k-- > 0;) {
      if (++index_[k] < axes_[k].out_len) {
        update_from(k);
        return;
      }
      index_[k] = 0;
    }
  }

  /// Recomputes the prefix offsets from axis k on; a pad position of an earlier axis still holds.
  void update_from(std::size_t k) {
    if (pad_axis_ < k) return;
    pad_axis_ = outer_;
    for (std::size_t j = k; j < outer_; ++j) {
      const PlanAxis& a = axes_[j];
      const std::int64_t s = a.plain ? index_[j] : a.source(index_[j], border_table_);
      if (s == PlanAxis::kPad) {
        pad_axis_ = j;
        return;
      }
      base_[j + 1] = base_[j] + s * a.in_stride;
    }
  }

  std::span<const PlanAxis> axes_;
  const std::int64_t* border_table_;
  std::size_t outer_;
  std::size_t pad_axis_ = 0;  ///< the first outer axis at a pad position, or outer_ if none
  static constexpr std::size_t kInlineRank = Plan::kInlineAxes;  // as the plan; deeper spill
  std::int64_t inline_[3 * kInlineRank + 1];  // every entry used is set by the constructor
  std::vector<std::int64_t> spilled_;
  std::int64_t* index_;       ///< position on each outer axis
  std::int64_t* rows_below_;  ///< rows per position of each outer axis
  std::int64_t* base_;        ///< base_[k]: input offset of axes [0, k) (valid up to pad_axis_)
};

}  // namespace padnd::detail
