// SPDX-License-Identifier: Apache-2.0
// What a Plan executes: merged axes, border tables, the row program and numpy's passes. Private
// to the library (the public Plan keeps shapes, byte counts, describe() and execution).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/inline_vector.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/plan.hpp"
#include "plan/axis_source.hpp"

namespace padnd::detail {

/// One axis of a plan after merging: output length, input stride and where each output position
/// reads from, in O(min(border, period)) memory: a middle run read straight from the input
/// (every mid_step-th position, the pad value between: interior padding), and for each border
/// one period of sources in Program::borders_ (docs/design.md §4, "Per-axis sources"): border
/// positions a period apart read the same source, so farther positions fold onto the tabulated
/// ones.
struct PlanAxis {
  static constexpr std::int64_t kPad = kPadSource;  ///< source of a pad-value position
  std::int64_t out_len = 0;
  std::int64_t in_len = 0;     ///< length of the (cropped) input view along this axis
  std::int64_t in_stride = 0;  ///< bytes (byte/string storage) or elements (packed storage)
  /// Where this axis's entries start in Program::borders_: the sources (view index or kPad)
  /// of the last head_tabulated positions before the middle run, then of the first
  /// tail_tabulated positions after it.
  std::int64_t borders_at = 0;
  std::int64_t head_len = 0;    ///< positions before the middle run
  std::int64_t mid_len = 0;     ///< positions of the middle run
  std::int64_t mid_src = 0;     ///< view index of the middle run's first position
  std::int64_t mid_step = 1;    ///< positions from one middle source to the next (interior + 1)
  std::int64_t out_stride = 0;  ///< bytes (elements for packed storage) between output positions
  std::int64_t period = 1;      ///< border positions this far apart read the same source
  std::int64_t head_tabulated = 0;  ///< min(head_len, period)
  std::int64_t tail_tabulated = 0;  ///< min(positions after the middle run, period)
  bool plain = false;               ///< the identity, no pad (mergeable; the middle is everything)

  /// Positions outside the middle run.
  [[nodiscard]] std::int64_t border_len() const noexcept { return out_len - mid_len; }
  /// Entries of the border table.
  [[nodiscard]] std::int64_t tabulated() const noexcept { return head_tabulated + tail_tabulated; }
  /// View index of output position `o` (in [0, out_len)), or kPad; `border_table` is
  /// Program::borders_.data().
  [[nodiscard]] std::int64_t source(std::int64_t o,
                                    const std::int64_t* border_table) const noexcept {
    return axis_source(*this, o, border_table, kPad);
  }
  [[nodiscard]] std::int64_t mid_divisor() const noexcept { return mid_step; }
  [[nodiscard]] std::int64_t period_divisor() const noexcept { return period; }
};
/// A contiguous piece of the innermost output row.
struct RowSegment {
  enum class Kind : std::uint8_t {
    fill,        ///< every position takes the pad value
    copy,        ///< source src_begin + i (ascending run)
    reverse,     ///< source src_begin - i (descending run: reflect/symmetric borders)
    interleave,  ///< every step-th position takes src_begin + i / step, the rest the pad value
    gather,      ///< sources from Program::gather_, starting at src_begin
    repeat,      ///< every position reads source src_begin (edge borders)
    /// positions of a border beyond its first period: segment src_begin and the step - 1 after
    /// it (the pattern, one period long), shifted by whole periods
    periodic,
  };
  Kind kind = Kind::fill;
  std::int64_t out_begin = 0;  ///< first output position in the row
  std::int64_t len = 0;        ///< positions
  /// copy / reverse / interleave / repeat: source index of the first position; gather: the
  /// first position's index into Program::gather_; periodic: the pattern's first segment
  std::int64_t src_begin = 0;
  /// interleave: positions from one source to the next (>= 2); periodic: pattern segments
  std::int64_t step = 1;
};

/// A row program of the most common form, begin border | copy | end border, reading a
/// contiguous input row (byte storage). Each border is the pad value, or a run of sources from
/// `src` moving by `step` per position: 0 repeats one element (edge), -1 runs backwards (reflect,
/// symmetric), +1 forwards (wrap). Execution writes such rows directly instead of through the
/// segment loop.
struct BorderedRow {
  struct Border {
    std::int64_t len = 0;   ///< positions
    std::int64_t src = -1;  ///< source of the first position, or -1 (PlanAxis::kPad): pad value
    std::int64_t step = 0;  ///< source change per position: 0, -1 or +1
  };
  Border begin;
  std::int64_t copy_src = 0;  ///< source of the first copied position
  std::int64_t copy_len = 0;  ///< copied positions
  Border end;
};

/// One axis padded the way numpy.pad does it, over the output after the input is placed: its
/// pad areas are written from the region numpy reads (_view_roi: earlier axes over their padded
/// length, later axes over their original elements). Plans use passes from the first axis whose
/// values the engine cannot produce (a value mode, odd reflection, a constant that differs from
/// PadSpec::value) through the last padded axis, in axis order.
struct AxisPass {
  std::size_t axis = 0;
  /// The axis's mode and numbers: constant values and ramp end values resolved to bytes, stat
  /// lengths clipped to the axis.
  AxisMode rule;
  std::int64_t begin = 0;   ///< pad elements before the original elements
  std::int64_t in_len = 0;  ///< original elements
  std::int64_t end = 0;     ///< pad elements after them
  /// numpy computes every lane of a ramp's side with (i / width) * delta once one lane's step
  /// delta / width is 0 (numpy gh-5437). A window's box holds some lanes only, so window
  /// execution finds this over the whole pass; unknown: the kernel finds it from its lanes.
  enum class ZeroStep : std::uint8_t { unknown, none, some };
  ZeroStep begin_zero_step = ZeroStep::unknown;
  ZeroStep end_zero_step = ZeroStep::unknown;
  /// linear_ramp: where the positions of each side that the lanes hold lie in the whole side (a
  /// window's box holds the window's positions only): `beyond` positions further from the edge,
  /// `skip` nearer it; the ramp spans begin + begin_beyond + begin_skip.
  std::int64_t begin_beyond = 0;
  std::int64_t end_beyond = 0;
  std::int64_t begin_skip = 0;
  std::int64_t end_skip = 0;
};

/// How a plan's output is written: chosen once at planning, from the plan's form alone; the
/// executor then checks only run-time facts (alignment, streaming, threads), in one place.
enum class Strategy : std::uint8_t {
  nothing,          ///< an empty output
  fill_then_place,  ///< a small constant pad: the whole output filled, the input rows placed
  bordered,         ///< rows border | copy | border (BorderedRow; masked rows when aligned)
  segments,         ///< any row program (RowSegment; staged when streamed)
  strings,          ///< std::string elements, assigned one by one
  packed,           ///< 4- and 2-bit elements, written through a bit writer
};

/// A plan's program, built by planning (src/plan/plan.cpp) and read by execution. Up to kInlineRank
/// input axes, kInlineAxes merged axes, kInlineBorders border sources and kInlineSegments row
/// segments, with no gather table and no axis passes, it allocates nothing.
struct Program {
  static constexpr std::size_t kInlineRank = Plan::kInlineRank;
  static constexpr std::size_t kInlineAxes = 8;  ///< axes after merging
  static constexpr std::size_t kInlineSegments = 4;
  static constexpr std::size_t kInlineBorders = 16;  ///< border table entries

