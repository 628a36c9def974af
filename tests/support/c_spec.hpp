// SPDX-License-Identifier: Apache-2.0
// A padnd_pad_spec (the C ABI's canonical description) of begin/end pads in one mode, for the
// C ABI tests.
#pragma once

#include <cstdint>
#include <vector>

#include "padnd/padnd.h"

namespace padnd::testing {

inline padnd_pad_spec c_spec(const std::vector<std::int64_t>& begin,
                             const std::vector<std::int64_t>& end, padnd_mode mode) {
  return {static_cast<std::int32_t>(begin.size()),
          begin.data(),
          end.data(),
          nullptr,
          mode,
          nullptr,
          0,
          PADND_MAP_ON_ORIGINAL,
          PADND_NEGATIVE_SIZE_ERROR};
}

}  // namespace padnd::testing
