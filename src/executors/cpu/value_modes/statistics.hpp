// SPDX-License-Identifier: Apache-2.0
// numpy's maximum / minimum / mean / median of runs of lanes, with numpy's arithmetic:
// np.amax/np.amin (NaN propagates), np.mean (numpy's pairwise summation from an identity of 0,
// or plain left-to-right accumulation when numpy reduces across rows), np.median (the mean of
// the one or two middle elements; NaN when any element is NaN).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "executors/cpu/simd.hpp"
#include "executors/cpu/value_modes/lanes.hpp"
#include "executors/cpu/value_modes/numeric.hpp"
#include "padnd/error.hpp"
#include "padnd/pad_spec.hpp"

namespace padnd::detail {

/// How numpy adds up a reduction: pairwise along a contiguous run, left to right across rows.
enum class SumOrder : std::uint8_t { pairwise, sequential };

#if PADND_SSE2
/// SSE2 for contiguous runs of float and double: maximum, minimum and pairwise sums.
template <class T>
struct Sse;
template <>
struct Sse<float> {
  using V = __m128;
  static constexpr std::int64_t kLanes = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static V max(V a, V b) { return _mm_max_ps(a, b); }
  static V min(V a, V b) { return _mm_min_ps(a, b); }
  static V add(V a, V b) { return _mm_add_ps(a, b); }
  static V or_nan_mask(V a, V b) { return _mm_or_ps(a, _mm_cmpunord_ps(b, b)); }
  static bool any(V m) { return _mm_movemask_ps(m) != 0; }
  static void store(float* p, V v) { _mm_storeu_ps(p, v); }
  static V zero() { return _mm_setzero_ps(); }
};
template <>
struct Sse<double> {
  using V = __m128d;
  static constexpr std::int64_t kLanes = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static V max(V a, V b) { return _mm_max_pd(a, b); }
  static V min(V a, V b) { return _mm_min_pd(a, b); }
  static V add(V a, V b) { return _mm_add_pd(a, b); }
  static V or_nan_mask(V a, V b) { return _mm_or_pd(a, _mm_cmpunord_pd(b, b)); }
  static bool any(V m) { return _mm_movemask_pd(m) != 0; }
  static void store(double* p, V v) { _mm_storeu_pd(p, v); }
  static V zero() { return _mm_setzero_pd(); }
};
#endif

#if PADND_SSE2
/// pairwise_sum's block (8 <= n <= 128) of a contiguous float or double run: the 8
/// accumulators in SSE2 registers, each adding the same elements in the same order, so the same
/// bits as the scalar loop.
template <class T>
T vector_block_sum(const T* p, std::int64_t n) {
  using S = Sse<T>;
  using V = typename S::V;
  constexpr std::int64_t kVectors = 8 / S::kLanes;
  V r[kVectors];
  for (std::int64_t k = 0; k < kVectors; ++k) r[k] = S::load(p + k * S::kLanes);
  std::int64_t i = 8;
  for (; i < n - n % 8; i += 8) {
    for (std::int64_t k = 0; k < kVectors; ++k) r[k] = S::add(r[k], S::load(p + i + k * S::kLanes));
  }
  T acc[8];
  for (std::int64_t k = 0; k < kVectors; ++k) S::store(acc + k * S::kLanes, r[k]);
  T res = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; i < n; ++i) {
    T x;
    std::memcpy(&x, p + i, sizeof(T));  // the buffer holds bytes: no typed read
    res += x;
  }
  return res;
}
#endif

