// SPDX-License-Identifier: Apache-2.0
// Element types: every ONNX Pad-25 type, numpy's datetime64, timedelta64, longdouble and
// clongdouble (for its value modes), and opaque fixed-size elements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// Element types. Padding moves bits, so kernels only care about `storage()` and widths.
enum class DType : std::uint8_t {
  boolean, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
  float16, bfloat16, float32, float64, complex64, complex128,
  string,  ///< variable-length; elements are `std::string` objects
  float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float8e8m0,
  int4, uint4, float4e2m1,  ///< packed two per byte, low nibble first
  int2, uint2,              ///< packed four per byte, lowest bits first
  datetime64,               ///< numpy 'M8' (any unit): int64 ticks, INT64_MIN = NaT
  timedelta64,              ///< numpy 'm8' (any unit): int64 ticks, INT64_MIN = NaT
  longdouble,               ///< numpy 'g': C++ long double (x86-64: x87 80-bit in 16 bytes)
  clongdouble,              ///< numpy 'G': two long doubles
  opaque,                   ///< any fixed number of bytes (numpy 'S', 'U', 'V' ...)
};

/// How elements are laid out in memory.
enum class Storage : std::uint8_t {
  bytes,   ///< each element is `item_bytes` contiguous bytes
  nibble,  ///< 4-bit codes, two per byte
  crumb,   ///< 2-bit codes, four per byte
  string,  ///< `std::string` objects
};

/// An element type: a DType, and for `opaque` its size in bytes.
struct ElementType {
  DType dtype = DType::float32;
  std::int64_t opaque_bytes = 0;  ///< only for DType::opaque

  ElementType() = default;
  constexpr ElementType(DType d) : dtype(d) {}  // NOLINT(google-explicit-constructor)
  static ElementType opaque(std::int64_t bytes) {
    ElementType t(DType::opaque);
    t.opaque_bytes = bytes;
    return t;
  }

  /// Inline: the planner and the executor ask on every call.
  [[nodiscard]] constexpr Storage storage() const noexcept {
    switch (dtype) {
      case DType::string:
        return Storage::string;
      case DType::int4:
      case DType::uint4:
      case DType::float4e2m1:
        return Storage::nibble;
      case DType::int2:
      case DType::uint2:
        return Storage::crumb;
      default:
        return Storage::bytes;
    }
  }
  /// Bytes per element for `bytes` and `string` storage; 0 for packed types.
  [[nodiscard]] std::int64_t item_bytes() const noexcept;
  /// Bits per element for packed types (4 or 2); 8 * item_bytes otherwise.
  [[nodiscard]] int bits() const noexcept;
  [[nodiscard]] bool packed() const noexcept {
    return storage() == Storage::nibble || storage() == Storage::crumb;
  }
  /// ONNX-style name ("float32", "bfloat16", "int4", "opaque12" ...).
  [[nodiscard]] std::string name() const;

  friend bool operator==(const ElementType&, const ElementType&) = default;
};

/// Parses a name produced by ElementType::name() (also accepts "float", "double", "bool").
std::optional<ElementType> parse_element_type(std::string_view name);

/// numpy's dtype kind letter of `type`: 'b', 'i', 'u', 'f', 'c', 'M' (datetime64), 'm'
/// (timedelta64); '\0' for the types numpy does not have (bfloat16, float8, packed, string,
/// opaque). This table is the one map between numpy's dtypes and padnd's types, for the core,
/// the CLI and Python.
char numpy_kind(const ElementType& type) noexcept;

/// The padnd type of numpy's dtype of `kind` and `itemsize` (either byte order; datetime64 and
/// timedelta64 in any unit), or nullopt where there is none ('S', 'U', 'V', 'O', other sizes).
/// Where two types share a kind and a size (a long double as wide as a double), the first in
/// DType order (float64).
std::optional<ElementType> from_numpy(char kind, std::int64_t itemsize) noexcept;

/// numpy's own types that no framework spec has: datetime64, timedelta64, longdouble and
/// clongdouble (their index modes move them as opaque bytes there).
bool numpy_only(const ElementType& type) noexcept;

/// Whether `type` holds integers (signed or unsigned, including the packed 4-/2-bit ones).
bool is_integer(const ElementType& type) noexcept;

/// Bytes needed to store `count` elements densely (packed types round up).
std::int64_t storage_bytes(const ElementType& type, std::int64_t count);

}  // namespace padnd
PADND_PUBLIC_END
