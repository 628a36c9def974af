// SPDX-License-Identifier: Apache-2.0
// Test oracles: see reference.hpp. Deliberately simple and slow.
#include "support/reference.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "padnd/element_type.hpp"

namespace padnd::testing {

std::int64_t naive_fold(Mode mode, std::int64_t j, std::int64_t d) {
  switch (mode) {
    case Mode::constant:
      break;
    case Mode::edge:
      if (j < 0) return 0;
      if (j >= d) return d - 1;
      return j;
    case Mode::wrap:
      while (j < 0) j += d;
      while (j >= d) j -= d;
      return j;
    case Mode::reflect:
      if (d == 1) return 0;
      while (j < 0 || j >= d) j = j < 0 ? -j : 2 * (d - 1) - j;
      return j;
    case Mode::symmetric:
      while (j < 0 || j >= d) j = j < 0 ? -j - 1 : 2 * d - 1 - j;
      return j;
    default:  // numpy's value modes compute values: no source (value_reference.cpp)
      break;
  }
  return -1;
}

std::int64_t naive_source(Mode mode, NegativeOrder order, std::int64_t d, const AxisPad& pad,
                          std::int64_t o) {
  if (mode != Mode::constant && order == NegativeOrder::crop_then_pad) {
    // Materialise the crop first: the kept elements are [first, first + kept).
    const std::int64_t first = pad.begin < 0 ? -pad.begin : 0;
    const std::int64_t kept = d - first - (pad.end < 0 ? -pad.end : 0);
    const std::int64_t lead = pad.begin > 0 ? pad.begin : 0;
    return first + naive_fold(mode, o - lead, kept);
  }
  // In the dilated input, element i sits at position i * (interior + 1).
  const std::int64_t j = o - pad.begin;
  const std::int64_t step = pad.interior + 1;
  if (j >= 0 && j % step == 0 && j / step < d) return j / step;
  const std::int64_t last = d == 0 ? -1 : (d - 1) * (pad.interior + 1);
  if (j >= 0 && j <= last) return -1;  // an interior gap
  return mode == Mode::constant ? -1 : naive_fold(mode, j, d);
}

bool naive_valid(const std::vector<std::int64_t>& shape, const PadSpec& spec,
                 std::vector<std::int64_t>* out_shape) {
  // 128-bit arithmetic: every sum of docs/spec.md §2.2 is exact here, then compared with int64.
  using Wide = __int128;
  constexpr Wide kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  const auto fits = [&](Wide v) { return v <= kMax && v >= -kMax - 1; };
  if (spec.axes.size() != shape.size()) return false;
  std::vector<std::int64_t> out;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const AxisPad& p = spec.axes[k];
    const std::int64_t d = shape[k];
    if (p.interior < 0 || (p.interior > 0 && spec.mode != Mode::constant)) return false;
    if (p.begin == kMin || p.end == kMin) return false;
    const Wide step = Wide{p.interior} + 1;
    const Wide dilated = d == 0 ? 0 : Wide{d - 1} * step + 1;
    if (!fits(step) || !fits(dilated - 1) || !fits(p.begin + dilated) || !fits(dilated + p.end)) {
      return false;
    }
    Wide n = p.begin + dilated + p.end;
    if (!fits(n)) return false;
    if (n < 0) {
      if (spec.negative_size == NegativeSize::error) return false;
      n = 0;
    }
    if (spec.mode != Mode::constant && spec.negative_order == NegativeOrder::crop_then_pad) {
      // docs/spec.md §2.5 / §2.8 rule 9: D' = D - crops must not be negative, even for an empty
      // output, and a cropped-to-nothing axis cannot be extended.
      const Wide cropped = std::max<Wide>(0, -Wide{p.begin}) + std::max<Wide>(0, -Wide{p.end});
      if (cropped > d || (cropped == d && n > 0)) return false;
    }
    if (spec.mode != Mode::constant && n > 0 &&
        spec.negative_order == NegativeOrder::map_on_original && d == 0) {
      return false;
    }
    out.push_back(static_cast<std::int64_t>(n));
  }
  if (out_shape) *out_shape = out;
  return true;
}

