// SPDX-License-Identifier: Apache-2.0
// `--value` text -> the bytes of one element of the input's dtype, in the file's byte order.
#pragma once

#include <string>
#include <string_view>

#include "npy.hpp"

namespace padnd::cli {

/// Encodes `text` as one element of `dtype`:
///   bool        true/false/1/0 (any case)
///   ints        decimal, range-checked against the dtype
///   floats      decimal, inf, nan; read as float64, then rounded to nearest even
///   complex     "1+2j", "3", "-1.5j", "(1-2j)"
///   S / U       text that fits the item size (zero padded); U is stored as UCS-4
///   M8 / m8     an int64 count of the dtype's unit, or NaT
/// Throws padnd::Error (Errc::invalid_argument / out_of_range / unsupported_type).
std::string parse_value(std::string_view text, const NpyDtype& dtype);

/// ONNX Pad-1/2's FLOAT `value` attribute.
float parse_float_attribute(std::string_view text);

}  // namespace padnd::cli
