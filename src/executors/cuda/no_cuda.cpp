// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's device side in a build without it (PADND_CUDA=OFF, or AUTO without nvcc).
#include "executors/cuda/launch.hpp"
#include "padnd/error.hpp"

namespace padnd::detail::cuda {

bool runtime_available() noexcept { return false; }

void launch(const Plan&, const void*, void*, void*) {
  throw Error(Errc::invalid_argument,
              "cuda: this padnd was built without its CUDA executor (configure with "
              "-DPADND_CUDA=ON and the CUDA toolkit's nvcc; docs/gpu.md)");
}

}  // namespace padnd::detail::cuda
