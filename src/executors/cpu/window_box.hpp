// SPDX-License-Identifier: Apache-2.0
// The parts of window execution that prepared windows share (docs/design.md, "Windows"): the
// checks, and the box of the output that numpy's value modes compute a window over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "padnd/inline_vector.hpp"
#include "padnd/plan.hpp"
#include "padnd/tensor.hpp"
#include "plan/exec_checks.hpp"

namespace padnd::detail {

struct AxisPass;

/// Whether every pad position on one side of the pass's axis ends up with the same value along
/// it (a statistic, a constant, the edge element).
bool uniform_sides(const AxisPass& pass);
/// The part of the output a window of a plan with passes reads (numpy's value modes).
Window window_box(const Plan& plan, const Window& window);
/// The dense values of `box` (window_box of `window`), passes included, reading the input
/// through `in`, which lies `origin_bytes` into it.
Tensor compute_box(const Plan& plan, const void* in, std::int64_t origin_bytes,
                   const Window& window, const Window& box, const ExecOptions& options);
/// Writes `window` (checked, not empty) through a dense buffer of its box at `out_strides`,
/// reading the input through `in`, which lies `origin_bytes` into it.
void execute_through_box(const Plan& plan, const void* in, std::int64_t origin_bytes,
                         const Window& window, void* out, std::span<const std::int64_t> out_strides,
                         const ExecOptions& options);
/// The peak bytes of the buffers execute_through_box holds for `window` (window_work_bytes).
std::int64_t box_work_bytes(const Plan& plan, const Window& window);
/// The part of the input a checked window reads (input_window).
Window window_reads(const Plan& plan, const Window& window);
/// describe() of the plan that computes `box`, the box of `window`.
std::string describe_box(const Plan& plan, const Window& window, const Window& box);
/// Copies `window` out of `values`, the dense values of a box that holds it as window_box's
/// rules place it (each uniform side's one held position next to its edge).
void copy_out_of_box(const Plan& plan, const Window& box, const std::byte* values,
                     const Window& window, std::byte* out,
                     std::span<const std::int64_t> out_strides);

}  // namespace padnd::detail
