// SPDX-License-Identifier: Apache-2.0
// `--value` text -> the bytes of one element of the input's dtype, in the file's byte order.
#pragma once

#include <string>
#include <string_view>

#include "npy.hpp"

namespace padnd::cli {

/// How S and U text ends: NUL-padded to the item size (one whole element), or left at its
/// length, to be padded once the output is known to need the value (an item may be 2 GiB).
enum class TextPadding { item, none };

/// Encodes `text` as one element of `dtype`:
///   bool        true/false/1/0 (any case)
///   ints        decimal, range-checked against the dtype
///   floats      decimal, inf, nan; read as float64, then rounded to nearest even
///   complex     "1+2j", "3", "-1.5j", "(1-2j)"
///   S / U       text that fits the item size (zero padded); U is stored as UCS-4
///   M8 / m8     an int64 count of the dtype's unit, or NaT
/// Throws padnd::Error (Errc::invalid_argument / out_of_range / unsupported_type).
std::string parse_value(std::string_view text, const NpyDtype& dtype,
                        TextPadding padding = TextPadding::item);

/// One step of strict UTF-8 decoding at text[i]: the sequence's length and code point, or
/// `error` (length 1) for a malformed byte, an overlong form, a surrogate or a code point
/// above U+10FFFF.
struct Utf8Step {
  int len = 1;
  char32_t cp = 0;
  const char* error = nullptr;
};
Utf8Step utf8_step(std::string_view text, std::size_t i);

/// `text` safe to print in a message: control characters and bytes that are not valid UTF-8
/// become \xNN; everything else is kept.

std::string printable(std::string_view text);

/// ONNX Pad-1/2's FLOAT `value` attribute.
float parse_float_attribute(std::string_view text);

}  // namespace padnd::cli
