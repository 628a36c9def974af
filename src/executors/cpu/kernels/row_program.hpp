// SPDX-License-Identifier: Apache-2.0
// Walking a row program: the pieces of a range of row positions, periodic borders unrolled.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "padnd/plan.hpp"
#include "plan/program.hpp"

namespace padnd::detail {

/// floor(a / b) for b > 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a >= 0 ? a / b : -((-(a + 1)) / b) - 1;
}

/// The pattern segments of periodic segment `seg` of `segs`: one period of the border.
inline std::span<const RowSegment> periodic_pattern(std::span<const RowSegment> segs,
                                                    const RowSegment& seg) {
  return segs.subspan(static_cast<std::size_t>(seg.src_begin), static_cast<std::size_t>(seg.step));
}

/// Positions of one period of a periodic segment's pattern.
inline std::int64_t pattern_period(std::span<const RowSegment> pattern) {
  return pattern.back().out_begin + pattern.back().len - pattern.front().out_begin;
}

/// piece(p, skip, n, at) for positions [s0, s1) of a periodic segment: its pattern segments `p`
/// shifted by whole periods.
template <class Piece>
void for_each_periodic_piece(std::span<const RowSegment> pattern, std::int64_t s0, std::int64_t s1,
                             const Piece& piece) {
  const std::int64_t pattern_begin = pattern.front().out_begin;
  const std::int64_t period = pattern_period(pattern);
  std::int64_t shift = floor_div(s0 - pattern_begin, period) * period;
  for (; pattern_begin + shift < s1; shift += period) {
    for (const RowSegment& p : pattern) {
      const std::int64_t a = std::max(p.out_begin + shift, s0);
      const std::int64_t b = std::min(p.out_begin + p.len + shift, s1);
      if (a < b) piece(p, a - (p.out_begin + shift), b - a, a);
    }
  }
}

/// Calls piece(seg, skip, n, at) for the pieces of row positions [p0, p1), in row order: `n`
/// positions of segment `seg` from `skip` positions into it, written at row position `at`. A
/// periodic segment's positions are those of its pattern segments shifted by whole periods;
/// every storage kind's row interpreter walks its segments through here.
template <class Piece>
void for_each_piece(std::span<const RowSegment> segs, std::int64_t p0, std::int64_t p1,
                    const Piece& piece) {
  for (const RowSegment& seg : segs) {
    const std::int64_t s0 = std::max(seg.out_begin, p0);
    const std::int64_t s1 = std::min(seg.out_begin + seg.len, p1);
    if (s0 >= s1) continue;
    if (seg.kind == RowSegment::Kind::periodic) {
      for_each_periodic_piece(periodic_pattern(segs, seg), s0, s1, piece);
    } else {
      piece(seg, s0 - seg.out_begin, s1 - s0, s0);
    }
  }
}

}  // namespace padnd::detail
