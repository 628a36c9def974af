// SPDX-License-Identifier: Apache-2.0
// nGraph op::Pad v0 / v1 -> canonical PadSpec, with the library rule of docs/spec.md §6.4.
#include "padnd/adapters/ngraph.hpp"

#include <array>
#include <string>

#include "adapters/checks.hpp"

namespace padnd::ngraph {
namespace {

using adapters::fail;
using adapters::list_text;

// nGraph serialises PadMode as the upper-case enumerator names; lower case is accepted too.
constexpr std::array<adapters::ModeName, 4> kModes{{
    {"CONSTANT", Mode::constant},
    {"EDGE", Mode::edge},
    {"REFLECT", Mode::reflect},
    {"SYMMETRIC", Mode::symmetric},
}};

/// nGraph's pad value checks: same element type as arg, and a scalar.
std::string read_pad_value(const ValueTensor& v, const ElementType& arg_type,
                           const std::string& where) {
  adapters::require_consistent(v, "arg_pad_value");
  if (v.type != arg_type) {
    fail(Errc::unsupported_type, "arg_pad_value",
         "Argument element types do not match (arg: " + arg_type.name() +
             ", arg_pad_value: " + v.type.name() + ") in " + where);
  }
  if (!v.shape.empty()) {
    fail(Errc::shape_mismatch, "arg_pad_value",
         "Argument for padding value is not a scalar (shape " + list_text(v.shape) + ") in " +
             where);
  }
  return v.elements[0];
}

/// Below and above must have equal lengths, equal to the rank of arg.
void check_ranks(std::span<const std::int64_t> below, std::span<const std::int64_t> above,
                 std::string_view below_name, std::string_view above_name, std::size_t rank) {
  if (below.size() != above.size()) {
    fail(Errc::shape_mismatch, below_name,
         "Ranks for " + std::string(below_name) + " (" + std::to_string(below.size()) + ") and " +
             std::string(above_name) + " (" + std::to_string(above.size()) +
             ") do not match: " + list_text(below) + " vs " + list_text(above));
  }
  adapters::require_length(below, below_name, rank,
                           "one per axis of arg, rank " + std::to_string(rank));
}

/// The mode limits of the library rule, and the non-negative result check.
void check_mode_limits(const std::vector<AxisPad>& pads, Mode mode,
                       const std::vector<std::int64_t>& arg_shape, std::string_view below_name,
                       std::string_view above_name) {
  switch (mode) {
    case Mode::edge:
      adapters::require_length_where_padded(pads, arg_shape, 1, below_name, above_name, "EDGE");
      break;
    case Mode::reflect:  // pads beyond D - 1 reflect repeatedly, so only the length is limited
      adapters::require_length_where_padded(pads, arg_shape, 2, below_name, above_name, "REFLECT");
      break;
    case Mode::symmetric:  // nGraph never checked this; its kernel reads out of bounds beyond D
      adapters::require_pads_at_most(pads, arg_shape, 0, below_name, above_name, "SYMMETRIC");
      break;
    default:
      break;
  }
  adapters::require_non_negative_output(pads, arg_shape, below_name, above_name);
}

PadSpec make_spec(std::vector<AxisPad> pads, Mode mode) {
  PadSpec spec;
  spec.axes = std::move(pads);
  spec.mode = mode;
  spec.negative_order = NegativeOrder::map_on_original;
  spec.negative_size = NegativeSize::error;
  return spec;
}

}  // namespace

PadSpec to_canonical(const PadV0& op, const ElementType& arg_type,
                     const std::vector<std::int64_t>& arg_shape) {
  const std::string where = "nGraph Pad v0";
  adapters::require_shape(arg_shape, "arg");
  adapters::require_not_numpy_only(arg_type, "arg", where);
  const Mode mode = adapters::parse_mode(op.pad_mode, kModes, "pad_mode", true, where);
  // v0 always takes the pad value as an input, so it is checked whatever the mode.
  std::string value = read_pad_value(op.arg_pad_value, arg_type, where);
  check_ranks(op.padding_below, op.padding_above, "padding_below", "padding_above",
              arg_shape.size());

  std::vector<AxisPad> pads = adapters::axis_pads(op.padding_below, op.padding_above);
  if (op.padding_interior) {
    const std::vector<std::int64_t>& interior = *op.padding_interior;
    adapters::require_length(interior, "padding_interior", arg_shape.size(),
                             "one per axis of arg, rank " + std::to_string(arg_shape.size()));
    for (std::size_t k = 0; k < interior.size(); ++k) {
      if (interior[k] < 0) {
        fail(Errc::out_of_range, "padding_interior",
             adapters::axis_text(k) + ": negative interior padding " + std::to_string(interior[k]) +
                 " (" + list_text(interior) + ")");
      }
      // Interior padding existed only before non-constant modes did.
      if (interior[k] > 0 && mode != Mode::constant) {
        fail(Errc::invalid_argument, "padding_interior",
             adapters::axis_text(k) + ": interior padding " + std::to_string(interior[k]) +
                 " is only defined for CONSTANT mode, got " + op.pad_mode);
      }
      pads[k].interior = interior[k];
    }
  }
  check_mode_limits(pads, mode, arg_shape, "padding_below", "padding_above");

  PadSpec spec = make_spec(std::move(pads), mode);
  if (mode == Mode::constant) spec.value = std::move(value);
  return spec;
}

PadSpec to_canonical(const PadV1& op, const ElementType& arg_type,
                     const std::vector<std::int64_t>& arg_shape) {
  const std::string where = "nGraph Pad v1";
  adapters::require_shape(arg_shape, "arg");
  adapters::require_not_numpy_only(arg_type, "arg", where);
  const Mode mode = adapters::parse_mode(op.pad_mode, kModes, "pad_mode", true, where);
  adapters::require_vector(op.pads_begin, "pads_begin");
  adapters::require_vector(op.pads_end, "pads_end");
  adapters::require_integer_type(op.pads_begin, "pads_begin", where);
  adapters::require_integer_type(op.pads_end, "pads_end", where);
  check_ranks(op.pads_begin.values, op.pads_end.values, "pads_begin", "pads_end", arg_shape.size());

  std::vector<AxisPad> pads = adapters::axis_pads(op.pads_begin.values, op.pads_end.values);
  check_mode_limits(pads, mode, arg_shape, "pads_begin", "pads_end");

  PadSpec spec = make_spec(std::move(pads), mode);
  // v1 checks the pad value only in CONSTANT mode; absent means zero.
  if (mode == Mode::constant && op.arg_pad_value) {
    spec.value = read_pad_value(*op.arg_pad_value, arg_type, where);
  }
  return spec;
}

}  // namespace padnd::ngraph
