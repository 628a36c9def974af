// SPDX-License-Identifier: Apache-2.0
// Executing plans on NVIDIA GPUs (docs/gpu.md). Plans are made on the host as always; these write
// them from device memory to device memory, asynchronously on a CUDA stream. In a build without
// the CUDA executor (PADND_CUDA=OFF) every call throws padnd::Error saying so.
#pragma once

#include <cstdint>
#include <span>

#include "padnd/export.h"
#include "padnd/plan.hpp"

PADND_PUBLIC_BEGIN
namespace padnd::cuda {

/// Whether this build has the CUDA executor and the process sees a CUDA device.
bool available() noexcept;

/// execute() on the device: `in` and `out` are device (or managed) memory of the current
/// device; `stream` is a cudaStream_t (nullptr: the legacy default stream). Returns once the
/// work is queued on the stream; errors of the request are thrown before anything is queued.
/// Index modes only: strings and numpy's value modes throw padnd::Error naming them.
void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
             void* stream = nullptr);

/// execute_window() on the device, into a dense buffer of `out_bytes`.
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::int64_t out_bytes, void* stream = nullptr);

/// execute_window() on the device, into a strided buffer (see padnd::execute_window).
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::span<const std::int64_t> out_byte_strides, void* stream = nullptr);

}  // namespace padnd::cuda
PADND_PUBLIC_END
