// SPDX-License-Identifier: Apache-2.0
// Small value types for the non-data inputs of spec operators (pads, axes, pad values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// An integer tensor input such as `pads`, `pads_begin` or `axes`, with its declared element
/// type and shape (so adapters can enforce "1-D int64"). Values are already widened to int64.
struct IntTensor {
  ElementType type = DType::int64;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> values;

  /// A 1-D tensor of the given type holding `v`.
  static IntTensor vector(std::vector<std::int64_t> v, ElementType t = DType::int64) {
    IntTensor r;
    r.type = t;
    r.shape = {static_cast<std::int64_t>(v.size())};
    r.values = std::move(v);
    return r;
  }
};

/// A pad-value input (`constant_value`, `pad_value`, `arg_pad_value`): its element type, its
/// shape, and the bytes of its elements (strings: one std::string per element; packed types:
/// one byte per element holding the code in the low bits).
struct ValueTensor {
  ElementType type = DType::float32;
  std::vector<std::int64_t> shape;
  std::vector<std::string> elements;

  /// A rank-0 tensor holding one element given as raw bytes.
  static ValueTensor scalar(ElementType t, std::string element_bytes) {
    ValueTensor r;
    r.type = t;
    r.elements.push_back(std::move(element_bytes));
    return r;
  }
};

}  // namespace padnd
PADND_PUBLIC_END
