// SPDX-License-Identifier: Apache-2.0
// Row kernels for byte-addressable elements, specialised by unit width W in bytes (0 = any).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "executors/cpu/kernels/moves.hpp"
#include "executors/cpu/kernels/row_context.hpp"
#include "executors/cpu/kernels/row_program.hpp"
#include "executors/cpu/simd.hpp"

namespace padnd::detail {

/// Copies from this many bytes on go through stream_bytes when RowContext::stream is set.
constexpr std::int64_t kStreamMinBytes = 1024;

/// A row's contiguous copy: streamed when `stream` (RowContext::stream) is set and the run is
/// long enough.
PADND_INLINE void copy_run(bool stream, std::byte* dst, const std::byte* src, std::size_t n) {
  if (stream && static_cast<std::int64_t>(n) >= kStreamMinBytes) {
    stream_bytes(dst, src, n);
  } else {
    copy_bytes(dst, src, n);
  }
}

template <std::int64_t W>
inline void copy_unit(std::byte* dst, const std::byte* src, std::int64_t unit_bytes) {
  if constexpr (W > 0) {
    std::memcpy(dst, src, W);  // fixed size: compiles to one or two moves
  } else {
    copy_bytes(dst, src, static_cast<std::size_t>(unit_bytes));
  }
}

#if PADND_SSE2
/// The W-byte lanes of `v` in reverse order (W = 1, 2, 4 or 8).
template <std::int64_t W>
inline __m128i reverse_lanes(__m128i v) {
  if constexpr (W == 8) return _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2));
  if constexpr (W == 4) return _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
  if constexpr (W == 1) v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
  v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(0, 1, 2, 3));
  v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(0, 1, 2, 3));
  return _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2));
}

/// Units (W = 1, 2, 4 or 8 bytes) of the low (high) half of `a`, each followed by the unit of
/// `b` beside it: a0 b0 a1 b1 ...
template <std::int64_t W, bool kHigh>
inline __m128i interleave(__m128i a, __m128i b) {
  if constexpr (W == 1) return kHigh ? _mm_unpackhi_epi8(a, b) : _mm_unpacklo_epi8(a, b);
  if constexpr (W == 2) return kHigh ? _mm_unpackhi_epi16(a, b) : _mm_unpacklo_epi16(a, b);
  if constexpr (W == 4) return kHigh ? _mm_unpackhi_epi32(a, b) : _mm_unpacklo_epi32(a, b);
  return kHigh ? _mm_unpackhi_epi64(a, b) : _mm_unpacklo_epi64(a, b);
}
#endif

/// The W-byte lanes of an integer word in reverse order (W < the word's size): its halves
/// swapped (a rotate), then the halves' halves, down to single lanes.
template <std::int64_t W, class Word>
PADND_INLINE Word reverse_lanes(Word x) {
  static_assert(W < static_cast<std::int64_t>(sizeof(Word)), "a word of one lane");
  x = std::rotl(x, static_cast<int>(sizeof(Word)) * 4);
  for (int bits = static_cast<int>(sizeof(Word)) * 2; bits >= W * 8; bits /= 2) {
    const Word low = static_cast<Word>(Word(~Word{0}) / ((std::uint64_t{1} << bits) + 1));
    x = static_cast<Word>(((x >> bits) & low) | ((x & low) << bits));
  }
  return x;
}

/// The Word at `low`, its W-byte lanes reversed.
template <std::int64_t W, class Word>
PADND_INLINE Word load_reversed(const std::byte* low) {
  Word word;
  std::memcpy(&word, low, sizeof word);
  return reverse_lanes<W>(word);
}

/// out[i] = in[-i] for i < n (units of W bytes, n * W >= sizeof(Word)), a Word at a time,
/// each reversed in a register; the last Word overlaps the one before it instead of a
/// unit-by-unit tail.
template <std::int64_t W, class Word>
PADND_INLINE void reverse_by_words(std::byte* out, const std::byte* in, std::int64_t n) {
  constexpr auto kLanes = static_cast<std::int64_t>(sizeof(Word)) / W;
  const Word last = load_reversed<W, Word>(in - (n - 1) * W);  // lanes n - kLanes .. n - 1
  for (std::int64_t i = 0; i + kLanes < n; i += kLanes) {
    const Word word = load_reversed<W, Word>(in - (i + kLanes - 1) * W);
    std::memcpy(out + i * W, &word, sizeof word);
  }
  std::memcpy(out + (n - kLanes) * W, &last, sizeof last);
}

