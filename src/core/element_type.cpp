// SPDX-License-Identifier: Apache-2.0
// Element type properties and names.
#include "padnd/element_type.hpp"

#include <array>
#include <charconv>
#include <string>

#include "core/checked.hpp"
#include "padnd/error.hpp"

namespace padnd {
namespace {

/// One element type. `numpy_kind` is numpy's dtype kind letter where numpy has the type ('\0'
/// where it has not); `numpy_only` marks numpy's types that no framework spec has.
struct TypeInfo {
  DType dtype;
  std::string_view name;
  int bits;
  char numpy_kind = '\0';
  bool numpy_only = false;
};

constexpr int kLongDoubleBits = 8 * static_cast<int>(sizeof(long double));

constexpr std::array<TypeInfo, 30> kTypes{{
    {DType::boolean, "bool", 8, 'b'},
    {DType::int8, "int8", 8, 'i'},
    {DType::int16, "int16", 16, 'i'},
    {DType::int32, "int32", 32, 'i'},
    {DType::int64, "int64", 64, 'i'},
    {DType::uint8, "uint8", 8, 'u'},
    {DType::uint16, "uint16", 16, 'u'},
    {DType::uint32, "uint32", 32, 'u'},
    {DType::uint64, "uint64", 64, 'u'},
    {DType::float16, "float16", 16, 'f'},
    {DType::bfloat16, "bfloat16", 16},
    {DType::float32, "float32", 32, 'f'},
    {DType::float64, "float64", 64, 'f'},
    {DType::complex64, "complex64", 64, 'c'},
    {DType::complex128, "complex128", 128, 'c'},
    {DType::string, "string", 8 * static_cast<int>(sizeof(std::string))},
    {DType::float8e4m3fn, "float8e4m3fn", 8},
    {DType::float8e4m3fnuz, "float8e4m3fnuz", 8},
    {DType::float8e5m2, "float8e5m2", 8},
    {DType::float8e5m2fnuz, "float8e5m2fnuz", 8},
    {DType::float8e8m0, "float8e8m0", 8},
    {DType::int4, "int4", 4},
    {DType::uint4, "uint4", 4},
    {DType::float4e2m1, "float4e2m1", 4},
    {DType::int2, "int2", 2},
    {DType::uint2, "uint2", 2},
    {DType::datetime64, "datetime64", 64, 'M', true},
    {DType::timedelta64, "timedelta64", 64, 'm', true},
    {DType::longdouble, "longdouble", kLongDoubleBits, 'f', true},
    {DType::clongdouble, "clongdouble", 2 * kLongDoubleBits, 'c', true},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kTypes.size(); ++i) {
    if (static_cast<std::size_t>(kTypes[i].dtype) != i) return false;
  }
  return static_cast<std::size_t>(DType::opaque) == kTypes.size();
}
static_assert(in_enum_order(), "kTypes is indexed by DType");

/// A lookup, not a search: storage() and item_bytes() run on every plan and execute.
const TypeInfo* find(DType d) {
  const auto i = static_cast<std::size_t>(d);
  return i < kTypes.size() ? &kTypes[i] : nullptr;  // DType::opaque
}

}  // namespace

std::int64_t ElementType::item_bytes() const noexcept {
  const TypeInfo* t = find(dtype);
  if (!t) return opaque_bytes;
  return t->bits >= 8 ? t->bits / 8 : 0;
}

int ElementType::bits() const noexcept {
  const TypeInfo* t = find(dtype);
  return t ? t->bits : static_cast<int>(8 * opaque_bytes);
}

std::string ElementType::name() const {
  const TypeInfo* t = find(dtype);
  return t ? std::string(t->name) : "opaque" + std::to_string(opaque_bytes);
}

std::optional<ElementType> parse_element_type(std::string_view name) {
  if (name == "float") return ElementType(DType::float32);
  if (name == "double") return ElementType(DType::float64);
  if (name == "boolean") return ElementType(DType::boolean);
  for (const auto& t : kTypes) {
    if (t.name == name) return ElementType(t.dtype);
  }
  constexpr std::string_view kOpaque = "opaque";
  if (name.starts_with(kOpaque)) {
    std::int64_t bytes = 0;
    const char* first = name.data() + kOpaque.size();
    const char* last = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(first, last, bytes);
    if (ec == std::errc() && ptr == last && first != last && bytes > 0) {
      return ElementType::opaque(bytes);
    }
  }
  return std::nullopt;
}

char numpy_kind(const ElementType& type) noexcept {
  const TypeInfo* t = find(type.dtype);
  return t ? t->numpy_kind : '\0';
}

bool numpy_only(const ElementType& type) noexcept {
  const TypeInfo* t = find(type.dtype);
  return t != nullptr && t->numpy_only;
}

std::optional<ElementType> from_numpy(char kind, std::int64_t itemsize) noexcept {
  for (const auto& t : kTypes) {  // the first match: float64 before a double-sized longdouble
    // Compared in bytes: a header's item size may be any int64, and 8 times it may overflow.
    if (t.numpy_kind != '\0' && t.numpy_kind == kind && t.bits / 8 == itemsize) return t.dtype;
  }
  return std::nullopt;
}

bool is_integer(const ElementType& type) noexcept {
  switch (type.dtype) {
    case DType::int8:
    case DType::int16:
    case DType::int32:
    case DType::int64:
    case DType::uint8:
    case DType::uint16:
    case DType::uint32:
    case DType::uint64:
    case DType::int4:
    case DType::uint4:
    case DType::int2:
    case DType::uint2:
      return true;
    default:
      return false;
  }
}

std::int64_t storage_bytes(const ElementType& type, std::int64_t count) {
  switch (type.storage()) {
    case Storage::nibble:
      return count / 2 + count % 2;
    case Storage::crumb:
      return count / 4 + (count % 4 != 0 ? 1 : 0);
    case Storage::bytes:
    case Storage::string:
      break;
  }
  const std::optional<std::int64_t> bytes = detail::checked_mul(count, type.item_bytes());
  if (!bytes) {
    throw Error(Errc::overflow, "tensor of " + std::to_string(count) + " elements of " +
                                    type.name() + " does not fit in int64 bytes");
  }
  return *bytes;
}

}  // namespace padnd
