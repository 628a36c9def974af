// SPDX-License-Identifier: Apache-2.0
// CUDA runtime errors as padnd::Error (PADND_CUDA builds only: it needs cuda_runtime.h).
#pragma once

#include <cuda_runtime.h>

namespace padnd::detail::cuda {

/// Throws padnd::Error (out_of_memory for an allocation) naming `what` unless `status` is success.
void check_cuda(cudaError_t status, const char* what);

}  // namespace padnd::detail::cuda
