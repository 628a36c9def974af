// SPDX-License-Identifier: Apache-2.0
// Row kernel for std::string elements: element-wise assignment (strings own heap memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "executors/cpu/kernels/row_context.hpp"
#include "executors/cpu/kernels/row_program.hpp"

namespace padnd::detail {

inline void string_row(const RowContext& c, std::string* dst, const std::byte* src) {
  const auto at = [&](std::int64_t index) {
    return reinterpret_cast<const std::string*>(src + index * c.in_stride);
  };
  const auto piece = [&](const RowSegment& seg, std::int64_t skip, std::int64_t n,
                         std::int64_t out_at) {
    std::string* out = dst + out_at;
    for (std::int64_t i = 0, k = skip; i < n; ++i, ++k) {  // k: position in the segment
      switch (seg.kind) {
        case RowSegment::Kind::fill:
          out[i] = *c.fill;
          break;
        case RowSegment::Kind::copy:
          out[i] = *at(seg.src_begin + k);
          break;
        case RowSegment::Kind::reverse:
          out[i] = *at(seg.src_begin - k);
          break;
        case RowSegment::Kind::interleave:
          out[i] = k % seg.step == 0 ? *at(seg.src_begin + k / seg.step) : *c.fill;
          break;
        case RowSegment::Kind::gather:
          out[i] = *at(c.table[seg.src_begin + k]);
          break;
        case RowSegment::Kind::repeat:
          out[i] = *at(seg.src_begin);
          break;
        case RowSegment::Kind::periodic:
          break;  // unrolled by for_each_piece
      }
    }
  };
  for_each_piece(c.segments, 0, c.row_len, piece);
}

inline void string_fill(std::string* dst, std::int64_t count, const std::string& value) {
  for (std::int64_t i = 0; i < count; ++i) dst[i] = value;
}

}  // namespace padnd::detail
