// SPDX-License-Identifier: Apache-2.0
// The axis passes that follow the engine (Plan::passes): numpy.pad's axis-by-axis order.
#pragma once

#include <cstddef>

#include "padnd/plan.hpp"

namespace padnd::detail {

/// Runs every pass of `plan` over the dense output `out`, in order.
void run_passes(const Plan& plan, std::byte* out);

}  // namespace padnd::detail
