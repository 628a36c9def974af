// SPDX-License-Identifier: Apache-2.0
// numpy.pad -> canonical PadSpec, with numpy's own argument checks.
#include "padnd/adapters/numpy.hpp"

#include <array>
#include <string>

#include "checks.hpp"

namespace padnd::numpy {
namespace {

using adapters::fail;

/// numpy's "empty" leaves pads uninitialised; padnd fills them like constant mode.
constexpr std::array<adapters::ModeName, 11> kModes{{
    {"constant", Mode::constant},
    {"edge", Mode::edge},
    {"reflect", Mode::reflect},
    {"symmetric", Mode::symmetric},
    {"wrap", Mode::wrap},
    {"empty", Mode::constant},
    {"linear_ramp", Mode::linear_ramp},
    {"maximum", Mode::maximum},
    {"mean", Mode::mean},
    {"median", Mode::median},
    {"minimum", Mode::minimum},
}};

std::string pair_text(std::int64_t before, std::int64_t after) {
  return "(before " + std::to_string(before) + ", after " + std::to_string(after) + ")";
}

/// Requires `values` to be empty or to have one entry per axis.
template <class Pairs>
void require_per_axis(const Pairs& values, std::string_view argument, std::size_t rank) {
  if (!values.empty() && values.size() != rank) {
    fail(Errc::shape_mismatch, argument,
         "expected one (before, after) pair per axis (rank " + std::to_string(rank) + "), got " +
             std::to_string(values.size()));
  }
}

AxisMode axis_mode(const PadArgs& args, std::size_t k, Mode mode) {
  AxisMode m;
  m.mode = mode;
  m.odd = args.reflect_type == "odd" && (mode == Mode::reflect || mode == Mode::symmetric);
  if (mode == Mode::constant && !args.constant_values.empty()) {
    m.begin_value = args.constant_values[k].first;
    m.end_value = args.constant_values[k].second;
  }
  if (mode == Mode::linear_ramp && !args.end_values.empty()) {
    m.begin_value = args.end_values[k].first;
    m.end_value = args.end_values[k].second;
  }
  if (!args.stat_length.empty() && computes_values(mode) && mode != Mode::linear_ramp) {
    const auto [before, after] = args.stat_length[k];
    if (before.value_or(0) < 0 || after.value_or(0) < 0) {
      fail(Errc::out_of_range, "stat_length",
           adapters::axis_text(k) + ": index can't contain negative values " +
               pair_text(before.value_or(0), after.value_or(0)));
    }
    m.begin_stat_elems = before.value_or(kWholeAxis);
    m.end_stat_elems = after.value_or(kWholeAxis);
  }
  return m;
}

}  // namespace

PadSpec to_canonical(const PadArgs& args, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (args.modes.size() != 1 && args.modes.size() != rank) {
    fail(Errc::shape_mismatch, "mode",
         "expected one mode, or one per axis (rank " + std::to_string(rank) + "), got " +
             std::to_string(args.modes.size()));
  }
  if (args.pad_width.size() != rank) {
    fail(Errc::shape_mismatch, "pad_width",
         "expected one (before, after) pair per axis of the array (rank " + std::to_string(rank) +
             "), got " + std::to_string(args.pad_width.size()) + " pair(s)");
  }
  require_per_axis(args.constant_values, "constant_values", rank);
  require_per_axis(args.end_values, "end_values", rank);
  require_per_axis(args.stat_length, "stat_length", rank);
  if (!args.interior.empty() && args.interior.size() != rank) {
    fail(Errc::shape_mismatch, "interior",
         "expected one value per axis (rank " + std::to_string(rank) + "), got " +
             std::to_string(args.interior.size()));
  }

  PadSpec spec;
  spec.axes.resize(rank);
  spec.axis_modes.resize(rank);
  spec.ramp_type = args.ramp_type;
  bool input_empty = false;
  for (std::int64_t len : shape) input_empty = input_empty || len == 0;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::string& name = args.modes.size() == 1 ? args.modes[0] : args.modes[k];
    const Mode mode = adapters::parse_mode(name, kModes, "mode", false, "numpy.pad");
    const auto [before, after] = args.pad_width[k];
    if ((before < 0 || after < 0) && !args.negative) {
      fail(Errc::out_of_range, "pad_width",
           adapters::axis_text(k) + ": index can't contain negative values " +
               pair_text(before, after));
    }
    // numpy's own wording; the planner would reject it too, but under the name `pads`.
    if (mode != Mode::constant && shape[k] == 0 && (before > 0 || after > 0)) {
      fail(Errc::out_of_range, "pad_width",
           adapters::axis_text(k) + ": can't extend empty axis " + std::to_string(k) +
               " using modes other than 'constant' or 'empty' (mode '" + name + "', " +
               pair_text(before, after) + ")");
    }
    spec.axes[k] = {before, after, args.interior.empty() ? 0 : args.interior[k]};
    // numpy computes no statistic of an empty array, so it never checks stat_length then.
    spec.axis_modes[k].mode = mode;
    if (!input_empty || !computes_values(mode)) spec.axis_modes[k] = axis_mode(args, k, mode);
    // numpy's odd reflection computes nothing without pads or on an axis of length 1 (it copies
    // the edge there), so it works for every dtype on such axes.
    if ((before == 0 && after == 0) || (shape[k] == 1 && before >= 0 && after >= 0)) {
      spec.axis_modes[k].odd = false;
    }
  }
  if (rank > 0) spec.mode = spec.axis_modes[0].mode;
  for (const AxisMode& m : spec.axis_modes) {  // the engine's fill: the first constant
    if (m.mode == Mode::constant) {
      spec.value = m.begin_value;
      break;
    }
  }
  spec.negative_order = args.negative.value_or(NegativeOrder::map_on_original);
  spec.negative_size = NegativeSize::error;
  return spec;
}

PadSpec to_canonical(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                     const std::string& mode, const std::string& value,
                     const std::vector<std::int64_t>& shape) {
  PadArgs args;
  args.pad_width = pad_width;
  args.modes = {mode};
  args.constant_values.assign(shape.size(), {value, value});
  return to_canonical(args, shape);
}

}  // namespace padnd::numpy
