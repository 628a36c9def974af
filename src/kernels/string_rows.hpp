// SPDX-License-Identifier: Apache-2.0
// Row kernel for std::string elements: element-wise assignment (strings own heap memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "row_context.hpp"

namespace padnd::detail {

inline void string_row(const RowContext& c, std::string* dst, const std::byte* src) {
  const auto at = [&](std::int64_t index) {
    return reinterpret_cast<const std::string*>(src + index * c.in_stride);
  };
  for (const RowSegment& seg : c.segments) {
    std::string* out = dst + seg.out_begin;
    for (std::int64_t i = 0; i < seg.len; ++i) {
      switch (seg.kind) {
        case RowSegment::Kind::fill: out[i] = *c.fill; break;
        case RowSegment::Kind::copy: out[i] = *at(seg.src_begin + i); break;
        case RowSegment::Kind::reverse: out[i] = *at(seg.src_begin - i); break;
        case RowSegment::Kind::interleave:
          out[i] = i % seg.step == 0 ? *at(seg.src_begin + i / seg.step) : *c.fill;
          break;
        case RowSegment::Kind::gather: out[i] = *at(c.table[seg.src_begin + i]); break;
      }
    }
  }
}

inline void string_fill(std::string* dst, std::int64_t count, const std::string& value) {
  for (std::int64_t i = 0; i < count; ++i) dst[i] = value;
}

}  // namespace padnd::detail
