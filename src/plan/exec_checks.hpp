// SPDX-License-Identifier: Apache-2.0
// The checks every executor (CPU, CUDA) makes of its buffers and windows before writing anything.
#pragma once

#include <cstdint>
#include <span>

#include "padnd/inline_vector.hpp"
#include "padnd/plan.hpp"

namespace padnd::detail {

/// Throws unless `ranges` (`what`: "window" of the "output", "input box" of the "input") holds
/// a start and a length per axis of `shape`, each range lying within its axis.
void check_ranges(const char* what, const char* of, const Window& ranges,
                  std::span<const std::int64_t> shape);
using WindowInts = InlineVector<std::int64_t, Plan::kInlineRank>;

/// Throws unless `window` lies within the plan's output, one start and length per axis.
void check_window(const Plan& plan, const Window& window);
/// Throws unless `strides` can address `window` of the plan's elements (one per axis).
void check_out_strides(const Plan& plan, const Window& window,
                       std::span<const std::int64_t> strides);
/// Whether `window` holds no element.
bool empty_window(const Window& window);
/// Throws unless `window` lies within the plan's output and `out_bytes` hold it dense, and the
/// plan can write it (no packed windows of numpy's value modes but empty ones).
void check_dense_window(const Plan& plan, const Window& window, std::int64_t out_bytes);
/// Byte strides of a dense row-major buffer of `shape` for the plan's elements.
WindowInts dense_strides(const Plan& plan, std::span<const std::int64_t> shape);

/// Throws unless `out` is non-null.
void check_output(const void* out);
/// Throws unless `in` is non-null for a non-empty input.
void check_input(const Plan& plan, const void* in);
/// Throws unless `out` is non-null and `in` is non-null for a non-empty input.
void check_buffers(const Plan& plan, const void* in, const void* out);

}  // namespace padnd::detail
