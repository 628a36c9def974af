// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's kernel bodies: what one thread of the grid does, as host and device
// functions. The __global__ kernels (cuda_executor.cu) only pass (block, thread) to run_thread;
// the grid simulator (tests/cuda_grid_sim_test.cpp) calls the same run_thread for every block
// and thread on the host, with a memory accessor that checks every read and counts every write.
//
// Byte storage: a work item is a group of up to 16 / V consecutive positions of the innermost
// axis (V bytes each), in one output row; the row's outer positions are found once per group,
// by precomputed divisors, and each position reads its source through the axis tables
// (plan/axis_source.hpp) or takes the pad value. Full groups of rows that are contiguous and
// 16-byte aligned are written by one 16-byte store. Packed 4-/2-bit storage: a work item is one
// output byte, assembled from its codes. Every output byte belongs to exactly one item.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/host_device.hpp"
#include "executors/cuda/device_program.hpp"
#include "plan/axis_source.hpp"

namespace padnd::detail::cuda {

/// 16 bytes in two registers (one 16-byte load or store on the device).
struct alignas(16) Bits16 {
  std::uint64_t lo;
  std::uint64_t hi;
};

/// The register type of V bytes.
template <int V>
struct BitsOf;
template <>
struct BitsOf<1> {
  using type = std::uint8_t;
};
template <>
struct BitsOf<2> {
  using type = std::uint16_t;
};
template <>
struct BitsOf<4> {
  using type = std::uint32_t;
};
template <>
struct BitsOf<8> {
  using type = std::uint64_t;
};
template <>
struct BitsOf<16> {
  using type = Bits16;
};
template <int V>
using Bits = typename BitsOf<V>::type;

/// V bytes from `bytes` (any alignment), lowest address in the lowest bits.
template <int V>
PADND_HD Bits<V> bits_from_bytes(const unsigned char* bytes) {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;

  for (int i = 0; i < V; ++i) {
    const std::uint64_t byte = bytes[i];
    if (i < 8) {
      lo |= byte << (8 * i);
    } else {
      hi |= byte << (8 * (i - 8));
    }
  }
  if constexpr (V == 16) {
    return Bits16{lo, hi};
  } else {
    return static_cast<Bits<V>>(lo);
  }
}

/// The low V bytes of two words.
template <int V>
PADND_HD Bits<V> bits_from_words(const std::uint64_t* words) {
  if constexpr (V == 16) {
    return Bits16{words[0], words[1]};
  } else {
    return static_cast<Bits<V>>(words[0]);
  }
}

/// Puts the I-th V-byte piece of a 16-byte group into place (V < 16).
template <int V, int I>
PADND_HD void place(Bits16& group, Bits<V> piece) {
  constexpr int kByte = I * V;
  if constexpr (kByte < 8) {
    group.lo |= static_cast<std::uint64_t>(piece) << (8 * kByte);
  } else {
    group.hi |= static_cast<std::uint64_t>(piece) << (8 * (kByte - 8));
  }
}

/// Where a row of the innermost axis reads and writes: the input offset of its source row, the
/// output offset of its first position, and whether an outer axis puts it in the pad.
struct RowStart {
  std::int64_t src = 0;
  std::int64_t dst = 0;
  bool pad = false;
};

/// The row's start from its index over the outer axes (the last axis is the row).
PADND_HD inline RowStart row_start(const KernelArgs& args, std::int64_t row) {
  RowStart start{args.view_offset, 0, false};
  for (int k = args.axis_count - 2; k >= 0; --k) {
    const DeviceAxis& axis = args.axes[k];
    const std::int64_t rest = axis.out_len_divisor.quotient(row);
    const std::int64_t position = row - rest * axis.out_len;
    row = rest;
    const std::int64_t source = axis_source(axis, position, args.borders, kPadSource);
    if (source == kPadSource) {
      start.pad = true;
    } else {
      start.src += source * axis.in_stride;
    }
    start.dst += position * axis.out_stride;
  }
  return start;
}

/// The pad value's V bytes at position `position` of the innermost axis.
template <int V>
PADND_HD Bits<V> fill_bits(const KernelArgs& args, std::int64_t position) {
  if (!args.fill_by_lane) return bits_from_words<V>(args.fill_words);
  return bits_from_bytes<V>(args.fill + args.elem_divisor.remainder(position * V));
}

/// The V bytes of position `position` of the row that starts at `start`.
template <int V, class Mem>
PADND_HD Bits<V> position_bits(const KernelArgs& args, const Mem& mem, const RowStart& start,
                               std::int64_t position) {
  const DeviceAxis& row = args.axes[args.axis_count - 1];
  const std::int64_t source =
      start.pad ? kPadSource : axis_source(row, position, args.borders, kPadSource);
  if (source == kPadSource) return fill_bits<V>(args, position);
  return mem.template load<V>(start.src + source * row.in_stride);
}

/// A full group of a vector row (V < 16): 16 / V positions assembled in registers, one store.
template <int V, class Mem, int... I>
PADND_HD void write_vector_group(const KernelArgs& args, const Mem& mem, const RowStart& start,
                                 std::int64_t first, std::integer_sequence<int, I...>) {
  Bits16 group{0, 0};
  (place<V, I>(group, position_bits<V>(args, mem, start, first + I)), ...);
  mem.template store<16>(start.dst + first * V, group);
}

/// Work item `item` of byte storage: one group of a row.
template <int V, class Mem>
PADND_HD void write_group(const KernelArgs& args, const Mem& mem, std::int64_t item) {
  constexpr int kGroup = 16 / V;
  const std::int64_t row = args.groups_divisor.quotient(item);
  const std::int64_t first = (item - row * args.groups_per_row) * kGroup;
  const RowStart start = row_start(args, row);
  const DeviceAxis& inner = args.axes[args.axis_count - 1];
  const std::int64_t count = inner.out_len - first < kGroup ? inner.out_len - first : kGroup;
  if constexpr (V < 16) {
    if (args.vector_rows && count == kGroup) {
      write_vector_group<V>(args, mem, start, first, std::make_integer_sequence<int, kGroup>{});
      return;
    }
  }
  for (std::int64_t i = 0; i < count; ++i) {
    mem.template store<V>(start.dst + (first + i) * inner.out_stride,
                          position_bits<V>(args, mem, start, first + i));
  }
}

/// The code of output element `element` (flat, dense) of a packed plan.
template <class Mem>
PADND_HD unsigned packed_code(const KernelArgs& args, const Mem& mem, std::int64_t element) {
  const unsigned mask = (1u << args.packed_bits) - 1;
  std::int64_t src = args.view_offset;
  for (int k = args.axis_count - 1; k >= 0; --k) {
    const DeviceAxis& axis = args.axes[k];
    const std::int64_t rest = axis.out_len_divisor.quotient(element);
    const std::int64_t source =
        axis_source(axis, element - rest * axis.out_len, args.borders, kPadSource);
    if (source == kPadSource) return args.fill[0] & mask;
    src += source * axis.in_stride;
    element = rest;
  }
  const int per_byte_log2 = args.packed_bits == 4 ? 1 : 2;
  const unsigned byte = mem.template load<1>(src >> per_byte_log2);
  const auto shift = static_cast<unsigned>(src & ((1 << per_byte_log2) - 1)) * args.packed_bits;
  return (byte >> shift) & mask;
}

/// Work item `item` of packed storage: output byte `item`, its unused high bits 0.
template <class Mem>
PADND_HD void write_packed_byte(const KernelArgs& args, const Mem& mem, std::int64_t item) {
  const int per_byte = 8 / args.packed_bits;
  unsigned value = 0;
  for (int c = 0; c < per_byte; ++c) {
    const std::int64_t element = item * per_byte + c;
    if (element >= args.out_elements) break;
    value |= packed_code(args, mem, element) << (c * args.packed_bits);
  }
  mem.template store<1>(item, static_cast<std::uint8_t>(value));
}

/// Thread `thread` of block `block` in a grid of `blocks` x `threads`: every item it owns in a
/// grid-stride loop. V: bytes per position (byte storage), or 0 for packed storage.
template <int V, class Mem>
PADND_HD void run_thread(const KernelArgs& args, const Mem& mem, std::int64_t block,
                         std::int64_t thread, std::int64_t blocks, std::int64_t threads) {
  const std::int64_t step = blocks * threads;
  for (std::int64_t item = block * threads + thread; item < args.items; item += step) {
    if constexpr (V == 0) {
      write_packed_byte(args, mem, item);
    } else {
      write_group<V>(args, mem, item);
    }
  }
}

/// The kernel list: one kernel per V, 0 for packed storage. Dispatch, the simulator and the
/// device benchmark all walk it.
inline constexpr int kKernelWidths[] = {16, 8, 4, 2, 1, 0};

/// Calls f(std::integral_constant<int, V>{}) for the kernel of width `width` (an entry of
/// kKernelWidths).
template <class F>
void with_kernel(int width, F&& f) {
  switch (width) {
    case 16:
      return f(std::integral_constant<int, 16>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 1:
      return f(std::integral_constant<int, 1>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace padnd::detail::cuda
