// SPDX-License-Identifier: Apache-2.0
// The engine's entry points below the public execute functions.
#pragma once

#include "padnd/parallel.hpp"
#include "padnd/plan.hpp"
#include "plan/exec_checks.hpp"

namespace padnd::detail {

/// Writes the plan's program (every axis's index map, no passes) to `out`, whose output axes step
/// by each PlanAxis::out_stride.
void run_engine(const Plan& plan, const void* in, void* out, const ExecOptions& options);

/// Throws unless `options` holds a thread count >= 0 and a Streaming value.
void check_options(const ExecOptions& options);

}  // namespace padnd::detail
