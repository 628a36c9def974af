// SPDX-License-Identifier: Apache-2.0
#include "core/message_text.hpp"

#include <algorithm>

namespace padnd::detail {

std::string axis_text(std::size_t axis) { return "axis " + std::to_string(axis); }

std::string where(std::string_view argument, std::size_t axis) {
  return std::string(argument) + ": " + axis_text(axis) + ": ";
}

std::string side_text(std::int64_t begin, std::int64_t end) {
  return "(begin " + std::to_string(begin) + ", end " + std::to_string(end) + ")";
}

std::string list_text(std::span<const std::int64_t> values) {
  constexpr std::size_t kShownValues = 16;  // a message stays short whatever the caller passed
  std::string text = "[";
  for (std::size_t i = 0; i < std::min(values.size(), kShownValues); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  if (values.size() > kShownValues) {
    text += ", ... (" + std::to_string(values.size()) + " values)";
  }
  return text + "]";
}

std::string quoted(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out + "'";
}

}  // namespace padnd::detail
