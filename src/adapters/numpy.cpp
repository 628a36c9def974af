// SPDX-License-Identifier: Apache-2.0
// numpy.pad's index modes -> canonical PadSpec, with numpy's own argument checks.
#include "padnd/adapters/numpy.hpp"

#include <array>
#include <string>

#include "checks.hpp"

namespace padnd::numpy {
namespace {

using adapters::fail;

constexpr std::array<adapters::ModeName, 5> kModes{{
    {"constant", Mode::constant},
    {"edge", Mode::edge},
    {"reflect", Mode::reflect},
    {"symmetric", Mode::symmetric},
    {"wrap", Mode::wrap},
}};

}  // namespace

PadSpec to_canonical(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                     const std::string& mode, const std::string& value,
                     const std::vector<std::int64_t>& shape) {
  // numpy's statistic modes (mean, median, ...), linear_ramp and empty compute new values; the
  // Python layer implements them on top of this library, so they are rejected here.
  const Mode parsed = adapters::parse_mode(
      mode, kModes, "mode", false, "numpy.pad here (statistic modes belong to the Python layer)");
  if (pad_width.size() != shape.size()) {
    fail(Errc::shape_mismatch, "pad_width",
         "expected one (before, after) pair per axis of the array (rank " +
             std::to_string(shape.size()) + "), got " + std::to_string(pad_width.size()) +
             " pair(s)");
  }

  PadSpec spec;
  spec.axes.resize(shape.size());
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const auto [before, after] = pad_width[k];
    if (before < 0 || after < 0) {
      fail(Errc::out_of_range, "pad_width",
           adapters::axis_text(k) + ": index can't contain negative values (before " +
               std::to_string(before) + ", after " + std::to_string(after) + ")");
    }
    // numpy's own wording; the planner would reject it too, but under the name `pads`.
    if (parsed != Mode::constant && shape[k] == 0 && (before > 0 || after > 0)) {
      fail(Errc::out_of_range, "pad_width",
           adapters::axis_text(k) + ": can't extend empty axis " + std::to_string(k) +
               " using modes other than 'constant' or 'empty' (mode '" + mode + "', before " +
               std::to_string(before) + ", after " + std::to_string(after) + ")");
    }
    spec.axes[k].begin = before;
    spec.axes[k].end = after;
  }
  spec.mode = parsed;
  spec.negative_order = NegativeOrder::map_on_original;
  spec.negative_size = NegativeSize::error;
  // constant_values only matters in constant mode (numpy itself refuses the keyword elsewhere;
  // callers pass an empty value then, and a stray one is ignored rather than rejected).
  if (parsed == Mode::constant) spec.value = value;
  return spec;
}

}  // namespace padnd::numpy
