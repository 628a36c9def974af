// SPDX-License-Identifier: Apache-2.0
// OpenVINO Pad-1 and Pad-12: docs/spec.md §5.
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
namespace padnd::openvino {

/// One OpenVINO Pad operation: version 1 or 12, attribute `pad_mode`, inputs 2..4.
struct PadOp {
  int version = 12;
  std::string pad_mode;  ///< required: constant | edge | reflect | symmetric
  IntTensor pads_begin;
  IntTensor pads_end;
  std::optional<ValueTensor> pad_value;
  /// Pad-1's spec forbids negative pads, but OpenVINO's implementation accepts them (and then
  /// behaves as Pad-12 without clamping). Set true to mirror the implementation.
  bool allow_negative_pads_v1 = false;
};

PadSpec to_canonical(const PadOp& op, const ElementType& data_type,
                     const std::vector<std::int64_t>& data_shape);

}  // namespace padnd::openvino
PADND_PUBLIC_END
