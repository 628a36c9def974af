// SPDX-License-Identifier: Apache-2.0
// Byte kernels checked directly: the non-temporal copy against memcpy, at every short length
// and alignment and at the lengths where it streams four pages, or four runs side by side, at
// a time (the other tests reach it only through Streaming::always on small outputs), the copy
// of up to kGroupRows rows a line of each at a time, each way of storing a line, and the cached
// copy (copy_bytes, its AVX2 loop alone too) at every length to 700 bytes and around its
// thresholds.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "executors/cpu/kernels/bytes_rows.hpp"

namespace padnd {
namespace {

TEST(StreamBytes, EqualsMemcpyForLongRunsOfWholePagesAndTheirTails) {
  constexpr std::size_t kGuard = 64;
  std::vector<std::byte> src(3 * 16384 + 400);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t n : {std::size_t{1024}, std::size_t{4095}, std::size_t{3 * 4096 + 3 * 64 + 17},
                        std::size_t{16384 - 17}, std::size_t{16384}, std::size_t{16384 + 77},
                        std::size_t{2 * 16384 + 12345}, std::size_t{3 * 16384 + 127}}) {
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

/// stream_rows of `rows` rows of `n` bytes, `dst_pitch` apart from `dst_at` and `src_stride`
/// apart in the source, equals a memcpy of each row; the bytes around and between the rows stay.
void check_stream_rows(int rows, std::size_t n, std::size_t dst_at, std::size_t dst_pitch,
                       std::size_t src_stride) {
  constexpr std::size_t kGuard = 64;
  std::vector<std::byte> src(rows * src_stride + 7);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  std::vector<std::byte> got(dst_at + rows * dst_pitch + 2 * kGuard, std::byte{0x5a});
  std::vector<std::byte> want = got;
  std::byte* dst[detail::kGroupRows];
  const std::byte* from[detail::kGroupRows];
  for (int p = 0; p < rows; ++p) {
    dst[p] = got.data() + kGuard + dst_at + p * dst_pitch;
    from[p] = src.data() + 7 + p * src_stride;
    std::memcpy(want.data() + kGuard + dst_at + p * dst_pitch, from[p], n);
  }
  detail::stream_rows(dst, from, rows, n);
  detail::stream_fence();
  ASSERT_EQ(got, want) << "rows=" << rows << " n=" << n << " dst_at=" << dst_at
                       << " dst_pitch=" << dst_pitch << " src_stride=" << src_stride;
}

TEST(StreamRows, EqualMemcpyOfEachRowForEveryCountLengthAndAlignment) {
  for (int rows = 1; rows <= detail::kGroupRows; ++rows) {
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{200},
          std::size_t{1024}, std::size_t{1037}, std::size_t{4112}, std::size_t{8197}}) {
      for (std::size_t dst_at : {0, 16, 37}) {
        // Pitches keep every row at one alignment (a multiple of 64) or move it row to row.
        for (std::size_t gap : {std::size_t{0}, std::size_t{16}, std::size_t{64 + 7}}) {
          check_stream_rows(rows, n, dst_at, (n + gap + 63) / 64 * 64, n + 29);
          check_stream_rows(rows, n, dst_at, n + gap, n + 29);
        }
      }
    }
  }
}

/// `copy(dst, src, bytes)` of whole lines to a line-aligned dst equals memcpy, from short runs
/// to several 16 KiB steps of four pages, and rests of three pages and more after a step or
/// without one, guard lines untouched.
template <class Copy>
void check_line_copy(const Copy& copy) {
  constexpr std::size_t kGuard = 64;
  std::vector<std::byte> src(3 * 16384 + 1024);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t lines : {0, 1, 2, 63, 64, 255, 256, 257, 256 + 200, 3 * 256 + 5}) {
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

/// One run through RowsLoop with `line` stores, its other rows beside it: each row of whole
/// lines is a memcpy.
template <auto line>
void interleaved_copy(std::byte* dst, const std::byte* src, std::int64_t bytes) {
  constexpr int kRows = 3;
  alignas(64) static std::byte others[kRows - 1][3 * 16384 + 1024];
  std::byte* dsts[kRows] = {others[0], dst, others[1]};
  const std::byte* srcs[kRows] = {src, src, src};
  detail::RowsLoop::run<line>(dsts, srcs, kRows, bytes);
  for (const auto& row : others) {
    ASSERT_EQ(std::memcmp(row, src, static_cast<std::size_t>(bytes)), 0) << "bytes=" << bytes;
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

TEST(StreamLines, SixteenByteStoresEqualMemcpy) {
  check_line_loops<SixteenByteStores>();
  check_line_copy(interleaved_copy<detail::stream_line>);
}
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
  check_line_copy([](std::byte* dst, const std::byte* src, std::int64_t bytes) {
    std::byte* const dsts[1] = {dst};
    const std::byte* const srcs[1] = {src};
    detail::stream_avx512<detail::RowsLoop>(dsts, srcs, 1, bytes);
  });
}
#endif

/// The lengths check_cached_copy tries: every one to 700 bytes and from 2990 to 3200 (around
/// kMemcpyMinBytes), every 97th in between and up to 8.3 KiB.
std::vector<std::size_t> cached_copy_lengths() {
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 8300; n += (n <= 700 || (n >= 2990 && n < 3200)) ? 1 : 97) {
    lengths.push_back(n);
  }
  return lengths;
}

/// `copy` at each of cached_copy_lengths(), to every destination alignment within 32 bytes,
/// from four source alignments, equals memcpy; the guard bytes around stay.
template <class Copy>
void check_cached_copy(const Copy& copy) {
  constexpr std::size_t kGuard = 48;
  std::vector<std::byte> src(8400);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 37 + 11);
  for (const std::size_t n : cached_copy_lengths()) {
    for (std::size_t dst_at = 0; dst_at < 32; ++dst_at) {
      for (std::size_t src_at : {0, 5, 17, 32}) {
        std::vector<std::byte> got(n + dst_at + 2 * kGuard, std::byte{0x5a});
        std::vector<std::byte> want = got;
        copy(got.data() + kGuard + dst_at, src.data() + src_at, n);
        std::memcpy(want.data() + kGuard + dst_at, src.data() + src_at, n);
        ASSERT_EQ(got, want) << "n=" << n << " dst_at=" << dst_at << " src_at=" << src_at;
      }
    }
  }
}

TEST(CopyBytes, EqualsMemcpyForEveryLengthAndAlignment) { check_cached_copy(detail::copy_bytes); }

#if PADND_AVX2_COPIES
TEST(CopyBytes, MediumAvx2CopiesEqualMemcpy) {
  if (!detail::avx2_copies()) GTEST_SKIP() << "this CPU has no AVX2";
  check_cached_copy([](std::byte* dst, const std::byte* src, std::size_t n) {
    if (n > 128) return detail::copy_medium_avx2(dst, src, n);  // its lengths
    std::memcpy(dst, src, n);
  });
}
#endif

}  // namespace
}  // namespace padnd