namespace {

std::int64_t read_code(const std::uint8_t* bytes, std::int64_t element, int bits) {
  const std::int64_t bit = element * bits;
  return (bytes[bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
}

void write_code(std::uint8_t* bytes, std::int64_t element, int bits, std::int64_t code) {
  const std::int64_t bit = element * bits;
  const int mask = (1 << bits) - 1;
  bytes[bit / 8] = static_cast<std::uint8_t>((bytes[bit / 8] & ~(mask << (bit % 8))) |
                                             ((code & mask) << (bit % 8)));
}

}  // namespace

Tensor reference_pad(const TensorView& input, const PadSpec& spec) {
  std::vector<std::int64_t> out_shape;
  naive_valid(input.shape, spec, &out_shape);
  Tensor out(input.type, out_shape);
  const std::size_t rank = input.shape.size();
  const ElementType& type = input.type;
  const std::int64_t item = type.item_bytes();

  // Input addresses in bytes (or elements for packed types), computed the plain way.
  std::vector<std::int64_t> strides(rank);
  std::int64_t dense = type.packed() ? 1 : item;
  for (std::size_t k = rank; k-- > 0;) {
    strides[k] = input.byte_strides.empty() ? dense : input.byte_strides[k];
    dense *= input.shape[k];
  }
  std::string value = spec.value;
  if (value.empty() && type.storage() == Storage::bytes) value.assign(item, '\0');
  if (value.empty() && type.packed()) value.assign(1, '\0');

  std::vector<std::int64_t> index(rank, 0);
  const std::int64_t count = out.size();
  for (std::int64_t flat = 0; flat < count; ++flat) {
    std::int64_t rest = flat;
    for (std::size_t k = rank; k-- > 0;) {
      index[k] = rest % out_shape[k];
      rest /= out_shape[k];
    }
    bool is_pad = false;
    std::int64_t address = 0;
    for (std::size_t k = 0; k < rank; ++k) {
      const std::int64_t s =
          naive_source(spec.mode, spec.negative_order, input.shape[k], spec.axes[k], index[k]);
      if (s < 0) is_pad = true;
      address += s * strides[k];
    }
    switch (type.storage()) {
      case Storage::string: {
        auto* dst = static_cast<std::string*>(out.data()) + flat;
        *dst = is_pad ? value
                      : *reinterpret_cast<const std::string*>(
                            static_cast<const char*>(input.data) + address);
        break;
      }
      case Storage::nibble:
      case Storage::crumb: {
        const std::int64_t code =
            is_pad ? static_cast<unsigned char>(value[0])
                   : read_code(static_cast<const std::uint8_t*>(input.data), address, type.bits());
        write_code(static_cast<std::uint8_t*>(out.data()), flat, type.bits(), code);
        break;
      }
      case Storage::bytes: {
        auto* dst = static_cast<char*>(out.data()) + flat * item;
        const char* src = is_pad ? value.data() : static_cast<const char*>(input.data) + address;
        std::memcpy(dst, src, static_cast<std::size_t>(item));
        break;
      }
    }
  }
  return out;
}

bool same_contents(const Tensor& a, const void* b_data, std::int64_t b_bytes) {
  if (a.byte_size() != b_bytes) return false;
  if (a.type().storage() == Storage::string) {
    const auto* x = static_cast<const std::string*>(a.data());
    const auto* y = static_cast<const std::string*>(b_data);
    for (std::int64_t i = 0; i < a.size(); ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  return b_bytes == 0 || std::memcmp(a.data(), b_data, static_cast<std::size_t>(b_bytes)) == 0;
}

}  // namespace padnd::testing
