// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime calls the bindings need around a launch: the current device, device buffers
// for results no framework allocates, and ordering one stream after another (DLPack's stream
// protocol). Defined by device_runtime.cpp, or by no_cuda.cpp (which throws) without CUDA.
#pragma once

#include <cstdint>

namespace padnd::detail::cuda {

/// Whether this build has the CUDA executor (a device may still be missing: available()).
bool built() noexcept;

/// Makes `device` the calling thread's current CUDA device until destroyed (then the previous).
class CurrentDevice {
 public:
  explicit CurrentDevice(int device);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  [[maybe_unused]] int previous_ = 0;  // unused in a build without CUDA
};

/// `bytes` of device memory on the current device (cudaMalloc); out_of_memory if it has none.
void* allocate(std::int64_t bytes);

/// Frees allocate()'s memory once the device has finished all work queued so far (cudaFree
/// synchronises), so no stream of any consumer still reads it.
void release(void* memory) noexcept;

/// Orders all work queued later on `consumer` after the work queued so far on `producer`
/// (cudaStream_t handles, null: the legacy default stream), on the current device.
void stream_wait(void* producer, void* consumer);

}  // namespace padnd::detail::cuda
