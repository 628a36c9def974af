// SPDX-License-Identifier: Apache-2.0
// The canonical description of a pad: what every spec adapter translates into (PAD-SPEC §1.1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace padnd {

/// How positions outside the input get their value. Diagram for input `abcd`, 3 each side:
///
///   constant   vvv|abcd|vvv     (numpy constant, OpenCV BORDER_CONSTANT)
///   edge       aaa|abcd|ddd     (numpy edge, OpenCV BORDER_REPLICATE)
///   reflect    dcb|abcd|cba     (numpy reflect, OpenCV BORDER_REFLECT_101)
///   symmetric  cba|abcd|dcb     (numpy symmetric, OpenCV BORDER_REFLECT)
///   wrap       bcd|abcd|abc     (numpy wrap, OpenCV BORDER_WRAP)
enum class Mode : std::uint8_t { constant, edge, reflect, symmetric, wrap };

/// Negative pads in non-constant modes (PAD-SPEC §1.3 / §1.4).
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

/// The canonical pad request. `axes` has exactly one entry per input axis.
struct PadSpec {
  std::vector<AxisPad> axes;
  Mode mode = Mode::constant;
  /// Bytes of one element of the data's type (strings: the text; packed types: one byte holding
  /// the code in its low bits). Empty = the default value: all-zero bits / empty string.
  std::string value;
  NegativeOrder negative_order = NegativeOrder::map_on_original;
  NegativeSize negative_size = NegativeSize::error;
};

std::string_view mode_name(Mode mode);

}  // namespace padnd