/// numpy's pairwise_sum: blocks of 8 scalars (4 complex) with separate accumulators below 128
/// scalars, halves above.
template <class T>
typename Num<T>::Acc pairwise_sum(const Lane<T>& lane, std::int64_t first, std::int64_t n) {
  using A = typename Num<T>::Acc;
  using Ops = Arith<A>;
  constexpr std::int64_t kUnroll = kIsComplex<A> ? 4 : 8;
  constexpr std::int64_t kBlock = 16 * kUnroll;
  const auto at = [&](std::int64_t i) { return Num<T>::to_acc(lane.get(first + i)); };
  if (n < kUnroll) {
    A res = A(0);
    for (std::int64_t i = 0; i < n; ++i) res = Ops::add(res, at(i));
    return res;
  }
  if (n <= kBlock) {
#if PADND_SSE2
    if constexpr (std::is_same_v<T, A> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
      if (lane.stride_bytes == static_cast<std::int64_t>(sizeof(T))) {
        return vector_block_sum(reinterpret_cast<const T*>(lane.base) + first, n);
      }
    }
#endif
    A r[kUnroll];
    for (std::int64_t j = 0; j < kUnroll; ++j) r[j] = at(j);
    std::int64_t i = kUnroll;
    for (; i < n - n % kUnroll; i += kUnroll) {
      T v[kUnroll];  // loaded as a block: the adds then vectorise
      lane.get_run(first + i, kUnroll, v);
      for (std::int64_t j = 0; j < kUnroll; ++j) r[j] = Ops::add(r[j], Num<T>::to_acc(v[j]));
    }
    A res;
    if constexpr (kUnroll == 8) {
      res = Ops::add(Ops::add(Ops::add(r[0], r[1]), Ops::add(r[2], r[3])),
                     Ops::add(Ops::add(r[4], r[5]), Ops::add(r[6], r[7])));
    } else {
      res = Ops::add(Ops::add(r[0], r[1]), Ops::add(r[2], r[3]));
    }
    for (; i < n; ++i) res = Ops::add(res, at(i));
    return res;
  }
  std::int64_t half = n / 2;
  half -= half % kUnroll;
  return Ops::add(pairwise_sum(lane, first, half), pairwise_sum(lane, first + half, n - half));
}

/// np.mean of a run numpy adds pairwise (left-to-right sums go through group_statistic's rows).
template <class T>
T pairwise_mean_of_run(const Lane<T>& lane, std::int64_t first, std::int64_t n) {
  using A = typename Num<T>::Acc;
  const A sum = Arith<A>::add(A(0), pairwise_sum(lane, first, n));  // from 0, as numpy: -0.0 + 0
  return Num<T>::mean_of(sum, n);
}

template <class T>
T median_of_run(const Lane<T>& lane, std::int64_t first, std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = lane.get(first + i);
    if (Num<T>::is_nan(v[static_cast<std::size_t>(i)])) return v[static_cast<std::size_t>(i)];
  }
  using A = typename Num<T>::Acc;
  const auto less = [](T a, T b) { return Num<T>::less(a, b); };
  const auto mid = v.begin() + n / 2;
  std::nth_element(v.begin(), mid, v.end(), less);
  A sum = A(0);
  if (n % 2 == 0 && n > 0) {  // the largest of the lower half is the other middle element
    const T low = *std::max_element(v.begin(), mid, less);
    sum = Arith<A>::add(Arith<A>::add(sum, Num<T>::to_acc(low)), Num<T>::to_acc(*mid));
    return Num<T>::mean_of(sum, 2);
  }
  if (n > 0) sum = Arith<A>::add(sum, Num<T>::to_acc(*mid));
  return Num<T>::mean_of(sum, n > 0 ? 1 : 0);
}

/// Num<T>::max and Num<T>::min as function objects: loops then carry no test of the mode per
/// element.
template <class T>
struct MaxOp {
  static constexpr bool kMax = true;
  T operator()(T a, T b) const { return Num<T>::max(a, b); }
};
template <class T>
struct MinOp {
  static constexpr bool kMax = false;
  T operator()(T a, T b) const { return Num<T>::min(a, b); }
};

/// Calls fn with MaxOp<T> or MinOp<T>, as `mode` says.
template <class T, class Fn>
decltype(auto) with_extreme(Mode mode, const Fn& fn) {
  if (mode == Mode::maximum) return fn(MaxOp<T>{});
  return fn(MinOp<T>{});
}

