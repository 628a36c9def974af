// SPDX-License-Identifier: Apache-2.0
// Division of non-negative 64-bit integers by a divisor known before the loop, as a multiply
// and a shift (Granlund and Montgomery, "Division by invariant integers using multiplication",
// 1994): kernels decompose flat indices and fold positions without a divide instruction.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/host_device.hpp"

namespace padnd::detail {

// GCC and clang's 128-bit integer (an extension: -Wpedantic would flag the bare name).
__extension__ using Uint128 = unsigned __int128;

/// High 64 bits of the 128-bit product a * b.
PADND_HD inline std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<Uint128>(a) * b) >> 64);
#endif
}

/// A divisor d >= 1 for dividends in [0, 2**63). With l = ceil(log2 d) and
/// m = ceil(2**(63 + l) / d) < 2**64, floor(n / d) = floor(m * n / 2**(63 + l)) for every such n.
struct FastDivisor {
  std::uint64_t divisor = 1;
  std::uint64_t multiplier = 0;  ///< m (0 for d == 1: the quotient is n)
  /// l - 1, applied to the high word of m * n. 64 bits wide: the struct has no padding, so
  /// images holding it compare (and key the CUDA executor's cache) by their bytes.
  std::int64_t shift = 0;

  FastDivisor() = default;
  explicit FastDivisor(std::int64_t d) : divisor(static_cast<std::uint64_t>(d)) {
    if (divisor == 1) return;
    int l = 0;
    while ((std::uint64_t{1} << l) < divisor) ++l;  // d >= 2, so 1 <= l <= 63
    const Uint128 numerator = static_cast<Uint128>(1) << (63 + l);
    const auto q = static_cast<std::uint64_t>(numerator / divisor);
    multiplier = q + (numerator % divisor != 0 ? 1 : 0);
    shift = l - 1;
  }

  /// floor(n / d) for n in [0, 2**63).
  [[nodiscard]] PADND_HD std::int64_t quotient(std::int64_t n) const {
    if (multiplier == 0) return n;
    return static_cast<std::int64_t>(multiply_high(multiplier, static_cast<std::uint64_t>(n)) >>
                                     shift);
  }
  /// n mod d for n in [0, 2**63).
  [[nodiscard]] PADND_HD std::int64_t remainder(std::int64_t n) const {
    return n - quotient(n) * static_cast<std::int64_t>(divisor);
  }
};
static_assert(std::has_unique_object_representations_v<FastDivisor>);

}  // namespace padnd::detail
