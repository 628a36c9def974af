// SPDX-License-Identifier: Apache-2.0
// The axis passes that follow the engine (Plan::passes): numpy.pad's axis-by-axis order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "padnd/plan.hpp"

namespace padnd::detail {

struct AxisPass;

/// Runs every pass of `plan` over the dense output `out`, in order.
void run_passes(const Plan& plan, std::byte* out);

/// Whether one of the `count` elements at `edges` (dense; the edge elements of lanes of a
/// linear_ramp pass of `plan`) has a zero step toward the side's end value (AxisPass::ZeroStep).
bool ramp_zero_step(const Plan& plan, const AxisPass& pass, bool begin_side, std::byte* edges,
                    std::int64_t count);

}  // namespace padnd::detail
