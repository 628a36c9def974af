// SPDX-License-Identifier: Apache-2.0
// numpy's maximum / minimum / mean / median of a run of one lane, with numpy's arithmetic:
// np.amax/np.amin (NaN propagates), np.mean (numpy's pairwise summation from an identity of 0,
// or plain left-to-right accumulation when numpy reduces across rows), np.median (the mean of
// the one or two middle elements; NaN when any element is NaN).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lanes.hpp"
#include "numeric.hpp"
#include "padnd/pad_spec.hpp"

namespace padnd::detail {

/// How numpy adds up a reduction: pairwise along a contiguous run, left to right across rows.
enum class SumOrder : std::uint8_t { pairwise, sequential };

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
    A r[kUnroll];
    for (std::int64_t j = 0; j < kUnroll; ++j) r[j] = at(j);
    std::int64_t i = kUnroll;
    for (; i < n - n % kUnroll; i += kUnroll) {
      for (std::int64_t j = 0; j < kUnroll; ++j) r[j] = Ops::add(r[j], at(i + j));
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

template <class T>
T mean_of_run(const Lane<T>& lane, std::int64_t first, std::int64_t n, SumOrder order) {
  using A = typename Num<T>::Acc;
  A sum = A(0);
  if (order == SumOrder::pairwise) {
    sum = Arith<A>::add(sum, pairwise_sum(lane, first, n));
  } else {
    for (std::int64_t i = 0; i < n; ++i)
      sum = Arith<A>::add(sum, Num<T>::to_acc(lane.get(first + i)));
  }
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

/// np.amax / np.amin of lane elements [first, first + n), n >= 1 (the planner rejects a stat
/// length of 0).
template <class T>
T extreme_of_run(Mode mode, const Lane<T>& lane, std::int64_t first, std::int64_t n) {
  T acc = lane.get(first);
  for (std::int64_t i = 1; i < n; ++i) {
    acc = mode == Mode::maximum ? Num<T>::max(acc, lane.get(first + i))
                                : Num<T>::min(acc, lane.get(first + i));
  }
  return acc;
}

/// The statistic of `mode` over lane elements [first, first + n).
template <class T>
T statistic(Mode mode, const Lane<T>& lane, std::int64_t first, std::int64_t n, SumOrder order) {
  switch (mode) {
    case Mode::maximum:
    case Mode::minimum:
      return extreme_of_run(mode, lane, first, n);
    case Mode::mean:
      return mean_of_run(lane, first, n, order);
    default:
      return median_of_run(lane, first, n);
  }
}

}  // namespace padnd::detail
