// SPDX-License-Identifier: Apache-2.0
// Random test cases: inputs in random layouts and random canonical requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "padnd/pad_spec.hpp"
#include "padnd/tensor.hpp"

namespace padnd::testing {

/// A random input tensor laid out with random axis order, gaps and flips.
struct RandomInput {
  std::vector<std::byte> bytes;
  std::vector<std::string> strings;
  TensorView view;
};

RandomInput make_input(std::mt19937_64& rng, const ElementType& type,
                       const std::vector<std::int64_t>& shape);

/// A random index-mode request on `shape`: any mode, negative order and size rule, pads from
/// crops to three times the axis, interior padding in constant mode, a random or default value.
PadSpec random_spec(std::mt19937_64& rng, const std::vector<std::int64_t>& shape,
                    const ElementType& type);

}  // namespace padnd::testing
