// SPDX-License-Identifier: Apache-2.0
// Byte kernels checked directly: the non-temporal copy against memcpy, at every short length
// and alignment and at the lengths where it streams four pages at a time (the other tests
// reach it only through Streaming::always on small outputs).
#include "kernels/bytes_rows.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace padnd {
namespace {

TEST(StreamBytes, EqualsMemcpyForLongRunsOfWholePagesAndTheirTails) {
  constexpr std::size_t kGuard = 64;
  std::vector<std::byte> src(3 * 16384 + 400);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t n : {std::size_t{1024}, std::size_t{4095}, std::size_t{16384},
                        std::size_t{16384 + 77}, std::size_t{3 * 16384 + 127}}) {
    for (std::size_t dst_at : {0, 5, 48}) {
      std::vector<std::byte> got(n + dst_at + 2 * kGuard, std::byte{0x5a});
      std::vector<std::byte> want = got;
      detail::stream_bytes(got.data() + kGuard + dst_at, src.data() + 3, n);
      detail::stream_fence();
      std::memcpy(want.data() + kGuard + dst_at, src.data() + 3, n);
      ASSERT_EQ(got, want) << "n=" << n << " dst_at=" << dst_at;
    }
  }
}

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