/// `n` contiguous units at `out` from a descending run of sources `stride` bytes apart:
/// out[i] = in[-i * stride] (reflect and symmetric borders). Contiguous sources of widths 1,
/// 2, 4 and 8 move whole words reversed in registers (16 bytes with SSE2), short runs as two
/// overlapping words; other runs move a unit at a time.
template <std::int64_t W>
PADND_INLINE void reverse_units(std::byte* out, const std::byte* in, std::int64_t n,
                                std::int64_t unit, std::int64_t stride) {
  if constexpr (W == 1 || W == 2 || W == 4 || W == 8) {
    const std::int64_t bytes = n * W;
    if (stride == W && bytes >= 2 * W) {
#if PADND_SSE2
      if (bytes >= 16) return reverse_by_words<W, __m128i>(out, in, n);
#endif
      if constexpr (W < 8) {
        if (bytes >= 8) return reverse_by_words<W, std::uint64_t>(out, in, n);
      }
      if constexpr (W <= 2) {
        if (bytes >= 4) return reverse_by_words<W, std::uint32_t>(out, in, n);
      }
      if constexpr (W == 1) return reverse_by_words<W, std::uint16_t>(out, in, n);
    }
  }
  for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, in - i * stride, unit);
}

/// `done` bytes at `out` hold a whole number of periods of `period_bytes`: doubles them until
/// `total` bytes are written (a periodic border's far part, whose values repeat).
inline void repeat_periods(std::byte* out, std::int64_t done, std::int64_t total,
                           std::int64_t period_bytes) {
  while (done < total) {
    const std::int64_t more = std::min(done / period_bytes * period_bytes, total - done);
    copy_bytes(out + done, out, static_cast<std::size_t>(more));
    done += more;
  }
}

/// `n` copies of the unit at `in`, at `out`: long runs (a wide edge border) double what is
/// already written, a few block copies instead of one move per unit.
template <std::int64_t W>
PADND_INLINE void repeat_unit(std::byte* out, const std::byte* in, std::int64_t n,
                              std::int64_t unit) {
  constexpr std::int64_t kDoubleFromUnits = 64;
  if (n < kDoubleFromUnits) {
    for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, in, unit);
    return;
  }
  for (std::int64_t i = 0; i < kDoubleFromUnits; ++i) copy_unit<W>(out + i * unit, in, unit);
  repeat_periods(out, kDoubleFromUnits * unit, n * unit, unit);
}

/// Fills `bytes` (a whole number of elements) with the pad value; short fills (row borders) are
/// a few moves from `pattern` (c.fill's bytes), inline.
PADND_INLINE void fill_bytes(std::byte* dst, std::int64_t bytes, const std::byte* pattern,
                             const RowContext& c) {
  if (bytes <= 64) {
    copy_bytes(dst, pattern, static_cast<std::size_t>(bytes));
    return;
  }
  fill_long(dst, bytes, c.fill_byte, *c.fill);
}
PADND_INLINE void fill_bytes(std::byte* dst, std::int64_t bytes, const RowContext& c) {
  fill_bytes(dst, bytes, reinterpret_cast<const std::byte*>(c.fill->data()), c);
}

/// Positions [skip, skip + n) of an interleave segment, written at `out`.
template <std::int64_t W>
inline void interleave_run(const RowContext& c, const RowSegment& seg, std::int64_t skip,
                           std::int64_t n, std::byte* out, const std::byte* src) {
  const std::int64_t unit = W > 0 ? W : c.unit_bytes;
  const auto* fill = reinterpret_cast<const std::byte*>(c.fill->data());
  const auto pad = [&](std::int64_t count) {
    if constexpr (W > 0) {
      for (std::int64_t g = 0; g < count; ++g)
        copy_unit<W>(out + g * W, fill, W);  // >= 16 elements
    } else {
      fill_bytes(out, count * unit, c);
    }
    out += count * unit;
  };
  // Locals, not seg's fields: stores through `out` may alias them as far as the compiler knows.
  const std::int64_t step = seg.step;
  const std::int64_t stride = c.in_stride;
  const std::byte* in = src + (seg.src_begin + skip / step) * stride;
  std::int64_t left = n;
  if (const std::int64_t phase = skip % step; phase != 0) {  // start inside a gap
    const std::int64_t gap = std::min(left, step - phase);
    pad(gap);
    left -= gap;
    in += stride;
  }
  if constexpr (W > 0) {
    if (step == 2) {  // interior 1, the common case: value, pad, value, pad, ...
#if PADND_SSE2
      if constexpr (W == 1 || W == 2 || W == 4 || W == 8) {
        // 16 bytes of values interleaved with the pad value: two 16-byte stores, not a store
        // per position.
        constexpr std::int64_t kValues = 16 / W;
        const __m128i pad_value = _mm_loadu_si128(reinterpret_cast<const __m128i*>(fill));
        for (; stride == W && left >= 2 * kValues; left -= 2 * kValues, in += 16, out += 32) {
          const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(out), interleave<W, false>(v, pad_value));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), interleave<W, true>(v, pad_value));
        }
      }
