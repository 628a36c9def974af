// SPDX-License-Identifier: Apache-2.0
// Internal helpers shared by planning and execution.
#pragma once

#include <cstdint>
#include <string>

namespace padnd::detail {

/// The pad value replicated to a fill pattern of at least kFillPatternBytes, a whole number of
/// elements long, so that filling any run of elements is a few block copies.
inline constexpr std::int64_t kFillPatternBytes = 256;
std::string replicate_pattern(const std::string& element_bytes);

}  // namespace padnd::detail
