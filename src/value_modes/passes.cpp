// SPDX-License-Identifier: Apache-2.0
// Axis passes: the untyped ones (constants per side, index modes: element copies inside the
// output) and the one dispatch by element type for the typed ones (value_kernels.hpp).
#include "passes.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../index_map.hpp"
#include "lanes.hpp"
#include "time_values.hpp"
#include "value_kernels.hpp"

namespace padnd::detail {
namespace {

/// constant: each side's value; edge / reflect / symmetric / wrap: a copy of the element the
/// index map names, read from the lane's original elements.
void untyped_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  const std::int64_t n_out = lanes.length();
  const auto item = static_cast<std::size_t>(plan.type().item_bytes());
  const Mode mode = pass.rule.mode;
  for (std::int64_t l = 0; l < lanes.count(); ++l) {
    std::byte* lane = lanes.lane(out, l);
    const auto at = [&](std::int64_t i) { return lane + i * lanes.stride_bytes(); };
    for (std::int64_t o = 0; o < n_out; ++o) {
      if (o == pass.begin) o += pass.in_len;  // skip the original elements
      if (o >= n_out) break;
      const bool begin_side = o < pass.begin;
      if (mode == Mode::constant) {
        std::memcpy(at(o), (begin_side ? pass.rule.begin_value : pass.rule.end_value).data(), item);
      } else {
        std::memcpy(at(o), at(pass.begin + fold_index(mode, o - pass.begin, pass.in_len)), item);
      }
    }
  }
}

template <class T>
void typed_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  const Mode mode = pass.rule.mode;
  if (mode == Mode::linear_ramp) {
    const auto ramps = [&]<class R>() {
      ramp_side<T, R>(lanes, out, pass, true);
      ramp_side<T, R>(lanes, out, pass, false);
    };
    switch (plan.ramp_type().dtype) {  // the planner allows these seven
      case DType::float16:
        return ramps.template operator()<Half>();
      case DType::float32:
        return ramps.template operator()<float>();
      case DType::longdouble:
        return ramps.template operator()<long double>();
      case DType::clongdouble:
        return ramps.template operator()<std::complex<long double>>();
      case DType::complex64:
        return ramps.template operator()<std::complex<float>>();
      case DType::complex128:
        return ramps.template operator()<std::complex<double>>();
      default:
        return ramps.template operator()<double>();
    }
  }
  // numpy reduces along contiguous runs pairwise; across rows (a later axis longer than 1) it
  // adds row after row.
  SumOrder order = SumOrder::pairwise;
  for (std::size_t k = pass.axis + 1; k < plan.input_shape().size(); ++k) {
    if (plan.input_shape()[k] > 1) order = SumOrder::sequential;
  }
  for (std::int64_t l = 0; l < lanes.count(); ++l) {
    const Lane<T> lane{lanes.lane(out, l), lanes.stride_bytes()};
    if (mode == Mode::reflect || mode == Mode::symmetric) {
      odd_reflect_lane(lane, lanes.length(), pass);
    } else {
      stat_lane(lane, lanes.length(), pass, [&](std::int64_t first, std::int64_t n) {
        return statistic(mode, lane, first, n, order);
      });
    }
  }
}

/// datetime64 / timedelta64: the planner allows maximum and minimum of datetime64 and odd
/// reflection of timedelta64 only (what numpy computes).
template <class T>
void time_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  for (std::int64_t l = 0; l < lanes.count(); ++l) {
    const Lane<T> lane{lanes.lane(out, l), lanes.stride_bytes()};
    if constexpr (std::is_same_v<T, Timedelta64>) {
      odd_reflect_lane(lane, lanes.length(), pass);
    } else {
      stat_lane(lane, lanes.length(), pass, [&](std::int64_t first, std::int64_t n) {
        return extreme_of_run(pass.rule.mode, lane, first, n);
      });
    }
  }
}

void dispatch(const Plan& plan, const AxisPass& pass, std::byte* out) {
  switch (plan.type().dtype) {
    case DType::boolean:
      return typed_pass<bool>(plan, pass, out);
    case DType::int8:
      return typed_pass<std::int8_t>(plan, pass, out);
    case DType::int16:
      return typed_pass<std::int16_t>(plan, pass, out);
    case DType::int32:
      return typed_pass<std::int32_t>(plan, pass, out);
    case DType::int64:
      return typed_pass<std::int64_t>(plan, pass, out);
    case DType::uint8:
      return typed_pass<std::uint8_t>(plan, pass, out);
    case DType::uint16:
      return typed_pass<std::uint16_t>(plan, pass, out);
    case DType::uint32:
      return typed_pass<std::uint32_t>(plan, pass, out);
    case DType::uint64:
      return typed_pass<std::uint64_t>(plan, pass, out);
    case DType::float16:
      return typed_pass<Half>(plan, pass, out);
    case DType::float32:
      return typed_pass<float>(plan, pass, out);
    case DType::float64:
      return typed_pass<double>(plan, pass, out);
    case DType::complex64:
      return typed_pass<std::complex<float>>(plan, pass, out);
    case DType::complex128:
      return typed_pass<std::complex<double>>(plan, pass, out);
    case DType::longdouble:
      return typed_pass<long double>(plan, pass, out);
    case DType::clongdouble:
      return typed_pass<std::complex<long double>>(plan, pass, out);
    case DType::datetime64:
      return time_pass<Datetime64>(plan, pass, out);
    case DType::timedelta64:
      return time_pass<Timedelta64>(plan, pass, out);
    default:
      return;  // the planner allows typed passes for the types above only
  }
}

}  // namespace

void run_passes(const Plan& plan, std::byte* out) {
  for (const AxisPass& pass : plan.passes()) {
    if (computes_values(pass.rule.mode) || pass.rule.odd) {
      dispatch(plan, pass, out);
    } else {
      untyped_pass(plan, pass, out);
    }
  }
}

}  // namespace padnd::detail
