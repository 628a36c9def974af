// SPDX-License-Identifier: Apache-2.0
// The typed axis passes: numpy's odd reflection (_set_reflect_both), linear ramps
// (_get_linear_ramps with np.linspace's arithmetic) and statistics (_get_stats), each over all
// lanes of one pass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "executors/cpu/value_modes/lanes.hpp"
#include "executors/cpu/value_modes/numeric.hpp"
#include "executors/cpu/value_modes/statistics.hpp"
#include "padnd/plan.hpp"

namespace padnd::detail {

/// numpy's reflect_type="odd": chunk by chunk, each chunk mirrored from what is already there
/// (so a wide pad is not periodic). A length-1 axis is extended with its edge (numpy's rule).
template <class T>
void odd_reflect_lane(const Lane<T>& lane, std::int64_t n_out, const AxisPass& pass) {
  const std::int64_t len = pass.in_len;
  std::int64_t left = pass.begin;
  std::int64_t right = pass.end;
  if (len == 1) {
    for (std::int64_t i = 0; i < left; ++i) lane.set(i, lane.get(left));
    for (std::int64_t i = n_out - right; i < n_out; ++i) lane.set(i, lane.get(n_out - right - 1));
    return;
  }
  const bool include_edge = pass.rule.mode == Mode::symmetric;
  while (left > 0 || right > 0) {
    std::int64_t old_len = n_out - right - left;
    std::int64_t edge_offset = 0;
    if (include_edge) {
      old_len = old_len / len * len;
      edge_offset = 1;
    } else {
      old_len = (old_len - 1) / (len - 1) * (len - 1);  // numpy: ... + 1, then - 1 (no edge)
    }
    if (left > 0) {
      const std::int64_t chunk = std::min(old_len, left);
      const std::int64_t start = left - edge_offset + chunk;  // read backwards from here
      const T edge = lane.get(left);
      for (std::int64_t i = 0; i < chunk; ++i) {
        lane.set(left - chunk + i, Num<T>::odd(edge, lane.get(start - i)));
      }
      left -= chunk;
    }
    if (right > 0) {
      const std::int64_t chunk = std::min(old_len, right);
      const std::int64_t start = n_out - right + edge_offset - 2;
      const T edge = lane.get(n_out - right - 1);
      for (std::int64_t i = 0; i < chunk; ++i) {
        lane.set(n_out - right + i, Num<T>::odd(edge, lane.get(start - i)));
      }
      right -= chunk;
    }
  }
}

/// The ramp's start on one side: the end value numpy's linspace starts from, in the ramp type.
template <class R>
R ramp_start(const AxisPass& pass, bool begin_side) {
  const std::string& bytes = begin_side ? pass.rule.begin_value : pass.rule.end_value;
  R start;
  std::memcpy(&start, bytes.data(), sizeof(R));
  return start;
}

/// Whether a lane whose edge element is `edge` has a zero step (edge - start) / width.
template <class T, class R>
bool zero_step(T edge, R start, std::int64_t width) {
  using Ops = Arith<R>;
  return Ops::is_zero(Ops::div_count(Ops::sub(Num<T>::template to_ramp<R>(edge), start), width));
}

/// One side of numpy's linear ramp: np.linspace(end_value, edge, width, endpoint=False) in the
/// ramp type R, floored for integers, then stored. numpy switches every lane of the side to
/// (i / width) * delta as soon as one lane's step delta / width is zero (AxisPass::ZeroStep).
template <class T, class R>
void ramp_side(const Lanes& lanes, std::byte* out, const AxisPass& pass, bool begin_side) {
  using Ops = Arith<R>;
  const std::int64_t count = begin_side ? pass.begin : pass.end;  // positions the lanes hold
  if (count == 0) return;
  const std::int64_t beyond = begin_side ? pass.begin_beyond : pass.end_beyond;
  const std::int64_t skip = begin_side ? pass.begin_skip : pass.end_skip;
  const std::int64_t width = count + beyond + skip;
  const R start = ramp_start<R>(pass, begin_side);
  const std::int64_t n_out = lanes.length();
  const std::int64_t edge_at = begin_side ? pass.begin : n_out - pass.end - 1;
  const AxisPass::ZeroStep known = begin_side ? pass.begin_zero_step : pass.end_zero_step;
  bool any_zero_step = known == AxisPass::ZeroStep::some;
  for (std::int64_t l = 0;
       known == AxisPass::ZeroStep::unknown && l < lanes.count() && !any_zero_step; ++l) {
    any_zero_step =
        zero_step(Lane<T>{lanes.lane(out, l), lanes.stride_bytes()}.get(edge_at), start, width);
  }
  for (std::int64_t l = 0; l < lanes.count(); ++l) {
    const Lane<T> lane{lanes.lane(out, l), lanes.stride_bytes()};
    const R delta = Ops::sub(Num<T>::template to_ramp<R>(lane.get(edge_at)), start);
    const R step = Ops::div_count(delta, width);
    for (std::int64_t i = beyond; i < beyond + count; ++i) {
      const R y = Ops::from_count(i);
      const R scaled =
          any_zero_step ? Ops::mul(Ops::div_count(y, width), delta) : Ops::mul(y, step);
      lane.set(begin_side ? i - beyond : n_out - pass.end + (width - 1 - skip - i),
               Num<T>::template from_ramp<R>(Ops::add(scaled, start)));
    }
  }
}

/// numpy's statistic pass: each side of every lane gets the statistic of the stat-length
/// elements next to it, computed a LaneGroup at a time (group_statistic) and written position by
/// position across the group.
template <class T>
void stat_pass(const Lanes& lanes, std::byte* out, const AxisPass& pass, SumOrder order) {
  const std::int64_t n_out = lanes.length();
  const std::int64_t len = pass.in_len;
  const std::int64_t first = pass.begin;
  const std::int64_t left_n = pass.rule.begin_stat_elems;
  const std::int64_t right_n = pass.rule.end_stat_elems;
  const Mode mode = pass.rule.mode;
  GroupScratch<T> scratch(lanes.group_size(), mode == Mode::mean && order == SumOrder::sequential);
  const auto group_size = static_cast<std::size_t>(lanes.group_size());
  const auto left = std::make_unique<T[]>(group_size);
  const auto right = std::make_unique<T[]>(group_size);
  lanes.for_each_group(out, [&](std::byte* lane0, std::int64_t step, std::int64_t g) {
    const LaneGroup<T> group{lane0, step, g, lanes.stride_bytes()};
    group_statistic(mode, group, first, left_n, order, left.get(), scratch);
    if (left_n == len && right_n == len) {
      std::copy(left.get(), left.get() + g, right.get());
    } else {
      group_statistic(mode, group, first + len - right_n, right_n, order, right.get(), scratch);
    }
    for (std::int64_t i = 0; i < pass.begin; ++i) {
      for (std::int64_t j = 0; j < g; ++j) group.lane(j).set(i, left[j]);
    }
    for (std::int64_t i = n_out - pass.end; i < n_out; ++i) {
      for (std::int64_t j = 0; j < g; ++j) group.lane(j).set(i, right[j]);
    }
  });
}

}  // namespace padnd::detail
