// SPDX-License-Identifier: Apache-2.0
// Axis passes: the untyped ones (constants per side, index modes: element copies inside the
// output) and the one dispatch by element type for the typed ones (value_kernels.hpp).
#include "executors/cpu/value_modes/passes.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "executors/cpu/kernels/moves.hpp"
#include "executors/cpu/value_modes/lanes.hpp"
#include "executors/cpu/value_modes/time_values.hpp"
#include "executors/cpu/value_modes/value_kernels.hpp"
#include "plan/index_map.hpp"
#include "plan/plan_access.hpp"
#include "plan/plan_internal.hpp"

namespace padnd::detail {
namespace {

/// constant: each side's value; edge / reflect / symmetric / wrap: a copy of the element the
/// index map names, read from the lane's original elements. A position is written across a
/// whole group of lanes at a time: one stretch of a row where the lanes are neighbours; and a
/// side of one lane whose elements are neighbours is copied from a run of the value.
void untyped_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  const std::int64_t n_out = lanes.length();
  const auto item = static_cast<std::size_t>(plan.type().item_bytes());
  const Mode mode = pass.rule.mode;
  const bool contiguous_lanes = lanes.stride_bytes() == static_cast<std::int64_t>(item);
  std::string begin_run;  // constants: each side's value, a group's worth (at least 256)
  std::string end_run;
  if (mode == Mode::constant) {
    const std::int64_t run_bytes =
        std::max<std::int64_t>(lanes.group_size(), 256) * static_cast<std::int64_t>(item);
    begin_run = replicate_pattern(pass.rule.begin_value, run_bytes);
    end_run = replicate_pattern(pass.rule.end_value, run_bytes);
  }
  lanes.for_each_group(out, [&](std::byte* lane0, std::int64_t step, std::int64_t g) {
    const auto at = [&](std::int64_t i) { return lane0 + i * lanes.stride_bytes(); };
    const bool adjacent = step == static_cast<std::int64_t>(item);
    if (mode == Mode::constant && contiguous_lanes) {  // a lane at a time (group_size() is 1)
      fill_long(lane0, pass.begin * lanes.stride_bytes(), -1, begin_run);
      fill_long(at(n_out - pass.end), pass.end * lanes.stride_bytes(), -1, end_run);
      return;
    }
    for (std::int64_t o = 0; o < n_out; ++o) {
      if (o == pass.begin) o += pass.in_len;  // skip the original elements
      if (o >= n_out) break;
      if (mode == Mode::constant) {
        const bool begin_side = o < pass.begin;
        if (adjacent) {
          fill_long(at(o), g * step, -1, begin_side ? begin_run : end_run);
        } else {
          const std::string& value = begin_side ? pass.rule.begin_value : pass.rule.end_value;
          for (std::int64_t j = 0; j < g; ++j) std::memcpy(at(o) + j * step, value.data(), item);
        }
      } else {
        const std::byte* from = at(pass.begin + fold_index(mode, o - pass.begin, pass.in_len));
        if (adjacent) {
          std::memcpy(at(o), from, static_cast<std::size_t>(g) * item);
        } else {
          for (std::int64_t j = 0; j < g; ++j) std::memcpy(at(o) + j * step, from + j * step, item);
        }
      }
    }
  });
}

/// fn.template operator()<R>() with linear_ramp's arithmetic type R (the planner allows these
/// seven).
template <class Fn>
void with_ramp_type(DType ramp_type, const Fn& fn) {
  switch (ramp_type) {
    case DType::float16:
      return fn.template operator()<Half>();
    case DType::float32:
      return fn.template operator()<float>();
    case DType::longdouble:
      return fn.template operator()<long double>();
    case DType::clongdouble:
      return fn.template operator()<std::complex<long double>>();
    case DType::complex64:
      return fn.template operator()<std::complex<float>>();
    case DType::complex128:
      return fn.template operator()<std::complex<double>>();
    default:
      return fn.template operator()<double>();
  }
}

/// fn.template operator()<T>() with the C++ type of a numeric element type; nothing for others
/// (the planner allows typed passes for numeric types and the two time types only).
template <class Fn>
void with_numeric_type(DType dtype, const Fn& fn) {
  switch (dtype) {
    case DType::boolean:
      return fn.template operator()<bool>();
    case DType::int8:
      return fn.template operator()<std::int8_t>();
    case DType::int16:
      return fn.template operator()<std::int16_t>();
    case DType::int32:
      return fn.template operator()<std::int32_t>();
    case DType::int64:
      return fn.template operator()<std::int64_t>();
    case DType::uint8:
      return fn.template operator()<std::uint8_t>();
    case DType::uint16:
      return fn.template operator()<std::uint16_t>();
    case DType::uint32:
      return fn.template operator()<std::uint32_t>();
    case DType::uint64:
      return fn.template operator()<std::uint64_t>();
    case DType::float16:
      return fn.template operator()<Half>();
    case DType::float32:
      return fn.template operator()<float>();
    case DType::float64:
      return fn.template operator()<double>();
    case DType::complex64:
      return fn.template operator()<std::complex<float>>();
    case DType::complex128:
      return fn.template operator()<std::complex<double>>();
    case DType::longdouble:
      return fn.template operator()<long double>();
    case DType::clongdouble:
      return fn.template operator()<std::complex<long double>>();
    default:
      return;
  }
}

template <class T>
void typed_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  const Mode mode = pass.rule.mode;
  if (mode == Mode::linear_ramp) {
    with_ramp_type(detail::program(plan).ramp_type().dtype, [&]<class R>() {
      ramp_side<T, R>(lanes, out, pass, true);
      ramp_side<T, R>(lanes, out, pass, false);
    });
    return;
  }
  // numpy reduces along contiguous runs pairwise; across rows (a later axis longer than 1) it
  // adds row after row.
  SumOrder order = SumOrder::pairwise;
  for (std::size_t k = pass.axis + 1; k < plan.input_shape().size(); ++k) {
    if (plan.input_shape()[k] > 1) order = SumOrder::sequential;
  }
  if (mode != Mode::reflect && mode != Mode::symmetric) {
    stat_pass<T>(lanes, out, pass, order);
    return;
  }
  for (std::int64_t l = 0; l < lanes.count(); ++l) {
    odd_reflect_lane(Lane<T>{lanes.lane(out, l), lanes.stride_bytes()}, lanes.length(), pass);
  }
}