#endif
      for (; left >= 2; left -= 2, in += stride, out += 2 * W) {
        copy_unit<W>(out, in, W);
        copy_unit<W>(out + W, fill, W);
      }
    }
  }
  while (left > 0) {
    copy_unit<W>(out, in, unit);
    out += unit;
    in += stride;
    const std::int64_t gap = std::min(left - 1, step - 1);
    pad(gap);
    left -= 1 + gap;
  }
}

/// A set of output rows that take one segment at once: row i writes at dst[i] (the segment's
/// first position to write) from the input row starting at src[i].
struct RowBatch {
  std::int64_t count;
  std::byte* const* dst;
  const std::byte* const* src;
};

/// Writes `n` positions of `seg`, starting `skip` positions into it, in every row of `rows`.
/// The loop over rows sits inside each case: short rows cost a few instructions per segment.
template <std::int64_t W>
PADND_INLINE void bytes_segment(const RowContext& c, const RowSegment& seg, std::int64_t skip,
                                std::int64_t n, const RowBatch& rows) {
  const std::int64_t unit = W > 0 ? W : c.unit_bytes;
  const std::int64_t stride = c.in_stride;
  switch (seg.kind) {
    case RowSegment::Kind::fill:
      for (std::int64_t r = 0; r < rows.count; ++r) fill_bytes(rows.dst[r], n * unit, c);
      return;
    case RowSegment::Kind::copy: {
      const std::int64_t from = (seg.src_begin + skip) * stride;
      for (std::int64_t r = 0; r < rows.count; ++r) {
        std::byte* out = rows.dst[r];
        const std::byte* in = rows.src[r] + from;
        if (stride == unit) {
          copy_run(c.stream, out, in, static_cast<std::size_t>(n * unit));
        } else {
          for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, in + i * stride, unit);
        }
      }
      return;
    }
    case RowSegment::Kind::reverse: {
      const std::int64_t from = (seg.src_begin - skip) * stride;
      for (std::int64_t r = 0; r < rows.count; ++r) {
        std::byte* out = rows.dst[r];
        const std::byte* in = rows.src[r] + from;
        reverse_units<W>(out, in, n, unit, stride);
      }
      return;
    }
    case RowSegment::Kind::interleave:
      for (std::int64_t r = 0; r < rows.count; ++r) {
        interleave_run<W>(c, seg, skip, n, rows.dst[r], rows.src[r]);
      }
      return;
    case RowSegment::Kind::gather: {
      const std::int64_t* idx = c.table + seg.src_begin + skip;
      for (std::int64_t r = 0; r < rows.count; ++r) {
        std::byte* out = rows.dst[r];
        const std::byte* in = rows.src[r];
        for (std::int64_t i = 0; i < n; ++i)
          copy_unit<W>(out + i * unit, in + idx[i] * stride, unit);
      }
      return;
    }
    case RowSegment::Kind::repeat: {
      const std::int64_t from = seg.src_begin * stride;
      for (std::int64_t r = 0; r < rows.count; ++r) {
        repeat_unit<W>(rows.dst[r], rows.src[r] + from, n, unit);
      }
      return;
    }
    case RowSegment::Kind::periodic:
      return;  // for_each_piece unrolls it into its pattern's segments
  }
}

