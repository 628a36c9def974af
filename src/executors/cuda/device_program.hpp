// SPDX-License-Identifier: Apache-2.0
// What a CUDA kernel needs of a plan, flattened into one buffer (copied to the device once per
// plan, device and vector width), and the launch arguments that point into it. Built on the host
// from the plan's program; the kernel bodies (kernel_bodies.hpp) read nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/fast_divisor.hpp"
#include "core/host_device.hpp"
#include "padnd/plan.hpp"

namespace padnd::detail::cuda {

/// PlanAxis's fields (src/plan/program.hpp) with precomputed divisors, for axis_source and for
/// splitting flat indices into positions.
struct DeviceAxis {
  std::int64_t out_len = 1;
  std::int64_t head_len = 0;
  std::int64_t mid_len = 1;
  std::int64_t mid_src = 0;
  std::int64_t mid_step = 1;
  std::int64_t head_tabulated = 0;
  std::int64_t tail_tabulated = 0;
  std::int64_t borders_at = 0;
  std::int64_t period = 1;
  std::int64_t in_stride = 0;   ///< bytes (elements for packed types)
  std::int64_t out_stride = 0;  ///< bytes (elements for packed types)
  FastDivisor out_len_divisor;
  FastDivisor mid_step_divisor;
  FastDivisor period_divisor_;

  [[nodiscard]] PADND_HD const FastDivisor& mid_divisor() const { return mid_step_divisor; }
  [[nodiscard]] PADND_HD const FastDivisor& period_divisor() const { return period_divisor_; }
};
// No padding: flatten copies axes into the image, whose bytes key the device cache.
static_assert(std::has_unique_object_representations_v<DeviceAxis>);

/// The launch arguments of every kernel, passed by value. Pointers point into the flattened
/// image, on the device (or on the host, in simulation).
struct KernelArgs {
  const DeviceAxis* axes = nullptr;  ///< axis_count axes, outermost first
  const std::int64_t* borders = nullptr;
  /// The pad value's bytes from an element boundary, elem_bytes + 16 long (byte storage), or
  /// its code (packed).
  const unsigned char* fill = nullptr;
  int axis_count = 0;
  int packed_bits = 0;           ///< 4 or 2 for packed types, else 0
  std::int64_t view_offset = 0;  ///< input offset of the view's first element (bytes; elements)
  std::int64_t elem_bytes = 1;
  std::int64_t vector_bytes = 1;  ///< V: bytes each position of the innermost axis moves
  /// The pad value's first V bytes (every pad position's, unless fill_by_lane).
  std::uint64_t fill_words[2] = {0, 0};
  /// The innermost axis splits wide units into V-byte lanes and V is not a multiple of the
  /// element: a lane's pad bytes start (lane * V) mod elem_bytes into the pattern.
  bool fill_by_lane = false;
  FastDivisor elem_divisor;
  /// Output rows are contiguous and 16-byte aligned: full groups are one 16-byte store.
  bool vector_rows = false;
  std::int64_t groups_per_row = 1;  ///< ceil(innermost out_len / (16 / V))
  FastDivisor groups_divisor;
  std::int64_t items = 0;         ///< work items: groups (byte storage) or output bytes (packed)
  std::int64_t out_elements = 0;  ///< packed: elements in the output
};

/// A plan flattened for one vector width: the bytes to copy to the device, and where each table
/// lies in them.
struct DeviceImage {
  std::vector<std::byte> bytes;
  std::size_t axes_at = 0;
  std::size_t borders_at = 0;
  std::size_t fill_at = 0;
  KernelArgs args;  ///< pointers unset (bind sets them), everything else final
};

/// The widest V in {16, 8, 4, 2, 1} that divides the plan's unit and every stride and offset it
/// uses, and the alignment of both pointers; 0 for packed types.
int vector_bytes_for(const Plan& plan, const void* in, const void* out);

/// Flattens `plan` (a whole-output plan or a window's) for vector width `vector_bytes`. Throws
/// padnd::Error (unsupported) for what the CUDA executor does not run: strings and numpy's value
/// modes (plans with axis passes).
DeviceImage flatten(const Plan& plan, int vector_bytes);

/// The image's arguments with its tables at `base` (the image's copy on the device, or
/// image.bytes.data() in simulation), writing to `out`.
KernelArgs bind(const DeviceImage& image, const std::byte* base, const void* out);

/// Throws padnd::Error (unsupported), naming what, unless the CUDA executor runs `plan`.
void check_supported(const Plan& plan);

}  // namespace padnd::detail::cuda
