// SPDX-License-Identifier: Apache-2.0
// Test oracles written independently of the library: a naive while-loop index mapping and a
// slow per-element pad that walks every output element.
#pragma once

#include <cstdint>
#include <vector>

#include "padnd/pad_spec.hpp"
#include "padnd/tensor.hpp"

namespace padnd::testing {

/// Brings `j` into [0, d) by stepping (reflecting, wrapping) one period at a time. d >= 1.
std::int64_t naive_fold(Mode mode, std::int64_t j, std::int64_t d);

/// Source index of output position `o` on an axis of length `d`, or -1 for the pad value.
std::int64_t naive_source(Mode mode, NegativeOrder order, std::int64_t d, const AxisPad& pad,
                          std::int64_t o);

/// Whether the canonical rules accept `spec` on `shape` (written from docs/spec.md §2, not from
/// the planner), and the output shape when they do.
bool naive_valid(const std::vector<std::int64_t>& shape, const PadSpec& spec,
                 std::vector<std::int64_t>* out_shape);

/// Slow reference: one element at a time, output multi-index -> input address.
Tensor reference_pad(const TensorView& input, const PadSpec& spec);

/// Bitwise equality (strings: element-wise).
bool same_contents(const Tensor& a, const void* b_data, std::int64_t b_bytes);

}  // namespace padnd::testing