/// Writes positions [p0, p1) of a batch of output rows: rows.dst[i] is the start of row i.
template <std::int64_t W>
void bytes_rows(const RowContext& c, const RowBatch& rows, std::int64_t p0, std::int64_t p1,
                std::byte** seg_dst) {
  const std::int64_t unit = W > 0 ? W : c.unit_bytes;
  const auto write = [&](const RowSegment& seg, std::int64_t skip, std::int64_t n,
                         std::int64_t at) {
    for (std::int64_t r = 0; r < rows.count; ++r) seg_dst[r] = rows.dst[r] + at * unit;
    bytes_segment<W>(c, seg, skip, n, RowBatch{rows.count, seg_dst, rows.src});
  };
  for (const RowSegment& seg : c.segments) {
    const std::int64_t s0 = std::max(seg.out_begin, p0);
    const std::int64_t s1 = std::min(seg.out_begin + seg.len, p1);
    if (s0 >= s1) continue;
    if (seg.kind != RowSegment::Kind::periodic) {
      write(seg, s0 - seg.out_begin, s1 - s0, s0);
      continue;
    }
    // One period from the input, then copies of what is written.
    const std::span<const RowSegment> pattern = periodic_pattern(c.segments, seg);
    const std::int64_t period = pattern_period(pattern);
    const std::int64_t first_end = std::min(s1, s0 + period);
    for_each_periodic_piece(pattern, s0, first_end, write);
    for (std::int64_t r = 0; r < rows.count; ++r) {
      repeat_periods(rows.dst[r] + s0 * unit, (first_end - s0) * unit, (s1 - s0) * unit,
                     period * unit);
    }
  }
}

/// Writes whole rows of the plan's bordered form (RowContext::bordered). It holds the row
/// program by value: loops keep it in registers, where fields read through a reference would be
/// reloaded after every store (a std::byte store may alias anything).
template <std::int64_t W>
class BorderedRowWriter {
 public:
  explicit BorderedRowWriter(const RowContext& c)
      : ctx_(c),
        row_(*c.bordered),
        unit_(W > 0 ? W : c.unit_bytes),
        fill_(reinterpret_cast<const std::byte*>(c.fill->data())),
        stream_(c.stream) {}

  /// Row at `out`, from the input row starting at `in`. A streamed copy of kStreamMinBytes and
  /// more streams its whole lines, then its ends with the borders (stream_row_ends).
  PADND_INLINE void operator()(std::byte* out, const std::byte* in) const {
    const auto bytes = static_cast<std::size_t>(row_.copy_len * unit_);
    std::byte* copy_out = out + row_.begin.len * unit_;
    if (stream_ && static_cast<std::int64_t>(bytes) >= kStreamMinBytes) {
      const std::size_t head = head_bytes(copy_out, bytes);
      const std::size_t line_bytes = (bytes - head) / 64 * 64;
      stream_with<PageLoop>(copy_out + head, in + row_.copy_src * unit_ + head,
                            static_cast<std::int64_t>(line_bytes));
      stream_row_ends(out, in, copy_out + head + line_bytes);
      return;
    }
    if (row_.begin.len > 0) border(out, row_.begin, in);
    copy_bytes(copy_out, in + row_.copy_src * unit_, bytes);
    if (row_.end.len > 0) border(copy_out + bytes, row_.end, in);
  }

  /// Rows i < `rows` at out + i * pitch, from the input rows in_rows[i], for copies of
  /// kStreamMinBytes and more: the copies go kGroupRows rows at a time, their whole lines a line
  /// of each row in turn, then the group's borders. Those are streamed too, with the copies'
  /// partial lines, through a stage (stream_row_ends): written with plain stores, each line
  /// would cost a read first, and written before the copies, their reads would miss the cache.
  template <class InRows>
  PADND_INLINE void streamed_groups(std::byte* out, std::int64_t pitch, const InRows& in_rows,
                                    std::int64_t rows) const {
    const auto bytes = static_cast<std::size_t>(row_.copy_len * unit_);
    std::byte* dst[kGroupRows];
    const std::byte* src[kGroupRows];
    if (row_.begin.len == 0 && row_.end.len == 0) {  // a window inside the input
      for (std::int64_t first = 0; first < rows; first += kGroupRows) {
        const auto count = static_cast<int>(std::min<std::int64_t>(kGroupRows, rows - first));
        for (int p = 0; p < count; ++p) {
          dst[p] = out + (first + p) * pitch;
          src[p] = in_rows[first + p] + row_.copy_src * unit_;
        }
        stream_rows(dst, src, count, bytes);
      }
      return;
    }
    std::int64_t line_bytes[kGroupRows];
    for (std::int64_t first = 0; first < rows; first += kGroupRows) {
      const auto count = static_cast<int>(std::min<std::int64_t>(kGroupRows, rows - first));
      for (int p = 0; p < count; ++p) {
        std::byte* copy_out = out + (first + p) * pitch + row_.begin.len * unit_;
        const std::size_t head = head_bytes(copy_out, bytes);
        dst[p] = copy_out + head;
        src[p] = in_rows[first + p] + row_.copy_src * unit_ + head;
        line_bytes[p] = static_cast<std::int64_t>((bytes - head) / 64 * 64);
      }
      stream_row_lines(dst, src, count, line_bytes);
      for (int p = 0; p < count; ++p) {
        stream_row_ends(out + (first + p) * pitch, in_rows[first + p], dst[p] + line_bytes[p]);
      }
    }
  }

