// SPDX-License-Identifier: Apache-2.0
// runtime.hpp on the CUDA runtime (PADND_CUDA builds).
#include <cuda_runtime.h>

#include <string>

#include "executors/cuda/check_cuda.hpp"
#include "executors/cuda/runtime.hpp"
#include "padnd/error.hpp"

namespace padnd::detail::cuda {

void check_cuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  throw Error(status == cudaErrorMemoryAllocation ? Errc::out_of_memory : Errc::invalid_argument,
              std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

bool built() noexcept { return true; }

CurrentDevice::CurrentDevice(int device) {
  check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
  check_cuda(cudaSetDevice(device), ("cudaSetDevice(" + std::to_string(device) + ")").c_str());
}

CurrentDevice::~CurrentDevice() { cudaSetDevice(previous_); }

void* allocate(std::int64_t bytes) {
  void* memory = nullptr;
  // One byte for an empty result: its address must still be device memory.
  check_cuda(cudaMalloc(&memory, static_cast<std::size_t>(bytes > 0 ? bytes : 1)),
             ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  return memory;
}

void release(void* memory) noexcept { cudaFree(memory); }

void stream_wait(void* producer, void* consumer) {
  if (producer == consumer) return;
  cudaEvent_t done = nullptr;
  check_cuda(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
  const cudaError_t recorded = cudaEventRecord(done, static_cast<cudaStream_t>(producer));
  const cudaError_t waited = recorded == cudaSuccess
                                 ? cudaStreamWaitEvent(static_cast<cudaStream_t>(consumer), done, 0)
                                 : recorded;
  cudaEventDestroy(done);  // released once the wait has passed it
  check_cuda(waited, "stream ordering (cudaEventRecord, cudaStreamWaitEvent)");
}

}  // namespace padnd::detail::cuda
