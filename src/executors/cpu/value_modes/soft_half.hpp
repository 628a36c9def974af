// SPDX-License-Identifier: Apache-2.0
// IEEE binary16 for compilers without _Float16 (clang before 15 on x86-64): the same bits and
// the same rounding as the native type (round to nearest even, once, from any wider float).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace padnd::detail {

/// A float16 held as its bits. Converting to it rounds the wider value once, to nearest even,
/// as a conversion to _Float16 does; converting from it is exact. Arithmetic is done by callers
/// in float, as numpy's float16 loops do.
class SoftHalf {
 public:
  SoftHalf() = default;
  template <class F>
  requires std::is_floating_point_v<F>
  explicit SoftHalf(F value) : bits_(bits_of(value)) {}
  /// Every integer from 65520 on is infinite, and double holds the smaller ones exactly.
  template <class I>
  requires std::is_integral_v<I>
  explicit SoftHalf(I value) : bits_(bits_of(static_cast<double>(value))) {}

  template <class F>
  requires std::is_floating_point_v<F>
  explicit operator F() const { return static_cast<F>(to_float()); }

  [[nodiscard]] std::uint16_t bits() const noexcept { return bits_; }

 private:
  static constexpr std::uint16_t kSign = 0x8000;
  static constexpr std::uint16_t kInfinity = 0x7c00;
  static constexpr std::uint16_t kQuietBit = 0x0200;
  static constexpr int kMinExponent = -14;  // of the normal numbers
  static constexpr int kMaxExponent = 15;
  static constexpr int kMantissaBits = 10;

  // A NaN keeps the top 10 bits of its payload and becomes quiet (x86's conversions do this).
  template <class F>
  static std::uint16_t nan_payload(F value) {
    if constexpr (sizeof(F) == sizeof(float)) {
      return static_cast<std::uint16_t>((std::bit_cast<std::uint32_t>(value) >> 13) & 0x3ff);
    } else if constexpr (sizeof(F) == sizeof(double)) {
      return static_cast<std::uint16_t>((std::bit_cast<std::uint64_t>(value) >> 42) & 0x3ff);
    } else {
      return nan_payload(static_cast<double>(value));
    }
  }

  template <class F>
  static std::uint16_t bits_of(F value) {
    const std::uint16_t sign = std::signbit(value) ? kSign : 0;
    if (std::isnan(value)) return sign | kInfinity | kQuietBit | nan_payload(value);
    const F magnitude = std::fabs(value);
    if (std::isinf(magnitude)) return sign | kInfinity;
    if (magnitude == F(0)) return sign;
    int frexp_exponent = 0;
    std::frexp(magnitude, &frexp_exponent);  // magnitude = m * 2^e, m in [0.5, 1)
    int exponent = std::max(frexp_exponent - 1, kMinExponent);
    // Scaling by a power of two is exact, and the scaled value has at most 11 integer bits, so
    // nearbyint (round half to even) makes the one rounding.
    auto mantissa =
        static_cast<std::int64_t>(std::nearbyint(std::ldexp(magnitude, kMantissaBits - exponent)));
    if (mantissa == std::int64_t{2} << kMantissaBits) {
      mantissa >>= 1;
      ++exponent;
    }
    if (exponent > kMaxExponent) return sign | kInfinity;
    if (mantissa < (std::int64_t{1} << kMantissaBits)) {  // subnormal (exponent is the minimum)
      return sign | static_cast<std::uint16_t>(mantissa);
    }
    const auto biased = static_cast<std::uint16_t>(exponent - kMinExponent + 1);
    return sign | static_cast<std::uint16_t>(biased << kMantissaBits) |
           static_cast<std::uint16_t>(mantissa - (std::int64_t{1} << kMantissaBits));
  }

  [[nodiscard]] float to_float() const {
    const float sign = (bits_ & kSign) != 0 ? -1.0F : 1.0F;
    const int biased = (bits_ >> kMantissaBits) & 0x1f;
    const int mantissa = bits_ & 0x3ff;
    if (biased == 0x1f) {
      if (mantissa == 0) return sign * INFINITY;
      // float's NaN with the same payload in its top mantissa bits
      const std::uint32_t nan_bits = ((bits_ & kSign) != 0 ? 0x80000000U : 0U) | 0x7f800000U |
                                     (static_cast<std::uint32_t>(mantissa) << 13);
      return std::bit_cast<float>(nan_bits);
    }
    if (biased == 0) {
      return sign * std::ldexp(static_cast<float>(mantissa), kMinExponent - kMantissaBits);
    }
    return sign * std::ldexp(static_cast<float>(mantissa + (1 << kMantissaBits)),
                             biased - kMaxExponent - kMantissaBits);
  }

  std::uint16_t bits_ = 0;
};

static_assert(sizeof(SoftHalf) == 2 && std::is_trivially_copyable_v<SoftHalf>);

}  // namespace padnd::detail
