// SPDX-License-Identifier: Apache-2.0
// Test helpers for the adapter and spec-example tests: typed tensors from literals, decoding,
// and error assertions. Deliberately independent of the library's kernels and conversions.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "padnd/adapters/inputs.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "padnd/tensor.hpp"

namespace padnd::test {

/// IEEE binary16 bits -> double (exact).
inline double half_to_double(std::uint16_t h) {
  const int sign = (h & 0x8000) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  if (exponent == 0x1F) return mantissa == 0 ? sign * INFINITY : NAN;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

/// The float16 code of a value that float16 represents exactly (brute force: independent of the
/// library's rounding). Fails the test if `v` is not representable.
inline std::uint16_t exact_half(double v) {
  for (std::uint32_t code = 0; code < 0x10000; ++code) {
    const auto h = static_cast<std::uint16_t>(code);
    if (half_to_double(h) == v && std::signbit(half_to_double(h)) == std::signbit(v)) return h;
  }
  ADD_FAILURE() << v << " is not exactly representable as float16";
  return 0;
}

/// Bytes of one element of a byte-storage numeric type holding `v`.
inline std::string element_bytes(const ElementType& type, double v) {
  std::string out;
  const auto put = [&out](const auto& x) {
    out.append(reinterpret_cast<const char*>(&x), sizeof(x));
  };
  switch (type.dtype) {
    case DType::boolean:
      put(static_cast<std::uint8_t>(v != 0));
      break;
    case DType::int8:
      put(static_cast<std::int8_t>(v));
      break;
    case DType::int16:
      put(static_cast<std::int16_t>(v));
      break;
    case DType::int32:
      put(static_cast<std::int32_t>(v));
      break;
    case DType::int64:
      put(static_cast<std::int64_t>(v));
      break;
    case DType::uint8:
      put(static_cast<std::uint8_t>(v));
      break;
    case DType::uint16:
      put(static_cast<std::uint16_t>(v));
      break;
    case DType::uint32:
      put(static_cast<std::uint32_t>(v));
      break;
    case DType::uint64:
      put(static_cast<std::uint64_t>(v));
      break;
    case DType::float16:
      put(exact_half(v));
      break;
    case DType::bfloat16: {  // exact values only: the top half of the float
      const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
      EXPECT_EQ(bits & 0xFFFFU, 0U) << v << " is not exactly representable as bfloat16";
      put(static_cast<std::uint16_t>(bits >> 16));
      break;
    }
    case DType::float32:
      put(static_cast<float>(v));
      break;
    case DType::float64:
      put(v);
      break;
    case DType::complex64:
      put(static_cast<float>(v));
      put(0.0F);
      break;
    case DType::complex128:
      put(v);
      put(0.0);
      break;
    default:
      ADD_FAILURE() << "element_bytes: no numeric encoding for " << type.name();
  }
  return out;
}

/// Element `i` of a byte-storage numeric tensor as double.
inline double element_value(const ElementType& type, const void* data, std::int64_t i) {
  const auto* p = static_cast<const unsigned char*>(data);
  const auto get = [&]<class T>(T) {
    T x;
    std::memcpy(&x, p + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    return x;
  };
  switch (type.dtype) {
    case DType::boolean:
      return get(std::uint8_t{});
    case DType::int8:
      return get(std::int8_t{});
    case DType::int16:
      return get(std::int16_t{});
    case DType::int32:
      return get(std::int32_t{});
    case DType::int64:
      return static_cast<double>(get(std::int64_t{}));
    case DType::uint8:
      return get(std::uint8_t{});
    case DType::uint16:
      return get(std::uint16_t{});
    case DType::uint32:
      return get(std::uint32_t{});
    case DType::uint64:
      return static_cast<double>(get(std::uint64_t{}));
    case DType::float16:
      return half_to_double(get(std::uint16_t{}));
    case DType::bfloat16:
      return std::bit_cast<float>(static_cast<std::uint32_t>(get(std::uint16_t{})) << 16);
    case DType::float32:
      return get(float{});
    case DType::float64:
      return get(double{});
    default:
      ADD_FAILURE() << "element_value: no numeric decoding for " << type.name();
      return 0;
  }
}

/// A dense numeric tensor from literal values.
inline Tensor numeric_tensor(const ElementType& type, std::vector<std::int64_t> shape,
                             const std::vector<double>& values) {
  Tensor t(type, std::move(shape));
  EXPECT_EQ(t.size(), static_cast<std::int64_t>(values.size())) << "literal size vs shape";
  auto* out = static_cast<char*>(t.data());
  for (std::size_t i = 0; i < values.size() && static_cast<std::int64_t>(i) < t.size(); ++i) {
    const std::string b = element_bytes(type, values[i]);
    std::memcpy(out + i * b.size(), b.data(), b.size());
  }
  return t;
}

/// A dense tensor from its raw storage bytes (packed types, float8 ...).
inline Tensor bytes_tensor(const ElementType& type, std::vector<std::int64_t> shape,
                           const std::vector<std::uint8_t>& bytes) {
  Tensor t(type, std::move(shape));
  EXPECT_EQ(t.byte_size(), static_cast<std::int64_t>(bytes.size())) << "literal bytes vs shape";
  if (t.byte_size() == static_cast<std::int64_t>(bytes.size()) && !bytes.empty()) {
    std::memcpy(t.data(), bytes.data(), bytes.size());
  }
  return t;
}

/// A string tensor.
inline Tensor string_tensor(std::vector<std::int64_t> shape,
                            const std::vector<std::string>& values) {
  Tensor t(DType::string, std::move(shape));
  EXPECT_EQ(t.size(), static_cast<std::int64_t>(values.size())) << "literal size vs shape";
  auto* out = static_cast<std::string*>(t.data());
  for (std::size_t i = 0; i < values.size() && static_cast<std::int64_t>(i) < t.size(); ++i) {
    out[i] = values[i];
  }
  return t;
}

inline std::vector<double> numeric_values(const Tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.size()));
  for (std::int64_t i = 0; i < t.size(); ++i) {
    v[static_cast<std::size_t>(i)] = element_value(t.type(), t.data(), i);
  }
  return v;
}

inline std::vector<std::uint8_t> raw_bytes(const Tensor& t) {
  const auto* p = static_cast<const std::uint8_t*>(t.data());
  return std::vector<std::uint8_t>(p, p + t.byte_size());
}

inline std::vector<std::string> string_values(const Tensor& t) {
  const auto* p = static_cast<const std::string*>(t.data());
  return std::vector<std::string>(p, p + t.size());
}

/// A rank-0 value input of a numeric type.
inline ValueTensor scalar_value(const ElementType& type, double v) {
  return ValueTensor::scalar(type, element_bytes(type, v));
}

/// Runs `f`, expecting a padnd::Error with `code` whose message contains every part.
template <class F>
std::string expect_error(F&& f, Errc code, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(code)) << "message: " << message;
    for (const std::string& part : parts) {
      EXPECT_NE(message.find(part), std::string::npos)
          << "expected '" << part << "' in: " << message;
    }
    return message;
  }
  ADD_FAILURE() << "expected a padnd::Error, none was thrown";
  return {};
}

}  // namespace padnd::test
