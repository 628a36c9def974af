// SPDX-License-Identifier: Apache-2.0
// Owning dense tensors.
#include "padnd/tensor.hpp"

#include <string>

#include "padnd/error.hpp"

namespace padnd {

std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t count = 1;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] < 0) {
      throw Error(Errc::invalid_argument, "shape: axis " + std::to_string(axis) +
                                              " has negative length " +
                                              std::to_string(shape[axis]));
    }
    if (__builtin_mul_overflow(count, shape[axis], &count)) {
      throw Error(Errc::overflow, "shape: element count overflows int64 at axis " +
                                      std::to_string(axis));
    }
  }
  return count;
}

Tensor::Tensor(ElementType type, std::vector<std::int64_t> shape)
    : Tensor(type, std::move(shape), true) {}

Tensor Tensor::uninitialized(ElementType type, std::vector<std::int64_t> shape) {
  return Tensor(type, std::move(shape), false);
}

Tensor::Tensor(ElementType type, std::vector<std::int64_t> shape, bool zero_fill)
    : type_(type), shape_(std::move(shape)) {
  if (type_.dtype == DType::opaque && type_.opaque_bytes <= 0) {
    throw Error(Errc::unsupported_type,
                "opaque element size must be positive, got " + std::to_string(type_.opaque_bytes));
  }
  count_ = element_count(shape_);
  if (type_.storage() == Storage::string) {
    strings_.resize(static_cast<std::size_t>(count_));
    bytes_ = count_ * static_cast<std::int64_t>(sizeof(std::string));
    return;
  }
  bytes_ = storage_bytes(type_, count_);
  const auto n = static_cast<std::size_t>(bytes_);
  bytes_storage_ = zero_fill ? std::make_unique<std::byte[]>(n)
                             : std::make_unique_for_overwrite<std::byte[]>(n);
}

void* Tensor::data() noexcept {
  if (type_.storage() == Storage::string) return strings_.data();
  return bytes_storage_.get();
}

const void* Tensor::data() const noexcept {
  if (type_.storage() == Storage::string) return strings_.data();
  return bytes_storage_.get();
}

TensorView Tensor::view() const { return TensorView{data(), type_, shape_, {}}; }

}  // namespace padnd