/// datetime64 / timedelta64: the planner allows maximum and minimum of datetime64 and odd
/// reflection of timedelta64 only (what numpy computes).
template <class T>
void time_pass(const Plan& plan, const AxisPass& pass, std::byte* out) {
  const Lanes lanes(plan, pass);
  if constexpr (std::is_same_v<T, Timedelta64>) {
    for (std::int64_t l = 0; l < lanes.count(); ++l) {
      odd_reflect_lane(Lane<T>{lanes.lane(out, l), lanes.stride_bytes()}, lanes.length(), pass);
    }
  } else {
    stat_pass<T>(lanes, out, pass, SumOrder::sequential);  // maxima and minima: any order
  }
}

void dispatch(const Plan& plan, const AxisPass& pass, std::byte* out) {
  switch (plan.type().dtype) {
    case DType::datetime64:
      return time_pass<Datetime64>(plan, pass, out);
    case DType::timedelta64:
      return time_pass<Timedelta64>(plan, pass, out);
    default:
      return with_numeric_type(plan.type().dtype,
                               [&]<class T>() { typed_pass<T>(plan, pass, out); });
  }
}

}  // namespace

void run_passes(const Plan& plan, std::byte* out) {
  for (const AxisPass& pass : detail::program(plan).passes()) {
    if (computes_values(pass.rule.mode) || pass.rule.odd) {
      dispatch(plan, pass, out);
    } else {
      untyped_pass(plan, pass, out);
    }
  }
}

bool ramp_zero_step(const Plan& plan, const AxisPass& pass, bool begin_side, std::byte* edges,
                    std::int64_t count) {
  const std::int64_t width = begin_side ? pass.begin + pass.begin_beyond + pass.begin_skip
                                        : pass.end + pass.end_beyond + pass.end_skip;
  bool found = false;
  with_numeric_type(plan.type().dtype, [&]<class T>() {
    with_ramp_type(detail::program(plan).ramp_type().dtype, [&]<class R>() {
      const R start = ramp_start<R>(pass, begin_side);
      // Read as the kernel reads lanes (Lane<bool>: any non-zero byte is true).
      const Lane<T> values{edges, static_cast<std::int64_t>(sizeof(T))};
      for (std::int64_t l = 0; l < count && !found; ++l) {
        found = zero_step(values.get(l), start, width);
      }
    });
  });
  return found;
}

}  // namespace padnd::detail
