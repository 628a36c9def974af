// SPDX-License-Identifier: Apache-2.0
#include "support/grid_simulator.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace padnd::testing {

void simulate_grid(const detail::cuda::KernelArgs& args, int width, const SimMemory& memory,
                   std::int64_t blocks, std::int64_t threads, std::mt19937_64& rng) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(blocks * threads));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  detail::cuda::with_kernel(width, [&](auto kernel) {
    for (const std::int64_t t : order) {
      detail::cuda::run_thread<decltype(kernel)::value>(args, memory, t / threads, t % threads,
                                                        blocks, threads);
    }
  });
}

}  // namespace padnd::testing
