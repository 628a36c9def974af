// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's grid on the host: every (block, thread) of a launch runs the kernel body
// (src/executors/cuda/kernel_bodies.hpp) in shuffled order, through a memory accessor that
// refuses reads outside the input and misaligned accesses, and counts the writes of every byte.
#pragma once

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <random>
#include <string>

#include "executors/cuda/device_program.hpp"
#include "executors/cuda/kernel_bodies.hpp"

namespace padnd::testing {

/// What a simulated launch did wrong (empty: nothing).
struct SimFindings {
  std::int64_t bad_reads = 0;          ///< outside [in_lo, in_hi)
  std::int64_t bad_writes = 0;         ///< outside [out_lo, out_hi)
  std::int64_t misaligned = 0;         ///< a V-byte access not on a V-byte boundary
  std::unordered_map<std::int64_t, int> writes;  ///< output offset -> times written
};

/// Memory as the kernel bodies see it: offsets from the input and output pointers.
class SimMemory {
 public:
  SimMemory(const std::byte* in, std::int64_t in_lo, std::int64_t in_hi, std::byte* out,
            std::int64_t out_lo, std::int64_t out_hi, SimFindings& findings)
      : in_(in),
        in_lo_(in_lo),
        in_hi_(in_hi),
        out_(out),
        out_lo_(out_lo),
        out_hi_(out_hi),
        findings_(&findings) {}

  template <int V>
  detail::cuda::Bits<V> load(std::int64_t offset) const {
    detail::cuda::Bits<V> bits{};
    if (offset < in_lo_ || offset > in_hi_ - V) {
      ++findings_->bad_reads;
      return bits;
    }
    check_alignment(in_ + offset, V);
    std::memcpy(&bits, in_ + offset, V);
    return bits;
  }
  template <int V>
  void store(std::int64_t offset, detail::cuda::Bits<V> bits) const {
    if (offset < out_lo_ || offset > out_hi_ - V) {
      ++findings_->bad_writes;
      return;
    }
    check_alignment(out_ + offset, V);
    for (int i = 0; i < V; ++i) ++findings_->writes[offset + i];
    std::memcpy(out_ + offset, &bits, V);
  }

 private:
  void check_alignment(const std::byte* p, int bytes) const {
    if (reinterpret_cast<std::uintptr_t>(p) % static_cast<unsigned>(bytes) != 0) {
      ++findings_->misaligned;
    }
  }
  const std::byte* in_;
  std::int64_t in_lo_, in_hi_;
  std::byte* out_;
  std::int64_t out_lo_, out_hi_;
  SimFindings* findings_;
};

/// Runs kernel `width` (an entry of kKernelWidths) over a grid of `blocks` x `threads`, every
/// (block, thread) pair once, in an order drawn from `rng`.
void simulate_grid(const detail::cuda::KernelArgs& args, int width, const SimMemory& memory,
                   std::int64_t blocks, std::int64_t threads, std::mt19937_64& rng);

}  // namespace padnd::testing
