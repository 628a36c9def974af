// SPDX-License-Identifier: Apache-2.0
// OpenVINO Pad-1 / Pad-12 -> canonical PadSpec, with the validation of docs/spec.md §5.4.
#include "padnd/adapters/openvino.hpp"

#include <array>
#include <string>

#include "adapters/checks.hpp"

namespace padnd::openvino {
namespace {

using adapters::fail;

// OpenVINO parses enum attributes ignoring case (its EnumNames lookup lower-cases both sides),
// so "EDGE" in an IR is accepted; the spec spells them in lower case.
constexpr std::array<adapters::ModeName, 4> kModes{{
    {"constant", Mode::constant},
    {"edge", Mode::edge},
    {"reflect", Mode::reflect},
    {"symmetric", Mode::symmetric},
}};

/// Checks one of `pads_begin` / `pads_end`: 1-D, any integer type, one value per data axis.
void check_pads(const IntTensor& pads, std::string_view name, std::size_t rank,
                const std::string& where) {
  adapters::require_vector(pads, name);
  adapters::require_integer_type(pads, name, where);
  adapters::require_length(pads.values, name, rank,
                           "one per axis of data, rank " + std::to_string(rank));
}

/// Element types: every padnd type is accepted except that Pad-1 is "any numeric type" (no
/// string) and Pad-12 allows string only with constant mode. boolean counts as numeric here: it
/// is an OpenVINO element type and Pad's implementation never restricts T further. Packed and
/// float8 types are kept too (OpenVINO has i4/u4/u2/f4e2m1/f8 element types).
Mode checked_mode(const PadOp& op, const ElementType& data_type, const std::string& where) {
  adapters::require_not_numpy_only(data_type, "data", where);
  const bool is_string = data_type.dtype == DType::string;
  if (is_string && op.version == 1) {
    fail(Errc::unsupported_type, "data",
         "element type string is not allowed by " + where + " (numeric types only)");
  }
  const Mode mode = adapters::parse_mode(op.pad_mode, kModes, "pad_mode", true, where);
  if (is_string && mode != Mode::constant) {
    fail(Errc::invalid_argument, "pad_mode",
         "'" + op.pad_mode + "' is not allowed for string data by " + where +
             "; string data supports only constant mode");
  }
  return mode;
}

/// The mode's own limits on the pads (docs/spec.md, OpenVINO).
void check_mode_pads(const PadSpec& spec, const std::vector<std::int64_t>& data_shape) {
  switch (spec.mode) {
    case Mode::edge:
      adapters::require_length_where_padded(spec.axes, data_shape, 1, "pads_begin", "pads_end",
                                            "edge");
      break;
    case Mode::reflect:
      // Literal rule `pads <= D - 1`: also rejects a length-0 axis with zero pads (docs/spec.md §9
      // ex. 64).
      adapters::require_pads_at_most(spec.axes, data_shape, -1, "pads_begin", "pads_end",
                                     "reflect");
      break;
    case Mode::symmetric:
      adapters::require_pads_at_most(spec.axes, data_shape, 0, "pads_begin", "pads_end",
                                     "symmetric");
      break;
    default:
      break;
  }
}

}  // namespace

PadSpec to_canonical(const PadOp& op, const ElementType& data_type,
                     const std::vector<std::int64_t>& data_shape) {
  if (op.version != 1 && op.version != 12) {
    fail(Errc::invalid_argument, "version",
         "OpenVINO Pad-" + std::to_string(op.version) + " does not exist; known versions: 1, 12");
  }
  adapters::require_shape(data_shape, "data");
  const std::string where = "OpenVINO Pad-" + std::to_string(op.version);
  const Mode mode = checked_mode(op, data_type, where);
  check_pads(op.pads_begin, "pads_begin", data_shape.size(), where);
  check_pads(op.pads_end, "pads_end", data_shape.size(), where);

  PadSpec spec;
  spec.axes = adapters::axis_pads(op.pads_begin.values, op.pads_end.values);
  spec.mode = mode;
  spec.negative_order = NegativeOrder::map_on_original;
  spec.negative_size = op.version == 1 ? NegativeSize::error : NegativeSize::clamp_to_zero;

  // pad_value is only used (and only type-checked) in constant mode; otherwise ignored.
  if (mode == Mode::constant && op.pad_value) {
    adapters::require_consistent(*op.pad_value, "pad_value");
    adapters::require_scalar(*op.pad_value, "pad_value", where);
    adapters::require_same_type(*op.pad_value, "pad_value", data_type, where);
    spec.value = op.pad_value->elements[0];
  }

  if (op.version == 1 && !op.allow_negative_pads_v1) {
    adapters::require_non_negative(spec.axes, "pads_begin", "pads_end",
                                   "OpenVINO Pad-1 pads are non-negative (Pad-12 takes "
                                   "negative pads as crops)");
  }
  check_mode_pads(spec, data_shape);
  if (spec.negative_size == NegativeSize::error) {
    adapters::require_non_negative_output(spec.axes, data_shape, "pads_begin", "pads_end");
  }
  return spec;
}

}  // namespace padnd::openvino
