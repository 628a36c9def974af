// SPDX-License-Identifier: Apache-2.0
// Byte kernels checked directly: the non-temporal copy (used only for pads larger than the
// last-level cache, which the other tests never reach) against memcpy.
#include "kernels/bytes_rows.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace padnd {
namespace {

TEST(StreamBytes, EqualsMemcpyForEveryLengthAndAlignment) {
  constexpr std::size_t kGuard = 32;
  std::vector<std::byte> src(700);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t n = 0; n <= 600; n += (n < 200 ? 1 : 61)) {
    for (std::size_t dst_at = 0; dst_at < 16; ++dst_at) {
      for (std::size_t src_at : {0, 1, 8, 13}) {
        std::vector<std::byte> got(n + dst_at + 2 * kGuard, std::byte{0x5a});
        std::vector<std::byte> want = got;
        detail::stream_bytes(got.data() + kGuard + dst_at, src.data() + src_at, n);
        detail::stream_fence();
        std::memcpy(want.data() + kGuard + dst_at, src.data() + src_at, n);
        ASSERT_EQ(got, want) << "n=" << n << " dst_at=" << dst_at << " src_at=" << src_at;
      }
    }
  }
}

}  // namespace
}  // namespace padnd
