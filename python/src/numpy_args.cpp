// SPDX-License-Identifier: Apache-2.0
#include "numpy_args.hpp"

#include "padnd/error.hpp"

namespace padnd::python {
namespace {

numpy::ValuePairs value_pairs(const BytePairs& pairs) {
  numpy::ValuePairs out;
  for (const auto& [before, after] : pairs) {
    out.emplace_back(std::string(before.c_str(), before.size()),
                     std::string(after.c_str(), after.size()));
  }
  return out;
}

}  // namespace

ElementType parse_type(const std::string& name) {
  const std::optional<ElementType> type = parse_element_type(name);
  if (!type) throw Error(Errc::unsupported_type, "unknown element type '" + name + "'");
  return *type;
}

numpy::PadArgs numpy_args(std::vector<std::pair<std::int64_t, std::int64_t>> pad_width,
                          std::vector<std::string> modes, const BytePairs& constant_values,
                          const BytePairs& end_values, const std::string& ramp_type,
                          StatPairs stat_length, std::string reflect_type,
                          const std::optional<std::string>& negative,
                          std::vector<std::int64_t> interior) {
  numpy::PadArgs args;
  args.pad_width = std::move(pad_width);
  args.modes = std::move(modes);
  args.constant_values = value_pairs(constant_values);
  args.end_values = value_pairs(end_values);
  args.ramp_type = parse_type(ramp_type);
  args.stat_length = std::move(stat_length);
  args.reflect_type = std::move(reflect_type);
  if (negative) {
    args.negative = *negative == "crop_then_pad" ? NegativeOrder::crop_then_pad
                                                 : NegativeOrder::map_on_original;
  }
  args.interior = std::move(interior);
  return args;
}

}  // namespace padnd::python
