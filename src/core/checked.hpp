// SPDX-License-Identifier: Apache-2.0
// Overflow-checked size arithmetic: every size padnd computes from caller input goes through
// these (docs/design.md, "Sizes").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "padnd/pad_spec.hpp"

namespace padnd::detail {

/// a + b, or nullopt where it does not fit in int64.
constexpr std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// a * b, or nullopt where it does not fit in int64.
constexpr std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// `base` advanced by `offset` bytes, or nullopt where that address does not exist: past the
/// end of the address space, or an offset past int64 (no object is that large).
inline std::optional<const char*> checked_offset(const void* base, std::uint64_t offset) noexcept {
  std::uintptr_t end = 0;
  if (offset > static_cast<std::uint64_t>(INT64_MAX) ||
      __builtin_add_overflow(reinterpret_cast<std::uintptr_t>(base), offset, &end)) {
    return std::nullopt;
  }
  return static_cast<const char*>(base) + offset;
}

/// The element count of `shape` (numpy's rule: the lengths other than 0 multiply within int64,
/// even where one is 0); errors name `argument`. padnd::element_count names "shape".
std::int64_t element_count_of(std::span<const std::int64_t> shape, std::string_view argument);

/// An axis's lengths once padded (docs/spec.md §2.2): its `in_len` elements with `interior`
/// elements between neighbours (dilated), and begin + dilated + end (out_len, possibly negative).
/// `overflow` names the first sum that does not fit in int64 (then the lengths are not set).
struct PaddedLength {
  std::int64_t dilated = 0;
  std::int64_t out_len = 0;
  const char* overflow = nullptr;
};

/// Requires in_len >= 0 and interior >= 0. begin + dilated and dilated + end must fit too: the
/// index map computes both.
constexpr PaddedLength padded_length(std::int64_t in_len, const AxisPad& p) noexcept {
  PaddedLength r;
  // Checked even for an empty axis: the index map steps by interior + 1 on every axis.
  const std::optional<std::int64_t> step = checked_add(p.interior, 1);
  if (!step) return {0, 0, "interior + 1"};
  if (in_len > 0) {
    const std::optional<std::int64_t> span = checked_mul(in_len - 1, *step);
    const std::optional<std::int64_t> dilated = span ? checked_add(*span, 1) : std::nullopt;
    if (!dilated) return {0, 0, "dilated length (input length - 1) * (interior + 1) + 1"};
    r.dilated = *dilated;
  }
  if (!checked_add(p.begin, r.dilated)) return {0, 0, "begin + input length"};
  const std::optional<std::int64_t> tail = checked_add(r.dilated, p.end);
  if (!tail) return {0, 0, "input length + end"};
  const std::optional<std::int64_t> out_len = checked_add(p.begin, *tail);
  if (!out_len) return {0, 0, "begin + input length + end"};
  r.out_len = *out_len;
  return r;
}

/// Length of `in_len` elements once `interior` elements are inserted between neighbours, for an
/// axis whose padded_length fits (the planner has checked it).
constexpr std::int64_t dilated_length(std::int64_t in_len, std::int64_t interior) noexcept {
  // padded_length's dilated length without its checks, which planning has passed.
  return in_len > 0 ? (in_len - 1) * (interior + 1) + 1 : 0;
}

/// The axis of a strided tensor at which the distance from its lowest to its highest addressed
/// byte, sum of (length - 1) * |stride| + item_bytes, stops fitting in int64; nullopt where it
/// fits (an empty tensor addresses nothing). Every offset of an element then fits too.
constexpr std::optional<std::size_t> strided_extent_overflow(
    std::span<const std::int64_t> shape, std::span<const std::int64_t> byte_strides,
    std::int64_t item_bytes) noexcept {
  for (const std::int64_t len : shape) {
    if (len == 0) return std::nullopt;
  }
  std::int64_t extent = item_bytes;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::optional<std::int64_t> reach = checked_mul(shape[k] - 1, byte_strides[k]);
    const std::optional<std::int64_t> sum = reach && *reach != INT64_MIN
                                                ? checked_add(extent, *reach < 0 ? -*reach : *reach)
                                                : std::nullopt;
    if (!sum) return k;
    extent = *sum;
  }
  return std::nullopt;
}

}  // namespace padnd::detail
