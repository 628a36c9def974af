// SPDX-License-Identifier: Apache-2.0
// padnd::Error — the one exception type every padnd entry point throws.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// What kind of rule a request broke.
enum class Errc : std::uint8_t {
  invalid_argument,  ///< a value outside what the spec allows (mode name, pad value, ...)
  unsupported_type,  ///< element type not allowed by the spec / version
  shape_mismatch,    ///< lengths or ranks that do not agree
  out_of_range,      ///< an index or pad outside its allowed range
  overflow,          ///< a size that does not fit in int64
  io,                ///< file input / output (CLI only)
  out_of_memory,     ///< a buffer (the output) cannot be allocated; the message names its bytes
};

/// Thrown by planning, adapters and I/O. `what()` names the argument, the axis and the values.
class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] Errc code() const noexcept { return code_; }

 private:
  Errc code_;
};

}  // namespace padnd
PADND_PUBLIC_END
