// SPDX-License-Identifier: Apache-2.0
// Error helpers of the CLI's file code (npy.cpp reads, npy_write.cpp writes).
#pragma once

#include <cerrno>
#include <cstring>
#include <string>

#include "padnd/error.hpp"

namespace padnd::cli {

/// Throws Errc::io: "<path>: <what>".
[[noreturn]] inline void fail_io(const std::string& path, const std::string& what) {
  throw Error(Errc::io, path + ": " + what);
}

/// The text of errno.
inline std::string errno_text() { return std::strerror(errno); }

}  // namespace padnd::cli
