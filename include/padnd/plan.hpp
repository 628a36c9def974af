// SPDX-License-Identifier: Apache-2.0
// Planning (all validation, once) and execution (row copies and fills, nothing else).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/inline_vector.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/parallel.hpp"
#include "padnd/tensor.hpp"

namespace padnd {

/// Output shape of `spec` applied to `input_shape`, with every canonical rule checked
/// (rank, interior, overflow, negative size, modes that need data). No data needed.
std::vector<std::int64_t> infer_shape(const std::vector<std::int64_t>& input_shape,
                                      const PadSpec& spec);

/// One axis of a plan after merging: output length, input stride and where each output position
/// reads from, in O(min(border, period)) memory: a middle run read straight from the input
/// (every mid_step-th position, the pad value between: interior padding), and for each border
/// one period of sources in Plan::border_table() (docs/design.md, "Plans"): border positions a
/// period apart read the same source, so farther positions fold onto the tabulated ones.
struct PlanAxis {
  static constexpr std::int64_t kPad = -1;  ///< source of a pad-value position
  std::int64_t out_len = 0;
  std::int64_t in_len = 0;     ///< length of the (cropped) input view along this axis
  std::int64_t in_stride = 0;  ///< bytes (byte/string storage) or elements (packed storage)
  /// Where this axis's entries start in Plan::border_table(): the sources (view index or kPad)
  /// of the last head_tabulated positions before the middle run, then of the first
  /// tail_tabulated positions after it.
  std::int64_t borders_at = 0;
  std::int64_t head_len = 0;  ///< positions before the middle run
  std::int64_t mid_len = 0;   ///< positions of the middle run
  std::int64_t mid_src = 0;   ///< view index of the middle run's first position
  std::int64_t mid_step = 1;  ///< positions from one middle source to the next (interior + 1)
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
  /// Plan::border_table().data().
  [[nodiscard]] std::int64_t source(std::int64_t o,
                                    const std::int64_t* border_table) const noexcept {
    const std::int64_t m = o - head_len;
    // One unsigned compare tests both ends of the middle run, the common case.
    if (static_cast<std::uint64_t>(m) < static_cast<std::uint64_t>(mid_len)) {
      if (mid_step == 1) return mid_src + m;
      return m % mid_step == 0 ? mid_src + m / mid_step : kPad;
    }
    if (m < 0) {
      std::int64_t i = o - (head_len - head_tabulated);
      if (i < 0) i = period - 1 - (-(i + 1)) % period;  // fold onto the tabulated period
      return border_table[borders_at + i];
    }
    std::int64_t t = m - mid_len;
    if (t >= tail_tabulated) t %= period;
    return border_table[borders_at + head_tabulated + t];
  }
};
/// A contiguous piece of the innermost output row.
struct RowSegment {
  enum class Kind : std::uint8_t {
    fill,        ///< every position takes the pad value
    copy,        ///< source src_begin + i (ascending run)
    reverse,     ///< source src_begin - i (descending run: reflect/symmetric borders)
    interleave,  ///< every step-th position takes src_begin + i / step, the rest the pad value
    gather,      ///< sources from Plan::gather_table(), starting at src_begin
    repeat,      ///< every position reads source src_begin (edge borders)
    /// positions of a border beyond its first period: segment src_begin and the step - 1 after
    /// it (the pattern, one period long), shifted by whole periods
    periodic,
  };
  Kind kind = Kind::fill;
  std::int64_t out_begin = 0;  ///< first output position in the row
  std::int64_t len = 0;        ///< positions
  /// copy / reverse / interleave / repeat: source index of the first position; gather: the
  /// first position's index into Plan::gather_table(); periodic: the pattern's first segment
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
};

namespace detail {
struct PlanAccess;  // planning and execution internals (src/plan_access.hpp)
}

/// A rectangular window of a plan's output: per output axis, the first position and the number
/// of positions (docs/design.md, "Windows").
struct Window {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> shape;
};

/// An immutable, validated, reusable plan. Holds no pointers to data. A plan of up to
/// kInlineRank input axes, kInlineAxes merged axes, kInlineBorders border sources and
/// kInlineSegments row segments, with no gather table and no axis passes, allocates nothing but
/// the fill pattern of a non-zero pad value.
class Plan {
 public:
  static constexpr std::size_t kInlineRank = 8;
  static constexpr std::size_t kInlineAxes = 8;  ///< axes after merging
  static constexpr std::size_t kInlineSegments = 4;
  static constexpr std::size_t kInlineBorders = 16;  ///< border table entries

