// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's device side in a build without it (PADND_CUDA=OFF, or AUTO without nvcc):
// every call throws, saying so.
#include "executors/cuda/launch.hpp"
#include "executors/cuda/runtime.hpp"
#include "padnd/error.hpp"

namespace padnd::detail::cuda {
namespace {

[[noreturn]] void throw_no_cuda() {
  throw Error(Errc::invalid_argument,
              "cuda: this padnd was built without its CUDA executor (configure with "
              "-DPADND_CUDA=ON and the CUDA toolkit's nvcc; docs/gpu.md)");
}

}  // namespace

bool runtime_available() noexcept { return false; }
bool built() noexcept { return false; }

void launch(const Plan&, const void*, void*, void*) { throw_no_cuda(); }

CurrentDevice::CurrentDevice(int) { throw_no_cuda(); }
CurrentDevice::~CurrentDevice() = default;
void* allocate(std::int64_t) { throw_no_cuda(); }
void release(void*) noexcept {}
void stream_wait(void*, void*) { throw_no_cuda(); }

}  // namespace padnd::detail::cuda
