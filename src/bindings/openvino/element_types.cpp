// SPDX-License-Identifier: Apache-2.0
#include "bindings/openvino/element_types.hpp"

#include <openvino/core/except.hpp>

namespace padnd::openvino_extension {

ElementType padnd_type(const ov::element::Type& type, const char* argument) {
  using T = ov::element::Type_t;
  switch (type) {
    case T::boolean:
      return DType::boolean;
    case T::bf16:
      return DType::bfloat16;
    case T::f16:
      return DType::float16;
    case T::f32:
      return DType::float32;
    case T::f64:
      return DType::float64;
    case T::i4:
      return DType::int4;
    case T::i8:
      return DType::int8;
    case T::i16:
      return DType::int16;
    case T::i32:
      return DType::int32;
    case T::i64:
      return DType::int64;
    case T::u2:
      return DType::uint2;
    case T::u4:
      return DType::uint4;
    case T::nf4:
      return DType::uint4;  // 4-bit codes, two per byte: moved as codes
    case T::u8:
      return DType::uint8;
    case T::u16:
      return DType::uint16;
    case T::u32:
      return DType::uint32;
    case T::u64:
      return DType::uint64;
    case T::string:
      return DType::string;
    case T::f4e2m1:
      return DType::float4e2m1;
    case T::f8e4m3:
      return DType::float8e4m3fn;
    case T::f8e5m2:
      return DType::float8e5m2;
    case T::f8e8m0:
      return DType::float8e8m0;
    default:
      OPENVINO_THROW(argument, ": element type ", type.to_string(),
                     " is not padded by padnd (u1, u3 and u6 are packed in widths it has no "
                     "kernels for; a dynamic type has no storage)");
  }
}

}  // namespace padnd::openvino_extension
