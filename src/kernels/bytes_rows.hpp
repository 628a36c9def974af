// SPDX-License-Identifier: Apache-2.0
// Row kernels for byte-addressable elements, specialised by unit width W in bytes (0 = any).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "row_context.hpp"

namespace padnd::detail {

/// Copies n non-overlapping bytes. Short runs (row borders, short rows) use a few overlapping
/// fixed-size moves inline instead of a library call; long ones go to memcpy.
inline void copy_bytes(std::byte* dst, const std::byte* src, std::size_t n) {
  const auto move = [&](auto word, std::size_t at) {
    std::memcpy(&word, src + at, sizeof word);
    std::memcpy(dst + at, &word, sizeof word);
  };
  struct Bytes16 {
    std::uint64_t lo, hi;
  };
  if (n > static_cast<std::size_t>(PTRDIFF_MAX)) __builtin_unreachable();  // sizes of real buffers
  if (n > 32) {
    std::memcpy(dst, src, n);
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

template <std::int64_t W>
inline void copy_unit(std::byte* dst, const std::byte* src, std::int64_t unit_bytes) {
  if constexpr (W > 0) {
    std::memcpy(dst, src, W);  // fixed size: compiles to one or two moves
  } else {
    copy_bytes(dst, src, static_cast<std::size_t>(unit_bytes));
  }
}

/// Fills `bytes` (a whole number of elements): memset when the value is one repeated byte,
/// otherwise block copies of the replicated pattern.
inline void fill_bytes(std::byte* dst, std::int64_t bytes, const RowContext& c) {
  const std::string& pattern = *c.fill;
  const auto chunk = static_cast<std::int64_t>(pattern.size());
  const auto* from = reinterpret_cast<const std::byte*>(pattern.data());
  if (bytes <= 32) {
    copy_bytes(dst, from, static_cast<std::size_t>(bytes));
    return;
  }
  if (c.fill_byte >= 0) {
    std::memset(dst, c.fill_byte, static_cast<std::size_t>(bytes));
    return;
  }
  while (bytes > chunk) {
    std::memcpy(dst, from, static_cast<std::size_t>(chunk));
    dst += chunk;
    bytes -= chunk;
  }
  copy_bytes(dst, from, static_cast<std::size_t>(bytes));
}

/// Writes positions [p0, p1) of one output row (`dst` is the row's start) from the input row
/// starting at `src`.
template <std::int64_t W>
void bytes_row(const RowContext& c, std::byte* dst, const std::byte* src, std::int64_t p0,
               std::int64_t p1) {
  const std::int64_t unit = W > 0 ? W : c.unit_bytes;
  const std::int64_t stride = c.in_stride;
  for (const RowSegment& seg : *c.segments) {
    const std::int64_t s0 = std::max(seg.out_begin, p0);
    const std::int64_t s1 = std::min(seg.out_begin + seg.len, p1);
    if (s0 >= s1) continue;
    const std::int64_t n = s1 - s0;
    const std::int64_t skip = s0 - seg.out_begin;  // positions of the segment before p0
    std::byte* out = dst + s0 * unit;
    switch (seg.kind) {
      case RowSegment::Kind::fill:
        fill_bytes(out, n * unit, c);
        break;
      case RowSegment::Kind::copy: {
        const std::byte* in = src + (seg.src_begin + skip) * stride;
        if (stride == unit) {
          copy_bytes(out, in, static_cast<std::size_t>(n * unit));
        } else {
          for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, in + i * stride, unit);
        }
        break;
      }
      case RowSegment::Kind::reverse: {
        const std::byte* in = src + (seg.src_begin - skip) * stride;
        for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, in - i * stride, unit);
        break;
      }
      case RowSegment::Kind::interleave: {
        const auto* fill = reinterpret_cast<const std::byte*>(c.fill->data());
        for (std::int64_t j = skip; j < skip + n; ++j, out += unit) {
          if (j % seg.step == 0) {
            copy_unit<W>(out, src + (seg.src_begin + j / seg.step) * stride, unit);
          } else if constexpr (W > 0) {
            copy_unit<W>(out, fill, unit);  // the pattern is at least 16 whole elements long
          } else {
            fill_bytes(out, unit, c);
          }
        }
        break;
      }
      case RowSegment::Kind::gather: {
        const std::int64_t* idx = c.table + s0;
        for (std::int64_t i = 0; i < n; ++i) copy_unit<W>(out + i * unit, src + idx[i] * stride, unit);
        break;
      }
    }
  }
}

}  // namespace padnd::detail
