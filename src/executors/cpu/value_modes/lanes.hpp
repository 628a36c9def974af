// SPDX-License-Identifier: Apache-2.0
// The 1-D lanes one axis pass works on: numpy's region of interest (_view_roi) cut into lines
// along the pass's axis. Axes before it span their whole padded length, later axes only their
// original elements (they are padded afterwards, from these).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "padnd/plan.hpp"
#include "plan/plan_access.hpp"

namespace padnd::detail {

class Lanes {
 public:
  Lanes(const Plan& plan, const AxisPass& pass) : axis_(pass.axis) {
    const std::span<const std::int64_t> out = plan.output_shape();
    const std::span<const std::int64_t> in = PlanAccess::pass_lengths(plan);
    const std::int64_t item = plan.type().item_bytes();
    std::vector<std::int64_t> stride(out.size());
    std::int64_t s = item;
    for (std::size_t k = out.size(); k-- > 0;) {
      stride[k] = s;
      s *= out[k];
    }
    stride_bytes_ = stride[axis_];
    length_ = out[axis_];
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (k == axis_) continue;
      const bool padded_already = k < axis_;
      const std::int64_t first = padded_already ? 0 : detail::program(plan).pad_begins()[k];
      dims_.push_back({padded_already ? out[k] : in[k], stride[k]});
      base_bytes_ += first * stride[k];
      count_ *= dims_.back().len;
    }
  }

  [[nodiscard]] std::int64_t count() const { return count_; }
  [[nodiscard]] std::int64_t length() const { return length_; }
  [[nodiscard]] std::int64_t stride_bytes() const { return stride_bytes_; }
  /// First byte of lane `index` (0 <= index < count()) in the dense output `out`.
  [[nodiscard]] std::byte* lane(std::byte* out, std::int64_t index) const {
    std::int64_t offset = base_bytes_;
    for (std::size_t d = dims_.size(); d-- > 0;) {
      offset += (index % dims_[d].len) * dims_[d].stride_bytes;
      index /= dims_[d].len;
    }
    return out + offset;
  }

  /// Most lanes in one group: a group's working arrays stay small, and its stretch of a row
  /// (1 to 32 KiB) is still long enough for the prefetchers.
  static constexpr std::int64_t kMaxGroupLanes = 1024;
  /// Lanes per group of for_each_group (the last group of a run may have fewer): neighbours
  /// along the innermost lane dimension where they lie closer together than the elements of one
  /// lane (a pass over an outer axis), else 1.
  [[nodiscard]] std::int64_t group_size() const {
    if (dims_.empty() || dims_.back().stride_bytes >= stride_bytes_) return 1;
    return std::min(dims_.back().len, kMaxGroupLanes);
  }
  /// Visits the lanes in groups of at most group_size(): fn(first lane's first byte, bytes from
  /// one lane to the next, lanes in the group). A group of neighbours reads and writes each of
  /// its positions as one stretch of a row (numpy's own reductions over an outer axis go row by
  /// row), where lane after lane would touch a cache line per element.
  template <class Fn>
  void for_each_group(std::byte* out, const Fn& fn) const {
    const std::int64_t group = group_size();
    const std::int64_t inner = dims_.empty() ? 1 : dims_.back().len;
    const std::int64_t inner_stride = dims_.empty() ? 0 : dims_.back().stride_bytes;
    for (std::int64_t l = 0; l < count_; l += inner) {  // each run of the innermost dimension
      std::byte* first = lane(out, l);
      for (std::int64_t j = 0; j < inner; j += group) {
        fn(first + j * inner_stride, inner_stride, std::min(group, inner - j));
      }
    }
  }

 private:
  struct Dim {
    std::int64_t len;
    std::int64_t stride_bytes;
  };
  std::size_t axis_;
  std::vector<Dim> dims_;
  std::int64_t base_bytes_ = 0;
  std::int64_t count_ = 1;
  std::int64_t length_ = 0;
  std::int64_t stride_bytes_ = 0;
};

/// Typed access to one lane (memcpy: the output may hold elements at any alignment).
template <class T>
struct Lane {
  std::byte* base;
  std::int64_t stride_bytes;
  [[nodiscard]] T get(std::int64_t i) const {
    T v;
    std::memcpy(&v, base + i * stride_bytes, sizeof(T));
    return v;
  }
  void set(std::int64_t i, T v) const { std::memcpy(base + i * stride_bytes, &v, sizeof(T)); }
  /// dst[k] = get(i + k) for k < n: one copy where the lane is contiguous.
  void get_run(std::int64_t i, std::int64_t n, T* dst) const {
    if (stride_bytes == static_cast<std::int64_t>(sizeof(T))) {
      std::memcpy(dst, base + i * stride_bytes, static_cast<std::size_t>(n) * sizeof(T));
      return;
    }
    for (std::int64_t k = 0; k < n; ++k) dst[k] = get(i + k);
  }
};

/// numpy stores bool as one byte, 0 or 1.
template <>
struct Lane<bool> {
  std::byte* base;
  std::int64_t stride_bytes;
  [[nodiscard]] bool get(std::int64_t i) const { return base[i * stride_bytes] != std::byte{0}; }
  void set(std::int64_t i, bool v) const {
    base[i * stride_bytes] = std::byte{static_cast<unsigned char>(v)};
  }
  void get_run(std::int64_t i, std::int64_t n, bool* dst) const {
    for (std::int64_t k = 0; k < n; ++k) dst[k] = get(i + k);
  }
};

}  // namespace padnd::detail
