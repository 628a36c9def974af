// SPDX-License-Identifier: Apache-2.0
// Short bordered rows written from registers: each 16-byte piece of the output row is a load of
// the input blended with the row's border values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "executors/cpu/kernels/moves.hpp"
#include "executors/cpu/kernels/row_context.hpp"
#include "executors/cpu/simd.hpp"

namespace padnd::detail {

#if PADND_SSE2
/// A row program border | copy | border whose rows are whole 16-byte pieces (units of W = 1, 2,
/// 4, 8 or 16 bytes, at most kMaxRowBytes), where each border holds one value: the pad value,
/// or one input element repeated (an edge border, or a border one element wide in any mode).
/// Piece k of a row is bytes [16k, 16k + 16) of the input row shifted by `shift` bytes, with the
/// begin (end) border's value, broadcast, where its masks say so: a row costs a load and a store
/// per piece, two broadcasts, and a few logic operations in the pieces that hold a border.
/// Streamed (RowContext::stream) with non-temporal stores, consecutive rows complete each cache
/// line, where a stage (StagedOutput) or segments with cached stores cost more (docs/design.md,
/// "Short rows from registers"). Unstreamed (a fresh output, or one that fits the cache) the
/// pieces are cached stores: a store per 16 bytes instead of the segments' copy and border
/// moves.
template <std::int64_t W>
class MaskedRows {
  static_assert(W == 1 || W == 2 || W == 4 || W == 8 || W == 16);

 public:
  static constexpr std::int64_t kMaxRowBytes = 512;

  /// Whether rows of `row_bytes` in the bordered form `b` can be written this way.
  static bool fits(const BorderedRow& b, std::int64_t row_bytes) {
    return row_bytes % 16 == 0 && row_bytes <= kMaxRowBytes && one_value(b.begin) &&
           one_value(b.end);
  }

  MaskedRows(const RowContext& c, const BorderedRow& b)
      : pieces_(c.row_len * W / 16),
        shift_((b.copy_src - b.begin.len) * W),
        begin_src_(value_source(b.begin)),
        end_src_(value_source(b.end)),
        fill_(load(reinterpret_cast<const std::byte*>(c.fill->data()))),
        stream_(c.stream) {
    const std::int64_t copy_begin = b.begin.len * W;
    const std::int64_t copy_end = copy_begin + b.copy_len * W;
    const auto plain = [&](std::int64_t k) {
      return 16 * k >= copy_begin && 16 * k + 16 <= copy_end;
    };
    while (head_end_ < pieces_ && !plain(head_end_)) ++head_end_;
    tail_begin_ = pieces_;
    while (tail_begin_ > head_end_ && !plain(tail_begin_ - 1)) --tail_begin_;
    ends_only_ = pieces_ >= 2 && head_end_ <= 1 && tail_begin_ >= pieces_ - 1;
    for (std::int64_t k = 0; k < pieces_; ++k) {
      alignas(16) unsigned char copy[16];
      alignas(16) unsigned char end[16];
      for (std::int64_t j = 0; j < 16; ++j) {
        const std::int64_t at = 16 * k + j;
        copy[j] = at >= copy_begin && at < copy_end ? 0xff : 0;
        end[j] = at >= copy_end ? 0xff : 0;
      }
      copy_mask_[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(copy));
      end_mask_[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(end));
    }
  }

  /// Input bytes the row starting at `in` loads: [in + shift(), in + shift() + row bytes).
  [[nodiscard]] std::int64_t shift() const { return shift_; }

  /// Writes `rows` rows to the 16-byte aligned `out`, one after another; row i reads the input
  /// row starting at in_rows[i] (an EvenRows or a ListedRows), and every byte of
  /// [in_rows[i] + shift(), in_rows[i] + shift() + row bytes) must be readable (the masks drop
  /// the ones outside the row's copy); a border's element, read besides, lies in the row.
  template <class InRows>
  void write_run(std::byte* out, InRows in_rows, std::int64_t rows) const {
    if (stream_) {
      ends_only_ ? run_ends<true>(out, in_rows, rows) : run<true>(out, in_rows, rows);
    } else {
      ends_only_ ? run_ends<false>(out, in_rows, rows) : run<false>(out, in_rows, rows);
    }
  }

