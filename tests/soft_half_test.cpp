// SPDX-License-Identifier: Apache-2.0
// SoftHalf (float16 for compilers without _Float16) against IEEE binary16's definition, and,
// where the compiler has _Float16, against the native conversions bit for bit.
#include "executors/cpu/value_modes/soft_half.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace {

using padnd::detail::SoftHalf;

template <class F>
std::uint16_t soft_bits(F value) {
  return SoftHalf(value).bits();
}

SoftHalf from_bits(std::uint16_t bits) { return std::bit_cast<SoftHalf>(bits); }

TEST(SoftHalf, RoundsTheDefinitionsValues) {
  EXPECT_EQ(soft_bits(1.0F), 0x3c00);
  EXPECT_EQ(soft_bits(-2.0), 0xc000);
  EXPECT_EQ(soft_bits(-0.0F), 0x8000);
  EXPECT_EQ(soft_bits(65504.0), 0x7bff);               // the largest finite value
  EXPECT_EQ(soft_bits(65519.99), 0x7bff);              // below the midpoint to infinity
  EXPECT_EQ(soft_bits(65520.0), 0x7c00);               // the midpoint rounds to even: infinity
  EXPECT_EQ(soft_bits(std::ldexp(1.0, -24)), 1);       // the smallest subnormal
  EXPECT_EQ(soft_bits(std::ldexp(1.0, -25)), 0);       // half of it: ties to even (zero)
  EXPECT_EQ(soft_bits(std::ldexp(3.0, -25)), 2);       // 1.5 subnormals: ties to even (2)
  EXPECT_EQ(soft_bits(std::ldexp(1.0, -14)), 0x0400);  // the smallest normal
  EXPECT_EQ(soft_bits(1.0 + std::ldexp(1.0, -11)), 0x3c00);          // a tie rounds to even
  EXPECT_EQ(soft_bits(1.0 + std::ldexp(3.0, -11)), 0x3c02);          // a tie rounds to even
  EXPECT_EQ(soft_bits(1.0 + std::ldexp(1.0, -11) + 1e-12), 0x3c01);  // once, not twice
  EXPECT_EQ(soft_bits(std::numeric_limits<double>::infinity()), 0x7c00);
  EXPECT_EQ(soft_bits(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(soft_bits(70000), 0x7c00);
  EXPECT_EQ(soft_bits(-3), 0xc200);
  EXPECT_EQ(soft_bits(std::numeric_limits<std::int64_t>::min()), 0xfc00);
  EXPECT_EQ(soft_bits(std::numeric_limits<float>::quiet_NaN()) & 0x7e00, 0x7e00);
}

TEST(SoftHalf, EveryHalfConvertsToFloatExactlyAndBack) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto half = static_cast<std::uint16_t>(bits);
    const auto value = static_cast<float>(from_bits(half));
    const bool nan = (half & 0x7c00) == 0x7c00 && (half & 0x3ff) != 0;
    ASSERT_EQ(std::isnan(value), nan) << std::hex << bits;
    // A signalling NaN comes back quiet, every other half unchanged.
    ASSERT_EQ(soft_bits(value), nan ? (half | 0x200) : half) << std::hex << bits;
    ASSERT_EQ(soft_bits(static_cast<double>(value)), soft_bits(value)) << std::hex << bits;
    ASSERT_EQ(soft_bits(static_cast<long double>(value)), soft_bits(value)) << std::hex << bits;
  }
}

#ifdef __FLT16_MAX__
std::uint16_t native_bits(_Float16 value) { return std::bit_cast<std::uint16_t>(value); }

// Every midpoint between neighbouring halves, and one float/double step either side of it: the
// values where a conversion that rounds twice, or rounds ties the wrong way, differs.
TEST(SoftHalf, MatchesNativeFloat16AtEveryMidpoint) {
  for (std::uint32_t bits = 0; bits < 0x7c00; ++bits) {
    for (const double sign : {1.0, -1.0}) {
      const auto low = static_cast<double>(from_bits(static_cast<std::uint16_t>(bits)));
      const double high =
          bits + 1 == 0x7c00 ? 65536.0  // where the next exponent would start
                             : static_cast<double>(from_bits(static_cast<std::uint16_t>(bits + 1)));
      const double mid = sign * (low + high) / 2;
      for (const double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 2 * mid)}) {
        ASSERT_EQ(soft_bits(d), native_bits(static_cast<_Float16>(d))) << d;
        const auto f = static_cast<float>(d);
        ASSERT_EQ(soft_bits(f), native_bits(static_cast<_Float16>(f))) << f;
        const auto l = static_cast<long double>(d);
        ASSERT_EQ(soft_bits(l), native_bits(static_cast<_Float16>(l))) << d;
      }
    }
  }
}

TEST(SoftHalf, MatchesNativeFloat16OnRandomValuesAndIntegers) {
  std::mt19937_64 rng(20261125);
  for (int i = 0; i < 2'000'000; ++i) {
    const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (std::isnan(f)) continue;  // NaN payloads: covered above
    ASSERT_EQ(soft_bits(f), native_bits(static_cast<_Float16>(f))) << f;
    const auto n = static_cast<std::int32_t>(rng() >> (32 + i % 31));
    ASSERT_EQ(soft_bits(n), native_bits(static_cast<_Float16>(n))) << n;
  }
}
#endif

}  // namespace
