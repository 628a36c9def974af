// SPDX-License-Identifier: Apache-2.0
// Byte kernels checked directly: the non-temporal copy against memcpy, at every short length
// and alignment and at the lengths where it streams four pages at a time (the other tests
// reach it only through Streaming::always on small outputs), and each way of storing a line.
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

/// `copy(dst, src, bytes)` of whole lines to a line-aligned dst equals memcpy, from short runs
/// to several 16 KiB steps of four pages, guard lines untouched.
template <class Copy>
void check_line_copy(const Copy& copy) {
  constexpr std::size_t kGuard = 64;
  std::vector<std::byte> src(3 * 16384 + 1024);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t lines : {0, 1, 2, 63, 64, 256, 257, 3 * 256 + 5}) {
    const std::size_t n = 64 * lines;
    alignas(64) static std::byte got[3 * 16384 + 1024 + 2 * kGuard];
    std::memset(got, 0x5a, sizeof got);
    std::vector<std::byte> want(got, got + sizeof got);
    copy(got + kGuard, src.data() + 3, static_cast<std::int64_t>(n));
    detail::stream_fence();
    std::memcpy(want.data() + kGuard, src.data() + 3, n);
    ASSERT_EQ(std::vector<std::byte>(got, got + sizeof got), want) << "lines=" << lines;
  }
}

/// Both loops of streamed lines (LineLoop, PageLoop), each through `Run<Loop>::copy`.
template <template <class> class Run>
void check_line_loops() {
  check_line_copy(Run<detail::LineLoop>::copy);
  check_line_copy(Run<detail::PageLoop>::copy);
}

#if PADND_SSE2
template <class Loop>
struct SixteenByteStores {
  static void copy(std::byte* dst, const std::byte* src, std::int64_t bytes) {
    Loop::template run<detail::stream_line>(dst, src, bytes);
  }
};

TEST(StreamLines, SixteenByteStoresEqualMemcpy) { check_line_loops<SixteenByteStores>(); }
#endif

#if PADND_AVX512_STREAMS
template <class Loop>
struct WholeLineStores {
  static void copy(std::byte* dst, const std::byte* src, std::int64_t bytes) {
    detail::stream_avx512<Loop>(dst, src, bytes);
  }
};

TEST(StreamLines, WholeLineStoresEqualMemcpy) {
  if (!detail::avx512_streams()) GTEST_SKIP() << "this CPU has no AVX-512F";
  check_line_loops<WholeLineStores>();
}
#endif

}  // namespace
}  // namespace padnd
