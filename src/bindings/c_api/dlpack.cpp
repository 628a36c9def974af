// SPDX-License-Identifier: Apache-2.0
// DLPack tensors through the C ABI: a DLTensor's fields as a padnd_tensor.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "bindings/c_api/c_api_internal.hpp"
#include "core/checked.hpp"
#include "padnd/element_type.hpp"
#include "padnd/error.hpp"

namespace padnd::c_api {
namespace {

// DLPack's own layout (dlpack.h, v0.6 and later; the ABI DLPack promises to keep), declared
// here so that padnd.h does not depend on dlpack.h.
struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};

// dlpack.h's layout on LP64 (libdlpack-dev 0.6: sizeof(DLTensor) 48, byte_offset at 40).
static_assert(sizeof(void*) != 8 ||
              (sizeof(DLDataType) == 4 && sizeof(DLDevice) == 8 && sizeof(DLTensor) == 48 &&
               offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
               offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
               offsetof(DLTensor, byte_offset) == 40));

enum : std::int32_t { kDLCPU = 1, kDLCUDAHost = 3, kDLCUDAManaged = 13, kDLROCMHost = 11 };
enum : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6
};

/// padnd's type of DLPack's (code, bits), or nullopt.
std::optional<DType> dtype_of(const DLDataType& t) {
  if (t.lanes != 1) return std::nullopt;
  const auto width = [&](std::initializer_list<std::pair<int, DType>> types) {
    for (const auto& [bits, dtype] : types) {
      if (bits == t.bits) return std::optional(dtype);
    }
    return std::optional<DType>();
  };
  switch (t.code) {
    case kDLInt:
      return width({{8, DType::int8}, {16, DType::int16}, {32, DType::int32}, {64, DType::int64}});
    case kDLUInt:
      return width(
          {{8, DType::uint8}, {16, DType::uint16}, {32, DType::uint32}, {64, DType::uint64}});
    case kDLFloat:
      return width({{16, DType::float16}, {32, DType::float32}, {64, DType::float64}});
    case kDLBfloat:
      return width({{16, DType::bfloat16}});
    case kDLComplex:
      return width({{64, DType::complex64}, {128, DType::complex128}});
    case kDLBool:
      return width({{8, DType::boolean}});
    default:
      return std::nullopt;
  }
}

/// DLPack's stride in elements as bytes.
std::int64_t byte_stride(std::int64_t elements, std::int64_t item, std::int32_t axis) {
  const std::optional<std::int64_t> bytes = detail::checked_mul(elements, item);
  if (!bytes) {
    throw Error(Errc::overflow, "dltensor.strides: axis " + std::to_string(axis) + ": stride " +
                                    std::to_string(elements) + " of " + std::to_string(item) +
                                    "-byte elements overflows int64 bytes");
  }
  return *bytes;
}

void check_device(const DLDevice& d) {
  const std::int32_t t = d.device_type;
  if (t == kDLCPU || t == kDLCUDAHost || t == kDLCUDAManaged || t == kDLROCMHost) return;
  throw Error(Errc::unsupported_type,
              "dltensor: the tensor lives on device type " + std::to_string(t) + " (device " +
                  std::to_string(d.device_id) +
                  "), not in host memory; padnd pads tensors the CPU can read");
}

/// The address of the tensor's first element: data advanced by byte_offset (null stays null).
const void* first_element(const DLTensor& t) {
  if (t.data == nullptr) return nullptr;
  const std::optional<const char*> first = detail::checked_offset(t.data, t.byte_offset);
  if (!first) {
    throw Error(Errc::overflow, "dltensor.byte_offset: " + std::to_string(t.byte_offset) +
                                    " bytes past data " +
                                    std::to_string(reinterpret_cast<std::uintptr_t>(t.data)) +
                                    " is no address (past the address space or int64)");
  }
  return *first;
}

}  // namespace

void tensor_from_dlpack(const void* dltensor, padnd_tensor* out, std::int64_t* byte_strides,
                        std::int32_t capacity) {
  require(dltensor, "dltensor");
  require(out, "tensor_out");
  const auto& t = *static_cast<const DLTensor*>(dltensor);
  check_device(t.device);
  const std::optional<DType> dtype = dtype_of(t.dtype);
  if (!dtype) {
    throw Error(Errc::unsupported_type, "dltensor: dtype (code " + std::to_string(t.dtype.code) +
                                            ", bits " + std::to_string(t.dtype.bits) + ", lanes " +
                                            std::to_string(t.dtype.lanes) +
                                            ") has no padnd element type");
  }
  if (t.ndim < 0)
    throw Error(Errc::invalid_argument, "dltensor: negative ndim " + std::to_string(t.ndim));
  if (t.ndim > 0) require(t.shape, "dltensor.shape");
  const std::int64_t item = ElementType(*dtype).item_bytes();
  const void* data = first_element(t);
  if (t.strides != nullptr) {
    if (capacity < t.ndim) {
      throw Error(Errc::shape_mismatch, "byte_strides_out: room for " + std::to_string(capacity) +
                                            " strides, the tensor has " + std::to_string(t.ndim));
    }
    if (t.ndim > 0) require(byte_strides, "byte_strides_out");
    for (std::int32_t k = 0; k < t.ndim; ++k) (void)byte_stride(t.strides[k], item, k);
    for (std::int32_t k = 0; k < t.ndim; ++k) {  // all checked: nothing is written on failure
      byte_strides[k] = byte_stride(t.strides[k], item, k);
    }
  }
  out->data = data;
  out->type = padnd_type{static_cast<std::int32_t>(*dtype), 0};
  out->rank = t.ndim;
  out->shape = t.shape;
  out->byte_strides = t.strides != nullptr ? byte_strides : nullptr;
}

}  // namespace padnd::c_api