  [[nodiscard]] Strategy strategy() const noexcept { return strategy_; }
  [[nodiscard]] std::span<const PlanAxis> axes() const noexcept { return axes_; }
  [[nodiscard]] std::span<const std::int64_t> border_table() const noexcept { return borders_; }
  [[nodiscard]] std::span<const RowSegment> row_segments() const noexcept { return row_; }
  [[nodiscard]] const std::optional<BorderedRow>& bordered_row() const noexcept {
    return bordered_;
  }
  [[nodiscard]] const std::vector<std::int64_t>& gather_table() const noexcept { return gather_; }
  /// Bytes per (possibly merged) element the row kernels move; 0 for packed types.
  [[nodiscard]] std::int64_t unit_bytes() const noexcept { return unit_bytes_; }
  /// Offset of the cropped view's first element: bytes, or elements for packed types.
  [[nodiscard]] std::int64_t view_offset() const noexcept { return view_offset_; }
  /// Axis passes run after the engine, in order (empty for most plans).
  [[nodiscard]] const std::vector<AxisPass>& passes() const noexcept { return passes_; }
  /// Per input axis, pad elements before the original ones (plans with passes; else empty).
  [[nodiscard]] const std::vector<std::int64_t>& pad_begins() const noexcept { return begins_; }
  /// linear_ramp's arithmetic type (PadSpec::ramp_type).
  [[nodiscard]] const ElementType& ramp_type() const noexcept { return ramp_type_; }
  /// Bytes an execution reads and writes (the whole input, whatever the window; saturated at
  /// INT64_MAX): Streaming::automatic compares it with the cache.
  [[nodiscard]] std::int64_t traffic_bytes() const noexcept { return traffic_bytes_; }

  std::int64_t unit_bytes_ = 0;
  std::int64_t view_offset_ = 0;
  std::int64_t traffic_bytes_ = 0;
  InlineVector<PlanAxis, kInlineAxes> axes_;
  InlineVector<std::int64_t, kInlineBorders> borders_;
  InlineVector<RowSegment, kInlineSegments> row_;
  std::vector<std::int64_t> gather_;     ///< the segments strategy's gather table
  std::optional<BorderedRow> bordered_;  ///< the bordered strategy's row
  /// Pad value: strings its text, packed types the code in the low bits, byte storage the
  /// replicated pattern (empty for an all-zero value: execution uses a shared zero pattern).
  std::string fill_;
  int fill_byte_ = -1;  ///< byte storage: the byte every fill byte equals (memset), else -1
  Strategy strategy_ = Strategy::nothing;
  std::vector<AxisPass> passes_;
  std::vector<std::int64_t> begins_;
  std::vector<std::int64_t> pass_lens_;  ///< per axis, original elements (plans with passes)
  ElementType ramp_type_ = DType::float64;
  // The request per input axis, kept so that any window of the output can be planned.
  InlineVector<AxisPad, kInlineRank> pads_;
  InlineVector<Mode, kInlineRank> engine_modes_;
  InlineVector<std::int64_t, kInlineRank> in_strides_;  ///< bytes (elements: packed storage)
  NegativeOrder negative_order_ = NegativeOrder::map_on_original;
};

}  // namespace padnd::detail
