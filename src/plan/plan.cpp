// SPDX-License-Identifier: Apache-2.0
// Planning: validate once, crop as a view, merge axes, tabulate each axis's borders.
#include "padnd/plan.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/checked.hpp"
#include "core/message_text.hpp"
#include "padnd/error.hpp"
#include "plan/index_map.hpp"
#include "plan/plan_access.hpp"
#include "plan/plan_internal.hpp"
#include "plan/program.hpp"

namespace padnd {
namespace {

using detail::BorderedRow;
using detail::PlanAxis;
using detail::Program;
using detail::RowSegment;

using detail::AxisRule;
using detail::kPadIndex;

/// Largest unit that contiguous plain innermost axes are folded into.
constexpr std::int64_t kMaxUnitBytes = 4096;

using detail::axis_text;

/// The caller's numbers for one axis, before any arithmetic on them (docs/spec.md §2.2).
void check_axis_arguments(std::size_t axis, std::int64_t in_len, const AxisPad& p, Mode axis_mode) {
  if (in_len < 0) {
    throw Error(Errc::invalid_argument,
                "shape: " + axis_text(axis) + " has negative length " + std::to_string(in_len));
  }
  if (p.interior < 0) {
    throw Error(Errc::invalid_argument, "interior: " + axis_text(axis) +
                                            " has negative interior padding " +
                                            std::to_string(p.interior));
  }
  if (p.interior > 0 && axis_mode != Mode::constant) {
    throw Error(Errc::invalid_argument, "interior: " + axis_text(axis) + " has interior padding " +
                                            std::to_string(p.interior) + " but mode is " +
                                            std::string(mode_name(axis_mode)) +
                                            "; interior padding is only defined for constant mode");
  }
}

/// A mode that extends the input must have input left to extend (docs/spec.md §2.5).
void check_extendable(std::size_t axis, std::int64_t in_len, const AxisPad& p, std::int64_t out_len,
                      Mode axis_mode, NegativeOrder order) {
  // Built on failure only: this runs on every axis of every plan.
  const auto mode_text = [&] { return std::string(mode_name(axis_mode)); };
  if (order != NegativeOrder::crop_then_pad) {
    if (in_len == 0 && out_len > 0) {
      throw Error(Errc::out_of_range, "pads: " + axis_text(axis) + ": " + mode_text() +
                                          " mode cannot extend an empty axis (length 0) to "
                                          "length " +
                                          std::to_string(out_len));
    }
    return;
  }
  // Both crops may be near INT64_MAX (neither is INT64_MIN: checked before).
  const std::optional<std::int64_t> crop =
      detail::checked_add(p.begin < 0 ? -p.begin : 0, p.end < 0 ? -p.end : 0);
  if (!crop || *crop > in_len) {
    throw Error(Errc::out_of_range,
                "pads: " + axis_text(axis) + ": " + mode_text() + " mode crops " +
                    (crop ? std::to_string(*crop) : "more than INT64_MAX") + " elements " +
                    detail::side_text(p.begin, p.end) + " from an axis of length " +
                    std::to_string(in_len) + "; nothing is left to extend");
  }
  if (*crop == in_len && out_len > 0) {  // something must be extended from nothing
    throw Error(Errc::out_of_range, "pads: " + axis_text(axis) + ": " + mode_text() +
                                        " mode cannot extend an axis cropped to length 0 "
                                        "(input length " +
                                        std::to_string(in_len) + ", begin " +
                                        std::to_string(p.begin) + ", end " + std::to_string(p.end) +
                                        ")");
  }
}

/// Validates one axis and returns its output length (docs/spec.md §2.2, §2.5, §8).
std::int64_t output_length(std::size_t axis, std::int64_t in_len, const AxisPad& p, Mode axis_mode,
                           const PadSpec& spec) {
  check_axis_arguments(axis, in_len, p, axis_mode);
  if (p.begin == INT64_MIN || p.end == INT64_MIN) {  // their crops, -begin and -end, must fit
    throw Error(Errc::overflow, "pads: " + axis_text(axis) + ": begin " + std::to_string(p.begin) +
                                    " / end " + std::to_string(p.end) + " is out of range");
  }
  const detail::PaddedLength length = detail::padded_length(in_len, p);
  if (length.overflow != nullptr) {
    throw Error(Errc::overflow, "pads: " + axis_text(axis) + ": " + length.overflow +
                                    " overflows int64 (input length " + std::to_string(in_len) +
                                    ", begin " + std::to_string(p.begin) + ", end " +
                                    std::to_string(p.end) + ", interior " +
                                    std::to_string(p.interior) + ")");
  }
  std::int64_t out_len = length.out_len;
  if (out_len < 0) {
    if (spec.negative_size != NegativeSize::clamp_to_zero) {
      throw Error(Errc::out_of_range,
                  "pads: " + axis_text(axis) + ": output length begin (" + std::to_string(p.begin) +
                      ") + input length (" + std::to_string(length.dilated) + ") + end (" +
                      std::to_string(p.end) + ") = " + std::to_string(out_len) + " is negative");
    }
    out_len = 0;  // clamped; a crop-first mode must still have something left
  }
  if (axis_mode != Mode::constant) {
    check_extendable(axis, in_len, p, out_len, axis_mode, spec.negative_order);
  }
  return out_len;
}

/// A value of enum `E` past `last` (cast from a foreign integer).
template <class E>
bool past(E value, E last) {
  return static_cast<unsigned>(value) > static_cast<unsigned>(last);
}

std::string code_text(auto value) { return std::to_string(static_cast<unsigned>(value)); }

void check_dtype(const ElementType& type, std::string_view argument) {
  if (past(type.dtype, DType::opaque)) {
    throw Error(Errc::unsupported_type,
                std::string(argument) + ": unknown element type code " + code_text(type.dtype));
  }
}

/// Every enum of `spec` holds one of its values.
void check_spec_enums(const PadSpec& spec) {
  const auto mode_error = [](std::string where, Mode mode) {
    return Error(Errc::invalid_argument, where + "unknown mode code " + code_text(mode));
  };
  if (past(spec.mode, Mode::minimum)) throw mode_error("mode: ", spec.mode);
  for (std::size_t k = 0; k < spec.axis_modes.size(); ++k) {
    const Mode mode = spec.axis_modes[k].mode;
    if (past(mode, Mode::minimum)) throw mode_error("axis_modes: " + axis_text(k) + ": ", mode);
  }
  if (past(spec.negative_order, NegativeOrder::crop_then_pad)) {
    throw Error(Errc::invalid_argument,
                "negative_order: unknown NegativeOrder code " + code_text(spec.negative_order));
  }
  if (past(spec.negative_size, NegativeSize::clamp_to_zero)) {
    throw Error(Errc::invalid_argument,
                "negative_size: unknown NegativeSize code " + code_text(spec.negative_size));
  }
  check_dtype(spec.ramp_type, "ramp_type");
}

void check_type(const ElementType& type) {
  check_dtype(type, "type");
  if (type.dtype == DType::opaque && type.opaque_bytes <= 0) {
    throw Error(Errc::unsupported_type, "type: opaque element size must be positive, got " +
                                            std::to_string(type.opaque_bytes));
  }
}

/// 1. Tabulate each axis's borders from the index map around its middle run, 2. turn the used
/// source range into a view, 3. mark identity axes as plain.
using PlanAxes = InlineVector<PlanAxis, Program::kInlineAxes>;
using BorderTable = InlineVector<std::int64_t, Program::kInlineBorders>;

/// The request of input axis k as the index map takes it.
AxisRule axis_rule(const Plan& plan, std::size_t k) {
  return {plan.input_shape()[k], detail::PlanAccess::pads(plan)[k],
          detail::PlanAccess::engine_modes(plan)[k], detail::PlanAccess::negative_order(plan)};
}

/// Whether axis `a` (sources relative to its view, its border entries at `borders`) maps every
/// position to itself. A border longer than its period repeats sources, so it never does.
bool is_identity(const PlanAxis& a, const std::int64_t* borders) {
  if (a.in_len != a.out_len || a.tabulated() != a.border_len()) return false;
  if (a.mid_len > 1 && a.mid_step != 1) return false;
  if (a.mid_len > 0 && a.mid_src != a.head_len) return false;
  for (std::int64_t i = 0; i < a.tabulated(); ++i) {
    if (borders[i] != (i < a.head_len ? i : i + a.mid_len)) return false;
  }
  return true;
}

/// The input positions [lo, hi] an axis reads (hi < 0: none).
struct SourceRange {
  std::int64_t lo = INT64_MAX;
  std::int64_t hi = -1;
  void add(std::int64_t s) {
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
};

/// The whole output's length of axis `rule` (validated at planning): a window plan's shape is
/// the window's.
std::int64_t full_length(const AxisRule& rule) {
  return std::max<std::int64_t>(
      0, rule.pad.begin + detail::dilated_length(rule.in_len, rule.pad.interior) + rule.pad.end);
}

/// Sets axis `a`'s runs for output positions [start, start + a.out_len) of `rule`, whose whole
/// output is `full_len` long, tabulates its borders' periods nearest the middle run, and
/// returns the input positions it reads.
SourceRange tabulate_axis(const AxisRule& rule, std::int64_t full_len, std::int64_t start,
                          PlanAxis& a, BorderTable& table) {
  const detail::MiddleRun mid = detail::window_middle_run(rule, full_len, start, a.out_len);
  const std::int64_t mid_begin = mid.len > 0 ? mid.out_begin : 0;
  a.head_len = mid_begin;
  a.mid_len = mid.len;
  a.mid_src = mid.src;
  a.mid_step = mid.step;
  const std::int64_t period = detail::source_period(rule);
  const std::int64_t head_tabulated = std::min(mid_begin, period);
  const std::int64_t tabulated = head_tabulated + std::min(a.out_len - mid_begin - mid.len, period);
  a.period = period;
  a.head_tabulated = head_tabulated;
  a.tail_tabulated = tabulated - head_tabulated;
  a.borders_at = static_cast<std::int64_t>(table.size());
  SourceRange range;
  // The head's entries end at the middle run, the tail's start after it: one loop over both.
  const std::int64_t head_from = start + mid_begin - head_tabulated;
  const std::int64_t tail_from = start + mid_begin + mid.len - head_tabulated;
  for (std::int64_t i = 0; i < tabulated; ++i) {
    const std::int64_t s =
        detail::source_index(rule, (i < head_tabulated ? head_from : tail_from) + i);
    table.push_back(s);
    if (s != kPadIndex) range.add(s);
  }
  if (mid.len > 0) {
    range.add(mid.src);
    range.add(mid.src + (mid.step == 1 ? mid.len - 1 : (mid.len - 1) / mid.step));
  }
  return range;
}

/// Makes axis `a` the identity: no tables, everything is the middle run.
void make_plain(PlanAxis& a) {
  a.plain = true;
  a.in_len = a.mid_len = a.out_len;
  a.head_len = a.mid_src = a.head_tabulated = a.tail_tabulated = 0;
  a.mid_step = a.period = 1;
}

/// Makes axis `a`'s sources relative to the input positions it reads, [lo, hi]: the crop becomes
/// a view (offset into the input at `view_offset`; null for an empty input, never read). An axis
/// that maps every position to itself drops its tables.
void rebase_axis(const SourceRange& range, PlanAxis& a, std::int64_t* view_offset,
                 BorderTable& table) {
  if (view_offset != nullptr) *view_offset += range.lo * a.in_stride;
  a.in_len = range.hi - range.lo + 1;
  a.mid_src -= range.lo;
  std::int64_t* borders = table.data() + a.borders_at;
  for (std::int64_t i = 0, n = a.tabulated(); i < n; ++i) {
    if (borders[i] != kPadIndex) borders[i] -= range.lo;
  }
  if (is_identity(a, borders)) {
    table.resize(static_cast<std::size_t>(a.borders_at));
    make_plain(a);
  }
}

/// Axes of the window [starts[k], starts[k] + out_shape[k]) of `plan`'s output (no starts: from
/// 0), whose positions step out_strides[k] in the output (none: dense, `unit` per position).
void build_axes(const Plan& plan, std::span<const std::int64_t> starts,
                std::span<const std::int64_t> out_shape, std::span<const std::int64_t> out_strides,
                std::int64_t unit, std::int64_t& view_offset, PlanAxes& axes, BorderTable& table) {
  const std::span<const std::int64_t> in_strides = detail::PlanAccess::in_strides(plan);
  const bool input_empty = detail::PlanAccess::input_elements(plan) == 0;
  axes.resize(out_shape.size());
  std::int64_t dense_stride = unit;
  for (std::size_t k = out_shape.size(); k-- > 0;) {
    axes[k].out_stride = out_strides.empty() ? dense_stride : out_strides[k];
    dense_stride *= std::max<std::int64_t>(out_shape[k], 1);  // fits: the output's size does
  }
  for (std::size_t k = 0; k < out_shape.size(); ++k) {
    PlanAxis& a = axes[k];
    a.in_stride = in_strides[k];
    a.out_len = out_shape[k];
    const AxisRule rule = axis_rule(plan, k);
    if (starts.empty() && rule.pad == AxisPad{}) {  // an unpadded axis of the whole output
      a.borders_at = static_cast<std::int64_t>(table.size());
      make_plain(a);
      continue;
    }
    const SourceRange range = starts.empty()
                                  ? tabulate_axis(rule, a.out_len, 0, a, table)
                                  : tabulate_axis(rule, full_length(rule), starts[k], a, table);
    if (range.hi < 0) {  // the whole axis is pad value: no input is read through it
      a.in_len = 0;
      continue;
    }
    // An empty input is never read: no offset into it (it may be null).
    rebase_axis(range, a, input_empty ? nullptr : &view_offset, table);
  }
}

/// Drops length-1 plain axes and merges runs of plain axes that are contiguous in the input and
/// in the output (in place).
void merge_axes(PlanAxes& axes) {
  std::size_t kept = 0;
  for (auto& a : axes) {
    if (a.plain && a.out_len == 1) continue;
    if (kept > 0) {
      PlanAxis& prev = axes[kept - 1];
      if (prev.plain && a.plain && prev.in_stride == detail::checked_mul(a.in_stride, a.in_len) &&
          prev.out_stride == detail::checked_mul(a.out_stride, a.out_len)) {
        prev.out_len *= a.out_len;  // fits: both are factors of the output size
        prev.in_len = prev.mid_len = prev.out_len;
        prev.in_stride = a.in_stride;
        prev.out_stride = a.out_stride;
        continue;
      }
    }
    if (&axes[kept] != &a) axes[kept] = std::move(a);
    ++kept;
  }
  axes.resize(kept);
}

using RowSegments = InlineVector<RowSegment, Program::kInlineSegments>;

/// Appends the segments of row positions [from, to), whose sources `src(o)` gives: runs of the
/// pad value (fill), of one source (repeat), of sources going up or down by one (copy,
/// reverse); positions in none of those (a source of its own between others) are gathered.
template <class Source>
void append_runs(const Source& src, std::int64_t from, std::int64_t to, RowSegments& segs,
                 std::vector<std::int64_t>& gather) {
  using Kind = RowSegment::Kind;
  for (std::int64_t o = from; o < to;) {
    const std::int64_t s = src(o);
    std::int64_t end = o + 1;
    if (s == kPadIndex) {
      while (end < to && src(end) == kPadIndex) ++end;
      segs.push_back({Kind::fill, o, end - o, 0, 1});
      o = end;
      continue;
    }
    const std::int64_t next = end < to ? src(end) : kPadIndex;
    const std::int64_t dir = next == kPadIndex ? 0 : next - s;
    if (dir >= -1 && dir <= 1) {  // a lone source before the pad value or the end: a repeat
      while (end < to && src(end) != kPadIndex && src(end) == src(end - 1) + dir) ++end;
      segs.push_back({dir == 0  ? Kind::repeat
                      : dir > 0 ? Kind::copy
                                : Kind::reverse,
                      o, end - o, s, 1});
      o = end;
      continue;
    }
    gather.push_back(s);  // joins the gather segment just before it, if any
    if (!segs.empty() && segs.back().kind == Kind::gather &&
        segs.back().out_begin + segs.back().len == o) {
      ++segs.back().len;
    } else {
      segs.push_back({Kind::gather, o, 1, static_cast<std::int64_t>(gather.size()) - 1, 1});
    }
    ++o;
  }
}

/// Appends the segments of a border of the row, positions [from, to), whose tabulated sources
/// `entries` are those of positions [at, at + count): the whole border, or its period nearest
/// the middle run (the last one of a begin border, the first one of an end border).
void append_border(const std::int64_t* entries, std::int64_t from, std::int64_t to, std::int64_t at,
                   std::int64_t count, RowSegments& segs, std::vector<std::int64_t>& gather) {
  if (from == to) return;
  if (std::all_of(entries, entries + count, [&](std::int64_t v) { return v == entries[0]; })) {
    // The pad value or one source all along, however long the border.
    const bool pad = entries[0] == kPadIndex;
    segs.push_back({pad ? RowSegment::Kind::fill : RowSegment::Kind::repeat, from, to - from,
                    pad ? 0 : entries[0], 1});
    return;
  }
  const auto src = [&](std::int64_t o) { return entries[o - at]; };
  if (count == to - from) {
    append_runs(src, from, to, segs, gather);
    return;
  }
  // Beyond the tabulated period the border repeats it: a periodic segment of its segments.
  const bool begin_border = at != from;
  RowSegments pattern;
  append_runs(src, at, at + count, pattern, gather);
  const RowSegment repeats{RowSegment::Kind::periodic, begin_border ? from : at + count,
                           to - from - count,
                           static_cast<std::int64_t>(segs.size()) + (begin_border ? 1 : 0),
                           static_cast<std::int64_t>(pattern.size())};
  if (begin_border) segs.push_back(repeats);  // segments stay in row order
  for (const RowSegment& seg : pattern) segs.push_back(seg);
  if (!begin_border) segs.push_back(repeats);
}

/// Sets `segs` to the row's segments (built in place: a copy of segments just written is a
/// wide read of narrow stores); gather segments' sources are appended to `gather`.
void build_row(const PlanAxis& row, const std::int64_t* table, RowSegments& segs,
               std::vector<std::int64_t>& gather) {
  segs.clear();
  if (row.plain) {
    segs.push_back({RowSegment::Kind::copy, 0, row.out_len, 0, 1});
    return;
  }
  const std::int64_t* entries = table + row.borders_at;
  append_border(entries, 0, row.head_len, row.head_len - row.head_tabulated, row.head_tabulated,
                segs, gather);
  if (row.mid_len > 0) {
    const bool interleaved = row.mid_step > 1 && row.mid_len > 1;
    segs.push_back({interleaved ? RowSegment::Kind::interleave : RowSegment::Kind::copy,
                    row.head_len, row.mid_len, row.mid_src, interleaved ? row.mid_step : 1});
  }
  const std::int64_t tail_begin = row.head_len + row.mid_len;
  append_border(entries + row.head_tabulated, tail_begin, row.out_len, tail_begin,
                row.tail_tabulated, segs, gather);
}

/// The row program as a BorderedRow: a copy from a contiguous input row with at most one border
/// segment on each side, each a fill, a copy or reverse run, or a gather of one repeated source.
/// Of two copy segments the longer is the row's copy.
std::optional<BorderedRow> bordered_row(std::span<const RowSegment> segs,
                                        const std::vector<std::int64_t>& gather,
                                        std::int64_t in_stride, std::int64_t unit_bytes) {
  if (segs.empty() || segs.size() > 3 || in_stride != unit_bytes) return std::nullopt;
  const auto is_copy = [](const RowSegment& s) { return s.kind == RowSegment::Kind::copy; };
  std::size_t copy = segs.size() == 3 ? 1 : 0;
  if (segs.size() == 2 && (!is_copy(segs[0]) || (is_copy(segs[1]) && segs[1].len > segs[0].len))) {
    copy = 1;
  }
  if (!is_copy(segs[copy])) return std::nullopt;
  const auto border = [&](const RowSegment& s) -> std::optional<BorderedRow::Border> {
    switch (s.kind) {
      case RowSegment::Kind::fill:
        return BorderedRow::Border{s.len, PlanAxis::kPad, 0};
      case RowSegment::Kind::copy:
        return BorderedRow::Border{s.len, s.src_begin, 1};
      case RowSegment::Kind::reverse:
        return BorderedRow::Border{s.len, s.src_begin, -1};
      case RowSegment::Kind::gather: {
        const auto first = gather.begin() + s.src_begin;
        if (std::any_of(first, first + s.len, [&](std::int64_t v) { return v != *first; })) {
          return std::nullopt;
        }
        return BorderedRow::Border{s.len, *first, 0};
      }
      case RowSegment::Kind::repeat:
        return BorderedRow::Border{s.len, s.src_begin, 0};
      case RowSegment::Kind::interleave:
      case RowSegment::Kind::periodic:
        return std::nullopt;
    }
    return std::nullopt;
  };
  BorderedRow row;
  row.copy_src = segs[copy].src_begin;
  row.copy_len = segs[copy].len;
  if (copy == 1) {
    const auto b = border(segs.front());
    if (!b) return std::nullopt;
    row.begin = *b;
  }
  if (copy + 1 < segs.size()) {
    const auto e = border(segs.back());
    if (!e) return std::nullopt;
    row.end = *e;
  }
  return row;
}

/// Outputs of constant pads up to kFillThenPlaceMaxBytes, or up to kFillThenPlaceShortMaxBytes
/// when the input rows are at most kFillThenPlaceShortRowBytes long, are written by
/// fill_then_place: filling the bytes that the input then overwrites costs less, in cache, than
/// the row walk's work per row and per pad block; with longer rows (224 bytes, from 64 KiB of
/// output) the row walk was faster in the sweep that set these limits. Above them the row walk
/// may split the pad between threads (from 256 KiB when the pool's workers are awake).
constexpr std::int64_t kFillThenPlaceMaxBytes = std::int64_t{16} << 10;
constexpr std::int64_t kFillThenPlaceShortMaxBytes = std::int64_t{256} << 10;
constexpr std::int64_t kFillThenPlaceShortRowBytes = 64;

/// Whether a plan (byte storage, `unit_bytes` per position) is written by fill_then_place: it has
/// pad positions (a plan without any is one copy), every position outside the axes' middle runs
/// is the pad value, and the row's middle run is contiguous in the input and in the output.
bool fits_fill_then_place(std::span<const PlanAxis> axes, std::span<const std::int64_t> table,
                          std::int64_t unit_bytes, std::int64_t out_bytes) {
  const PlanAxis& row = axes.back();
  if (std::all_of(axes.begin(), axes.end(), [](const PlanAxis& a) { return a.plain; })) {
    return false;
  }
  const bool short_rows = row.mid_len * unit_bytes <= kFillThenPlaceShortRowBytes;
  if (out_bytes > (short_rows ? kFillThenPlaceShortMaxBytes : kFillThenPlaceMaxBytes) ||
      axes.size() > Program::kInlineAxes || row.mid_step != 1 || row.in_stride != unit_bytes) {
    return false;
  }
  for (const std::int64_t s : table) {
    if (s != PlanAxis::kPad) return false;
  }
  return true;
}

using detail::Strategy;

/// The write strategy of a program whose axes and row are built; sets its bordered row.
Strategy choose_strategy(Program& prog, Storage storage, bool dense, std::int64_t out_bytes) {
  if (storage == Storage::string) return Strategy::strings;
  if (storage != Storage::bytes) return Strategy::packed;
  if (dense && fits_fill_then_place(prog.axes_, prog.borders_, prog.unit_bytes_, out_bytes)) {
    return Strategy::fill_then_place;
  }
  prog.bordered_ =
      bordered_row(prog.row_, prog.gather_, prog.axes_.back().in_stride, prog.unit_bytes_);
  return prog.bordered_ ? Strategy::bordered : Strategy::segments;
}

/// Input strides: one per axis, none for packed types, whole std::string objects for strings.
void check_strides(const ElementType& type, const std::vector<std::int64_t>& shape,
                   std::int64_t elements, const std::vector<std::int64_t>& byte_strides) {
  if (!byte_strides.empty() && byte_strides.size() != shape.size()) {
    throw Error(Errc::shape_mismatch, "strides: expected " + std::to_string(shape.size()) +
                                          " byte strides (one per axis), got " +
                                          std::to_string(byte_strides.size()));
  }
  if (type.packed() && !byte_strides.empty()) {
    throw Error(Errc::invalid_argument, "strides: " + type.name() +
                                            " elements are packed densely; strides are not "
                                            "supported for packed types");
  }
  if (byte_strides.empty()) {
    storage_bytes(type, elements);  // a dense input's bytes fit in int64
  } else {
    detail::check_strided_extent("strides", shape, byte_strides, detail::element_unit(type));
  }
  if (type.storage() != Storage::string) return;
  for (std::size_t k = 0; k < byte_strides.size(); ++k) {
    if (byte_strides[k] % static_cast<std::int64_t>(sizeof(std::string)) != 0) {
      throw Error(Errc::invalid_argument, "strides: " + axis_text(k) + ": byte stride " +
                                              std::to_string(byte_strides[k]) +
                                              " is not a multiple of sizeof(std::string)");
    }
  }
}

}  // namespace

namespace detail {
void check_value(const ElementType& type, const std::string& value, std::string_view argument,
                 std::size_t axis, std::string_view side) {
  if (value.empty()) return;
  const auto what = [&] {
    std::string text(argument);
    if (axis != kNoAxis) text += ": " + axis_text(axis) + ": " + std::string(side);
    return text;
  };
  switch (type.storage()) {
    case Storage::string:
      return;
    case Storage::nibble:
    case Storage::crumb:
      if (value.size() != 1 || (static_cast<unsigned char>(value[0]) >> type.bits()) != 0) {
        throw Error(Errc::invalid_argument,
                    what() + ": a " + type.name() + " pad value is one byte holding a " +
                        std::to_string(type.bits()) + "-bit code in its low bits; got " +
                        std::to_string(value.size()) + " byte(s)" +
                        (value.size() == 1
                             ? " with code " + std::to_string(static_cast<unsigned char>(value[0]))
                             : std::string()));
      }
      return;
    case Storage::bytes:
      if (static_cast<std::int64_t>(value.size()) != type.item_bytes()) {
        throw Error(Errc::invalid_argument, what() + ": a " + type.name() + " pad value has " +
                                                std::to_string(type.item_bytes()) + " bytes; got " +
                                                std::to_string(value.size()));
      }
      return;
  }
}

const std::string& zero_pattern() {
  static const std::string zeros(static_cast<std::size_t>(kFillPatternBytes), '\0');
  return zeros;
}

std::string replicate_pattern(const std::string& element_bytes, std::int64_t min_bytes) {
  const auto element = static_cast<std::int64_t>(element_bytes.size());
  const std::int64_t copies = (min_bytes + element - 1) / element;
  std::string pattern(static_cast<std::size_t>(copies * element), '\0');
  std::memcpy(pattern.data(), element_bytes.data(), element_bytes.size());
  for (std::int64_t have = 1; have < copies; have *= 2) {  // double the filled prefix
    const std::int64_t more = std::min(have, copies - have);
    std::memcpy(pattern.data() + have * element, pattern.data(),
                static_cast<std::size_t>(more * element));
  }
  return pattern;
}
}  // namespace detail

std::string_view mode_name(Mode mode) {
  switch (mode) {
    case Mode::constant:
      return "constant";
    case Mode::edge:
      return "edge";
    case Mode::reflect:
      return "reflect";
    case Mode::symmetric:
      return "symmetric";
    case Mode::wrap:
      return "wrap";
    case Mode::linear_ramp:
      return "linear_ramp";
    case Mode::maximum:
      return "maximum";
    case Mode::mean:
      return "mean";
    case Mode::median:
      return "median";
    case Mode::minimum:
      return "minimum";
  }
  return "unknown";
}

namespace {
/// The element counts of a request's input and output.
struct ElementCounts {
  std::int64_t in = 0;
  std::int64_t out = 0;
};

/// infer_shape into `out` (resized to the rank): every check of a request that needs no element
/// type, the counts of its shapes included (make_plan's and infer_shape's one validation).
template <class Shape>
ElementCounts infer_shape_into(const std::vector<std::int64_t>& input_shape, const PadSpec& spec,
                               Shape& out) {
  if (spec.axes.size() != input_shape.size()) {
    throw Error(Errc::shape_mismatch, "pads: expected one entry per input axis (" +
                                          std::to_string(input_shape.size()) + "), got " +
                                          std::to_string(spec.axes.size()));
  }
  check_spec_enums(spec);
  detail::check_axis_modes(input_shape, spec);
  out.resize(input_shape.size());
  for (std::size_t k = 0; k < input_shape.size(); ++k) {
    out[k] = output_length(k, input_shape[k], spec.axes[k], detail::axis_mode(spec, k).mode, spec);
  }
  detail::check_stat_lengths(input_shape, out, spec);
  return {element_count(input_shape),
          detail::element_count_of(out, "output shape (the input's lengths with their pads)")};
}
}  // namespace

std::vector<std::int64_t> infer_shape(const std::vector<std::int64_t>& input_shape,
                                      const PadSpec& spec) {
  std::vector<std::int64_t> out;
  infer_shape_into(input_shape, spec, out);
  return out;
}

namespace detail {

void dense_strides(std::span<const std::int64_t> shape, std::int64_t unit,
                   std::span<std::int64_t> strides) {
  std::int64_t stride = unit;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = stride;
    // An empty tensor's lengths may multiply past int64 in bytes: its outer strides, never
    // used to read, are then 0.
    stride = checked_mul(stride, std::max<std::int64_t>(shape[k], 1)).value_or(0);
  }
}

void check_strided_extent(std::string_view argument, std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> byte_strides, std::int64_t item_bytes) {
  const std::optional<std::size_t> axis = strided_extent_overflow(shape, byte_strides, item_bytes);
  if (!axis) return;
  throw Error(Errc::overflow, std::string(argument) + ": " + axis_text(*axis) + ": length " +
                                  std::to_string(shape[*axis]) + " at byte stride " +
                                  std::to_string(byte_strides[*axis]) +
                                  " takes the tensor's extent past int64");
}

const std::string& PlanAccess::fill(const Plan& p) {
  const Program& prog = program(p);
  return prog.fill_byte_ == 0 ? zero_pattern() : prog.fill_;
}

void PlanAccess::set_fill(Plan& p, const std::string& value) {
  Program& prog = program(p);
  // Default value: all-zero bits (empty string for strings), docs/spec.md §2.8.
  if (p.type_.storage() == Storage::string) {
    prog.fill_ = value;
  } else if (p.type_.packed()) {
    prog.fill_ = value.empty() ? std::string(1, '\0') : value;
  } else if (value.empty()) {
    prog.fill_byte_ = 0;  // all-zero bits fill from zero_pattern(), without a pattern per plan
  } else {
    if (std::all_of(value.begin(), value.end(), [&](char b) { return b == value[0]; })) {
      prog.fill_byte_ = static_cast<unsigned char>(value[0]);
    }
    if (prog.fill_byte_ != 0) prog.fill_ = replicate_pattern(value);
  }
}

void PlanAccess::set_rules(Plan& p, const std::vector<std::int64_t>& byte_strides,
                           const PadSpec& spec) {
  Program& prog = program(p);
  const std::size_t rank = p.in_shape_.size();
  prog.negative_order_ = spec.negative_order;
  prog.pads_.assign(spec.axes.begin(), spec.axes.end());
  prog.engine_modes_.resize(rank);
  Mode* modes = prog.engine_modes_.data();
  if (spec.axis_modes.empty()) {
    std::fill(modes, modes + rank, engine_mode(axis_mode(spec, 0)));
  } else {
    for (std::size_t k = 0; k < rank; ++k) modes[k] = engine_mode(spec.axis_modes[k]);
  }
  if (byte_strides.empty()) {
    prog.in_strides_.resize(rank);
    dense_strides(p.in_shape_, element_unit(p.type_), prog.in_strides_);
  } else {
    prog.in_strides_.assign(byte_strides.begin(), byte_strides.end());
  }
}

void PlanAccess::build_program(Plan& p, std::span<const std::int64_t> starts,
                               std::span<const std::int64_t> out_strides) {
  if (p.out_elems_ == 0) return;  // nothing to write
  Program& prog = program(p);
  const Storage storage = p.type_.storage();
  const std::int64_t unit = element_unit(p.type_);
  PlanAxes& axes = prog.axes_;
  build_axes(p, starts, p.out_shape_, out_strides, unit, prog.view_offset_, axes, prog.borders_);
  merge_axes(axes);

  // Short contiguous plain innermost axes become one wider unit: rows then move bigger blocks.
  // Long ones stay the row, so that execution can split them into chunks and tasks. In a strided
  // output (a window) an axis is absorbed only if the row left after it is still contiguous.
  std::int64_t& unit_bytes = prog.unit_bytes_;
  unit_bytes = storage == Storage::bytes ? unit : 0;
  while (storage == Storage::bytes && axes.size() > 1 && axes.back().plain &&
         axes.back().in_stride == unit_bytes && axes.back().out_stride == unit_bytes &&
         unit_bytes * axes.back().out_len <= kMaxUnitBytes &&
         axes[axes.size() - 2].out_stride == unit_bytes * axes.back().out_len) {
    unit_bytes *= axes.back().out_len;
    axes.pop_back();
  }
  const std::int64_t row_unit = storage == Storage::bytes ? unit_bytes : unit;
  // The row kernels write a row's positions back to back: a row that is not (no axes left, or a
  // window's row strided in its buffer) becomes an outer axis over rows of one unit.
  if (axes.empty() || (axes.back().out_len > 1 && axes.back().out_stride != row_unit)) {
    PlanAxis unit_axis;
    unit_axis.out_len = unit_axis.in_len = unit_axis.mid_len = 1;
    unit_axis.in_stride = unit_axis.out_stride = row_unit;
    unit_axis.plain = true;
    axes.push_back(unit_axis);
  }
  build_row(axes.back(), prog.borders_.data(), prog.row_, prog.gather_);
  // A strided input (stride 0 too) may hold more elements than int64 bytes can count.
  const std::int64_t in_bytes = checked_mul(p.in_elems_, p.type_.item_bytes()).value_or(INT64_MAX);
  prog.traffic_bytes_ = checked_add(in_bytes, p.out_bytes_).value_or(INT64_MAX);
  prog.strategy_ = choose_strategy(prog, storage, out_strides.empty(), p.out_bytes_);
  if (prog.strategy_ != Strategy::segments) prog.gather_ = {};  // only segments gather
}

Plan PlanAccess::validate(const ElementType& type, const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& byte_strides, const PadSpec& spec) {
  check_type(type);
  Plan plan;
  plan.type_ = type;
  plan.mode_ = spec.mode;
  plan.in_shape_.assign(shape.begin(), shape.end());
  const ElementCounts counts = infer_shape_into(shape, spec, plan.out_shape_);
  plan.in_elems_ = counts.in;
  plan.out_elems_ = counts.out;
  plan.out_bytes_ = storage_bytes(type, plan.out_elems_);
  check_value(type, spec.value, "value");
  Program& prog = program(plan);
  prog.passes_ = plan_passes(type, shape, plan.out_shape_, spec);
  prog.ramp_type_ = spec.ramp_type;
  if (!prog.passes_.empty()) {
    prog.begins_.reserve(spec.axes.size());
    for (const AxisPad& p : spec.axes) prog.begins_.push_back(p.begin);
    prog.pass_lens_.assign(shape.begin(), shape.end());
  }
  check_strides(type, shape, plan.in_elems_, byte_strides);
  return plan;
}

void PlanAccess::complete(Plan& plan, const std::vector<std::int64_t>& byte_strides,
                          const PadSpec& spec) {
  // An empty output needs no fill: an element of a huge item size is never built for nothing.
  if (plan.out_elems_ > 0) set_fill(plan, spec.value);
  set_rules(plan, byte_strides, spec);
  build_program(plan, {}, {});
}

Plan PlanAccess::make(const ElementType& type, const std::vector<std::int64_t>& shape,
                      const std::vector<std::int64_t>& byte_strides, const PadSpec& spec) {
  Plan plan = validate(type, shape, byte_strides, spec);
  complete(plan, byte_strides, spec);
  return plan;
}

Plan PlanAccess::window(const Plan& plan, std::span<const std::int64_t> starts,
                        std::span<const std::int64_t> shape,
                        std::span<const std::int64_t> out_strides, std::int64_t origin_bytes) {
  Plan w;
  w.type_ = plan.type_;
  w.mode_ = plan.mode_;
  w.in_shape_ = plan.in_shape_;
  w.out_shape_.assign(shape.begin(), shape.end());
  w.in_elems_ = plan.in_elems_;
  w.out_elems_ = element_count(w.out_shape_);
  w.out_bytes_ = storage_bytes(w.type_, w.out_elems_);
  const Program& from = program(plan);
  Program& prog = program(w);
  prog.fill_ = from.fill_;
  prog.fill_byte_ = from.fill_byte_;
  prog.ramp_type_ = from.ramp_type_;
  prog.pads_ = from.pads_;
  prog.engine_modes_ = from.engine_modes_;
  prog.in_strides_ = from.in_strides_;
  prog.negative_order_ = from.negative_order_;
  build_program(w, starts, out_strides);
  prog.view_offset_ -= origin_bytes;  // fits: the box's first element lies within the input
  return w;
}

std::pair<std::int64_t, std::int64_t> PlanAccess::source_range(const Plan& plan, std::size_t axis,
                                                               std::int64_t start,
                                                               std::int64_t len) {
  PlanAxis a;
  a.out_len = len;
  BorderTable table;  // one period per side at most (tabulate_axis)
  const AxisRule rule = axis_rule(plan, axis);
  const SourceRange range = tabulate_axis(rule, full_length(rule), start, a, table);
  return {range.lo, range.hi};
}

}  // namespace detail

static_assert(sizeof(detail::Program) <= detail::PlanAccess::program_bytes() &&
                  alignof(detail::Program) <= 16,
              "Plan::kProgramBytes must hold a detail::Program");

Plan::Plan() { detail::PlanAccess::construct(*this); }
Plan::Plan(const Plan& other)
    : type_(other.type_),
      mode_(other.mode_),
      in_shape_(other.in_shape_),
      out_shape_(other.out_shape_),
      in_elems_(other.in_elems_),
      out_elems_(other.out_elems_),
      out_bytes_(other.out_bytes_) {
  detail::PlanAccess::construct(*this, other);
}
Plan::Plan(Plan&& other) noexcept
    : type_(other.type_),
      mode_(other.mode_),
      in_shape_(std::move(other.in_shape_)),
      out_shape_(std::move(other.out_shape_)),
      in_elems_(other.in_elems_),
      out_elems_(other.out_elems_),
      out_bytes_(other.out_bytes_) {
  detail::PlanAccess::construct(*this, std::move(other));
}
Plan& Plan::operator=(const Plan& other) {
  if (this != &other) *this = Plan(other);
  return *this;
}
Plan& Plan::operator=(Plan&& other) noexcept {
  if (this == &other) return *this;
  type_ = other.type_;
  mode_ = other.mode_;
  in_shape_ = std::move(other.in_shape_);
  out_shape_ = std::move(other.out_shape_);
  in_elems_ = other.in_elems_;
  out_elems_ = other.out_elems_;
  out_bytes_ = other.out_bytes_;
  detail::PlanAccess::program(*this) = std::move(detail::PlanAccess::program(other));
  return *this;
}
Plan::~Plan() { detail::PlanAccess::destroy(*this); }

std::int64_t Plan::memory_bytes() const noexcept {
  const detail::Program& p = detail::program(*this);
  const auto vector_bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  const std::size_t heap = in_shape_.heap_bytes() + out_shape_.heap_bytes() + p.axes_.heap_bytes() +
                           p.borders_.heap_bytes() + p.row_.heap_bytes() + vector_bytes(p.gather_) +
                           (p.fill_.capacity() > 15 ? p.fill_.capacity() + 1 : 0) +
                           vector_bytes(p.passes_) + vector_bytes(p.begins_) +
                           vector_bytes(p.pass_lens_) + p.pads_.heap_bytes() +
                           p.engine_modes_.heap_bytes() + p.in_strides_.heap_bytes();
  return static_cast<std::int64_t>(sizeof(Plan) + heap);
}

Plan make_plan(const ElementType& type, const std::vector<std::int64_t>& shape,
               const std::vector<std::int64_t>& byte_strides, const PadSpec& spec) {
  return detail::PlanAccess::make(type, shape, byte_strides, spec);
}

}  // namespace padnd
