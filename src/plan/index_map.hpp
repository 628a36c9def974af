// SPDX-License-Identifier: Apache-2.0
// The single source of truth for where an output position reads from (docs/spec.md §2.3, §2.5).
// Host and device functions: the CUDA executor's tests check its tables against them too.
// The planner builds its per-axis tables from these functions and nothing else; tests check
// them exhaustively against a naive mapping.
#pragma once

#include <cstdint>

#include "core/checked.hpp"
#include "core/host_device.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/plan.hpp"
#include "plan/program.hpp"

namespace padnd::detail {

/// "Write the pad value here" (the same value the plan's axes store).
inline constexpr std::int64_t kPadIndex = PlanAxis::kPad;

/// Folds a position `j` outside [0, d) back into [0, d) for a non-constant mode, at any
/// distance (periodic). Requires d >= 1.
///
///   edge       j<0 -> 0, j>=d -> d-1                 aaa|abcd|ddd
///   wrap       floormod(j, d)                        bcd|abcd|abc
///   reflect    period 2(d-1), edge not repeated      dcb|abcd|cba   (d == 1 -> 0)
///   symmetric  period 2d, edge repeated              cba|abcd|dcb
PADND_HD constexpr std::int64_t fold_index(Mode mode, std::int64_t j, std::int64_t d) noexcept {
  if (j >= 0 && j < d) return j;
  // Unsigned so that the periods 2(d-1) and 2d never overflow for any d <= INT64_MAX.
  const auto floormod = [](std::int64_t a, std::uint64_t m) -> std::uint64_t {
    if (a >= 0) return static_cast<std::uint64_t>(a) % m;
    const std::uint64_t r = (static_cast<std::uint64_t>(-(a + 1))) % m;  // -(a+1) cannot overflow
    return m - 1 - r;
  };
  const auto ud = static_cast<std::uint64_t>(d);
  switch (mode) {
    case Mode::edge:
      return j < 0 ? 0 : d - 1;
    case Mode::wrap:
      return static_cast<std::int64_t>(floormod(j, ud));
    case Mode::reflect: {
      if (d == 1) return 0;  // numpy's legacy rule: a singleton is replicated
      const std::uint64_t period = 2 * (ud - 1);
      const std::uint64_t m = floormod(j, period);
      return static_cast<std::int64_t>(m < ud ? m : period - m);
    }
    case Mode::symmetric: {
      const std::uint64_t period = 2 * ud;
      const std::uint64_t m = floormod(j, period);
      return static_cast<std::int64_t>(m < ud ? m : period - 1 - m);
    }
    case Mode::constant:  // and the value modes: the engine leaves those positions to a pass
    case Mode::linear_ramp:
    case Mode::maximum:
    case Mode::mean:
    case Mode::median:
    case Mode::minimum:
      break;
  }
  return kPadIndex;
}

/// The rule of one axis: its input length and its pads, with the spec's switches.
struct AxisRule {
  std::int64_t in_len = 0;  ///< D
  AxisPad pad;
  Mode mode = Mode::constant;
  NegativeOrder order = NegativeOrder::map_on_original;
};

/// Source index in [0, D) of output position `o`, or kPadIndex. Total for every `o` of a
/// validated axis (non-constant modes have D >= 1, and D' >= 1 under crop_then_pad when padded).
PADND_HD constexpr std::int64_t source_index(const AxisRule& r, std::int64_t o) noexcept {
  if (r.mode != Mode::constant && r.order == NegativeOrder::crop_then_pad) {
    const std::int64_t crop_begin = r.pad.begin < 0 ? -r.pad.begin : 0;
    const std::int64_t crop_end = r.pad.end < 0 ? -r.pad.end : 0;
    const std::int64_t kept = r.in_len - crop_begin - crop_end;
    const std::int64_t pad_begin = r.pad.begin > 0 ? r.pad.begin : 0;
    return crop_begin + fold_index(r.mode, o - pad_begin, kept);
  }
  const std::int64_t j = o - r.pad.begin;  // position measured from the first input element
  const std::int64_t step = r.pad.interior + 1;
  if (j >= 0 && j < dilated_length(r.in_len, r.pad.interior)) {
    return j % step == 0 ? j / step : kPadIndex;
  }
  return r.mode == Mode::constant ? kPadIndex : fold_index(r.mode, j, r.in_len);
}

/// A period of source_index over an axis's borders: wherever o and o + period are both before
/// the middle run, or both after it, they read the same source (tests check it against
/// source_index). Constant and edge borders repeat one source (or the pad value): 1. Otherwise
/// fold_index's period over the folded length; INT64_MAX where that does not fit.
constexpr std::int64_t source_period(const AxisRule& r) noexcept {
  if (r.mode == Mode::constant || r.mode == Mode::edge) return 1;
  std::int64_t d = r.in_len;
  if (r.order == NegativeOrder::crop_then_pad) {
    d -= (r.pad.begin < 0 ? -r.pad.begin : 0) + (r.pad.end < 0 ? -r.pad.end : 0);
  }
  if (d <= 1) return 1;  // one element (or nothing to read): every border repeats it
  if (r.mode == Mode::reflect) return checked_mul(d - 1, 2).value_or(INT64_MAX);
  if (r.mode == Mode::symmetric) return checked_mul(d, 2).value_or(INT64_MAX);
  return d;
}

/// The positions of an axis that source_index maps straight onto the input, without folding:
/// output positions [out_begin, out_begin + len) read src + i / step where i % step == 0 and
/// take the pad value elsewhere (i = position - out_begin). out_begin is a source position.
struct MiddleRun {
  std::int64_t out_begin = 0;
  std::int64_t len = 0;
  std::int64_t src = 0;
  std::int64_t step = 1;
};

/// source_index's middle run over an axis of `out_len` positions (tests check it against
/// source_index). Positions outside it are the borders, which the planner tabulates.
PADND_HD constexpr MiddleRun middle_run(const AxisRule& r, std::int64_t out_len) noexcept {
  std::int64_t first = r.pad.begin;  // output position of input element 0
  std::int64_t src_base = 0;
  std::int64_t extent = dilated_length(r.in_len, r.pad.interior);
  const std::int64_t step = r.pad.interior + 1;
  if (r.mode != Mode::constant && r.order == NegativeOrder::crop_then_pad) {
    src_base = r.pad.begin < 0 ? -r.pad.begin : 0;
    first = r.pad.begin > 0 ? r.pad.begin : 0;
    extent = r.in_len - src_base - (r.pad.end < 0 ? -r.pad.end : 0);
  }
  std::int64_t out_begin = first;
  std::int64_t skipped = 0;  // input elements before the run
  if (first < 0) {  // the next source position at or after 0; -first fits (no INT64_MIN pads)
    const std::int64_t behind = -first % step;
    out_begin = behind == 0 ? 0 : step - behind;
    skipped = -first / step + (behind == 0 ? 0 : 1);
  }
  const std::int64_t stop = out_len < first + extent ? out_len : first + extent;
  // One object built field by field on every path: a struct assembled in memory from scalar
  // stores and copied whole stalls the copy's wide loads (store forwarding).
  const bool empty = stop <= out_begin;
  return MiddleRun{empty ? 0 : out_begin, empty ? 0 : stop - out_begin,
                   empty ? 0 : src_base + skipped, empty ? 1 : step};
}

/// middle_run of an axis of `out_len` positions restricted to its window [start, start + len)
/// (start + len <= out_len), in window positions: out_begin is the window's first source
/// position in the run (tests check it against source_index).
PADND_HD constexpr MiddleRun window_middle_run(const AxisRule& r, std::int64_t out_len,
                                               std::int64_t start, std::int64_t len) noexcept {
  // The whole axis (every make_plan), built in place (see middle_run).
  if (start == 0 && len == out_len) return middle_run(r, out_len);
  const MiddleRun m = middle_run(r, out_len);
  std::int64_t lo = m.out_begin > start ? m.out_begin : start;
  const std::int64_t stop = m.out_begin + m.len < start + len ? m.out_begin + m.len : start + len;
  bool empty = m.len == 0 || lo >= stop;
  if (const std::int64_t past = (lo - m.out_begin) % m.step; !empty && past != 0) {
    empty = m.step - past >= stop - lo;  // no source position in the window
    lo += m.step - past;                 // positions past a source position
  }
  const std::int64_t skipped = (lo - m.out_begin) / m.step;  // sources before lo
  // One return, built field by field (see middle_run).
  return MiddleRun{empty ? 0 : lo - start, empty ? 0 : stop - lo, empty ? 0 : m.src + skipped,
                   empty ? 1 : m.step};
}

}  // namespace padnd::detail
