// SPDX-License-Identifier: Apache-2.0
#include "executors/cuda/launch.hpp"

#include <algorithm>

#include "plan/plan_access.hpp"

namespace padnd::detail::cuda {

Plan window_plan(const Plan& plan, const Window& window,
                 std::span<const std::int64_t> out_byte_strides) {
  return PlanAccess::window(plan, window.start, window.shape, out_byte_strides);
}

std::int64_t grid_blocks(std::int64_t items, int multiprocessors) {
  // 2048 resident threads per SM on sm_90: 8 blocks of 256; 4 waves of them at most.
  const std::int64_t max_blocks = std::int64_t{std::max(multiprocessors, 1)} * 8 * 4;
  const std::int64_t needed = (items + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return std::clamp<std::int64_t>(needed, 1, max_blocks);
}

}  // namespace padnd::detail::cuda
