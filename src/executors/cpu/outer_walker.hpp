// SPDX-License-Identifier: Apache-2.0
// Walking the output rows of a plan: which input row each one reads, or which pad block it is in.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "padnd/plan.hpp"
#include "plan/plan_access.hpp"

namespace padnd::detail {

/// Visits the outer (non-row) axes in row-major order, from any starting row. It keeps the input
/// offset of every prefix of the outer axes, so a step recomputes only the axes that changed
/// (usually one), and it knows where a row that is padded because of an outer axis ends its pad
/// block: the rows up to the next step of that axis, which are contiguous in the output.
class OuterWalker {
 public:
  OuterWalker(const Plan& plan, std::int64_t first_row)
      : axes_(detail::program(plan).axes()),
        border_table_(detail::program(plan).border_table().data()),
        outer_(axes_.size() - 1) {
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
    base_[0] = detail::program(plan).view_offset();
    if (outer_ > 0) list_rows(axes_[outer_ - 1]);
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
    // The common step: the innermost outer axis moves on within its run.
    if (!pad() && run_rows() > 1) {
      const std::int64_t i = ++index_[outer_ - 1];
      base_[outer_] = listed_ ? base_[outer_ - 1] + listed_offset_[i]
                              : base_[outer_] + axes_[outer_ - 1].in_stride;
      return;
    }
    step(outer_);
  }
  /// Rows from the current one that a loop can write with the input offsets in registers:
  /// `rows` (at least 1) rows, evenly spaced (row i at input offset offset + i * stride) or, on
  /// a listed axis, `planes` planes of rows / planes rows each, row i of plane p at
  /// offset + p * plane_stride + listed[i]. Every row (of the first plane) starts at an input
  /// offset in [lo, hi].
  struct Run {
    std::int64_t rows;
    std::int64_t offset;
    std::int64_t stride;
    const std::int64_t* listed;  ///< null: evenly spaced
    std::int64_t planes;
    std::int64_t plane_stride;
    std::int64_t lo;  ///< lowest input offset of a row (listed: of the first plane's rows)
    std::int64_t hi;  ///< highest
    /// Input offset of row i; only if planes == 1.
    [[nodiscard]] std::int64_t row_offset(std::int64_t i) const {
      assert(planes == 1);
      return offset + (listed != nullptr ? listed[i] : i * stride);
    }
  };
  /// The run at the current row, at most `max_rows` long, and moves past it; only if !pad().
  /// Loops write a run with its offsets in registers: through the walker, every row's loads
  /// would wait for the previous row's offset to come back from memory. With `whole_planes`, a
  /// run that starts a plane of a listed axis covers as many whole planes as the next axis out
  /// steps through evenly within max_rows (a small edge pad on one thread: all its planes at once).
  // Always inlined: out of line, a tiny pad would pay a call on each of its few rows.
  [[gnu::always_inline]] Run take_run(std::int64_t max_rows, bool whole_planes = false) {
    const std::int64_t rows = std::min(max_rows, run_rows());
    Run run{rows, offset(), run_stride(), nullptr, 1, 0, 0, 0};
    if (listed_) {
      run.listed = listed_offset_ + index_[outer_ - 1];
      run.offset = base_[outer_ - 1];
      run.lo = run.offset + listed_lo_;
      run.hi = run.offset + listed_hi_;
      const std::int64_t plane_rows = axes_[outer_ - 1].out_len;
      if (whole_planes && outer_ >= 2 && index_[outer_ - 1] == 0 && max_rows >= 2 * plane_rows) {
        const std::int64_t planes = std::min(max_rows / plane_rows, even_positions(outer_ - 2));
        if (planes >= 2) {
          run.rows = planes * plane_rows;
          run.planes = planes;
          run.plane_stride = axes_[outer_ - 2].in_stride;
          index_[outer_ - 2] += planes - 1;
          index_[outer_ - 1] = plane_rows - 1;
          step(outer_);  // on to the next plane: its offsets are recomputed
          return run;
        }
      }
    } else {
      const std::int64_t last = run.offset + (rows - 1) * run.stride;
      run.lo = std::min(run.offset, last);
      run.hi = std::max(run.offset, last);
    }
    if (rows > 1) {
      index_[outer_ - 1] += rows - 1;
      base_[outer_] = run.row_offset(rows - 1);
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
  /// Rows from the current one on (at least 1) that take_run can yield as one run: to the end
  /// of a listed axis, or those whose input rows follow each other run_stride() apart (the
  /// innermost outer axis steps through its middle run). Only if !pad().
  [[nodiscard]] std::int64_t run_rows() const {
    if (outer_ == 0) return 1;
    if (listed_) return axes_[outer_ - 1].out_len - index_[outer_ - 1];
    return even_positions(outer_ - 1);
  }
  /// Positions from the current one on outer axis k (at least 1) whose sources go up by one:
  /// the axis steps through its middle run.
  [[nodiscard]] std::int64_t even_positions(std::size_t k) const {
    const PlanAxis& a = axes_[k];
    const std::int64_t i = index_[k];
    if (a.mid_step != 1 || i < a.head_len || i >= a.head_len + a.mid_len) return 1;
    return a.head_len + a.mid_len - i;
  }
  [[nodiscard]] std::int64_t run_stride() const {
    return outer_ == 0 ? 0 : axes_[outer_ - 1].in_stride;
  }

  /// Lists the rows of the innermost outer axis `a` when it is short, padded, and every border
  /// position reads the input (edge, reflect, symmetric, wrap): then a run reaches through the
  /// borders to the end of the axis, instead of stopping where the even spacing does
  /// (an edge-padded 16-row plane is one run, not three).
  void list_rows(const PlanAxis& a) {
    if (a.plain || a.mid_step != 1 || a.out_len > kListedMax || a.border_len() == 0) return;
    for (std::int64_t i = 0; i < a.tabulated(); ++i) {
      if (border_table_[a.borders_at + i] == PlanAxis::kPad) return;
    }
    listed_ = true;
    listed_lo_ = std::numeric_limits<std::int64_t>::max();
    listed_hi_ = std::numeric_limits<std::int64_t>::min();
    for (std::int64_t o = 0; o < a.out_len; ++o) {
      listed_offset_[o] = a.source(o, border_table_) * a.in_stride;
      listed_lo_ = std::min(listed_lo_, listed_offset_[o]);
      listed_hi_ = std::max(listed_hi_, listed_offset_[o]);
    }
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
  static constexpr std::size_t kInlineRank = Program::kInlineAxes;  // as the plan; deeper spill
  std::int64_t inline_[3 * kInlineRank + 1];  // every entry used is set by the constructor
  std::vector<std::int64_t> spilled_;
  static constexpr std::int64_t kListedMax = 64;  ///< longest listed axis
  bool listed_ = false;                           ///< the innermost outer axis is listed
  std::int64_t listed_offset_[kListedMax];  ///< input offset of each position's row (list_rows)
  std::int64_t listed_lo_ = 0;              ///< lowest of listed_offset_
  std::int64_t listed_hi_ = 0;              ///< highest
  std::int64_t* index_;                     ///< position on each outer axis
  std::int64_t* rows_below_;                ///< rows per position of each outer axis
  std::int64_t* base_;  ///< base_[k]: input offset of axes [0, k) (valid up to pad_axis_)
};

}  // namespace padnd::detail
