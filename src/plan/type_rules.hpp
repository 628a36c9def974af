// SPDX-License-Identifier: Apache-2.0
// numpy's element-type rules for the modes that compute values (docs/spec.md §3.6): which
// dtypes numpy computes each value mode and odd reflection in, and linear_ramp's arithmetic type.
#pragma once

#include <cstddef>

#include "padnd/element_type.hpp"
#include "padnd/pad_spec.hpp"

namespace padnd::detail {

/// Requires numpy to compute axis `k`'s mode `m` (a value mode or odd reflection) for `type`,
/// as numpy's ufuncs do: bool, integer, float, complex and long double data; datetime64 only
/// for maximum and minimum, timedelta64 only for odd reflection (unsupported_type otherwise).
/// linear_ramp also needs a floating or complex `spec.ramp_type` (not complex for integers)
/// and end values of that type; an integer mean or median of 0 elements (`reads_empty`
/// false) on a side with positions to fill is invalid_argument.
void check_computable(const ElementType& type, const PadSpec& spec, std::size_t k,
                      const AxisMode& m, bool reads_empty);

}  // namespace padnd::detail
