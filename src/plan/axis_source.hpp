// SPDX-License-Identifier: Apache-2.0
// Where a position of one planned axis reads from, through the axis's tables: the lookup both
// executors run per position. The CPU executor's axes divide with the hardware divide; the CUDA
// executor's carry precomputed divisors (core/fast_divisor.hpp), so its hot loop has no divide.
#pragma once

#include <cstdint>

#include "core/fast_divisor.hpp"
#include "core/host_device.hpp"

namespace padnd::detail {

/// The source axis_source returns for a pad-value position (PlanAxis::kPad, the device axes').
inline constexpr std::int64_t kPadSource = -1;

PADND_HD inline std::int64_t quotient_by(std::int64_t divisor, std::int64_t n) {
  return n / divisor;
}
PADND_HD inline std::int64_t quotient_by(const FastDivisor& divisor, std::int64_t n) {
  return divisor.quotient(n);
}
PADND_HD inline std::int64_t remainder_by(std::int64_t divisor, std::int64_t n) {
  return n % divisor;
}
PADND_HD inline std::int64_t remainder_by(const FastDivisor& divisor, std::int64_t n) {
  return divisor.remainder(n);
}

/// View index of output position `o` (in [0, out_len)) of `axis`, or `pad` (the pad value).
/// `Axis` has PlanAxis's fields (src/plan/program.hpp) and mid_divisor() / period_divisor():
/// the interior step and the border period, as integers or FastDivisors. A middle position
/// reads mid_src + m / mid_step where m is a multiple of mid_step (interior padding elsewhere);
/// a border position reads its border table entry, positions beyond the tabulated period
/// folded onto it.
template <class Axis>
PADND_HD std::int64_t axis_source(const Axis& axis, std::int64_t o, const std::int64_t* borders,
                                  std::int64_t pad) {
  const std::int64_t m = o - axis.head_len;
  // One unsigned compare tests both ends of the middle run, the common case.
  if (static_cast<std::uint64_t>(m) < static_cast<std::uint64_t>(axis.mid_len)) {
    if (axis.mid_step == 1) return axis.mid_src + m;
    const std::int64_t q = quotient_by(axis.mid_divisor(), m);
    return q * axis.mid_step == m ? axis.mid_src + q : pad;
  }
  if (m < 0) {
    std::int64_t i = o - (axis.head_len - axis.head_tabulated);
    if (i < 0) i = axis.period - 1 - remainder_by(axis.period_divisor(), -(i + 1));
    return borders[axis.borders_at + i];
  }
  std::int64_t t = m - axis.mid_len;
  if (t >= axis.tail_tabulated) t = remainder_by(axis.period_divisor(), t);
  return borders[axis.borders_at + axis.head_tabulated + t];
}

}  // namespace padnd::detail
