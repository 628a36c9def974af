// SPDX-License-Identifier: Apache-2.0
// Flattening a plan for the CUDA executor (device_program.hpp). Host code, in every build: the
// grid simulator (tests/cuda_grid_sim_test.cpp) runs the kernel bodies over these images.
#include "executors/cuda/device_program.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "padnd/error.hpp"
#include "plan/plan_access.hpp"

namespace padnd::detail::cuda {
namespace {

DeviceAxis device_axis(const PlanAxis& axis) {
  DeviceAxis d;
  d.out_len = axis.out_len;
  d.head_len = axis.head_len;
  d.mid_len = axis.mid_len;
  d.mid_src = axis.mid_src;
  d.mid_step = axis.mid_step;
  d.head_tabulated = axis.head_tabulated;
  d.tail_tabulated = axis.tail_tabulated;
  d.borders_at = axis.borders_at;
  d.period = axis.period;
  d.in_stride = axis.in_stride;
  d.out_stride = axis.out_stride;
  d.out_len_divisor = FastDivisor(axis.out_len);
  d.mid_step_divisor = FastDivisor(axis.mid_step);
  d.period_divisor_ = FastDivisor(axis.period);
  return d;
}

/// The lanes of a unit wider than V: an identity axis of unit / V positions of V bytes.
DeviceAxis lane_axis(std::int64_t lanes, std::int64_t vector_bytes) {
  PlanAxis lane;
  lane.out_len = lane.in_len = lane.mid_len = lanes;
  lane.in_stride = lane.out_stride = vector_bytes;
  return device_axis(lane);
}

std::int64_t lowest_bit(std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  return u == 0 ? std::int64_t{16} : static_cast<std::int64_t>(u & (~u + 1));
}

/// The pad value's bytes from an element boundary, elem_bytes + 16 long.
std::string fill_pattern(const Plan& plan) {
  const std::string& fill = PlanAccess::fill(plan);
  const auto elem = static_cast<std::size_t>(plan.type().item_bytes());
  std::string pattern(elem + 16, '\0');
  // The all-zero value's fill is a shared 256-byte pattern, shorter than wider elements.
  if (PlanAccess::fill_byte(plan) == 0) return pattern;
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = fill[i % elem];
  return pattern;
}

template <class T>
std::size_t append(std::vector<std::byte>& bytes, const T* data, std::size_t count) {
  const std::size_t at = (bytes.size() + 15) / 16 * 16;
  bytes.resize(at + count * sizeof(T));
  if (count != 0) std::memcpy(bytes.data() + at, data, count * sizeof(T));
  return at;
}

/// Work items and the row grouping of a byte-storage image.
void set_groups(KernelArgs& args, const std::vector<DeviceAxis>& axes) {
  const std::int64_t group = 16 / args.vector_bytes;
  args.groups_per_row = (axes.back().out_len + group - 1) / group;
  args.groups_divisor = FastDivisor(args.groups_per_row);
  args.items = args.groups_per_row;
  for (std::size_t k = 0; k + 1 < axes.size(); ++k) args.items *= axes[k].out_len;
}

}  // namespace

void check_supported(const Plan& plan) {
  if (plan.type().storage() == Storage::string) {
    throw Error(Errc::unsupported_type,
                "type string: the CUDA executor moves fixed-width elements; strings are padded "
                "on the CPU (padnd::execute)");
  }
  if (!program(plan).passes().empty()) {
    throw Error(Errc::invalid_argument,
                "mode: numpy's value modes (mean, median, minimum, maximum, linear_ramp), odd "
                "reflection and per-side constants are computed on the CPU only; the CUDA "
                "executor runs constant, edge, reflect, symmetric and wrap");
  }
}

int vector_bytes_for(const Plan& plan, const void* in, const void* out) {
  if (plan.type().packed()) return 0;
  const Program& prog = program(plan);
  std::int64_t bits =
      lowest_bit(prog.unit_bytes()) | lowest_bit(prog.view_offset()) |
      lowest_bit(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in) & 15)) |
      lowest_bit(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) & 15));
  for (const PlanAxis& axis : prog.axes()) {
    bits |= lowest_bit(axis.in_stride) | lowest_bit(axis.out_stride);
  }
  return static_cast<int>(lowest_bit(bits & 31));  // the lowest bit set: the common alignment
}

DeviceImage flatten(const Plan& plan, int vector_bytes) {
  check_supported(plan);
  const Program& prog = program(plan);
  DeviceImage image;
  KernelArgs& args = image.args;
  args.packed_bits = plan.type().packed() ? plan.type().bits() : 0;
  args.view_offset = prog.view_offset();
  args.elem_bytes = std::max<std::int64_t>(plan.type().item_bytes(), 1);
  args.vector_bytes = args.packed_bits != 0 ? 1 : vector_bytes;
  args.out_elements = plan.output_elements();
  std::vector<DeviceAxis> axes;
  for (const PlanAxis& axis : prog.axes()) axes.push_back(device_axis(axis));
  if (plan.output_elements() == 0) return image;
  if (args.packed_bits == 0) {
    const std::int64_t lanes = prog.unit_bytes() / vector_bytes;
    if (lanes > 1) axes.push_back(lane_axis(lanes, vector_bytes));
    args.fill_by_lane = lanes > 1 && vector_bytes % args.elem_bytes != 0;
    args.elem_divisor = FastDivisor(args.elem_bytes);
    // 16-byte stores need 16-byte aligned rows too: bind checks the output pointer.
    args.vector_rows = axes.back().out_stride == vector_bytes &&
                       std::all_of(axes.begin(), axes.end() - 1, [](const DeviceAxis& axis) {
                         return axis.out_len == 1 || axis.out_stride % 16 == 0;
                       });
    set_groups(args, axes);
  } else {
    args.items = storage_bytes(plan.type(), plan.output_elements());
  }
  const std::string pattern = args.packed_bits != 0 ? PlanAccess::fill(plan) : fill_pattern(plan);
  if (args.packed_bits == 0) std::memcpy(args.fill_words, pattern.data(), 16);
  args.axis_count = static_cast<int>(axes.size());
  image.axes_at = append(image.bytes, axes.data(), axes.size());
  image.borders_at = append(image.bytes, prog.border_table().data(), prog.border_table().size());
  image.fill_at = append(image.bytes, pattern.data(), pattern.size());
  return image;
}

KernelArgs bind(const DeviceImage& image, const std::byte* base, const void* out) {
  KernelArgs args = image.args;
  args.vector_rows = args.vector_rows && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  args.axes = reinterpret_cast<const DeviceAxis*>(base + image.axes_at);
  args.borders = reinterpret_cast<const std::int64_t*>(base + image.borders_at);
  args.fill = reinterpret_cast<const unsigned char*>(base + image.fill_at);
  return args;
}

}  // namespace padnd::detail::cuda
