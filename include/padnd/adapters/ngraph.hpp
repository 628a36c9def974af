// SPDX-License-Identifier: Apache-2.0
// nGraph op::Pad v0 (attributes; with interior padding) and v1 (pads as inputs): docs/spec.md §6.
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
namespace padnd::ngraph {

/// nGraph v0: `Pad(arg, arg_pad_value, padding_below, padding_above[, padding_interior], mode)`.
/// Interior padding is the early v0 form and is only valid with CONSTANT.
struct PadV0 {
  ValueTensor arg_pad_value;
  std::vector<std::int64_t> padding_below;
  std::vector<std::int64_t> padding_above;
  std::optional<std::vector<std::int64_t>> padding_interior;
  std::string pad_mode = "CONSTANT";  ///< CONSTANT | EDGE | REFLECT | SYMMETRIC (any case)
};

/// nGraph v1: `Pad(arg, pads_begin, pads_end[, arg_pad_value], pad_mode)`.
struct PadV1 {
  IntTensor pads_begin;
  IntTensor pads_end;
  std::optional<ValueTensor> arg_pad_value;
  std::string pad_mode = "CONSTANT";
};

PadSpec to_canonical(const PadV0& op, const ElementType& arg_type,
                     const std::vector<std::int64_t>& arg_shape);
PadSpec to_canonical(const PadV1& op, const ElementType& arg_type,
                     const std::vector<std::int64_t>& arg_shape);

}  // namespace padnd::ngraph
PADND_PUBLIC_END
