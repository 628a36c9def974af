// SPDX-License-Identifier: Apache-2.0
// The canonical description of a pad: what every spec adapter translates into (docs/spec.md §2.1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

/// How positions outside the input get their value. Diagram for input `abcd`, 3 each side:
///
///   constant   vvv|abcd|vvv     (numpy constant, OpenCV BORDER_CONSTANT)
///   edge       aaa|abcd|ddd     (numpy edge, OpenCV BORDER_REPLICATE)
///   reflect    dcb|abcd|cba     (numpy reflect, OpenCV BORDER_REFLECT_101)
///   symmetric  cba|abcd|dcb     (numpy symmetric, OpenCV BORDER_REFLECT)
///   wrap       bcd|abcd|abc     (numpy wrap, OpenCV BORDER_WRAP)
///
/// numpy.pad's value modes compute new values instead of copying elements (numpy's own
/// arithmetic, see docs/modes.md); they need a numeric element type:
///
///   linear_ramp  ramp from an end value to the edge element (AxisMode::begin_value/end_value)
///   maximum / mean / median / minimum  of the stat-length elements next to each edge
enum class Mode : std::uint8_t {
  constant, edge, reflect, symmetric, wrap,
  linear_ramp, maximum, mean, median, minimum,
};

/// Whether `mode` computes values (numpy's value modes) rather than choosing a source element.
constexpr bool computes_values(Mode mode) noexcept { return mode >= Mode::linear_ramp; }

/// Negative pads in non-constant modes (docs/spec.md §2.3 / §2.5).
enum class NegativeOrder : std::uint8_t {
  map_on_original,  ///< positions map onto the uncropped input (OpenVINO, nGraph)
  crop_then_pad,    ///< crop first, then extend the cropped data (ONNX)
};

/// An axis whose output length begin + L + end is negative.
enum class NegativeSize : std::uint8_t {
  error,          ///< reject (ONNX, nGraph, OpenVINO Pad-1)
  clamp_to_zero,  ///< output length 0 (OpenVINO Pad-12)
};

/// Padding of one axis, in elements. Negative begin/end crop.
struct AxisPad {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t interior = 0;  ///< elements inserted between neighbours (constant mode only)
  friend bool operator==(const AxisPad&, const AxisPad&) = default;
};

/// AxisMode::begin_stat_elems / end_stat_elems: every element of the axis.
inline constexpr std::int64_t kWholeAxis = -1;

/// One axis's mode and the per-side numbers numpy.pad's modes take (PadSpec::axis_modes).
struct AxisMode {
  Mode mode = Mode::constant;
  /// reflect / symmetric: numpy's reflect_type="odd" (2 * edge - x, chunk by chunk).
  bool odd = false;
  /// constant: one element of the data's type per side (empty = PadSpec::value).
  /// linear_ramp: the end value per side, one element of PadSpec::ramp_type (empty = zero).
  std::string begin_value;
  std::string end_value;
  /// maximum / mean / median / minimum: elements next to each edge that the statistic reads
  /// (clipped to the axis; kWholeAxis = all).
  std::int64_t begin_stat_elems = kWholeAxis;
  std::int64_t end_stat_elems = kWholeAxis;
  friend bool operator==(const AxisMode&, const AxisMode&) = default;
};

/// The canonical pad request. `axes` has exactly one entry per input axis.
struct PadSpec {
  std::vector<AxisPad> axes;
  Mode mode = Mode::constant;
  /// Bytes of one element of the data's type (strings: the text; packed types: one byte holding
  /// the code in its low bits). Empty = the default value: all-zero bits / empty string.
  std::string value;
  NegativeOrder negative_order = NegativeOrder::map_on_original;
  NegativeSize negative_size = NegativeSize::error;
  /// Empty: every axis uses `mode` and `value`. Otherwise one entry per axis; axes are then
  /// padded in numpy.pad's order (axis 0 first, each over the already padded earlier axes), so
  /// later axes own the corners.
  std::vector<AxisMode> axis_modes;
  /// linear_ramp: the type its arithmetic runs in (numpy's linspace dtype: float16, float32,
  /// float64, longdouble, complex64, complex128 or clongdouble) and its end values are stored in.
  ElementType ramp_type = DType::float64;
};

std::string_view mode_name(Mode mode);

}  // namespace padnd
PADND_PUBLIC_END
