// SPDX-License-Identifier: Apache-2.0
// numpy.pad's keywords on the command line: lists in the --pads layout, numpy's keyword check,
// end values parsed in the type numpy.pad's linspace computes the ramp in.
#include "numpy_keywords.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "padnd/error.hpp"
#include "value_parse.hpp"

namespace padnd::cli {

template <class T>
std::vector<std::pair<T, T>> side_pairs(const std::string& option, const std::vector<T>& values,
                                        std::size_t rank) {
  const std::size_t n = values.size();
  if (n != 1 && n != 2 && n != 2 * rank) {
    throw Error(Errc::invalid_argument,
                option + ": expected 1 value, 1 (before, after) pair or 2 x rank = " +
                    std::to_string(2 * rank) + " values (all begins, then all ends), got " +
                    std::to_string(n));
  }
  std::vector<std::pair<T, T>> pairs;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t begin = n == 2 * rank ? k : 0;
    const std::size_t end = n == 2 * rank ? rank + k : n - 1;
    pairs.emplace_back(values[begin], values[end]);
  }
  return pairs;
}
template std::vector<std::pair<std::int64_t, std::int64_t>> side_pairs(
    const std::string&, const std::vector<std::int64_t>&, std::size_t);

namespace {

/// numpy.pad's check: each keyword belongs to the mode (its table says which one it takes).
void check_numpy_keywords(const Options& opt) {
  const std::string mode = opt.mode.value_or("constant");
  const numpy::ModeRule* rule = numpy::find_mode(mode);
  struct Given {
    bool present;
    std::string_view option;
    std::string_view keyword;
  };
  const Given given[] = {{opt.value.has_value(), "--value", "constant_values"},
                         {opt.stat_length.has_value(), "--stat-length", "stat_length"},
                         {opt.end_values.has_value(), "--end-values", "end_values"},
                         {opt.reflect_type.has_value(), "--reflect-type", "reflect_type"}};
  for (const Given& g : given) {
    if (g.present && rule != nullptr && rule->keyword != g.keyword) {
      throw Error(Errc::invalid_argument, std::string(g.option) + ": mode '" + mode +
                                              "' takes no " + std::string(g.keyword) +
                                              " (numpy: unsupported keyword arguments)");
    }
  }
}

/// --end-values as elements of the type np.linspace computes the ramp in.
void set_end_values(const std::string& text, const NpyDtype& dtype, numpy::PadArgs& args,
                    std::size_t rank) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    items.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  const bool complex_values = text.find_first_of("jJ") != std::string::npos;
  // numpy.pad passes more than two end values on as Python numbers (`_as_pairs`'s tolist).
  args.ramp_type = numpy::linspace_type(dtype.element, complex_values, items.size() > 2);
  const NpyDtype ramp = dtype_from_name(args.ramp_type.name());
  for (std::string& item : items) {
    try {
      item = parse_value(item, ramp);
    } catch (const Error& e) {  // its message names --value: this value is --end-values'
      std::string text = e.what();
      if (text.starts_with("--value")) text.replace(0, 7, "--end-values");
      throw Error(e.code(), text);
    }
  }
  args.end_values = side_pairs("--end-values", items, rank);
}

}  // namespace

void set_numpy_keywords(const Options& opt, const NpyDtype& dtype, std::size_t rank,
                        numpy::PadArgs& args) {
  check_numpy_keywords(opt);
  if (opt.stat_length) {
    for (const auto& [before, after] : side_pairs("--stat-length", *opt.stat_length, rank)) {
      args.stat_length.emplace_back(before, after);
    }
  }
  if (opt.end_values) {
    set_end_values(*opt.end_values, dtype, args, rank);
  } else {  // numpy's default end value 0 reaches np.linspace as a numpy integer
    args.ramp_type = numpy::linspace_type(dtype.element, false, false);
  }
  args.reflect_type = opt.reflect_type.value_or("even");
}

}  // namespace padnd::cli
