// SPDX-License-Identifier: Apache-2.0
// Test oracle for numpy's value modes, written independently of src/value_modes: values are
// doubles, and each axis is padded onto a new, larger grid built from the previous one (numpy's
// definition: axis 0 first, every later axis padded over the result). Exact only for values
// whose arithmetic is exact in double (small integers, multiples of 1/4).
#pragma once

#include <cstdint>
#include <vector>

#include "padnd/pad_spec.hpp"

namespace padnd::testing {

/// A dense row-major grid of values.
struct Grid {
  std::vector<std::int64_t> shape;
  std::vector<double> values;
};

/// One axis of the reference: its widths, mode and numbers (values as doubles).
struct RefAxis {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  Mode mode = Mode::constant;
  bool odd = false;
  double begin_value = 0;  ///< constant: the value; linear_ramp: the end value
  double end_value = 0;
  std::int64_t begin_stat = kWholeAxis;
  std::int64_t end_stat = kWholeAxis;
};

/// numpy.pad, slowly. `integer`: means and medians round half to even, ramps are floored.
Grid reference_value_pad(const Grid& input, const std::vector<RefAxis>& axes, bool integer);

}  // namespace padnd::testing
