// SPDX-License-Identifier: Apache-2.0
// numpy's scalar arithmetic for the value pass, one Num<T> per element type: every operation
// rounds where numpy's ufunc loop rounds (float16 computes in float and rounds each result;
// complex division is numpy's Smith division, so a complex divided by n is a product with 1/n).
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "executors/cpu/value_modes/soft_half.hpp"

namespace padnd::detail {

// numpy's float16. Compilers without _Float16 (clang before 15 on x86-64) use SoftHalf, which
// rounds the same way.
#ifdef __FLT16_MAX__
using Half = _Float16;
#else
using Half = SoftHalf;
#endif

template <class T>
inline constexpr bool kIsComplex = false;
template <class F>
inline constexpr bool kIsComplex<std::complex<F>> = true;

/// numpy's cast of a double (or long double, `F`) to the integer type `T`: exact for every value
/// `T` holds. Out of
/// range, numpy's C cast is undefined behaviour; padnd reproduces what numpy does on x86-64, so
/// that e.g. a ramp towards -2 in uint8 gives 254 as in numpy: the value is truncated to int32
/// (8- and 16-bit targets, int32) or int64 (uint32, int64), NaN and overflow giving the most
/// negative value, and the low bits are kept; uint64 converts values from 2^63 on separately.
template <class T, class F>
T cast_to_integer(F v) {
  constexpr F k31 = 2147483648.0;
  constexpr F k63 = 9223372036854775808.0;
  const auto to_i64 = [&](F x) {
    return std::isnan(x) || x >= k63 || x < -k63 ? std::numeric_limits<std::int64_t>::min()
                                                 : static_cast<std::int64_t>(x);
  };
  const auto to_i32 = [&](F x) {
    return std::isnan(x) || x >= k31 || x < -k31 ? std::numeric_limits<std::int32_t>::min()
                                                 : static_cast<std::int32_t>(x);
  };
  std::uint64_t bits = 0;
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    bits = v >= k63 ? static_cast<std::uint64_t>(to_i64(v - k63)) ^ (std::uint64_t{1} << 63)
                    : static_cast<std::uint64_t>(to_i64(v));
  } else if constexpr (sizeof(T) == 8 || std::is_same_v<T, std::uint32_t>) {
    bits = static_cast<std::uint64_t>(to_i64(v));
  } else {
    bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(to_i32(v)));
  }
  return static_cast<T>(bits);  // the low bits, two's complement
}

/// Arithmetic in numpy's type `R` (the accumulation / linspace types).
template <class R>
struct Arith {
  static R add(R a, R b) { return a + b; }
  static R sub(R a, R b) { return a - b; }
  static R mul(R a, R b) { return a * b; }
  static R div_count(R a, std::int64_t n) { return a / static_cast<R>(n); }
  static R from_count(std::int64_t i) { return static_cast<R>(i); }
  static bool is_zero(R a) { return a == R(0); }
  static bool is_nan(R a) { return std::isnan(a); }
};

template <>
struct Arith<Half> {
  static float f(Half a) { return static_cast<float>(a); }
  static Half add(Half a, Half b) { return static_cast<Half>(f(a) + f(b)); }
  static Half sub(Half a, Half b) { return static_cast<Half>(f(a) - f(b)); }
  static Half mul(Half a, Half b) { return static_cast<Half>(f(a) * f(b)); }
  static Half div_count(Half a, std::int64_t n) {
    return static_cast<Half>(f(a) / f(static_cast<Half>(static_cast<float>(n))));
  }
  static Half from_count(std::int64_t i) { return static_cast<Half>(static_cast<float>(i)); }
  static bool is_zero(Half a) { return f(a) == 0.0F; }
  static bool is_nan(Half a) { return std::isnan(f(a)); }
};