  /// Prefetches the start of the copy that the row from `in` will read.
  PADND_INLINE void prefetch(const std::byte* in) const {
    prefetch_start(in + row_.copy_src * unit_, row_copy_bytes());
  }
  /// Bytes of a row's copy from the input.
  [[nodiscard]] std::int64_t row_copy_bytes() const { return row_.copy_len * unit_; }

 private:
  /// Borders up to this many bytes go through stream_row_ends' stage.
  static constexpr std::int64_t kStagedBorderBytes = 1024;

  /// The row at `out` from the input row at `in` but for its copy's whole lines, which end at
  /// `lines_end`: the begin border with the copy's head (its bytes before the first line
  /// boundary), and the copy's tail with the end border, each assembled in a stage and streamed.
  /// A border longer than kStagedBorderBytes is written with plain stores instead.
  PADND_INLINE void stream_row_ends(std::byte* out, const std::byte* in,
                                    std::byte* lines_end) const {
    alignas(64) std::byte stage[kStagedBorderBytes + 64];
    const std::int64_t copy_len_bytes = row_.copy_len * unit_;
    const std::byte* copy_in = in + row_.copy_src * unit_;
    std::byte* copy_out = out + row_.begin.len * unit_;
    const auto staged = [&](const BorderedRow::Border& b) {
      return b.len * unit_ <= kStagedBorderBytes ? b.len * unit_ : 0;
    };
    const auto head =
        static_cast<std::int64_t>(head_bytes(copy_out, static_cast<std::size_t>(copy_len_bytes)));
    const std::int64_t begin_staged = staged(row_.begin);
    if (begin_staged < row_.begin.len * unit_) border(out, row_.begin, in);
    if (begin_staged > 0) border(stage, row_.begin, in);
    copy_bytes(stage + begin_staged, copy_in, static_cast<std::size_t>(head));
    stream_bytes(copy_out - begin_staged, stage, static_cast<std::size_t>(begin_staged + head));
    const std::int64_t tail_at = lines_end - copy_out;
    const std::int64_t tail = copy_len_bytes - tail_at;
    const std::int64_t end_staged = staged(row_.end);
    copy_bytes(stage, copy_in + tail_at, static_cast<std::size_t>(tail));
    if (end_staged > 0) border(stage + tail, row_.end, in);
    stream_bytes(lines_end, stage, static_cast<std::size_t>(tail + end_staged));
    if (end_staged < row_.end.len * unit_) border(copy_out + copy_len_bytes, row_.end, in);
  }

  /// A border at `out`: the pad value, or its run of sources from the input row at `in`.
  PADND_INLINE void border(std::byte* out, const BorderedRow::Border& b,
                           const std::byte* in) const {
    const std::int64_t bytes = b.len * unit_;
    if (b.src == PlanAxis::kPad) {
      // One element of a fixed width, the commonest pad (a 3 x 3 convolution's), skips the
      // length dispatch (the pattern is longer than any fixed width).
      if (W > 0 && b.len == 1) {
        copy_unit<W>(out, fill_, W);
      } else {
        fill_bytes(out, bytes, fill_, ctx_);
      }
      return;
    }
    const std::byte* from = in + b.src * unit_;
    if (b.len == 1) {  // the commonest border read from the input: one element
      copy_unit<W>(out, from, unit_);
    } else if (b.step == 0) {
      repeat_unit<W>(out, from, b.len, unit_);
    } else if (b.step > 0) {
      copy_bytes(out, from, static_cast<std::size_t>(bytes));
    } else {
      reverse_units<W>(out, from, b.len, unit_, unit_);
    }
  }

  const RowContext& ctx_;  ///< for fills longer than the pattern's inline copy
  const BorderedRow row_;
  const std::int64_t unit_;
  const std::byte* const fill_;  ///< the replicated pad value
  const bool stream_;
};

}  // namespace padnd::detail
