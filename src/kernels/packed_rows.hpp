// SPDX-License-Identifier: Apache-2.0
// Row kernel for packed 4-/2-bit codes. Padding acts on logical elements: codes are read at
// their bit position in the input and appended to a sequential bit writer over the output's
// flattened order, so every output byte is written exactly once (the tail's unused bits are 0).
#pragma once

#include <cstdint>

#include "row_context.hpp"

namespace padnd::detail {

/// Appends BITS-bit codes to a byte stream, lowest bits first.
template <int BITS>
class PackedWriter {
 public:
  explicit PackedWriter(std::uint8_t* out) : out_(out) {}
  void put(std::uint8_t code) {
    acc_ = static_cast<std::uint8_t>(acc_ | (code << filled_));
    filled_ += BITS;
    if (filled_ == 8) {
      *out_++ = acc_;
      acc_ = 0;
      filled_ = 0;
    }
  }
  void flush() {
    if (filled_ != 0) *out_++ = acc_;
    acc_ = 0;
    filled_ = 0;
  }

 private:
  std::uint8_t* out_;
  std::uint8_t acc_ = 0;
  int filled_ = 0;
};

template <int BITS>
inline std::uint8_t read_code(const std::uint8_t* in, std::int64_t element) {
  constexpr int kPerByte = 8 / BITS;
  const int shift = static_cast<int>(element % kPerByte) * BITS;
  return static_cast<std::uint8_t>((in[element / kPerByte] >> shift) & ((1 << BITS) - 1));
}

/// Appends one output row; `src` is the element index of the row's input start.
template <int BITS>
void packed_row(const RowContext& c, PackedWriter<BITS>& w, const std::uint8_t* in,
                std::int64_t src) {
  const auto fill = static_cast<std::uint8_t>((*c.fill)[0]);
  for (const RowSegment& seg : *c.segments) {
    for (std::int64_t i = 0; i < seg.len; ++i) {
      switch (seg.kind) {
        case RowSegment::Kind::fill: w.put(fill); break;
        case RowSegment::Kind::copy:
          w.put(read_code<BITS>(in, src + (seg.src_begin + i) * c.in_stride));
          break;
        case RowSegment::Kind::reverse:
          w.put(read_code<BITS>(in, src + (seg.src_begin - i) * c.in_stride));
          break;
        case RowSegment::Kind::interleave:
          w.put(i % seg.step == 0
                    ? read_code<BITS>(in, src + (seg.src_begin + i / seg.step) * c.in_stride)
                    : fill);
          break;
        case RowSegment::Kind::gather:
          w.put(read_code<BITS>(in, src + c.table[seg.out_begin + i] * c.in_stride));
          break;
      }
    }
  }
}

}  // namespace padnd::detail