template <class F>
struct Arith<std::complex<F>> {
  using C = std::complex<F>;
  static C add(C a, C b) { return {a.real() + b.real(), a.imag() + b.imag()}; }
  static C sub(C a, C b) { return {a.real() - b.real(), a.imag() - b.imag()}; }
  static C mul(C a, C b) {  // the textbook formula, no C99 Annex G recovery (numpy's loop)
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
  }
  /// numpy's complex division by (n + 0j): rat = 0, scl = 1 / n.
  static C div_count(C a, std::int64_t n) {
    const auto d = static_cast<F>(n);
    const F rat = F(0) / d;
    const F scl = F(1) / (d + F(0) * rat);
    return {(a.real() + a.imag() * rat) * scl, (a.imag() - a.real() * rat) * scl};
  }
  static C from_count(std::int64_t i) { return {static_cast<F>(i), F(0)}; }
  static bool is_zero(C a) { return a.real() == F(0) && a.imag() == F(0); }
  static bool is_nan(C a) { return std::isnan(a.real()) || std::isnan(a.imag()); }
};

/// A real value in the ramp type `R` (a complex `R` gets a zero imaginary part).
template <class R, class T>
R real_to_ramp(T v) {
  if constexpr (kIsComplex<R>) {
    return R(static_cast<typename R::value_type>(v), 0);
  } else {
    return static_cast<R>(v);
  }
}

/// The real part of a ramp value: numpy drops the imaginary part when it stores a complex ramp
/// as reals (ComplexWarning).
template <class R>
auto real_part(R v) {
  if constexpr (kIsComplex<R>) {
    return v.real();
  } else {
    return v;
  }
}

/// The element type `T` as the value pass sees it: numpy's accumulator type for mean/median
/// (`Acc`), conversions to and from it, and the order numpy's maximum/minimum use.
template <class T>
struct Num {  // integers
  using Acc = double;
  static Acc to_acc(T v) { return static_cast<double>(v); }
  /// The mean of `n` values summing to `sum`, stored as T: np.mean, then np.round, then the cast.
  static T mean_of(Acc sum, std::int64_t n) {
    return cast_to_integer<T>(std::nearbyint(sum / static_cast<double>(n)));
  }
  static bool is_nan(T) { return false; }
  /// numpy's maximum(a, b): a unless b is greater (NaN in a wins, a NaN in b replaces a).
  static T max(T a, T b) { return b > a ? b : a; }
  static T min(T a, T b) { return b < a ? b : a; }
  static bool less(T a, T b) { return a < b; }
  /// odd reflection 2 * edge - x, wrapping like numpy's integer loops.
  static T odd(T edge, T x) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(
        static_cast<U>(static_cast<U>(2U * static_cast<U>(edge)) - static_cast<U>(x)));
  }
  /// A linspace result in type R, floored and cast (np.floor, then astype). The planner
  /// rejects complex ramps for integers (numpy's floor has no complex loop).
  template <class R>
  static T from_ramp(R v) {
    using F = std::conditional_t<std::is_same_v<R, long double>, long double, double>;
    return cast_to_integer<T>(std::floor(static_cast<F>(real_part(v))));
  }
  template <class R>
  static R to_ramp(T v) {
    return real_to_ramp<R>(v);
  }
};

template <>
struct Num<bool> {
  using Acc = double;
  static Acc to_acc(bool v) { return v ? 1.0 : 0.0; }
  static bool mean_of(Acc sum, std::int64_t n) { return sum / static_cast<double>(n) != 0.0; }
  static bool is_nan(bool) { return false; }
  static bool max(bool a, bool b) { return a || b; }
  static bool min(bool a, bool b) { return a && b; }
  static bool less(bool a, bool b) { return !a && b; }
  static bool odd(bool edge, bool x) { return (2 * int{edge} - int{x}) != 0; }
  template <class R>
  static bool from_ramp(R v) {
    return !Arith<R>::is_zero(v);
  }
  template <class R>
  static R to_ramp(bool v) {
    return static_cast<R>(v ? 1.0 : 0.0);
  }
};

