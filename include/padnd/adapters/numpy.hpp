// SPDX-License-Identifier: Apache-2.0
// numpy.pad: every mode except a callable (constant, edge, reflect and symmetric with
// reflect_type "even" or "odd", wrap, empty, linear_ramp, maximum, mean, median, minimum),
// plus padnd's extensions (one mode per axis, negative widths, interior padding).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/export.h"
#include "padnd/pad_spec.hpp"

PADND_PUBLIC_BEGIN
namespace padnd::numpy {

/// One of numpy.pad's modes: its name, the canonical mode, and the keyword argument it takes
/// besides pad_width (empty for none), as numpy.pad checks them.
struct ModeRule {
  std::string_view name;
  Mode mode;  ///< "empty" is constant: padnd writes its pads
  std::string_view keyword;
};

/// numpy.pad's modes, in numpy's documentation order (the one mode table of padnd's numpy
/// rules: the adapter, the Python fast path and padnd.pad's keyword check read it).
std::span<const ModeRule> modes() noexcept;

/// The rule of mode `name` (exact, lowercase), or nullptr.
const ModeRule* find_mode(std::string_view name) noexcept;

/// A (before, after) pair of element bytes per axis.
using ValuePairs = std::vector<std::pair<std::string, std::string>>;

/// numpy.pad's arguments after numpy's broadcasting (`_as_pairs`): one entry per axis, or an
/// empty vector for "not given".
struct PadArgs {
  std::vector<std::pair<std::int64_t, std::int64_t>> pad_width;
  /// One numpy mode name for every axis, or one per axis (padnd's extension).
  std::vector<std::string> modes{"constant"};
  /// constant_values: one element of the data's type per side (empty bytes = zero).
  ValuePairs constant_values;
  /// end_values: one element of `ramp_type` per side (empty bytes = zero).
  ValuePairs end_values;
  /// The type np.linspace computes linear ramps in (its promotion of the end value and the data).
  ElementType ramp_type = DType::float64;
  /// stat_length after numpy's rounding; nullopt = the whole axis.
  std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> stat_length;
  /// "odd" selects odd reflection; numpy treats every other value as "even".
  std::string reflect_type = "even";
  /// padnd's extension: negative widths crop (nullopt: rejected, as numpy does).
  std::optional<NegativeOrder> negative;
  /// padnd's extension: interior padding per axis (constant axes only; empty = none).
  std::vector<std::int64_t> interior;

  friend bool operator==(const PadArgs&, const PadArgs&) = default;
};

/// numpy.pad(array of `shape`, ...) as a canonical spec, with numpy's argument checks. Element
/// types are checked by the planner (value modes need numbers, as numpy's ufuncs do). When
/// every axis has the same index mode and one constant value, the spec has no axis modes (the
/// planner's short path for a single index mode); otherwise one per axis.
PadSpec to_canonical(const PadArgs& args, const std::vector<std::int64_t>& shape);

/// The type np.linspace computes linear_ramp in, for data of `data` and end values written as
/// Python numbers. numpy.pad passes one or two end values on as int64, float64 or complex128
/// scalars, which promote with the data like arrays (`python_scalars` false), and one pair per
/// axis as Python numbers, which take the data's precision (`python_scalars` true); the
/// promotion is then made inexact.
ElementType linspace_type(const ElementType& data, bool complex_end_values, bool python_scalars);

/// numpy.pad(array, pad_width, mode, constant_values=value) with keyword defaults otherwise.
/// `value` holds the bytes of one element (empty = zero).
PadSpec to_canonical(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                     const std::string& mode, const std::string& value,
                     const std::vector<std::int64_t>& shape);

}  // namespace padnd::numpy
PADND_PUBLIC_END