#if PADND_SSE2
/// The maximum (kMax) or minimum of the contiguous p[0, n), n >= 4 vectors, with SSE2, four
/// vectors side by side. Neither its value nor its bits depend on the order of the comparisons,
/// unless a NaN occurs (numpy keeps the first) or the result is a zero (+0 and -0 compare equal,
/// and numpy keeps one of the equal values by position): then nullopt, and the caller makes the
/// exact left-to-right pass.
template <class T, bool kMax>
std::optional<T> vector_extreme(const T* p, std::int64_t n) {
  using S = Sse<T>;
  using V = typename S::V;
  constexpr std::int64_t kStep = 4 * S::kLanes;
  const auto pick = [](V a, V b) { return kMax ? S::max(a, b) : S::min(a, b); };
  V acc[4];
  V nan = S::zero();
  for (std::int64_t k = 0; k < 4; ++k) {
    acc[k] = S::load(p + k * S::kLanes);
    nan = S::or_nan_mask(nan, acc[k]);
  }
  std::int64_t i = kStep;
  for (; i + kStep <= n; i += kStep) {
    for (std::int64_t k = 0; k < 4; ++k) {
      const V x = S::load(p + i + k * S::kLanes);
      acc[k] = pick(acc[k], x);
      nan = S::or_nan_mask(nan, x);
    }
  }
  if (S::any(nan)) return std::nullopt;
  T lanes[S::kLanes];
  S::store(lanes, pick(pick(acc[0], acc[1]), pick(acc[2], acc[3])));
  T result = lanes[0];
  const auto fold = [&](T x) {
    result = kMax ? (x > result ? x : result) : (x < result ? x : result);
  };
  for (std::int64_t k = 1; k < S::kLanes; ++k) fold(lanes[k]);
  for (; i < n; ++i) {
    T x;
    std::memcpy(&x, p + i, sizeof(T));  // the buffer holds bytes: no typed read
    if (Num<T>::is_nan(x)) return std::nullopt;
    fold(x);
  }
  if (result == T(0)) return std::nullopt;
  return result;
}
#endif

/// np.amax / np.amin (`op`) of lane elements [first, first + n), n >= 1 (the planner rejects a
/// stat length of 0). Contiguous float and double runs go through vector_extreme where their
/// bits allow. Otherwise eight consecutive stretches are reduced side by side and then in order,
/// which gives the bits of one left-to-right pass: maximum and minimum keep the first NaN, and of
/// equal values the same one (first or last, Num<T>::max/min), whichever way a sequence is split.
template <class T, class Op>
T extreme_of_run(const Op& op, const Lane<T>& lane, std::int64_t first, std::int64_t n) {
#if PADND_SSE2
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (lane.stride_bytes == static_cast<std::int64_t>(sizeof(T)) && n >= 4 * Sse<T>::kLanes) {
      const T* run = reinterpret_cast<const T*>(lane.base) + first;
      if (const std::optional<T> r = vector_extreme<T, Op::kMax>(run, n)) return *r;
    }
  }
#endif
  constexpr std::int64_t kStretches = 8;
  const std::int64_t len = n / kStretches;
  T result = lane.get(first);
  std::int64_t done = 1;
  if (len >= 2) {
    T acc[kStretches];
    for (std::int64_t k = 0; k < kStretches; ++k) acc[k] = lane.get(first + k * len);
    for (std::int64_t i = 1; i < len; ++i) {
      for (std::int64_t k = 0; k < kStretches; ++k)
        acc[k] = op(acc[k], lane.get(first + k * len + i));
    }
    result = acc[0];
    for (std::int64_t k = 1; k < kStretches; ++k) result = op(result, acc[k]);
    done = kStretches * len;
  }
  for (std::int64_t i = done; i < n; ++i) result = op(result, lane.get(first + i));
  return result;
}

/// Lanes of equal length whose statistics are computed together, lane j starting `lane_step`
/// bytes after lane j - 1.
template <class T>
struct LaneGroup {
  std::byte* first;
  std::int64_t lane_step;
  std::int64_t count;
  std::int64_t stride_bytes;  ///< between the elements of one lane
  [[nodiscard]] Lane<T> lane(std::int64_t j) const { return {first + j * lane_step, stride_bytes}; }
  /// row[j] = element i of lane j: the row across the lanes, read as a lane of its own (one
  /// copy where the lanes are adjacent elements).
  void load(std::int64_t i, T* row) const {
    Lane<T>{first + i * stride_bytes, lane_step}.get_run(0, count, row);
  }
};

