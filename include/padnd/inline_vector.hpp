// SPDX-License-Identifier: Apache-2.0
// A vector that keeps its first few elements inside the object: a plan of a common rank holds
// its shapes, axes, border tables and row program without allocating.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// A vector of trivially copyable T whose elements live in an inline array while there are at
/// most N of them, and all in a std::vector once there are more. The array is left
/// uninitialised until elements are put there, and copies move only the elements, so an empty
/// or short vector costs a few words to make, copy or destroy. (absl::InlinedVector and
/// boost::container::small_vector do this for any T; padnd's public headers depend on the
/// standard library alone.)
template <class T, std::size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() noexcept {}  // NOLINT(modernize-use-equals-default): inline_ stays unmade
  InlineVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  /// `n` value-initialised elements.
  explicit InlineVector(std::size_t n) { resize(n); }
  template <class It>
  requires(!std::is_integral_v<It>) InlineVector(It first, It last) { assign(first, last); }
  InlineVector(const InlineVector& other) : size_(other.size_), heap_(other.heap_) {
    if (!spilled()) std::memcpy(inline_, other.inline_, size_ * sizeof(T));
  }
  InlineVector(InlineVector&& other) noexcept : size_(other.size_), heap_(std::move(other.heap_)) {
    if (!spilled()) std::memcpy(inline_, other.inline_, size_ * sizeof(T));
    other.size_ = 0;
    other.heap_.clear();
  }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) {
      heap_ = other.heap_;  // first: if it throws, this vector is unchanged
      size_ = other.size_;
      if (!spilled()) std::memcpy(inline_, other.inline_, size_ * sizeof(T));
    }
    return *this;
  }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) {
      size_ = other.size_;
      heap_ = std::move(other.heap_);
      if (!spilled()) std::memcpy(inline_, other.inline_, size_ * sizeof(T));
      other.size_ = 0;
      other.heap_.clear();
    }
    return *this;
  }
  ~InlineVector() = default;

  /// [first, last) must not point into this vector.
  template <class It>
  void assign(It first, It last) {
    clear();
    if constexpr (std::contiguous_iterator<It>) {  // one block while it fits inline
      const auto count = static_cast<std::size_t>(last - first);
      if (count <= N) {
        if (count > 0) std::memcpy(inline_, std::to_address(first), count * sizeof(T));
        size_ = count;  // an empty range's address may be null: memcpy must not see it
        return;
      }
    }
    for (; first != last; ++first) push_back(*first);
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] T* data() noexcept { return spilled() ? heap_.data() : inline_; }
  [[nodiscard]] const T* data() const noexcept { return spilled() ? heap_.data() : inline_; }
  [[nodiscard]] T* begin() noexcept { return data(); }
  [[nodiscard]] T* end() noexcept { return data() + size_; }
  [[nodiscard]] const T* begin() const noexcept { return data(); }
  [[nodiscard]] const T* end() const noexcept { return data() + size_; }
  [[nodiscard]] T& operator[](std::size_t i) noexcept { return data()[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  [[nodiscard]] T& back() noexcept { return data()[size_ - 1]; }
  [[nodiscard]] const T& back() const noexcept { return data()[size_ - 1]; }

  void push_back(const T& item) {
    if (size_ < N) {
      new (inline_ + size_) T(item);
    } else {
      if (size_ == N) heap_.assign(inline_, inline_ + N);
      heap_.push_back(item);
    }
    ++size_;
  }
  void pop_back() { resize(size_ - 1); }
  void clear() noexcept {
    size_ = 0;
    heap_.clear();
  }
  /// New elements are value-initialised.
  void resize(std::size_t n) {
    if (n > N) {
      if (!spilled()) heap_.assign(inline_, inline_ + size_);
      heap_.resize(n);
    } else {
      if (spilled()) {
        std::memcpy(inline_, heap_.data(), n * sizeof(T));
        heap_.clear();
      } else if (n > size_) {
        value_initialise(inline_ + size_, n - size_);
      }
    }
    size_ = n;
  }

  /// Bytes held on the heap (0 while the elements fit inline).
  [[nodiscard]] std::size_t heap_bytes() const noexcept { return heap_.capacity() * sizeof(T); }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  [[nodiscard]] bool spilled() const noexcept { return size_ > N; }
  /// Makes `count` value-initialised elements at `at` as copies of one. Value-initialising a
  /// large T in place compiles to a string instruction (rep stos) that zeroes it first: slow to
  /// start, and the fields written after it cannot be read back from the store buffer.
  static void value_initialise(T* at, std::size_t count) noexcept {
    static const T value{};
    const T* from = &value;
#if defined(__GNUC__)
    asm("" : "+r"(from));  // the compiler copies the object instead of rebuilding its value
#endif
    for (std::size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<void*>(at + i), from, sizeof(T));
  }

  std::size_t size_ = 0;
  // A union member is not constructed: elements are made as they are put there (placement new;
  // memcpy for copies, which makes trivially copyable objects).
  union {
    T inline_[N];
  };
  std::vector<T> heap_;  ///< every element, once there are more than N
};

}  // namespace padnd
PADND_PUBLIC_END
