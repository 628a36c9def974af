// SPDX-License-Identifier: Apache-2.0
// Validation and message helpers shared by the spec adapters.
#include "adapters/checks.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <optional>

#include "core/checked.hpp"

namespace padnd::adapters {
namespace {

char lower_ascii(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return lower_ascii(x) == lower_ascii(y);
         });
}

/// The argument to blame for an axis: the side whose value breaks the rule.
std::string_view side_name(bool begin_breaks, std::string_view begin_name,
                           std::string_view end_name) {
  return begin_breaks ? begin_name : end_name;
}

std::string pads_text(const AxisPad& p) { return detail::side_text(p.begin, p.end); }

}  // namespace

void fail(Errc code, std::string_view argument, const std::string& detail) {
  throw Error(code, std::string(argument) + ": " + detail);
}

void require_vector(const IntTensor& t, std::string_view argument) {
  if (t.shape.size() != 1) {
    fail(Errc::shape_mismatch, argument,
         "must be a 1-D tensor, got shape " + list_text(t.shape) + " (rank " +
             std::to_string(t.shape.size()) + ")");
  }
  if (t.shape[0] != static_cast<std::int64_t>(t.values.size())) {
    fail(Errc::shape_mismatch, argument,
         "shape " + list_text(t.shape) + " declares " + std::to_string(t.shape[0]) +
             " values but " + std::to_string(t.values.size()) + " were given");
  }
}

void require_type_in(const IntTensor& t, std::string_view argument, std::span<const DType> allowed,
                     std::string_view context) {
  if (std::find(allowed.begin(), allowed.end(), t.type.dtype) != allowed.end()) return;
  std::string names;
  for (DType d : allowed) names += (names.empty() ? "" : ", ") + ElementType(d).name();
  fail(Errc::unsupported_type, argument,
       "element type " + t.type.name() + " is not allowed by " + std::string(context) +
           "; allowed: " + names);
}

void require_not_numpy_only(const ElementType& type, std::string_view argument,
                            std::string_view context) {
  if (numpy_only(type)) {
    fail(Errc::unsupported_type, argument,
         "element type " + type.name() + " is numpy's and not allowed by " + std::string(context) +
             " (its index modes can move it as opaque" + std::to_string(type.item_bytes()) + ")");
  }
}

void require_shape(std::span<const std::int64_t> shape, std::string_view argument) {
  (void)detail::element_count_of(shape, std::string(argument) + " shape");
}

void require_integer_type(const IntTensor& t, std::string_view argument, std::string_view context) {
  if (!is_integer(t.type)) {
    fail(Errc::unsupported_type, argument,
         "must have an integer element type in " + std::string(context) + ", got " + t.type.name());
  }
}

void require_length(std::span<const std::int64_t> values, std::string_view argument,
                    std::size_t expected, const std::string& expected_text) {
  if (values.size() != expected) {
    fail(Errc::shape_mismatch, argument,
         "expected " + std::to_string(expected) + " values (" + expected_text + "), got " +
             std::to_string(values.size()) + ": " + list_text(values));
  }
}

void require_consistent(const ValueTensor& v, std::string_view argument) {
  std::int64_t count = 1;
  for (std::int64_t d : v.shape) {
    const std::optional<std::int64_t> next = d < 0 ? std::nullopt : detail::checked_mul(count, d);
    if (!next) {
      fail(Errc::shape_mismatch, argument, "invalid shape " + list_text(v.shape));
    }
    count = *next;
  }
  if (count != static_cast<std::int64_t>(v.elements.size())) {
    fail(Errc::shape_mismatch, argument,
         "shape " + list_text(v.shape) + " holds " + std::to_string(count) + " element(s) but " +
             std::to_string(v.elements.size()) + " were given");
  }
}

void require_same_type(const ValueTensor& v, std::string_view argument,
                       const ElementType& data_type, std::string_view context) {
  if (v.type != data_type) {
    fail(Errc::unsupported_type, argument,
         "element type " + v.type.name() + " does not match the data type " + data_type.name() +
             " (" + std::string(context) + ")");
  }
}

void require_scalar(const ValueTensor& v, std::string_view argument, std::string_view context) {
  if (!v.shape.empty()) {
    fail(Errc::shape_mismatch, argument,
         "must be a scalar (rank 0) in " + std::string(context) + ", got shape " +
             list_text(v.shape));
  }
}

Mode parse_mode(std::string_view text, std::span<const ModeName> accepted,
                std::string_view argument, bool ignore_case, std::string_view context) {
  for (const ModeName& m : accepted) {
    if (text == m.name || (ignore_case && equal_ignoring_case(text, m.name))) return m.mode;
  }
  std::string message = quoted(text);
  message.append(" is not supported by ").append(context).append("; supported: ");
  for (std::size_t i = 0; i < accepted.size(); ++i) {
    message.append(i == 0 ? "" : ", ").append(accepted[i].name);
  }
  if (ignore_case) message.append(" (any case)");
  fail(Errc::invalid_argument, argument, message);
}

std::vector<AxisPad> axis_pads(std::span<const std::int64_t> begin,
                               std::span<const std::int64_t> end) {
  std::vector<AxisPad> pads(begin.size());
  for (std::size_t k = 0; k < begin.size(); ++k) {
    pads[k].begin = begin[k];
    pads[k].end = end[k];
  }
  return pads;
}

