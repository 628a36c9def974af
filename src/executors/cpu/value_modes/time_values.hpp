// SPDX-License-Identifier: Apache-2.0
// numpy's datetime64 / timedelta64 arithmetic for the value pass: int64 ticks where INT64_MIN is
// NaT. numpy computes only datetime64 maximum/minimum (NaT wins) and timedelta64's odd
// reflection 2 * edge - x (NaT in, NaT out; overflow wraps, and a product that wraps to
// INT64_MIN is NaT). The planner rejects every other value mode for them, as numpy does.
#pragma once

#include <cstdint>
#include <limits>

#include "executors/cpu/value_modes/numeric.hpp"

namespace padnd::detail {

inline constexpr std::int64_t kNaT = std::numeric_limits<std::int64_t>::min();

struct Datetime64 {
  std::int64_t ticks;
};
struct Timedelta64 {
  std::int64_t ticks;
};

/// numpy's DATETIME_maximum / DATETIME_minimum: NaT in either operand gives NaT.
template <>
struct Num<Datetime64> {
  static Datetime64 max(Datetime64 a, Datetime64 b) {
    if (a.ticks == kNaT) return a;
    return b.ticks == kNaT || b.ticks > a.ticks ? b : a;
  }
  static Datetime64 min(Datetime64 a, Datetime64 b) {
    if (a.ticks == kNaT) return a;
    return b.ticks == kNaT || b.ticks < a.ticks ? b : a;
  }
};

/// numpy's int64 * timedelta64 and timedelta64 - timedelta64 loops, each NaT-aware and
/// wrapping in two's complement.
template <>
struct Num<Timedelta64> {
  static Timedelta64 odd(Timedelta64 edge, Timedelta64 x) {
    if (edge.ticks == kNaT || x.ticks == kNaT) return {kNaT};
    const std::int64_t twice = Num<std::int64_t>::odd(edge.ticks, 0);  // 2 * edge, wrapped
    if (twice == kNaT) return {kNaT};
    return {static_cast<std::int64_t>(static_cast<std::uint64_t>(twice) -
                                      static_cast<std::uint64_t>(x.ticks))};
  }
};

}  // namespace padnd::detail