  [[nodiscard]] const ElementType& type() const noexcept { return type_; }
  [[nodiscard]] std::span<const std::int64_t> input_shape() const noexcept { return in_shape_; }
  [[nodiscard]] std::span<const std::int64_t> output_shape() const noexcept { return out_shape_; }
  [[nodiscard]] std::int64_t output_elements() const noexcept { return out_elems_; }
  /// Bytes the output buffer needs (strings: count * sizeof(std::string)).
  [[nodiscard]] std::int64_t output_bytes() const noexcept { return out_bytes_; }
  /// Axes after cropping and merging, outermost first; the last one is the row.
  [[nodiscard]] std::span<const PlanAxis> axes() const noexcept { return axes_; }
  /// Every axis's border sources (PlanAxis::borders_at).
  [[nodiscard]] std::span<const std::int64_t> border_table() const noexcept { return borders_; }
  [[nodiscard]] std::span<const RowSegment> row_segments() const noexcept { return row_; }
  /// The row program as a BorderedRow, if it has that form.
  [[nodiscard]] const std::optional<BorderedRow>& bordered_row() const noexcept {
    return bordered_;
  }
  /// Sources of the row's gather segments, one per gathered position.
  [[nodiscard]] const std::vector<std::int64_t>& gather_table() const noexcept { return gather_; }
  /// Bytes per (possibly merged) element the row kernels move; 0 for packed types.
  [[nodiscard]] std::int64_t unit_bytes() const noexcept { return unit_bytes_; }
  /// Offset of the cropped view's first element: bytes, or elements for packed types.
  [[nodiscard]] std::int64_t view_offset() const noexcept { return view_offset_; }
  [[nodiscard]] Mode mode() const noexcept { return mode_; }
  /// Axis passes run after the engine, in order (empty for most plans).
  [[nodiscard]] const std::vector<AxisPass>& passes() const noexcept { return passes_; }
  /// Per input axis, pad elements before the original ones (plans with passes; else empty).
  [[nodiscard]] const std::vector<std::int64_t>& pad_begins() const noexcept { return begins_; }
  /// linear_ramp's arithmetic type (PadSpec::ramp_type).
  [[nodiscard]] const ElementType& ramp_type() const noexcept { return ramp_type_; }
  /// Bytes the plan occupies: the object and everything it allocated (caches bound by it).
  [[nodiscard]] std::int64_t memory_bytes() const noexcept;
  /// Human-readable description: merged axes, tables, segments (the CLI's `explain`).
  [[nodiscard]] std::string describe() const;

 private:
  friend struct detail::PlanAccess;

  ElementType type_;
  Mode mode_ = Mode::constant;
  InlineVector<std::int64_t, kInlineRank> in_shape_;
  InlineVector<std::int64_t, kInlineRank> out_shape_;
  std::int64_t in_elems_ = 0;
  std::int64_t out_elems_ = 0;
  std::int64_t out_bytes_ = 0;
  std::int64_t unit_bytes_ = 0;
  std::int64_t view_offset_ = 0;
  InlineVector<PlanAxis, kInlineAxes> axes_;
  InlineVector<std::int64_t, kInlineBorders> borders_;
  InlineVector<RowSegment, kInlineSegments> row_;
  std::vector<std::int64_t> gather_;
  std::optional<BorderedRow> bordered_;
  /// Pad value: strings its text, packed types the code in the low bits, byte storage the
  /// replicated pattern (empty for an all-zero value: execution uses a shared zero pattern).
  std::string fill_;
  int fill_byte_ = -1;  ///< byte storage: the byte every fill byte equals (memset), else -1
  /// A small output that is pad value outside the placed input: execution fills it whole and
  /// copies the input rows into place (plan.cpp, fits_fill_then_place).
  bool fill_then_place_ = false;
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

/// Validates `spec` against an input of `type`/`shape`/`byte_strides` (empty = C-contiguous)
/// and precomputes everything execution needs. Throws padnd::Error.
Plan make_plan(const ElementType& type, const std::vector<std::int64_t>& shape,
               const std::vector<std::int64_t>& byte_strides, const PadSpec& spec);

/// Writes the padded tensor into `out` (dense row-major, `out_bytes` available; string outputs
/// are arrays of constructed std::string). Throws before writing anything if `out_bytes` is
/// smaller than plan.output_bytes(). `in` must not overlap `out`. Safe to call concurrently
/// with the same plan.
void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
             const ExecOptions& options = {});

/// Writes window `window` of the plan's output into `out`, dense row-major of window.shape
/// (`out_bytes` available; a packed type's window starts at bit 0 of `out`). Costs O(window +
/// rank) whatever the output's size, except with numpy's value modes, whose windows are
/// computed over the box of the output they read (docs/design.md, "Windows"). Throws before
/// writing anything on a bad window or a small buffer. Safe to call concurrently.
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::int64_t out_bytes, const ExecOptions& options = {});

/// The same into a strided buffer: `out` points at window element [0, ..., 0] and axis k of the
/// window steps out_byte_strides[k] bytes (any sign; multiples of sizeof(std::string) for
/// strings; packed types take the dense form only). The caller guarantees that the addressed
/// elements are writable, distinct and do not overlap the input.
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::span<const std::int64_t> out_byte_strides,
                    const ExecOptions& options = {});

/// Plan::describe() of the plan that writes `window` (the CLI's `explain --window`).
std::string describe_window(const Plan& plan, const Window& window);

/// `options` for writing a freshly allocated output (never written before): Streaming::automatic
/// becomes never. The page faults that map a fresh buffer zero each page, in cache, just before
/// it is written, so cached stores hit; streamed ones would first have to evict those lines.
ExecOptions fresh_output_options(ExecOptions options);

/// One-shot: plan + allocate + execute (into the fresh output with fresh_output_options).
Tensor pad(const TensorView& input, const PadSpec& spec, const ExecOptions& options = {});

/// One-shot into a caller buffer.
void pad_into(const TensorView& input, const PadSpec& spec, void* out, std::int64_t out_bytes,
              const ExecOptions& options = {});

}  // namespace padnd
