// SPDX-License-Identifier: Apache-2.0
// padnd::cuda's entry points (include/padnd/cuda.hpp): every check of the request on the host,
// then one launch (cuda_executor.cu, or no_cuda.cpp in a build without CUDA).
#include <string>

#include "executors/cuda/device_program.hpp"
#include "executors/cuda/launch.hpp"
#include "padnd/cuda.hpp"
#include "padnd/error.hpp"
#include "plan/exec_checks.hpp"

namespace padnd::cuda {

bool available() noexcept { return detail::cuda::runtime_available(); }

void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes, void* stream) {
  if (out_bytes < plan.output_bytes()) {
    throw Error(Errc::shape_mismatch, "output: buffer of " + std::to_string(out_bytes) +
                                          " bytes is smaller than the " +
                                          std::to_string(plan.output_bytes()) + " bytes needed");
  }
  detail::cuda::check_supported(plan);
  if (plan.output_elements() == 0) return;
  detail::check_buffers(plan, in, out);
  detail::cuda::launch(plan, in, out, stream);
}

void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::int64_t out_bytes, void* stream) {
  detail::check_dense_window(plan, window, out_bytes);
  detail::cuda::check_supported(plan);
  if (detail::empty_window(window)) return;
  detail::check_buffers(plan, in, out);
  detail::cuda::launch(detail::cuda::window_plan(plan, window, {}), in, out, stream);
}

void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::span<const std::int64_t> out_byte_strides, void* stream) {
  detail::check_window(plan, window);
  detail::check_out_strides(plan, window, out_byte_strides);
  detail::cuda::check_supported(plan);
  if (detail::empty_window(window)) return;
  detail::check_buffers(plan, in, out);
  detail::cuda::launch(detail::cuda::window_plan(plan, window, out_byte_strides), in, out, stream);
}

}  // namespace padnd::cuda
