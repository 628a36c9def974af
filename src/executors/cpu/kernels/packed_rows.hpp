// SPDX-License-Identifier: Apache-2.0
// Row kernel for packed 4-/2-bit codes. Padding acts on logical elements: codes are read at
// their bit position in the input and appended to a sequential bit writer over the output's
// flattened order, so every output byte is written exactly once (the tail's unused bits are 0).
// Fills and ascending copies move whole bytes once the writer is byte-aligned; borders that
// reverse or gather move one code at a time (they are a few codes per row).
#pragma once

#include <cstdint>
#include <cstring>

#include "executors/cpu/kernels/row_context.hpp"
#include "executors/cpu/kernels/row_program.hpp"

namespace padnd::detail {

/// Appends BITS-bit codes to a byte stream, lowest bits first.
template <int BITS>
class PackedWriter {
 public:
  static constexpr int kPerByte = 8 / BITS;
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
  /// Appends `count` copies of `code`: whole output bytes by memset of the replicated code.
  void put_fill(std::uint8_t code, std::int64_t count) {
    for (; filled_ != 0 && count > 0; --count) put(code);
    const std::int64_t whole_bytes = count / kPerByte;
    std::uint8_t replicated = 0;
    for (int i = 0; i < kPerByte; ++i)
      replicated = static_cast<std::uint8_t>(replicated | (code << (i * BITS)));
    std::memset(out_, replicated, static_cast<std::size_t>(whole_bytes));
    out_ += whole_bytes;
    for (count -= whole_bytes * kPerByte; count > 0; --count) put(code);
  }
  /// Appends the `count` codes of `in` starting at element `first`, ascending. Once the writer is
  /// byte-aligned, whole output bytes are one input byte (memcpy) or two input bytes
  /// funnel-shifted.
  void put_run(const std::uint8_t* in, std::int64_t first, std::int64_t count);
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

template <int BITS>
void PackedWriter<BITS>::put_run(const std::uint8_t* in, std::int64_t first, std::int64_t count) {
  for (; filled_ != 0 && count > 0; --count) put(read_code<BITS>(in, first++));
  const std::int64_t whole_bytes = count / kPerByte;
  const std::uint8_t* src = in + first / kPerByte;
  const int shift = static_cast<int>(first % kPerByte) * BITS;
  if (shift == 0) {
    std::memcpy(out_, src, static_cast<std::size_t>(whole_bytes));
  } else {
    // Output byte i holds codes from the top of src[i] and the bottom of src[i + 1], all inside
    // the run, so src[i + 1] is never read past the run's last byte.
    for (std::int64_t i = 0; i < whole_bytes; ++i) {
      out_[i] = static_cast<std::uint8_t>((src[i] >> shift) | (src[i + 1] << (8 - shift)));
    }
  }
  out_ += whole_bytes;
  first += whole_bytes * kPerByte;
  for (count -= whole_bytes * kPerByte; count > 0; --count) put(read_code<BITS>(in, first++));
}

/// Appends one output row; `src` is the element index of the row's input start.
template <int BITS>
void packed_row(const RowContext& c, PackedWriter<BITS>& w, const std::uint8_t* in,
                std::int64_t src) {
  const auto fill = static_cast<std::uint8_t>((*c.fill)[0]);
  const auto code = [&](std::int64_t index) {
    return read_code<BITS>(in, src + index * c.in_stride);
  };
  const auto piece = [&](const RowSegment& seg, std::int64_t skip, std::int64_t n, std::int64_t) {
    if (seg.kind == RowSegment::Kind::fill) {
      w.put_fill(fill, n);
      return;
    }
    if (seg.kind == RowSegment::Kind::copy && c.in_stride == 1) {
      w.put_run(in, src + seg.src_begin + skip, n);
      return;
    }
    for (std::int64_t k = skip; k < skip + n; ++k) {  // k: position in the segment
      switch (seg.kind) {
        case RowSegment::Kind::copy:
          w.put(code(seg.src_begin + k));
          break;
        case RowSegment::Kind::reverse:
          w.put(code(seg.src_begin - k));
          break;
        case RowSegment::Kind::interleave:
          w.put(k % seg.step == 0 ? code(seg.src_begin + k / seg.step) : fill);
          break;
        case RowSegment::Kind::gather:
          w.put(code(c.table[seg.src_begin + k]));
          break;
        case RowSegment::Kind::repeat:
          w.put(code(seg.src_begin));
          break;
        case RowSegment::Kind::fill:      // handled above
        case RowSegment::Kind::periodic:  // unrolled by for_each_piece
          break;
      }
    }
  };
  for_each_piece(c.segments, 0, c.row_len, piece);
}

}  // namespace padnd::detail
