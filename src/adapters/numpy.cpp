// SPDX-License-Identifier: Apache-2.0
// numpy.pad -> canonical PadSpec, with numpy's own argument checks.
#include "padnd/adapters/numpy.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "adapters/checks.hpp"

namespace padnd::numpy {
namespace {

using adapters::fail;

/// numpy's "empty" leaves pads uninitialised; padnd fills them like constant mode.
constexpr std::array<ModeRule, 11> kModes{{
    {"constant", Mode::constant, "constant_values"},
    {"edge", Mode::edge, ""},
    {"reflect", Mode::reflect, "reflect_type"},
    {"symmetric", Mode::symmetric, "reflect_type"},
    {"wrap", Mode::wrap, ""},
    {"empty", Mode::constant, ""},
    {"linear_ramp", Mode::linear_ramp, "end_values"},
    {"maximum", Mode::maximum, "stat_length"},
    {"mean", Mode::mean, "stat_length"},
    {"median", Mode::median, "stat_length"},
    {"minimum", Mode::minimum, "stat_length"},
}};

/// The canonical mode of `name`; an unknown name fails with the list of numpy's modes.
Mode parse_mode(std::string_view name) {
  if (const ModeRule* rule = find_mode(name)) return rule->mode;
  std::array<adapters::ModeName, kModes.size()> names{};
  for (std::size_t i = 0; i < kModes.size(); ++i) names[i] = {kModes[i].name, kModes[i].mode};
  return adapters::parse_mode(name, names, "mode", false, "numpy.pad");  // throws
}

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

/// The counts of PadArgs' lists: one mode or one per axis, the rest absent or one per axis.
void check_counts(const PadArgs& args, std::size_t rank) {
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
}

/// Axis `k` of `spec`: its pads and its AxisMode, with numpy's checks of its width and mode.
void add_axis(const PadArgs& args, const std::vector<std::int64_t>& shape, std::size_t k,
              bool input_empty, PadSpec& spec) {
  const std::string& name = args.modes.size() == 1 ? args.modes[0] : args.modes[k];
  const Mode mode = parse_mode(name);
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
  // numpy computes no statistic of an empty array, so it never checks stat_length then. With
  // one mode per axis (padnd's), a later value axis sees the earlier axes' constant pads.
  spec.axis_modes[k].mode = mode;
  if (!input_empty || args.modes.size() > 1 || !computes_values(mode)) {
    spec.axis_modes[k] = axis_mode(args, k, mode);
  }
  // numpy's odd reflection computes nothing without pads or on an axis of length 1 (it copies
  // the edge there), so it works for every dtype on such axes.
  if ((before == 0 && after == 0) || (shape[k] == 1 && before >= 0 && after >= 0)) {
    spec.axis_modes[k].odd = false;
  }
}

/// Whether every axis has the same index mode and the same value on both sides: then numpy's
/// axis-by-axis order changes nothing, and PadSpec::mode and ::value say it all.
bool one_rule_for_all(const std::vector<AxisMode>& axis_modes) {
  if (axis_modes.empty()) return false;
  const AxisMode& first = axis_modes[0];
  return std::all_of(axis_modes.begin(), axis_modes.end(), [&](const AxisMode& m) {
    return m.mode == first.mode && !computes_values(m.mode) && !m.odd &&
           m.begin_value == first.begin_value && m.end_value == first.begin_value;
  });
}

}  // namespace

std::span<const ModeRule> modes() noexcept { return kModes; }

const ModeRule* find_mode(std::string_view name) noexcept {
  for (const ModeRule& rule : kModes) {
    if (rule.name == name) return &rule;
  }
  return nullptr;
}

PadSpec to_canonical(const PadArgs& args, const std::vector<std::int64_t>& shape) {
  adapters::require_shape(shape, "array");
  check_counts(args, shape.size());
  PadSpec spec;
  spec.axes.resize(shape.size());
  spec.axis_modes.resize(shape.size());
  spec.ramp_type = args.ramp_type;
  const bool input_empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
  for (std::size_t k = 0; k < shape.size(); ++k) add_axis(args, shape, k, input_empty, spec);
  if (!spec.axis_modes.empty()) spec.mode = spec.axis_modes[0].mode;
  for (const AxisMode& m : spec.axis_modes) {  // the engine's fill: the first constant
    if (m.mode == Mode::constant) {
      spec.value = m.begin_value;
      break;
    }
  }
  if (one_rule_for_all(spec.axis_modes)) spec.axis_modes.clear();
  spec.negative_order = args.negative.value_or(NegativeOrder::map_on_original);
  spec.negative_size = NegativeSize::error;
  return spec;
}

ElementType linspace_type(const ElementType& data, bool complex_end_values, bool python_scalars) {
  const bool c = complex_end_values;
  switch (data.dtype) {
    case DType::float16:
    case DType::float32:
      if (!python_scalars) return c ? DType::complex128 : DType::float64;
      return c ? DType::complex64 : data.dtype;
    case DType::longdouble:
      return c ? DType::clongdouble : DType::longdouble;
    case DType::clongdouble:
      return DType::clongdouble;
    case DType::complex64:
      return python_scalars ? DType::complex64 : DType::complex128;
    case DType::complex128:
      return DType::complex128;
    default:  // float64, and bool and integers, which np.linspace computes in float64
      return c ? DType::complex128 : DType::float64;
  }
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
