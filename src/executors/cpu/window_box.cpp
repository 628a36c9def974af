// SPDX-License-Identifier: Apache-2.0
// The box of the output that a window of numpy's value modes is computed over (docs/design.md,
// "Windows"): what it holds, its plan and ramp rules, and windows copied out of it.
#include "executors/cpu/window_box.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "executors/cpu/engine.hpp"
#include "executors/cpu/kernels/bytes_rows.hpp"
#include "executors/cpu/value_modes/passes.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "padnd/tensor.hpp"
#include "plan/plan_access.hpp"

namespace padnd {
namespace {

using detail::AxisPass;

using detail::compute_box;
using detail::copy_out_of_box;
using detail::dense_strides;
using detail::element_unit;
using detail::empty_window;
using detail::execute_through_box;
using detail::PlanAccess;
using detail::uniform_sides;
using detail::window_box;
using Ints = InlineVector<std::int64_t, Plan::kInlineRank>;

/// Original elements next to the edge that a side's values read (narrows): a statistic's
/// stat-length elements, else the edge element (kept for a constant too, so that the box holds
/// an original element of the axis).
std::int64_t side_reads(const AxisPass& pass, bool begin_side) {
  const Mode mode = pass.rule.mode;
  if (mode == Mode::constant || mode == Mode::edge || mode == Mode::linear_ramp) return 1;
  return std::max<std::int64_t>(1,
                                begin_side ? pass.rule.begin_stat_elems : pass.rule.end_stat_elems);
}

/// Whether a window's box holds, on `pass`'s axis, only what the sides it touches read: their
/// original elements next to the edge, and one pad position of a uniform side or the window's
/// positions of a ramp's side, placed next to the edge (a ramp's value depends on the position
/// only through its place in the side, AxisPass::begin_beyond and begin_skip).
bool narrows(const AxisPass& pass) {
  return uniform_sides(pass) || (pass.rule.mode == Mode::linear_ramp && pass.in_len > 0);
}

/// Whether `window` holds pad positions of `pass`'s axis that its box holds elsewhere (narrows).
bool moves_sides(const AxisPass& pass, const Window& window) {
  const std::int64_t first = window.start[pass.axis];
  const std::int64_t stop = first + window.shape[pass.axis];
  return narrows(pass) && (first < pass.begin || stop > pass.begin + pass.in_len);
}

/// Pad positions of each side of a narrowing pass's axis (narrows) that the box of window
/// positions [first, stop) holds next to the edge: one of a uniform side, the window's of a
/// ramp's; none of a side the window does not touch.
struct HeldSides {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
HeldSides held_sides(const AxisPass& pass, std::int64_t first, std::int64_t stop) {
  const bool uniform = uniform_sides(pass);
  const std::int64_t original_stop = pass.begin + pass.in_len;
  HeldSides held;
  if (first < pass.begin) held.begin = uniform ? 1 : std::min(stop, pass.begin) - first;
  if (stop > original_stop) held.end = uniform ? 1 : stop - std::max(first, original_stop);
  return held;
}

/// The box of a narrowing pass's axis (narrows): the window's original positions, and for each
/// side the window holds, its held pad positions and the original elements they read.
std::pair<std::int64_t, std::int64_t> side_range(const AxisPass& pass, std::int64_t first,
                                                 std::int64_t stop) {
  const HeldSides held = held_sides(pass, first, stop);
  const std::int64_t original_stop = pass.begin + pass.in_len;
  std::int64_t lo = std::max(first, pass.begin);
  std::int64_t hi = std::min(stop, original_stop);
  if (lo >= hi) {  // no original position in the window: start from an empty range
    lo = std::numeric_limits<std::int64_t>::max();
    hi = std::numeric_limits<std::int64_t>::min();
  }
  if (held.begin > 0) {
    lo = std::min(lo, pass.begin - held.begin);
    hi = std::max(hi, pass.begin + side_reads(pass, true));
  }
  if (held.end > 0) {
    lo = std::min(lo, original_stop - side_reads(pass, false));
    hi = std::max(hi, original_stop + held.end);
  }
  return {lo, hi};
}

/// Whether the window [first, stop) holds, on each side of an odd reflection, positions of that
/// side's first chunk only. numpy extends both sides in turns, chunk by chunk, each chunk
/// mirrored from what is already there (odd_reflect_lane); the first one mirrors original
/// elements alone, so a box with just the window's pad positions computes the same values.
bool in_first_chunks(const AxisPass& pass, std::int64_t first, std::int64_t stop) {
  if (pass.in_len <= 0) return false;
  if (pass.in_len == 1) return true;  // every position is the edge element
  const std::int64_t chunk = pass.rule.mode == Mode::symmetric ? pass.in_len : pass.in_len - 1;
  return pass.begin - first <= chunk && stop - (pass.begin + pass.in_len) <= chunk;
}

/// Sets where the side positions a box pass holds lie in the sides of `whole`, the plan's pass
/// (AxisPass::begin_beyond, begin_skip): a ramp's are the window's; others', next to the edge.
void place_ramp_sides(const AxisPass& whole, const Window& window, AxisPass& pass) {
  const std::int64_t first = window.start[whole.axis];
  const std::int64_t stop = first + window.shape[whole.axis];
  const std::int64_t original_stop = whole.begin + whole.in_len;
  pass.begin_skip = pass.end_skip = 0;
  if (narrows(whole) && !uniform_sides(whole)) {
    if (first < whole.begin) pass.begin_skip = whole.begin - std::min(stop, whole.begin);
    if (stop > original_stop) pass.end_skip = std::max(first, original_stop) - original_stop;
  }
  pass.begin_beyond = whole.begin - pass.begin - pass.begin_skip;
  pass.end_beyond = whole.end - pass.end - pass.end_skip;
}

/// Per pass of a plan: its ramp's zero-step rule on the begin and the end side.
using ZeroSteps = std::pair<AxisPass::ZeroStep, AxisPass::ZeroStep>;

/// The plan that writes the dense `box` of `plan`'s output, passes included, reading its input
/// from `origin_bytes` into the input (execute_window); `steps` (empty, or one per pass) set the
/// passes' ramp rules.
Plan box_plan(const Plan& plan, const Window& window, const Window& box,
              std::int64_t origin_bytes = 0, std::span<const ZeroSteps> steps = {}) {
  Plan p = PlanAccess::window(plan, box.start, box.shape, {}, origin_bytes);
  if (detail::program(plan).passes().empty()) return p;
  const std::size_t rank = box.start.size();
  std::vector<std::int64_t> begins(rank);
  std::vector<std::int64_t> lens(rank);
  for (std::size_t k = 0; k < rank; ++k) {  // the original elements, in box positions
    const std::int64_t first = detail::program(plan).pad_begins()[k] - box.start[k];
    const std::int64_t stop = first + PlanAccess::pass_lengths(plan)[k];
    begins[k] = std::clamp<std::int64_t>(first, 0, box.shape[k]);
    lens[k] = std::clamp<std::int64_t>(stop, 0, box.shape[k]) - begins[k];
  }
  std::vector<AxisPass> passes;
  for (std::size_t i = 0; i < detail::program(plan).passes().size(); ++i) {
    AxisPass pass = detail::program(plan).passes()[i];
    if (!steps.empty()) std::tie(pass.begin_zero_step, pass.end_zero_step) = steps[i];
    const std::size_t k = pass.axis;
    pass.begin = begins[k];
    pass.in_len = lens[k];
    pass.end = box.shape[k] - begins[k] - lens[k];
    place_ramp_sides(detail::program(plan).passes()[i], window, pass);
    // A side the box does not hold may read more original elements than the box has.
    pass.rule.begin_stat_elems = std::min(pass.rule.begin_stat_elems, lens[k]);
    pass.rule.end_stat_elems = std::min(pass.rule.end_stat_elems, lens[k]);
    if (pass.begin > 0 || pass.end > 0) passes.push_back(pass);  // others write nothing here
  }
  PlanAccess::set_passes(p, std::move(passes), std::move(begins), std::move(lens));
  return p;
}

/// Copies the `shape` elements at `src` (byte strides src_strides) to `dst` (dst_strides).
void copy_region(const ElementType& type, const std::byte* src, const Ints& src_strides,
                 std::byte* dst, std::span<const std::int64_t> dst_strides, const Ints& shape) {
  const std::size_t rank = shape.size();
  const std::int64_t unit = element_unit(type);
  const bool strings = type.storage() == Storage::string;
  const std::int64_t row_len = rank == 0 ? 1 : shape[rank - 1];
  const std::int64_t src_step = rank == 0 ? unit : src_strides[rank - 1];
  const std::int64_t dst_step = rank == 0 ? unit : dst_strides[rank - 1];
  Ints index(rank);
  for (;;) {
    if (!strings && src_step == unit && dst_step == unit) {
      std::memcpy(dst, src, static_cast<std::size_t>(row_len * unit));
    } else if (!strings && src_step == 0 && dst_step == unit) {
      detail::repeat_unit<0>(dst, src, row_len, unit);
    } else {
      for (std::int64_t i = 0; i < row_len; ++i) {
        if (strings) {
          *reinterpret_cast<std::string*>(dst + i * dst_step) =
              *reinterpret_cast<const std::string*>(src + i * src_step);
        } else {
          std::memcpy(dst + i * dst_step, src + i * src_step, static_cast<std::size_t>(unit));
        }
      }
    }
    std::size_t k = rank == 0 ? 0 : rank - 1;
    for (;;) {  // an odometer over the outer axes
      if (k-- == 0) return;
      src += src_strides[k];
      dst += dst_strides[k];
      if (++index[k] < shape[k]) break;
      src -= shape[k] * src_strides[k];
      dst -= shape[k] * dst_strides[k];
      index[k] = 0;
    }
  }
}

/// The dense buffer of `box`; an allocation failure says what it is for.
Tensor box_buffer(const Plan& plan, const Window& box) {
  try {
    return Tensor::uninitialized(plan.type(), box.shape);
  } catch (const Error& e) {
    if (e.code() != Errc::out_of_memory) throw;
    throw Error(Errc::out_of_memory, std::string(e.what()) +
                                         ": the box of the output that numpy's value modes "
                                         "compute windows from");
  }
}

/// A side of a ramp pass whose lanes a box holds only in part, and the window of the output
/// that holds the edge elements of all the pass's lanes on that side.
struct RampSide {
  std::size_t pass_index = 0;
  bool begin_side = true;
  Window edges;
};

/// The lanes of `pass` (numpy's _view_roi) as a window of the output: earlier axes over their
/// padded length, later axes over their original elements.
Window pass_lanes(const Plan& plan, const AxisPass& pass) {
  const std::span<const std::int64_t> out = plan.output_shape();
  Window lanes{std::vector<std::int64_t>(out.size(), 0), {out.begin(), out.end()}};
  for (std::size_t j = pass.axis + 1; j < out.size(); ++j) {
    lanes.start[j] = detail::program(plan).pad_begins()[j];
    lanes.shape[j] = PlanAccess::pass_lengths(plan)[j];
  }
  return lanes;
}

/// The ramp sides whose zero-step rule (AxisPass::ZeroStep) `box` cannot see: it holds pad
/// positions of the side but not every lane of the pass.
std::vector<RampSide> partial_ramp_sides(const Plan& plan, const Window& box) {
  std::vector<RampSide> sides;
  const std::vector<AxisPass>& passes = detail::program(plan).passes();
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const AxisPass& pass = passes[i];
    const std::size_t k = pass.axis;
    if (pass.rule.mode != Mode::linear_ramp || pass.in_len == 0) continue;
    const Window lanes = pass_lanes(plan, pass);
    // No lanes (a later axis has no original elements): nothing to decide, nothing to compute.
    if (std::find(lanes.shape.begin(), lanes.shape.end(), 0) != lanes.shape.end()) continue;
    bool all_lanes = true;
    for (std::size_t j = 0; j < lanes.start.size(); ++j) {
      all_lanes =
          all_lanes && (j == k || (box.start[j] <= lanes.start[j] &&
                                   box.start[j] + box.shape[j] >= lanes.start[j] + lanes.shape[j]));
    }
    if (all_lanes) continue;
    const std::int64_t original_stop = pass.begin + pass.in_len;
    for (const bool begin_side : {true, false}) {
      const bool holds_side = begin_side
                                  ? pass.begin > 0 && box.start[k] < pass.begin
                                  : pass.end > 0 && box.start[k] + box.shape[k] > original_stop;
      if (!holds_side) continue;
      RampSide side{i, begin_side, lanes};
      side.edges.start[k] = begin_side ? pass.begin : original_stop - 1;
      side.edges.shape[k] = 1;
      sides.push_back(std::move(side));
    }
  }
  return sides;
}

/// Elements of a ramp side's edge window computed at a time: its lanes can be as many as an
/// earlier axis's padded length, so the buffer is bounded, not the work.
constexpr std::int64_t kEdgePieceElems = std::int64_t{1} << 16;

/// Calls visit(piece) on consecutive pieces of `w` (no axis empty) of at most kEdgePieceElems
/// elements (one, at least) until it returns true; returns whether it did. The axes after
/// `cut` are whole in every piece, `cut` goes in runs, the axes before it an index at a time.
template <class Visit>
bool any_edge_piece(const Window& w, Visit&& visit) {
  std::size_t cut = w.shape.size();
  std::int64_t inner = 1;
  while (cut > 0 && w.shape[cut - 1] <= kEdgePieceElems / inner) inner *= w.shape[--cut];
  if (cut-- == 0) return visit(w);
  const std::int64_t run = std::max<std::int64_t>(1, kEdgePieceElems / inner);
  Window piece = w;
  std::fill(piece.shape.begin(), piece.shape.begin() + static_cast<std::ptrdiff_t>(cut), 1);
  for (;;) {
    for (std::int64_t at = 0; at < w.shape[cut]; at += run) {
      piece.start[cut] = w.start[cut] + at;
      piece.shape[cut] = std::min(run, w.shape[cut] - at);
      if (visit(piece)) return true;
    }
    for (std::size_t k = cut;;) {  // the next index of the axes before `cut`
      if (k-- == 0) return false;
      if (++piece.start[k] < w.start[k] + w.shape[k]) break;
      piece.start[k] = w.start[k];
    }
  }
}

/// Per pass of `plan`, its ramp rules for `box`: those of the sides `box` sees in part are found
/// over the whole pass, from their edge elements computed as windows themselves, a piece at a
/// time, until one lane has a zero step.
std::vector<ZeroSteps> box_zero_steps(const Plan& plan, const Window& box, const void* in,
                                      std::int64_t origin_bytes, const ExecOptions& options) {
  const std::vector<RampSide> sides = partial_ramp_sides(plan, box);
  if (sides.empty()) return {};
  std::vector<ZeroSteps> steps(detail::program(plan).passes().size());
  for (const RampSide& side : sides) {
    const AxisPass& pass = detail::program(plan).passes()[side.pass_index];
    const bool some = any_edge_piece(side.edges, [&](const Window& piece) {
      Tensor edges = box_buffer(plan, piece);
      execute_through_box(plan, in, origin_bytes, piece, edges.data(),
                          dense_strides(plan, piece.shape), options);
      return detail::ramp_zero_step(plan, pass, side.begin_side,
                                    static_cast<std::byte*>(edges.data()),
                                    element_count(piece.shape));
    });
    const auto rule = some ? AxisPass::ZeroStep::some : AxisPass::ZeroStep::none;
    (side.begin_side ? steps[side.pass_index].first : steps[side.pass_index].second) = rule;
  }
  return steps;
}

/// A piece of one axis of a window copied out of its box: `len` window positions from `at`
/// read box positions from `from` on, or all the one at `from` (a uniform side).
struct Piece {
  std::int64_t at = 0;
  std::int64_t len = 0;
  std::int64_t from = 0;
  bool repeats = false;
};
using Pieces = InlineVector<Piece, 3>;

/// Axis k of `window` as pieces of `box`: the positions of a uniform side read the one the box
/// holds, a ramp side's the ones the box holds next to the edge.
Pieces axis_pieces(const Plan& plan, const Window& box, const Window& window, std::size_t k) {
  const std::int64_t first = window.start[k];
  const std::int64_t stop = first + window.shape[k];
  const std::int64_t lo = box.start[k];
  const auto& passes = detail::program(plan).passes();
  const auto pass = std::find_if(passes.begin(), passes.end(), [&](const AxisPass& p) {
    return p.axis == k && moves_sides(p, window);
  });
  if (pass == passes.end()) return {Piece{0, stop - first, first - lo, false}};
  const std::int64_t original_stop = pass->begin + pass->in_len;
  Pieces pieces;
  const auto add = [&](std::int64_t a, std::int64_t b, std::int64_t from, bool repeats) {
    if (a < b) pieces.push_back(Piece{a - first, b - a, from, repeats});
  };
  const bool repeats = uniform_sides(*pass);
  add(first, std::min(stop, pass->begin), pass->begin - held_sides(*pass, first, stop).begin - lo,
      repeats);
  const std::int64_t middle = std::max(first, pass->begin);
  add(middle, std::min(stop, original_stop), middle - lo, false);
  add(std::max(first, original_stop), stop, original_stop - lo, repeats);
  return pieces;
}

/// The smallest window holding `a` and `b` (either may be empty: no reads).
Window bounding(const Window& a, const Window& b) {
  if (empty_window(a)) return b;
  if (empty_window(b)) return a;
  Window both = a;
  for (std::size_t k = 0; k < a.start.size(); ++k) {
    both.start[k] = std::min(a.start[k], b.start[k]);
    both.shape[k] = std::max(a.start[k] + a.shape[k], b.start[k] + b.shape[k]) - both.start[k];
  }
  return both;
}

}  // namespace

namespace detail {

/// The peak of the buffers execute_through_box holds at once for `window`: each piece of each
/// partly seen ramp side's edge elements, with what computing it holds, one after another;
/// then the box.
std::int64_t box_work_bytes(const Plan& plan, const Window& window) {
  const auto buffer_bytes = [&](const Window& w) {
    return storage_bytes(plan.type(), element_count(w.shape));
  };
  const Window box = window_box(plan, window);
  std::int64_t peak = buffer_bytes(box);
  for (const RampSide& side : partial_ramp_sides(plan, box)) {
    any_edge_piece(side.edges, [&](const Window& piece) {
      const std::optional<std::int64_t> held =
          detail::checked_add(buffer_bytes(piece), box_work_bytes(plan, piece));
      if (!held) throw Error(Errc::overflow, "window: its working memory overflows int64 bytes");
      peak = std::max(peak, *held);
      return false;
    });
  }
  return peak;
}

/// Writes the window through a dense buffer of its box: numpy's passes read beyond the window.
/// box_work_bytes counts the buffers this holds.
void execute_through_box(const Plan& plan, const void* in, std::int64_t origin_bytes,
                         const Window& window, void* out, std::span<const std::int64_t> out_strides,
                         const ExecOptions& options) {
  const Window box = window_box(plan, window);
  const Tensor values = compute_box(plan, in, origin_bytes, window, box, options);
  copy_out_of_box(plan, box, static_cast<const std::byte*>(values.data()), window,
                  static_cast<std::byte*>(out), out_strides);
}

/// The part of the input a checked window reads (input_window), with what the ramp rules of
/// its box read.
Window window_reads(const Plan& plan, const Window& window) {
  const std::size_t rank = plan.input_shape().size();
  const Window none{std::vector<std::int64_t>(rank, 0), std::vector<std::int64_t>(rank, 0)};
  if (empty_window(window) || PlanAccess::input_elements(plan) == 0) return none;
  const Window box = detail::program(plan).passes().empty() ? window : window_box(plan, window);
  Window reads = none;
  for (std::size_t k = 0; k < rank; ++k) {
    const auto [first, last] = PlanAccess::source_range(plan, k, box.start[k], box.shape[k]);
    if (last < first) {  // this axis's positions are all pad value
      reads = none;
      break;
    }
    reads.start[k] = first;
    reads.shape[k] = last - first + 1;
  }
  for (const RampSide& side : partial_ramp_sides(plan, box)) {
    reads = bounding(reads, window_reads(plan, side.edges));
  }
  return reads;
}

/// Whether every pad position on one side of `pass`'s axis ends up with the same value along
/// the axis: the side gets one value per lane (a constant, the edge element, a statistic), and
/// later passes act along other axes, lane by lane (docs/design.md §5c).
bool uniform_sides(const AxisPass& pass) {
  switch (pass.rule.mode) {
    case Mode::constant:
    case Mode::edge:
    case Mode::maximum:
    case Mode::mean:
    case Mode::median:
    case Mode::minimum:
      return !pass.rule.odd && pass.in_len > 0;
    default:
      return false;
  }
}

/// The part of the output a window of a plan with passes reads, on each pass's axis where the
/// window holds pad positions: what the sides read (side_range) for uniform sides and ramps;
/// for odd reflection, the whole axis unless the window is in the sides' first chunks; else the
/// window widened over the axis's original elements, which an index mode's pads copy.
Window window_box(const Plan& plan, const Window& window) {
  Window box = window;
  for (const AxisPass& pass : detail::program(plan).passes()) {
    const std::size_t k = pass.axis;
    const std::int64_t first = window.start[k];
    const std::int64_t stop = first + window.shape[k];
    const std::int64_t original_stop = pass.begin + pass.in_len;
    if (first >= pass.begin && stop <= original_stop) continue;
    std::int64_t lo = std::min(first, pass.begin);
    std::int64_t hi = std::max(stop, original_stop);
    if (narrows(pass)) {
      std::tie(lo, hi) = side_range(pass, first, stop);
    } else if (pass.rule.odd && !in_first_chunks(pass, first, stop)) {
      lo = 0;
      hi = original_stop + pass.end;
    } else if (pass.rule.mode == Mode::linear_ramp) {
      if (first < pass.begin) lo = 0;
      if (stop > original_stop) hi = original_stop + pass.end;
    }
    box.start[k] = lo;
    box.shape[k] = hi - lo;
  }
  return box;
}

void copy_out_of_box(const Plan& plan, const Window& box, const std::byte* values,
                     const Window& window, std::byte* out,
                     std::span<const std::int64_t> out_strides) {
  const std::size_t rank = box.shape.size();
  const WindowInts box_strides = dense_strides(plan, box.shape);
  std::vector<Pieces> pieces(rank);
  for (std::size_t k = 0; k < rank; ++k) pieces[k] = axis_pieces(plan, box, window, k);
  Ints choice(rank);  // the piece of each axis being copied: an odometer over them
  for (;;) {
    const std::byte* src = values;
    std::byte* dst = out;
    Ints src_strides(rank);
    Ints shape(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      const Piece& p = pieces[k][static_cast<std::size_t>(choice[k])];
      src += p.from * box_strides[k];
      dst += p.at * out_strides[k];
      src_strides[k] = p.repeats ? 0 : box_strides[k];
      shape[k] = p.len;
    }
    copy_region(plan.type(), src, src_strides, dst, out_strides, shape);
    for (std::size_t k = rank;;) {
      if (k-- == 0) return;
      if (++choice[k] < static_cast<std::int64_t>(pieces[k].size())) break;
      choice[k] = 0;
    }
  }
}

Tensor compute_box(const Plan& plan, const void* in, std::int64_t origin_bytes,
                   const Window& window, const Window& box, const ExecOptions& options) {
  const Plan p = box_plan(plan, window, box, origin_bytes,
                          box_zero_steps(plan, box, in, origin_bytes, options));
  Tensor values = box_buffer(plan, box);
  run_engine(p, in, values.data(), fresh_output_options(options));
  run_passes(p, static_cast<std::byte*>(values.data()));
  return values;
}

std::string describe_box(const Plan& plan, const Window& window, const Window& box) {
  return box_plan(plan, window, box).describe();
}

}  // namespace detail
}  // namespace padnd
