// SPDX-License-Identifier: Apache-2.0
// Tensor views (borrowed, any byte strides) and owning dense tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// A borrowed input. `data` points at element [0, ..., 0]; `byte_strides` may be negative or
/// zero and is empty for a C-contiguous tensor. Packed 4-/2-bit types must be dense (no strides):
/// their elements are packed over the row-major flattened tensor. String tensors hold
/// `std::string` objects (strides are then multiples of sizeof(std::string)).
struct TensorView {
  const void* data = nullptr;
  ElementType type;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> byte_strides;
};

/// Number of elements of `shape`. Throws Errc::overflow where the product of its non-zero
/// lengths does not fit in int64, even if a length is 0 (as numpy does).
std::int64_t element_count(std::span<const std::int64_t> shape);

/// A dense row-major tensor that owns its storage (bytes, or std::string objects).
class Tensor {
 public:
  Tensor() = default;
  Tensor(ElementType type, std::vector<std::int64_t> shape);  ///< zero-filled / empty strings
  /// Same, but byte storage is left uninitialised (for outputs that are about to be written):
  /// large buffers are 2 MiB-aligned and advised to use transparent huge pages, and no page is
  /// touched until execution writes it (on its own threads, so page faults are taken in parallel).
  static Tensor uninitialized(ElementType type, std::vector<std::int64_t> shape);

  [[nodiscard]] const ElementType& type() const noexcept { return type_; }
  [[nodiscard]] const std::vector<std::int64_t>& shape() const noexcept { return shape_; }
  [[nodiscard]] std::int64_t size() const noexcept { return count_; }  ///< elements
  [[nodiscard]] std::int64_t byte_size() const noexcept { return bytes_; }
  [[nodiscard]] void* data() noexcept;
  [[nodiscard]] const void* data() const noexcept;
  [[nodiscard]] TensorView view() const;

 private:
  Tensor(ElementType type, std::vector<std::int64_t> shape, bool zero_fill);

  ElementType type_;
  std::vector<std::int64_t> shape_;
  std::int64_t count_ = 0;
  std::int64_t bytes_ = 0;
  struct FreeBytes {
    void operator()(std::byte* p) const noexcept;
  };
  std::unique_ptr<std::byte, FreeBytes> bytes_storage_;
  std::vector<std::string> strings_;
};

}  // namespace padnd
PADND_PUBLIC_END
