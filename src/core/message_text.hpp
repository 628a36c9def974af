// SPDX-License-Identifier: Apache-2.0
// The pieces every error message is built from, written once: axes, sides, lists and quoted
// caller text (docs/spec.md §1.2: a message names the argument, the axis and the values).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace padnd::detail {

/// "axis 2"
std::string axis_text(std::size_t axis);
/// "<argument>: axis 2: "
std::string where(std::string_view argument, std::size_t axis);
/// "(begin 1, end -2)"
std::string side_text(std::int64_t begin, std::int64_t end);
/// "[1, -2, 3]" (also used for shapes; a scalar's shape prints as "[]"); past 16 values,
/// "[0, 1, ..., 15, ... (30000 values)]".
std::string list_text(std::span<const std::int64_t> values);
/// `text` in single quotes, each byte outside printable ASCII as \xNN: a caller's string never
/// puts a control character in a message (a NUL would cut it short as a C string).
std::string quoted(std::string_view text);

}  // namespace padnd::detail
