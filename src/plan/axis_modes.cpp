// SPDX-License-Identifier: Apache-2.0
// Per-axis modes (PadSpec::axis_modes): their validation, and the axis passes a plan runs after
// the engine for numpy's value modes, odd reflection and per-side constants. The element types
// numpy computes in are value_modes/type_rules.cpp's.
#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "core/message_text.hpp"
#include "padnd/error.hpp"
#include "plan/plan_internal.hpp"
#include "plan/type_rules.hpp"

namespace padnd::detail {
namespace {

bool is_statistic(Mode mode) { return computes_values(mode) && mode != Mode::linear_ramp; }

bool computes(const AxisMode& m) { return computes_values(m.mode) || m.odd; }

bool has_zero_length(std::span<const std::int64_t> shape) {
  return std::find(shape.begin(), shape.end(), 0) != shape.end();
}

/// The rule a pass runs with: values resolved to bytes, stat lengths clipped to the axis.
AxisMode resolved(const AxisMode& m, std::int64_t in_len, const std::string& fill,
                  const ElementType& ramp_type) {
  AxisMode r = m;
  if (m.mode == Mode::constant) {
    if (r.begin_value.empty()) r.begin_value = fill;
    if (r.end_value.empty()) r.end_value = fill;
  }
  if (m.mode == Mode::linear_ramp) {
    const std::string zero(static_cast<std::size_t>(ramp_type.item_bytes()), '\0');
    if (r.begin_value.empty()) r.begin_value = zero;
    if (r.end_value.empty()) r.end_value = zero;
  }
  const auto clip = [&](std::int64_t n) { return n == kWholeAxis || n > in_len ? in_len : n; };
  r.begin_stat_elems = clip(m.begin_stat_elems);
  r.end_stat_elems = clip(m.end_stat_elems);
  return r;
}

/// One index mode on every axis and no per-axis modes: no axis-mode rule or pass can apply.
bool one_index_mode(const PadSpec& spec) {
  return spec.axis_modes.empty() && !computes_values(spec.mode);
}

}  // namespace

const AxisMode& axis_mode(const PadSpec& spec, std::size_t k) {
  if (!spec.axis_modes.empty()) return spec.axis_modes[k];
  static const auto by_mode = [] {  // PadSpec::mode alone: the mode and nothing else
    std::array<AxisMode, static_cast<std::size_t>(Mode::minimum) + 1> modes;
    for (std::size_t i = 0; i < modes.size(); ++i) modes[i].mode = static_cast<Mode>(i);
    return modes;
  }();
  return by_mode[static_cast<std::size_t>(spec.mode)];
}

Mode engine_mode(const AxisMode& mode) { return computes(mode) ? Mode::constant : mode.mode; }

void check_axis_modes(const std::vector<std::int64_t>& shape, const PadSpec& spec) {
  if (!spec.axis_modes.empty() && spec.axis_modes.size() != shape.size()) {
    throw Error(Errc::shape_mismatch, "axis_modes: expected one entry per input axis (" +
                                          std::to_string(shape.size()) + "), got " +
                                          std::to_string(spec.axis_modes.size()));
  }
  if (one_index_mode(spec)) return;  // nothing here can apply
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const AxisMode& m = axis_mode(spec, k);
    const AxisPad& p = spec.axes[k];
    if (m.odd && m.mode != Mode::reflect && m.mode != Mode::symmetric) {
      throw Error(Errc::invalid_argument, where("axis_modes", k) +
                                              "reflect_type 'odd' needs mode reflect or "
                                              "symmetric, got " +
                                              std::string(mode_name(m.mode)));
    }
    if (computes(m) && (p.begin < 0 || p.end < 0)) {
      throw Error(Errc::out_of_range, where("pads", k) + std::string(mode_name(m.mode)) +
                                          " mode cannot crop " + side_text(p.begin, p.end) +
                                          "; negative pads work with index modes only");
    }
    if (!is_statistic(m.mode)) continue;
    if (m.begin_stat_elems < kWholeAxis || m.end_stat_elems < kWholeAxis) {
      throw Error(Errc::out_of_range, where("stat_length", k) + "negative stat length " +
                                          side_text(m.begin_stat_elems, m.end_stat_elems));
    }
  }
}

bool pass_reads_empty(std::span<const std::int64_t> shape, std::span<const std::int64_t> out_shape,
                      std::size_t k) {
  return has_zero_length(out_shape.first(k)) || has_zero_length(shape.subspan(k));
}

void check_stat_lengths(std::span<const std::int64_t> shape,
                        std::span<const std::int64_t> out_shape, const PadSpec& spec) {
  if (one_index_mode(spec)) return;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const AxisMode& m = axis_mode(spec, k);
    if ((m.mode == Mode::maximum || m.mode == Mode::minimum) &&
        !pass_reads_empty(shape, out_shape, k) &&
        (m.begin_stat_elems == 0 || m.end_stat_elems == 0)) {
      throw Error(Errc::invalid_argument, where("stat_length", k) +
                                              "stat_length of 0 yields no value for padding " +
                                              side_text(m.begin_stat_elems, m.end_stat_elems));
    }
  }
}

std::vector<AxisPass> plan_passes(const ElementType& type, const std::vector<std::int64_t>& shape,
                                  std::span<const std::int64_t> out_shape, const PadSpec& spec) {
  if (one_index_mode(spec)) return {};  // the engine does it all (the common case)
  const bool byte_storage = type.storage() == Storage::bytes;
  const std::string fill = spec.value.empty() && byte_storage
                               ? std::string(static_cast<std::size_t>(type.item_bytes()), '\0')
                               : spec.value;
  const bool output_empty = has_zero_length(out_shape);
  std::size_t first = shape.size();  // the first axis the engine cannot finish
  for (std::size_t k = shape.size(); k-- > 0;) {
    const AxisMode& m = axis_mode(spec, k);
    // numpy computes nothing for an empty result (its array.size == 0 branch), whatever the type.
    bool needs_pass = computes(m) && !output_empty;
    if (needs_pass) check_computable(type, spec, k, m, pass_reads_empty(shape, out_shape, k));
    if (m.mode == Mode::constant) {
      check_value(type, m.begin_value, "constant_values", k, "begin");
      check_value(type, m.end_value, "constant_values", k, "end");
      const auto differs = [&](const std::string& v) { return !v.empty() && v != fill; };
      needs_pass = !output_empty && (differs(m.begin_value) || differs(m.end_value));
    }
    if (needs_pass) first = k;
  }
  std::vector<AxisPass> passes;
  if (first == shape.size()) return passes;
  if (!byte_storage) {
    throw Error(Errc::unsupported_type, where("axis_modes", first) +
                                            "per-side constants and value modes need fixed-size "
                                            "elements; got " +
                                            type.name());
  }
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const AxisPad& p = spec.axes[k];
    if (p.begin < 0 || p.end < 0 || p.interior != 0) {
      const std::string what =
          p.interior != 0 ? where("interior", k) + "interior padding " + std::to_string(p.interior)
                          : where("pads", k) + "crops " + side_text(p.begin, p.end);
      throw Error(Errc::invalid_argument, what +
                                              " cannot be combined with per-side constants or "
                                              "value modes (axis " +
                                              std::to_string(first) + ")");
    }
    if (k < first || (p.begin == 0 && p.end == 0)) continue;
    passes.push_back({k, resolved(axis_mode(spec, k), shape[k], fill, spec.ramp_type), p.begin,
                      shape[k], p.end});
  }
  return passes;
}

}  // namespace padnd::detail
