// SPDX-License-Identifier: Apache-2.0
// Row kernels for byte-addressable elements, specialised by unit width W in bytes (0 = any).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "row_context.hpp"

namespace padnd::detail {

template <std::int64_t W>
inline void copy_unit(std::byte* dst, const std::byte* src, std::int64_t unit_bytes) {
  if constexpr (W > 0) {
    std::memcpy(dst, src, W);  // fixed size: compiles to one or two moves
  } else {
    std::memcpy(dst, src, static_cast<std::size_t>(unit_bytes));
  }
}

/// Fills `bytes` (a whole number of elements) from the replicated pattern.
inline void fill_bytes(std::byte* dst, std::int64_t bytes, const std::string& pattern) {
  const auto chunk = static_cast<std::int64_t>(pattern.size());
  while (bytes > chunk) {
    std::memcpy(dst, pattern.data(), static_cast<std::size_t>(chunk));
    dst += chunk;
    bytes -= chunk;
  }
  std::memcpy(dst, pattern.data(), static_cast<std::size_t>(bytes));
}

/// Writes one output row from the input row starting at `src`.
template <std::int64_t W>
void bytes_row(const RowContext& c, std::byte* dst, const std::byte* src) {
  const std::int64_t unit = W > 0 ? W : c.unit_bytes;
  for (const RowSegment& seg : *c.segments) {
    std::byte* out = dst + seg.out_begin * unit;
    switch (seg.kind) {
      case RowSegment::Kind::fill:
        fill_bytes(out, seg.len * unit, *c.fill);
        break;
      case RowSegment::Kind::copy: {
        const std::byte* in = src + seg.src_begin * c.in_stride;
        if (c.in_stride == unit) {
          std::memcpy(out, in, static_cast<std::size_t>(seg.len * unit));
        } else {
          for (std::int64_t i = 0; i < seg.len; ++i) {
            copy_unit<W>(out + i * unit, in + i * c.in_stride, unit);
          }
        }
        break;
      }
      case RowSegment::Kind::gather: {
        const std::int64_t* idx = c.table + seg.out_begin;
        for (std::int64_t i = 0; i < seg.len; ++i) {
          copy_unit<W>(out + i * unit, src + idx[i] * c.in_stride, unit);
        }
        break;
      }
    }
  }
}

}  // namespace padnd::detail