 private:
  /// write_run with the plan in locals and in_rows by value: stores through `out` cannot change
  /// them, so they stay in registers (members would be reloaded after every store). Both loops are
  /// out of line, with registers of their own: inlined into the task's loop over runs, they spilled
  /// these locals to the stack (small planes, a call per plane, were slower inlined).
  template <bool kStream, class InRows>
  [[gnu::noinline]] void run(std::byte* out, InRows in_rows, std::int64_t rows) const {
    const std::int64_t pieces = pieces_;
    const std::int64_t head_end = head_end_;
    const std::int64_t tail_begin = tail_begin_;
    const std::int64_t shift = shift_;
    const std::int64_t begin_src = begin_src_;
    const std::int64_t end_src = end_src_;
    const __m128i fill = fill_;
    const __m128i* const copy_mask = copy_mask_;
    const __m128i* const end_mask = end_mask_;
    for (std::int64_t r = 0; r < rows; ++r, out += 16 * pieces) {
      const std::byte* in = in_rows[r];
      const std::byte* from = in + shift;
      const __m128i begin = border_value(begin_src, fill, in);
      const __m128i end = border_value(end_src, fill, in);
      const auto bordered = [&](std::int64_t k) {
        const __m128i border = select(end_mask[k], end, begin);
        store<kStream>(out + 16 * k, select(copy_mask[k], load(from + 16 * k), border));
      };
      std::int64_t k = 0;
      for (; k < head_end; ++k) bordered(k);
      for (; k < tail_begin; ++k) store<kStream>(out + 16 * k, load(from + 16 * k));
      for (; k < pieces; ++k) bordered(k);
    }
  }

  /// run() for rows whose borders lie in their first and last pieces (ends_only_), the common
  /// case: those two pieces are blended, each with its own border, and no loop runs over them
  /// (fewer instructions per row than run()'s three loops over pieces).
  template <bool kStream, class InRows>
  [[gnu::noinline]] void run_ends(std::byte* out, InRows in_rows, std::int64_t rows) const {
    const std::int64_t last = 16 * (pieces_ - 1);
    const std::int64_t shift = shift_;
    const std::int64_t begin_src = begin_src_;
    const std::int64_t end_src = end_src_;
    const __m128i fill = fill_;
    const __m128i first_mask = copy_mask_[0];
    const __m128i last_mask = copy_mask_[pieces_ - 1];
    for (std::int64_t r = 0; r < rows; ++r, out += last + 16) {
      const std::byte* in = in_rows[r];
      const std::byte* from = in + shift;
      const __m128i begin = border_value(begin_src, fill, in);
      const __m128i end = border_value(end_src, fill, in);
      store<kStream>(out, select(first_mask, load(from), begin));
      for (std::int64_t at = 16; at < last; at += 16) store<kStream>(out + at, load(from + at));
      store<kStream>(out + last, select(last_mask, load(from + last), end));
    }
  }

  /// A border's value in every lane: `fill`, or the element at byte `src` of the input row
  /// starting at `in`.
  PADND_INLINE static __m128i border_value(std::int64_t src, __m128i fill, const std::byte* in) {
    return src == kPadValue ? fill : broadcast(in + src);
  }

  static constexpr std::int64_t kPadValue = -1;  ///< a border of the pad value

  static bool one_value(const BorderedRow::Border& b) {
    return b.len <= 1 || b.src == PlanAxis::kPad || b.step == 0;
  }
  /// Byte offset in the input row of the element a border repeats, or kPadValue.
  static std::int64_t value_source(const BorderedRow::Border& b) {
    return b.len == 0 || b.src == PlanAxis::kPad ? kPadValue : b.src * W;
  }

  /// The W-byte element at `at` in every lane.
  static __m128i broadcast(const std::byte* at) {
    if constexpr (W == 16) {
      return load(at);
    } else if constexpr (W == 8) {
      return _mm_set1_epi64x(load<std::int64_t>(at));
    } else if constexpr (W == 4) {
      return _mm_set1_epi32(load<std::int32_t>(at));
    } else if constexpr (W == 2) {
      return _mm_set1_epi16(load<std::int16_t>(at));
    } else {
      return _mm_set1_epi8(load<char>(at));
    }
  }
  static __m128i load(const std::byte* at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  }
  template <class T>
  static T load(const std::byte* at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
  }
  /// a where `mask` is set, b elsewhere.
  static __m128i select(__m128i mask, __m128i a, __m128i b) {
    return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
  }
  template <bool kStream>
  static void store(std::byte* at, __m128i v) {
    if constexpr (kStream) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(at), v);
    } else {
      _mm_store_si128(reinterpret_cast<__m128i*>(at), v);
    }
  }

  std::int64_t pieces_;
  std::int64_t head_end_ = 0;    ///< the first piece of the copy alone (pieces before: blended)
  std::int64_t tail_begin_ = 0;  ///< one past the last such piece (pieces from it on: blended)
  std::int64_t shift_;
  std::int64_t begin_src_;  ///< byte offset of the begin border's element, or kPadValue
  std::int64_t end_src_;
  __m128i fill_;
  bool stream_;                           ///< non-temporal stores (RowContext::stream)
  bool ends_only_;                        ///< rows by run_ends
  __m128i copy_mask_[kMaxRowBytes / 16];  ///< bytes from the input
  __m128i end_mask_[kMaxRowBytes / 16];   ///< bytes of the end border (else the begin border)
};
#endif

}  // namespace padnd::detail
