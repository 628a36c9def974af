// SPDX-License-Identifier: Apache-2.0
// The .npy header is a Python dict literal; this reads the small subset numpy writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace padnd::cli {

/// One Python literal: str, bool, int, None, or a list / tuple / dict of them.
struct PyValue {
  enum class Kind { string, boolean, integer, none, list, tuple, dict };
  Kind kind = Kind::none;
  std::string text;               ///< string
  bool flag = false;              ///< boolean
  std::int64_t number = 0;        ///< integer
  std::vector<PyValue> items;     ///< list / tuple / dict values
  std::vector<std::string> keys;  ///< dict keys (strings only)
};

/// Parses one literal (the whole text); throws padnd::Error naming the offset on malformed text.
PyValue parse_py_literal(std::string_view text);

}  // namespace padnd::cli
