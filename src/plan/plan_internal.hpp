// SPDX-License-Identifier: Apache-2.0
// Internal helpers shared by planning and execution.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/plan.hpp"
#include "plan/program.hpp"

namespace padnd::detail {

/// The pad value replicated to a fill pattern of at least kFillPatternBytes, a whole number of
/// elements long, so that filling any run of elements is a few block copies.
inline constexpr std::int64_t kFillPatternBytes = 256;
std::string replicate_pattern(const std::string& element_bytes,
                              std::int64_t min_bytes = kFillPatternBytes);
/// kFillPatternBytes zero bytes: the pattern of every all-zero pad value.
const std::string& zero_pattern();

/// Requires `value` to be empty or one element of `type`. The error names `argument`, and for
/// a per-axis value the axis and the side ("begin"/"end"); it is only built on failure.
inline constexpr std::size_t kNoAxis = static_cast<std::size_t>(-1);
void check_value(const ElementType& type, const std::string& value, std::string_view argument,
                 std::size_t axis = kNoAxis, std::string_view side = {});

/// Axis `k`'s mode and numbers: PadSpec::axis_modes[k], or PadSpec::mode when there are none.
const AxisMode& axis_mode(const PadSpec& spec, std::size_t k);
/// The index mode the engine uses for an axis: its own, or constant (pad positions are filled,
/// and a pass writes them) for value modes and odd reflection.
Mode engine_mode(const AxisMode& mode);
/// Shape-level checks of PadSpec::axis_modes (count, odd, negative stat lengths, crops).
void check_axis_modes(const std::vector<std::int64_t>& shape, const PadSpec& spec);
/// Whether the array that axis k's pass reads is empty: numpy's order pads the axes before k
/// first, so their output lengths count, and the others' input lengths.
bool pass_reads_empty(std::span<const std::int64_t> shape, std::span<const std::int64_t> out_shape,
                      std::size_t k);
/// maximum / minimum with a stat_length of 0 on an axis whose pass reads a non-empty array:
/// no value to pad with (numpy's error).
void check_stat_lengths(std::span<const std::int64_t> shape,
                        std::span<const std::int64_t> out_shape, const PadSpec& spec);
/// Type-level checks and the passes that follow the engine (empty when it does everything).
std::vector<AxisPass> plan_passes(const ElementType& type, const std::vector<std::int64_t>& shape,
                                  std::span<const std::int64_t> out_shape, const PadSpec& spec);

}  // namespace padnd::detail