/// Shared by the real floating types: NaN propagates through maximum/minimum. Of two equal
/// values (0.0 and -0.0), numpy's float16 and long double loops keep the first and its
/// float32/float64 loops take the second (`kTieTakesSecond`). Compared in `W`, which holds
/// every value of T.
template <class T, class A, bool kTieTakesSecond>
struct RealNum {
  using Acc = A;
  using W = std::conditional_t<std::is_same_v<T, Half>, float, T>;
  static bool is_nan(T v) { return std::isnan(static_cast<W>(v)); }
  static T max(T a, T b) {
    const auto x = static_cast<W>(a);
    const auto y = static_cast<W>(b);
    return ((kTieTakesSecond ? x > y : x >= y) | is_nan(a)) ? a : b;  // |: no branch, vectorises
  }
  static T min(T a, T b) {
    const auto x = static_cast<W>(a);
    const auto y = static_cast<W>(b);
    return ((kTieTakesSecond ? x < y : x <= y) | is_nan(a)) ? a : b;
  }
  static bool less(T a, T b) { return static_cast<W>(a) < static_cast<W>(b); }
  static T odd(T edge, T x) {
    const T twice = Arith<T>::mul(static_cast<T>(2.0F), edge);
    return Arith<T>::sub(twice, x);
  }
  template <class R>
  static T from_ramp(R v) {
    return static_cast<T>(real_part(v));
  }
  template <class R>
  static R to_ramp(T v) {
    return real_to_ramp<R>(v);
  }
};

template <>
struct Num<Half> : RealNum<Half, float, false> {
  static float to_acc(Half v) { return static_cast<float>(v); }
  /// float16 mean: float32 sum, divided in float64, stored as float32, then as float16.
  static Half mean_of(float sum, std::int64_t n) {
    return static_cast<Half>(static_cast<float>(static_cast<double>(sum) / static_cast<double>(n)));
  }
};
template <>
struct Num<float> : RealNum<float, float, true> {
  static float to_acc(float v) { return v; }
  static float mean_of(float sum, std::int64_t n) {
    return static_cast<float>(static_cast<double>(sum) / static_cast<double>(n));
  }
};
template <>
struct Num<double> : RealNum<double, double, true> {
  static double to_acc(double v) { return v; }
  static double mean_of(double sum, std::int64_t n) { return sum / static_cast<double>(n); }
};
/// numpy's long double: every operation in long double (a count promotes to it too).
template <>
struct Num<long double> : RealNum<long double, long double, false> {
  static long double to_acc(long double v) { return v; }
  static long double mean_of(long double sum, std::int64_t n) {
    return sum / static_cast<long double>(n);
  }
};

template <class F>
struct Num<std::complex<F>> {
  using C = std::complex<F>;
  using Acc = C;
  static C to_acc(C v) { return v; }
  /// np.mean divides in complex128 (the count is an intp promoting complex64 to it; clongdouble
  /// stays itself), then stores C.
  static C mean_of(C sum, std::int64_t n) {
    using Q = std::complex<std::conditional_t<std::is_same_v<F, long double>, long double, double>>;
    using QF = typename Q::value_type;
    const Q q = Arith<Q>::div_count({static_cast<QF>(sum.real()), static_cast<QF>(sum.imag())}, n);
    return {static_cast<F>(q.real()), static_cast<F>(q.imag())};
  }
  static bool is_nan(C v) { return Arith<C>::is_nan(v); }
  /// numpy's complex order: lexicographic (CGE / CLE), NaN in `a` kept, NaN in `b` taken.
  static C max(C a, C b) {
    const bool ge = (a.real() > b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
                    (a.real() == b.real() && a.imag() >= b.imag());
    return (is_nan(a) || ge) ? a : b;
  }
  static C min(C a, C b) {
    const bool le = (a.real() < b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
                    (a.real() == b.real() && a.imag() <= b.imag());
    return (is_nan(a) || le) ? a : b;
  }
  static bool less(C a, C b) {
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  }
  static C odd(C edge, C x) { return Arith<C>::sub(Arith<C>::mul(C(2, 0), edge), x); }
  template <class R>
  static C from_ramp(R v) {
    if constexpr (kIsComplex<R>) {
      return {static_cast<F>(v.real()), static_cast<F>(v.imag())};
    } else {
      return {static_cast<F>(v), F(0)};
    }
  }
  template <class R>
  static R to_ramp(C v) {
    if constexpr (kIsComplex<R>) {
      return R(static_cast<typename R::value_type>(v.real()),
               static_cast<typename R::value_type>(v.imag()));
    } else {
      return static_cast<R>(v.real());
    }
  }
};

}  // namespace padnd::detail