/// The type sums of T are kept in (Num<T>::Acc; T itself for types that have no mean).
template <class T>
struct SumOf {
  using type = T;
};
template <class T>
requires requires { typename Num<T>::Acc; }
struct SumOf<T> {
  using type = typename Num<T>::Acc;
};

/// Working space of group_statistic for groups of up to `lanes` lanes (arrays, not vectors:
/// std::vector<bool> has no data()); sums only for a mean added row by row.
template <class T>
struct GroupScratch {
  GroupScratch(std::int64_t lanes, bool sums)
      : row(std::make_unique<T[]>(static_cast<std::size_t>(lanes))),
        sum(sums ? std::make_unique<typename SumOf<T>::type[]>(static_cast<std::size_t>(lanes))
                 : nullptr) {}
  std::unique_ptr<T[]> row;
  std::unique_ptr<typename SumOf<T>::type[]> sum;
};

/// result[j] = the statistic of `mode` over elements [first, first + n) of lane j of `group`.
/// Maxima, minima and left-to-right sums step through the lanes side by side, element i of
/// every lane before element i + 1 of any (each lane's own order, so the same bits as one lane
/// at a time); pairwise sums and medians go lane by lane.
template <class T>
void group_statistic(Mode mode, const LaneGroup<T>& group, std::int64_t first, std::int64_t n,
                     SumOrder order, T* result, GroupScratch<T>& scratch) {
  const std::int64_t g = group.count;
  T* row = scratch.row.get();
  const auto extremes = [&](const auto& op) {
    if (g == 1) {
      result[0] = extreme_of_run(op, group.lane(0), first, n);
      return;
    }
    group.load(first, result);
    // (bool lanes go through Lane<bool>, which reads any non-zero byte as true)
    const bool adjacent =
        !std::is_same_v<T, bool> && group.lane_step == static_cast<std::int64_t>(sizeof(T));
    for (std::int64_t i = 1; i < n; ++i) {
      // The row across the lanes: read in place where the lanes are adjacent, else copied.
      const std::byte* next = group.first + (first + i) * group.stride_bytes;
      if (!adjacent) {
        group.load(first + i, row);
        next = reinterpret_cast<const std::byte*>(row);
      }
      // Separate arrays (restrict): the compiler may vectorise the select.
      T* __restrict__ acc = result;
      const std::byte* __restrict__ from = next;
      for (std::int64_t j = 0; j < g; ++j) {
        T v;
        std::memcpy(&v, from + j * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
        acc[j] = op(acc[j], v);
      }
    }
  };
  if (mode == Mode::maximum || mode == Mode::minimum) return with_extreme<T>(mode, extremes);
  if constexpr (requires { typename Num<T>::Acc; }) {
    using A = typename Num<T>::Acc;
    if (mode == Mode::mean && order == SumOrder::sequential) {
      A* sum = scratch.sum.get();
      for (std::int64_t j = 0; j < g; ++j) sum[j] = A(0);
      for (std::int64_t i = 0; i < n; ++i) {
        group.load(first + i, row);
        for (std::int64_t j = 0; j < g; ++j) sum[j] = Arith<A>::add(sum[j], Num<T>::to_acc(row[j]));
      }
      for (std::int64_t j = 0; j < g; ++j) result[j] = Num<T>::mean_of(sum[j], n);
      return;
    }
    for (std::int64_t j = 0; j < g; ++j) {
      result[j] = mode == Mode::mean ? pairwise_mean_of_run(group.lane(j), first, n)
                                     : median_of_run(group.lane(j), first, n);
    }
  } else {
    throw Error(Errc::unsupported_type, "axis_modes: mean and median need arithmetic elements");
  }
}

}  // namespace padnd::detail
