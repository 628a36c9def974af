// SPDX-License-Identifier: Apache-2.0
// The host side of a CUDA launch that does not need the CUDA runtime: which plan a call writes
// and the grid it runs on. Shared by the executor (cuda_executor.cu) and the grid simulator.
#pragma once

#include <cstdint>
#include <span>

#include "padnd/plan.hpp"

namespace padnd::detail::cuda {

/// The plan a call writes: `window` of `plan`'s output, axis k stepping out_byte_strides[k]
/// bytes (empty: dense), as a plan of its own. Validation is the caller's (exec_checks.hpp).
Plan window_plan(const Plan& plan, const Window& window,
                 std::span<const std::int64_t> out_byte_strides);

/// Threads per block of every padnd kernel.
inline constexpr int kThreadsPerBlock = 256;

/// Blocks for `items` work items on a device of `multiprocessors` SMs: one item per thread up
/// to a few waves, then a grid-stride loop.
std::int64_t grid_blocks(std::int64_t items, int multiprocessors);

/// Whether this build has the CUDA executor and the process sees a CUDA device.
bool runtime_available() noexcept;

/// Writes checked `plan` from device memory `in` to device memory `out` on `stream` (a
/// cudaStream_t; null: the default stream), asynchronously. Defined by cuda_executor.cu, or by
/// no_cuda.cpp (which throws) in a build without CUDA.
void launch(const Plan& plan, const void* in, void* out, void* stream);

}  // namespace padnd::detail::cuda
