// SPDX-License-Identifier: Apache-2.0
// Moving bytes: short copies inline, and non-temporal (streamed) copies that bypass the caches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "executors/cpu/simd.hpp"

namespace padnd::detail {

/// Inlined everywhere (GCC and Clang would otherwise call these): a call costs as much as a
/// short move.
#if defined(__GNUC__)
#define PADND_INLINE inline __attribute__((always_inline))
#else
#define PADND_INLINE inline
#endif

/// Lines at the start of a row's input that prefetch_start asks for.
constexpr std::int64_t kPrefetchLines = 8;

/// Asks the caches for the first kPrefetchLines 64-byte lines of [p, p + bytes) (a hint: it
/// never faults). A window's rows are short pieces of longer rows, each in another page, and
/// the hardware prefetcher starts each of them cold.
PADND_INLINE void prefetch_start(const std::byte* p, std::int64_t bytes) {
#if defined(__GNUC__)
  const std::int64_t lines = std::min(kPrefetchLines, (bytes + 63) / 64);
  for (std::int64_t l = 0; l < lines; ++l) __builtin_prefetch(p + 64 * l);
#else
  (void)p;
  (void)bytes;
#endif
}

#if PADND_AVX2_COPIES
/// Runs of more than kMediumMinBytes and under kMemcpyMinBytes go to copy_medium_avx2 where the
/// CPU has AVX2; memcpy's own moves are as fast on shorter runs and faster on longer ones
/// (docs/perf-cpp.md).
constexpr std::size_t kMediumMinBytes = 256;
constexpr std::size_t kMemcpyMinBytes = 3072;

/// The 32-byte vector at `p`.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i load32(const std::byte* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
[[gnu::target("avx2"), gnu::always_inline]] inline void store32(std::byte* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

/// Copies n (more than 128) non-overlapping bytes in 32-byte moves, 128 bytes a turn and then
/// the last 128 bytes, overlapping the turns before instead of a tail: memcpy's length dispatch
/// and destination alignment cost more than they save on the copies of medium rows.
[[gnu::target("avx2")]] inline void copy_medium_avx2(std::byte* dst, const std::byte* src,
                                                     std::size_t n) {
  for (std::size_t at = 0; at + 128 < n; at += 128) {
    const __m256i a = load32(src + at), b = load32(src + at + 32);
    const __m256i c = load32(src + at + 64), d = load32(src + at + 96);
    store32(dst + at, a), store32(dst + at + 32, b);
    store32(dst + at + 64, c), store32(dst + at + 96, d);
  }
  const __m256i a = load32(src + n - 128), b = load32(src + n - 96);
  const __m256i c = load32(src + n - 64), d = load32(src + n - 32);
  store32(dst + n - 128, a), store32(dst + n - 96, b);
  store32(dst + n - 64, c), store32(dst + n - 32, d);
}

/// copy_medium_avx2 where the CPU has AVX2, else memcpy; out of line, so that copy_bytes stays
/// small where it is inlined.
[[gnu::noinline]] inline void copy_medium(std::byte* dst, const std::byte* src, std::size_t n) {
  if (avx2_copies()) return copy_medium_avx2(dst, src, n);
  std::memcpy(dst, src, n);
}
#endif

/// Copies n non-overlapping bytes. Runs up to 64 bytes (row borders, short rows) use a few
/// overlapping fixed-size moves inline instead of a library call; medium ones go to
/// copy_medium_avx2 where the CPU has AVX2, the others to memcpy.
PADND_INLINE void copy_bytes(std::byte* dst, const std::byte* src, std::size_t n) {
  const auto move = [&](auto word, std::size_t at) {
    std::memcpy(&word, src + at, sizeof word);
    std::memcpy(dst + at, &word, sizeof word);
  };
  struct Bytes16 {
    std::uint64_t lo, hi;
  };
  if (n > 64) {
#if PADND_AVX2_COPIES
    if (n > kMediumMinBytes && n < kMemcpyMinBytes) return copy_medium(dst, src, n);
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push  // GCC 12 cannot see that n is the size of a real buffer
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
    std::memcpy(dst, src, n);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  } else if (n > 32) {  // four 16-byte moves, all loaded before any store: they may overlap
    Bytes16 part[4];
    std::memcpy(&part[0], src, 16);
    std::memcpy(&part[1], src + 16, 16);
    std::memcpy(&part[2], src + n - 32, 16);
    std::memcpy(&part[3], src + n - 16, 16);
    std::memcpy(dst, &part[0], 16);
    std::memcpy(dst + 16, &part[1], 16);
    std::memcpy(dst + n - 32, &part[2], 16);
    std::memcpy(dst + n - 16, &part[3], 16);
  } else if (n >= 16) {
    Bytes16 head;
    Bytes16 tail;  // both loaded before storing: the two moves may overlap
    std::memcpy(&head, src, 16);
    std::memcpy(&tail, src + n - 16, 16);
    std::memcpy(dst, &head, 16);
    std::memcpy(dst + n - 16, &tail, 16);
  } else if (n >= 8) {
    move(std::uint64_t{}, 0);
    move(std::uint64_t{}, n - 8);
  } else if (n >= 4) {
    move(std::uint32_t{}, 0);
    move(std::uint32_t{}, n - 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

/// Fills `bytes` (a whole number of elements) with a value: memset when it is one repeated byte
/// (`fill_byte` >= 0), otherwise block copies of `pattern`, the value replicated.
inline void fill_long(std::byte* dst, std::int64_t bytes, int fill_byte,
                      const std::string& pattern) {
  if (fill_byte >= 0) {
    std::memset(dst, fill_byte, static_cast<std::size_t>(bytes));
    return;
  }
  const auto chunk = static_cast<std::int64_t>(pattern.size());
  const auto* from = reinterpret_cast<const std::byte*>(pattern.data());
  while (bytes > chunk) {
    std::memcpy(dst, from, static_cast<std::size_t>(chunk));
    dst += chunk;
    bytes -= chunk;
  }
  copy_bytes(dst, from, static_cast<std::size_t>(bytes));
}

#if PADND_SSE2
/// One 64-byte line from `src` to the line-aligned `dst` with non-temporal stores.
PADND_INLINE void stream_line(std::byte* dst, const std::byte* src) {
  const auto* from = reinterpret_cast<const __m128i*>(src);
  auto* to = reinterpret_cast<__m128i*>(dst);
  const __m128i a = _mm_loadu_si128(from);
  const __m128i b = _mm_loadu_si128(from + 1);
  const __m128i c = _mm_loadu_si128(from + 2);
  const __m128i d = _mm_loadu_si128(from + 3);
  _mm_stream_si128(to, a);
  _mm_stream_si128(to + 1, b);
  _mm_stream_si128(to + 2, c);
  _mm_stream_si128(to + 3, d);
}
#endif

#if PADND_AVX512_STREAMS
/// stream_line in one 64-byte store, on CPUs with AVX-512F (avx512_streams): the line leaves
/// its write-combining buffer whole at once (docs/perf-windows.md).
[[gnu::target("avx512f")]] inline void stream_line_avx512(std::byte* dst, const std::byte* src) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), _mm512_loadu_si512(src));
}
#endif

/// The loops of streamed lines, each over a line store (`line`): stream_line, or
/// stream_line_avx512 inside a function compiled for AVX-512 (stream_with picks).
/// Copies `bytes` (a multiple of 64) to a 64-byte aligned `dst` a line at a time.
struct LineLoop {
  template <auto line>
  PADND_INLINE static void run(std::byte* dst, const std::byte* src, std::int64_t bytes) {
    for (std::int64_t at = 0; at < bytes; at += 64) line(dst + at, src + at);
  }
};

/// LineLoop for a source in memory: long runs go four 4 KiB pages at a time, a line of each in
/// turn, prefetching the next four, as glibc's memcpy does for its largest copies: four
/// concurrent streams keep more DRAM pages open than one (measured faster on long copies and
/// outer-axis reflects). A rest of three pages or more goes as four runs side by side too: a
/// 16 KiB row whose output starts off a line boundary, its whole lines one line short of a
/// step, would otherwise go one line after another, slower than the same row aligned; shorter
/// rests gained nothing (docs/perf-cpp.md). Through the stage, whose source is in L1, this
/// measured slower.
struct PageLoop {
  template <auto line>
  PADND_INLINE static void run(std::byte* dst, const std::byte* src, std::int64_t bytes) {
    constexpr std::int64_t kStep = kRuns * kPage;
    for (; bytes >= kStep; bytes -= kStep, dst += kStep, src += kStep) {
      side_by_side<line, true>(dst, src, kPage);
    }
    if (bytes >= 3 * kPage) {
      const std::int64_t run_bytes = bytes / kRuns / 64 * 64;
      side_by_side<line, false>(dst, src, run_bytes);
      dst += kRuns * run_bytes;
      src += kRuns * run_bytes;
      bytes -= kRuns * run_bytes;
    }
    LineLoop::run<line>(dst, src, bytes);
  }

 private:
  static constexpr std::int64_t kPage = 4096;
  static constexpr std::int64_t kRuns = 4;

  /// kRuns consecutive runs of `run_bytes` (a multiple of 64), a line of each in turn;
  /// `prefetch` asks for the same lines of the next kRuns runs.
  template <auto line, bool prefetch>
  PADND_INLINE static void side_by_side(std::byte* dst, const std::byte* src,
                                        std::int64_t run_bytes) {
    for (std::int64_t at = 0; at < run_bytes; at += 64) {
      for (std::int64_t p = 0; p < kRuns; ++p) {
        // Never faults, even past the end.
        if constexpr (prefetch) __builtin_prefetch(src + (kRuns + p) * run_bytes + at);
        line(dst + p * run_bytes + at, src + p * run_bytes + at);
      }
    }
  }
};

/// Runs of `bytes` (a multiple of 64) each, to 64-byte aligned dst[p] from src[p], `rows` of
/// them at once, a line of each run in turn (stream_row_lines).
struct RowsLoop {
  template <auto line>
  PADND_INLINE static void run(std::byte* const* dst, const std::byte* const* src, int rows,
                               std::int64_t bytes) {
    for (std::int64_t at = 0; at < bytes; at += 64) {
      for (int p = 0; p < rows; ++p) line(dst[p] + at, src[p] + at);
    }
  }
};

#if !PADND_SSE2
/// One 64-byte line with plain stores, where no streaming store exists.
PADND_INLINE void copy_line(std::byte* dst, const std::byte* src) { std::memcpy(dst, src, 64); }
#endif

#if PADND_AVX512_STREAMS
// Flattened: stream_line_avx512 inlines only into a function compiled for AVX-512.
template <class Loop, class... Runs>
[[gnu::target("avx512f"), gnu::flatten]] inline void stream_avx512(Runs... runs) {
  Loop::template run<stream_line_avx512>(runs...);
}
#endif

/// `Loop::run` of `runs` with non-temporal stores, the widest line store the CPU has (plain
/// stores without SSE2): for LineLoop and PageLoop, (dst, src, bytes).
template <class Loop, class... Runs>
inline void stream_with(Runs... runs) {
#if PADND_AVX512_STREAMS
  if (avx512_streams()) return stream_avx512<Loop>(runs...);
#endif
#if PADND_SSE2
  Loop::template run<stream_line>(runs...);
#else
  Loop::template run<copy_line>(runs...);
#endif
}

/// stream_with a line at a time (the source is in cache: StagedOutput).
inline void stream_lines(std::byte* dst, const std::byte* src, std::int64_t bytes) {
  stream_with<LineLoop>(dst, src, bytes);
}

/// Bytes of `n` at `dst` before its first 64-byte line boundary: the head that is not a whole
/// line of its own.
inline std::size_t head_bytes(const std::byte* dst, std::size_t n) {
  return std::min(n, (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64);
}

/// Copies n non-overlapping bytes with non-temporal stores, which bypass the caches: when a
/// pad's traffic exceeds the last-level cache, cached stores only evict the input and cost a
/// read of every output line first. The caller issues stream_fence() before its results are
/// used. Without SSE2 this is memcpy.
inline void stream_bytes(std::byte* dst, const std::byte* src, std::size_t n) {
  const std::size_t head = head_bytes(dst, n);
  copy_bytes(dst, src, head);
  const std::size_t lines = (n - head) / 64 * 64;
  stream_with<PageLoop>(dst + head, src + head, static_cast<std::int64_t>(lines));
  copy_bytes(dst + head + lines, src + head + lines, n - head - lines);
}

/// Rows that stream_row_lines copies together.
constexpr int kGroupRows = 8;

/// Row bytes from which a window's streamed rows go one by one, not kGroupRows at a time: such
/// copies keep four pages busy each already (PageLoop).
constexpr std::int64_t kGroupMaxRowBytes = std::int64_t{16} << 10;

/// Whole lines with non-temporal stores: line_bytes[p] (a multiple of 64) to the 64-byte
/// aligned dst[p] from src[p] for each of `rows` (at most kGroupRows) rows, a line of each row
/// in turn. A window's rows are pieces of longer rows, each in other pages: copied one after
/// another, each starts a cold stream; together, they keep as many DRAM pages busy as PageLoop
/// does within one long run (docs/perf-windows.md).
inline void stream_row_lines(std::byte* const* dst, const std::byte* const* src, int rows,
                             const std::int64_t* line_bytes) {
  if (rows <= 0) return;
  std::int64_t common = line_bytes[0];  // the lines every row has
  for (int p = 1; p < rows; ++p) common = std::min(common, line_bytes[p]);
  stream_with<RowsLoop>(dst, src, rows, common);
  for (int p = 0; p < rows; ++p) {  // the rows' last line, where their alignments differ
    if (line_bytes[p] > common) {
      stream_with<LineLoop>(dst[p] + common, src[p] + common, line_bytes[p] - common);
    }
  }
}

/// stream_bytes of `n` bytes for each of `rows` (at most kGroupRows) rows, from src[p] to
/// dst[p]: each row's partial lines with plain stores, the whole lines by stream_row_lines.
inline void stream_rows(std::byte* const* dst, const std::byte* const* src, int rows,
                        std::size_t n) {
  if (rows <= 0) return;
  std::byte* line_dst[kGroupRows];
  const std::byte* line_src[kGroupRows];
  std::int64_t line_bytes[kGroupRows];
  for (int p = 0; p < rows; ++p) {
    const std::size_t head = head_bytes(dst[p], n);
    copy_bytes(dst[p], src[p], head);
    line_dst[p] = dst[p] + head;
    line_src[p] = src[p] + head;
    line_bytes[p] = static_cast<std::int64_t>((n - head) / 64 * 64);
  }
  stream_row_lines(line_dst, line_src, rows, line_bytes);
  for (int p = 0; p < rows; ++p) {
    const auto done = static_cast<std::size_t>(line_dst[p] - dst[p] + line_bytes[p]);
    copy_bytes(dst[p] + done, src[p] + done, n - done);
  }
}

/// Orders the non-temporal stores of stream_bytes before any later store (the task's "done").
inline void stream_fence() {
#if PADND_SSE2
  _mm_sfence();
#endif
}

}  // namespace padnd::detail