void require_non_negative(const std::vector<AxisPad>& pads, std::string_view begin_name,
                          std::string_view end_name, std::string_view why) {
  for (std::size_t k = 0; k < pads.size(); ++k) {
    const AxisPad& p = pads[k];
    if (p.begin < 0 || p.end < 0) {
      const std::int64_t bad = p.begin < 0 ? p.begin : p.end;
      fail(Errc::out_of_range, side_name(p.begin < 0, begin_name, end_name),
           axis_text(k) + ": negative pad " + std::to_string(bad) + " " + pads_text(p) + "; " +
               std::string(why));
    }
  }
}

void require_length_where_padded(const std::vector<AxisPad>& pads,
                                 std::span<const std::int64_t> shape, std::int64_t min_len,
                                 std::string_view begin_name, std::string_view end_name,
                                 std::string_view mode_text) {
  for (std::size_t k = 0; k < pads.size(); ++k) {
    const AxisPad& p = pads[k];
    if ((p.begin > 0 || p.end > 0) && shape[k] < min_len) {
      fail(Errc::out_of_range, side_name(p.begin > 0, begin_name, end_name),
           axis_text(k) + ": " + std::string(mode_text) +
               " mode needs an input length of at least " + std::to_string(min_len) +
               " on a padded axis; the input length is " + std::to_string(shape[k]) + " " +
               pads_text(p));
    }
  }
}

void require_pads_at_most(const std::vector<AxisPad>& pads, std::span<const std::int64_t> shape,
                          std::int64_t slack, std::string_view begin_name,
                          std::string_view end_name, std::string_view mode_text) {
  for (std::size_t k = 0; k < pads.size(); ++k) {
    const AxisPad& p = pads[k];
    const std::int64_t limit = shape[k] + slack;  // shape[k] >= 0 and slack is -1 or 0
    if (p.begin > limit || p.end > limit) {
      const bool begin_breaks = p.begin > limit;
      const std::string bound =
          slack == 0 ? "the input length " + std::to_string(shape[k])
                     : "input length - " + std::to_string(-slack) + " = " + std::to_string(limit);
      fail(Errc::out_of_range, side_name(begin_breaks, begin_name, end_name),
           axis_text(k) + ": " + std::string(mode_text) + " pad " +
               std::to_string(begin_breaks ? p.begin : p.end) + " exceeds " + bound + " " +
               pads_text(p));
    }
  }
}

void require_non_negative_output(const std::vector<AxisPad>& pads,
                                 std::span<const std::int64_t> shape, std::string_view begin_name,
                                 std::string_view end_name) {
  for (std::size_t k = 0; k < pads.size(); ++k) {
    const AxisPad& p = pads[k];
    const std::int64_t d = shape[k];
    if (d < 0 || p.interior < 0) continue;  // the planner reports these
    const detail::PaddedLength length = detail::padded_length(d, p);
    if (length.overflow != nullptr) continue;  // the planner reports it
    if (length.out_len < 0) {
      fail(Errc::out_of_range, std::string(begin_name) + "/" + std::string(end_name),
           axis_text(k) + ": inferred result dimension " + std::to_string(p.begin) + " + " +
               std::to_string(length.dilated) + " + " + std::to_string(p.end) + " = " +
               std::to_string(length.out_len) + " is negative after padding");
    }
  }
}

std::uint16_t float_to_half_bits(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000U);
  const std::uint32_t exponent = (bits >> 23) & 0xFFU;
  std::uint32_t mantissa = bits & 0x7FFFFFU;

  if (exponent == 0xFFU) {  // infinity, or NaN kept quiet with its top payload bits
    if (mantissa == 0) return static_cast<std::uint16_t>(sign | 0x7C00U);
    return static_cast<std::uint16_t>(sign | 0x7E00U | (mantissa >> 13));
  }
  // Rebias: float exponent 127 <-> half exponent 15.
  const int half_exponent = static_cast<int>(exponent) - 127 + 15;
  if (half_exponent >= 31) return static_cast<std::uint16_t>(sign | 0x7C00U);  // overflow

  // Round `significand >> shift` to nearest, ties to even.
  const auto round_shift = [](std::uint32_t significand, int shift) -> std::uint32_t {
    const std::uint32_t kept = significand >> shift;
    const std::uint32_t rest = significand & ((1U << shift) - 1U);
    const std::uint32_t half = 1U << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1U) != 0)) ? 1U : 0U);
  };

  if (half_exponent <= 0) {
    // Subnormal half: value = m * 2^-24 with the float's implicit leading one made explicit.
    // Shifts past 24 leave less than half of the smallest subnormal: rounds to zero.
    const int shift = 14 - half_exponent;
    if (exponent == 0 || shift > 24) return sign;
    mantissa |= 0x800000U;
    // A carry into bit 10 yields the smallest normal number, which is the right encoding.
    return static_cast<std::uint16_t>(sign | round_shift(mantissa, shift));
  }
  // Normal: a carry out of the mantissa bumps the exponent, up to infinity (0x7C00).
  const std::uint32_t rounded =
      (static_cast<std::uint32_t>(half_exponent) << 10) + round_shift(mantissa, 13);
  return static_cast<std::uint16_t>(sign | rounded);
}

}  // namespace padnd::adapters
