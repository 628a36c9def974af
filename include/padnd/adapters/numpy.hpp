// SPDX-License-Identifier: Apache-2.0
// numpy.pad's index modes (constant, edge, reflect "even", symmetric "even", wrap).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/pad_spec.hpp"

namespace padnd::numpy {

/// numpy.pad(array, pad_width, mode, constant_values=value): pad_width is one (before, after)
/// pair per axis, non-negative. `value` holds the bytes of one element (empty = zero).
PadSpec to_canonical(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                     const std::string& mode, const std::string& value,
                     const std::vector<std::int64_t>& shape);

}  // namespace padnd::numpy
