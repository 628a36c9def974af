// SPDX-License-Identifier: Apache-2.0
// Short constant-bordered rows streamed straight from registers: each 16-byte piece of the output
// row is a load of the input blended with the pad value.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "row_context.hpp"

namespace padnd::detail {

#if defined(__SSE2__)
/// A row program fill | copy | fill whose rows are whole 16-byte pieces (units of 1, 2, 4, 8 or
/// 16 bytes, at most kMaxRowBytes): piece k of a row is bytes [16k, 16k + 16) of the input row
/// shifted by `shift` bytes, with the pad value where mask k is zero: a row costs a load, two
/// logic operations and a store per piece. Streamed (RowContext::stream) with non-temporal stores,
/// consecutive rows complete each cache line; staged through memory instead (StagedOutput), or
/// written as segments with cached stores, 32-byte rows (last_axis_f32) took twice as long or
/// more. Unstreamed (a fresh output, or one that fits the cache) the pieces are cached stores: a
/// store per 16 bytes instead of the segments' copy and fill.
class MaskedRows {
 public:
  static constexpr std::int64_t kMaxRowBytes = 512;

  /// Whether rows of the bordered form `b` with `unit_bytes` units can be written this way.
  static bool fits(const BorderedRow& b, std::int64_t row_bytes, std::int64_t unit_bytes) {
    return row_bytes % 16 == 0 && row_bytes <= kMaxRowBytes && 16 % unit_bytes == 0 &&
           (b.begin.len == 0 || b.begin.src == PlanAxis::kPad) &&
           (b.end.len == 0 || b.end.src == PlanAxis::kPad);
  }

  MaskedRows(const RowContext& c, const BorderedRow& b)
      : pieces_(c.row_len * c.unit_bytes / 16),
        shift_((b.copy_src - b.begin.len) * c.unit_bytes),
        fill_(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c.fill->data()))),
        stream_(c.stream) {
    const std::int64_t copy_begin = b.begin.len * c.unit_bytes;
    const std::int64_t copy_end = copy_begin + b.copy_len * c.unit_bytes;
    for (std::int64_t k = 0; k < pieces_; ++k) {
      alignas(16) unsigned char bytes[16];
      for (std::int64_t j = 0; j < 16; ++j) {
        const std::int64_t at = 16 * k + j;
        bytes[j] = at >= copy_begin && at < copy_end ? 0xff : 0;
      }
      mask_[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(bytes));
    }
  }

  /// Input bytes the row starting at `in` loads: [in + shift(), in + shift() + row bytes).
  [[nodiscard]] std::int64_t shift() const { return shift_; }

  /// Writes the row whose input row starts at `in` to the 16-byte aligned `out`; every byte of
  /// [in + shift(), in + shift() + 16 * pieces) must be readable (the masks drop the ones
  /// outside the row's copy).
  void write(std::byte* out, const std::byte* in) const {
    const std::byte* from = in + shift_;
    for (std::int64_t k = 0; k < pieces_; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16 * k));
      const __m128i row = _mm_or_si128(_mm_and_si128(v, mask_[k]), _mm_andnot_si128(mask_[k], fill_));
      if (stream_) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(out + 16 * k), row);
      } else {
        _mm_store_si128(reinterpret_cast<__m128i*>(out + 16 * k), row);
      }
    }
  }

 private:
  std::int64_t pieces_;
  std::int64_t shift_;
  __m128i fill_;
  bool stream_;  ///< non-temporal stores (RowContext::stream)
  __m128i mask_[kMaxRowBytes / 16];
};
#endif

}  // namespace padnd::detail
