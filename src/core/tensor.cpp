// SPDX-License-Identifier: Apache-2.0
// Owning dense tensors.
#include "padnd/tensor.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

#include "core/checked.hpp"
#include "core/message_text.hpp"
#include "padnd/error.hpp"

namespace padnd {
namespace {

/// Buffers from this size on get huge pages: page faults, not copying, bound a fresh output.
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kHugeFromBytes = std::size_t{4} << 20;

/// Uninitialised storage (released with std::free); never null, even for 0 bytes. Throws
/// std::bad_alloc.
std::byte* allocate_bytes(std::int64_t bytes) {
  auto n = static_cast<std::size_t>(bytes);
  void* p = nullptr;
  if (n >= kHugeFromBytes) {
    n = (n + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;  // aligned_alloc wants this
    p = std::aligned_alloc(kHugePageBytes, n);
#ifdef MADV_HUGEPAGE
    if (p != nullptr) madvise(p, n, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
  } else {
    p = std::malloc(std::max<std::size_t>(n, 1));
  }
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}

}  // namespace

std::int64_t element_count(std::span<const std::int64_t> shape) {
  return detail::element_count_of(shape, "shape");
}

std::int64_t detail::element_count_of(std::span<const std::int64_t> shape,
                                      std::string_view argument) {
  // numpy's rule: the lengths other than 0 must multiply within int64 even when one is 0, so
  // that the answer does not depend on the order of the axes.
  std::int64_t product = 1;
  bool empty = false;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] < 0) {
      throw Error(Errc::invalid_argument, std::string(argument) + ": axis " + std::to_string(axis) +
                                              " has negative length " +
                                              std::to_string(shape[axis]));
    }
    if (shape[axis] == 0) {
      empty = true;
      continue;
    }
    const std::optional<std::int64_t> next = detail::checked_mul(product, shape[axis]);
    if (!next) {
      throw Error(Errc::overflow,
                  std::string(argument) + ": element count overflows int64 at axis " +
                      std::to_string(axis) + " (length " + std::to_string(shape[axis]) + ")");
    }
    product = *next;
  }
  return empty ? 0 : product;
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
  bytes_ = storage_bytes(type_, count_);  // strings: count * sizeof(std::string)
  try {
    if (type_.storage() == Storage::string) {
      strings_.resize(static_cast<std::size_t>(count_));
      return;
    }
    bytes_storage_.reset(allocate_bytes(bytes_));
  } catch (const std::bad_alloc&) {
    throw Error(Errc::out_of_memory, "cannot allocate " + std::to_string(bytes_) + " bytes for a " +
                                         type_.name() + " tensor of shape " +
                                         detail::list_text(shape_));
  }
  if (zero_fill) std::memset(bytes_storage_.get(), 0, static_cast<std::size_t>(bytes_));
}

void Tensor::FreeBytes::operator()(std::byte* p) const noexcept { std::free(p); }

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
