// SPDX-License-Identifier: Apache-2.0
// See value_reference.hpp. Deliberately simple and slow: a lane is copied into a vector, the
// pad values are computed from that vector, and the grid grows by one axis per step.
#include "support/value_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

#include "support/reference.hpp"

namespace padnd::testing {
namespace {

std::int64_t product(const std::vector<std::int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

/// The lane through `index` along `axis`.
std::vector<double> lane_of(const Grid& g, std::vector<std::int64_t> index, std::size_t axis) {
  std::vector<double> lane;
  for (index[axis] = 0; index[axis] < g.shape[axis]; ++index[axis]) {
    std::int64_t flat = 0;
    for (std::size_t k = 0; k < g.shape.size(); ++k) flat = flat * g.shape[k] + index[k];
    lane.push_back(g.values[static_cast<std::size_t>(flat)]);
  }
  return lane;
}

double statistic(Mode mode, std::vector<double> run, bool integer) {
  if (mode == Mode::maximum) return *std::max_element(run.begin(), run.end());
  if (mode == Mode::minimum) return *std::min_element(run.begin(), run.end());
  double v = 0;
  if (mode == Mode::mean) {
    v = std::accumulate(run.begin(), run.end(), 0.0) / static_cast<double>(run.size());
  } else {
    std::sort(run.begin(), run.end());
    const std::size_t n = run.size();
    v = n % 2 == 1 ? run[n / 2] : (run[n / 2 - 1] + run[n / 2]) / 2;
  }
  return integer ? std::nearbyint(v) : v;
}

/// numpy's odd (or even) reflection of `lane` by whole chunks: each chunk mirrors as much of
/// what is already there as numpy takes (a multiple of the period), about the current edge.
std::vector<double> reflect_out(std::vector<double> lane, const RefAxis& a) {
  const auto len = static_cast<std::int64_t>(lane.size());
  if (len == 1) {
    std::vector<double> out(static_cast<std::size_t>(a.begin), lane[0]);
    out.push_back(lane[0]);
    out.insert(out.end(), static_cast<std::size_t>(a.end), lane[0]);
    return out;
  }
  const bool symmetric = a.mode == Mode::symmetric;
  const std::int64_t period = symmetric ? len : len - 1;
  std::int64_t left = a.begin;
  std::int64_t right = a.end;
  while (left > 0 || right > 0) {
    const auto have = static_cast<std::int64_t>(lane.size());
    const std::int64_t usable = symmetric ? have / period * period : (have - 1) / period * period;
    const std::vector<double> before = lane;
    const std::size_t skip = symmetric ? 0 : 1;
    if (left > 0) {
      const std::int64_t n = std::min(usable, left);
      std::vector<double> chunk;
      for (std::int64_t i = n - 1; i >= 0; --i) {
        const double x = before[skip + static_cast<std::size_t>(i)];
        chunk.push_back(a.odd ? 2 * before.front() - x : x);
      }
      lane.insert(lane.begin(), chunk.begin(), chunk.end());
      left -= n;
    }
    if (right > 0) {
      const std::int64_t n = std::min(usable, right);
      for (std::int64_t i = 0; i < n; ++i) {
        const double x = before[before.size() - 1 - skip - static_cast<std::size_t>(i)];
        lane.push_back(a.odd ? 2 * before.back() - x : x);
      }
      right -= n;
    }
  }
  return lane;
}

}  // namespace

Grid reference_value_pad(const Grid& input, const std::vector<RefAxis>& axes, bool integer) {
  Grid g = input;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const RefAxis& a = axes[k];
    const std::int64_t len = g.shape[k];
    Grid next;
    next.shape = g.shape;
    next.shape[k] = a.begin + len + a.end;
    next.values.resize(static_cast<std::size_t>(product(next.shape)));
    // linear_ramp: numpy switches a whole side to (i / width) * delta when any step is zero
    bool zero_step[2] = {false, false};
    for (std::int64_t flat = 0; flat < product(g.shape); ++flat) {
      const double v = g.values[static_cast<std::size_t>(flat)];
      std::int64_t rest = flat;
      for (std::size_t j = g.shape.size(); j-- > k + 1;) rest /= g.shape[j];
      const std::int64_t at = rest % std::max<std::int64_t>(len, 1);
      if (at == 0 && a.begin > 0)
        zero_step[0] = zero_step[0] || (v - a.begin_value) / static_cast<double>(a.begin) == 0;
      if (at == len - 1 && a.end > 0)
        zero_step[1] = zero_step[1] || (v - a.end_value) / static_cast<double>(a.end) == 0;
    }
    std::vector<std::int64_t> index(g.shape.size(), 0);
    for (std::size_t flat = 0; flat < next.values.size(); ++flat) {
      std::int64_t rest = static_cast<std::int64_t>(flat);
      for (std::size_t j = index.size(); j-- > 0;) {
        index[j] = rest % next.shape[j];
        rest /= next.shape[j];
      }
      const std::int64_t o = index[k];
      std::vector<std::int64_t> source = index;
      source[k] = 0;
      const std::vector<double> lane = lane_of(g, source, k);
      const bool begin_side = o < a.begin;
      double v = 0;
      if (o >= a.begin && o < a.begin + len) {
        v = lane[static_cast<std::size_t>(o - a.begin)];
      } else if (a.mode == Mode::constant) {
        v = begin_side ? a.begin_value : a.end_value;
      } else if (a.odd || a.mode == Mode::reflect || a.mode == Mode::symmetric) {
        v = reflect_out(lane, a)[static_cast<std::size_t>(o)];
      } else if (a.mode == Mode::edge || a.mode == Mode::wrap) {
        v = lane[static_cast<std::size_t>(naive_fold(a.mode, o - a.begin, len))];
      } else if (a.mode == Mode::linear_ramp) {
        const double start = begin_side ? a.begin_value : a.end_value;
        const double edge = begin_side ? lane.front() : lane.back();
        const std::int64_t width = begin_side ? a.begin : a.end;
        const auto i = static_cast<double>(begin_side ? o : a.begin + len + a.end - 1 - o);
        const double delta = edge - start;
        v = (zero_step[begin_side ? 0 : 1] ? i / static_cast<double>(width) * delta
                                           : i * (delta / static_cast<double>(width))) +
            start;
        if (integer) v = std::floor(v);
      } else {
        std::int64_t n = begin_side ? a.begin_stat : a.end_stat;
        n = n == kWholeAxis || n > len ? len : n;
        const auto first = lane.begin() + (begin_side ? 0 : len - n);
        v = statistic(a.mode, std::vector<double>(first, first + n), integer);
      }
      next.values[flat] = v;
    }
    g = std::move(next);
  }
  return g;
}

}  // namespace padnd::testing
