// SPDX-License-Identifier: Apache-2.0
// numpy.pad's arguments as padnd._numpy_pad passes them to C++ (one pair per axis, constants and
// end values as element bytes), turned into the numpy adapter's PadArgs: one place for
// padnd.pad's spec and padnd.jax's FFI request.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "padnd/adapters/numpy.hpp"
#include "padnd/element_type.hpp"

namespace padnd::python {

using BytePairs = std::vector<std::pair<nanobind::bytes, nanobind::bytes>>;
using StatPairs = std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>>;

/// The element type named `name`; throws Errc::unsupported_type naming it otherwise.
ElementType parse_type(const std::string& name);

numpy::PadArgs numpy_args(std::vector<std::pair<std::int64_t, std::int64_t>> pad_width,
                          std::vector<std::string> modes, const BytePairs& constant_values,
                          const BytePairs& end_values, const std::string& ramp_type,
                          StatPairs stat_length, std::string reflect_type,
                          const std::optional<std::string>& negative,
                          std::vector<std::int64_t> interior);

}  // namespace padnd::python
