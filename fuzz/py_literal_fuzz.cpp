// SPDX-License-Identifier: Apache-2.0
// The .npy header's Python-literal parser on arbitrary text: a value or padnd::Error, within
// the nesting limit, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cli/py_literal.hpp"
#include "padnd/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)padnd::cli::parse_py_literal(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const padnd::Error&) {
  }
  return 0;
}
