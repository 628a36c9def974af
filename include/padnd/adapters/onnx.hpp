// SPDX-License-Identifier: Apache-2.0
// ONNX Pad, every version (1, 2, 11, 13, 18, 19, 21, 23, 24, 25): docs/spec.md §4.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "padnd/adapters/inputs.hpp"
#include "padnd/element_type.hpp"
#include "padnd/export.h"
#include "padnd/pad_spec.hpp"

PADND_PUBLIC_BEGIN
namespace padnd::onnx {

/// The newest ONNX opset padnd knows; Pad-25 is the version active there.
inline constexpr int kLatestOpset = 25;
/// The newest opset of onnx `main` (Aug 2026). Opsets 26..28 added no Pad version, so they still
/// run Pad-25 (docs/spec.md §4.1); later opsets are rejected until someone checks them.
inline constexpr int kNewestKnownOpset = 28;

/// One ONNX Pad node as a model gives it: the opset it runs under, its attributes and its
/// inputs (after `data`). Optional inputs that are absent or skipped with an empty name are
/// std::nullopt; `input_count` is the node's number of inputs including `data` and empty names.
struct PadNode {
  int opset = kLatestOpset;
  int input_count = 2;
  // attributes
  std::optional<std::string> mode;                    ///< default "constant"
  std::optional<std::vector<std::int64_t>> paddings;  ///< Pad-1 only
  std::optional<std::vector<std::int64_t>> pads_attr; ///< Pad-2 `pads` attribute
  std::optional<float> value;                         ///< Pad-1/2 `value` attribute
  // inputs (Pad-11 and later)
  std::optional<IntTensor> pads;
  std::optional<ValueTensor> constant_value;
  std::optional<IntTensor> axes;  ///< Pad-18 and later
};

/// The Pad version active at `opset` (1..28 map to 1, 2, 11, 13, 18, 19, 21, 23, 24, 25).
int pad_version(int opset);

/// Whether Pad at `opset` accepts `type` (docs/spec.md §4.2).
bool type_allowed(int opset, const ElementType& type);

/// Validates the node against `data`'s type and shape and returns the canonical spec
/// (crop-then-pad for negative pads, negative sizes are errors).
PadSpec to_canonical(const PadNode& node, const ElementType& data_type,
                     const std::vector<std::int64_t>& data_shape);

}  // namespace padnd::onnx
PADND_PUBLIC_END
