// SPDX-License-Identifier: Apache-2.0
// ONNX Pad-1 ... Pad-25 -> canonical PadSpec, with the validation of docs/spec.md §4.5.
#include "padnd/adapters/onnx.hpp"

#include <array>
#include <string>

#include "adapters/checks.hpp"

namespace padnd::onnx {
namespace {

using adapters::fail;
using adapters::list_text;

/// Every Pad version, by the opset that introduced it.
constexpr std::array<int, 10> kVersions{1, 2, 11, 13, 18, 19, 21, 23, 24, 25};

/// "ONNX Pad-13 (opset 15)": the context every message refers to.
std::string context_text(int version, int opset) {
  return "ONNX Pad-" + std::to_string(version) + " (opset " + std::to_string(opset) + ")";
}

/// T of each Pad version (docs/spec.md §4.2). Later lists extend earlier ones, so a type is allowed
/// from the first version that lists it onwards, except that Pad-1/2 are floats only.
bool type_allowed_at_version(int version, const ElementType& type) {
  switch (type.dtype) {
    case DType::float16:
    case DType::float32:
    case DType::float64:
      return true;
    case DType::uint8:
    case DType::uint16:
    case DType::uint32:
    case DType::uint64:
    case DType::int8:
    case DType::int16:
    case DType::int32:
    case DType::int64:
      return version >= 11;  // all_numeric_types
    case DType::bfloat16:
    case DType::string:
    case DType::boolean:
    case DType::complex64:
    case DType::complex128:
      return version >= 13;  // all_tensor_types_ir4
    case DType::float8e4m3fn:
    case DType::float8e4m3fnuz:
    case DType::float8e5m2:
    case DType::float8e5m2fnuz:
    case DType::uint4:
    case DType::int4:
      return version >= 21;  // ir10
    case DType::float4e2m1:
      return version >= 23;  // ir11
    case DType::float8e8m0:
      return version >= 24;  // ir12
    case DType::uint2:
    case DType::int2:
      return version >= 25;   // ir13
    case DType::datetime64:   // numpy's
    case DType::timedelta64:  // numpy's
    case DType::longdouble:   // numpy's
    case DType::clongdouble:  // numpy's
    case DType::opaque:
      return false;
  }
  return false;
}

/// "; it is allowed from Pad-21 (opset 21)": where a rejected type becomes available.
std::string first_allowed_text(const ElementType& type) {
  for (int v : kVersions) {
    if (type_allowed_at_version(v, type)) {
      return "; it is allowed from Pad-" + std::to_string(v) + " (opset " + std::to_string(v) + ")";
    }
  }
  return "; no ONNX Pad version allows it";
}

/// The Pad-1/2 `value` FLOAT attribute converted to T (float16 rounds to nearest even, double
/// widens exactly), as element bytes.
std::string float_attribute_bytes(float value, const ElementType& type) {
  std::string bytes;
  const auto append = [&bytes](const auto& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    bytes.append(p, sizeof(v));
  };
  switch (type.dtype) {
    case DType::float16:
      append(adapters::float_to_half_bits(value));
      break;
    case DType::float64:
      append(static_cast<double>(value));
      break;
    default:  // float32 (the only other Pad-1/2 type)
      append(value);
      break;
  }
  return bytes;
}

constexpr std::array<adapters::ModeName, 4> kModes{{
    {"constant", Mode::constant},
    {"reflect", Mode::reflect},
    {"edge", Mode::edge},
    {"wrap", Mode::wrap},  // Pad-19 and later
}};

/// Rejects attributes and inputs the node's Pad version does not have, and bad input counts.
void check_signature(const PadNode& node, int version, const std::string& where) {
  const auto absent = [&](bool present, std::string_view name, const std::string& why) {
    if (present) fail(Errc::invalid_argument, name, why);
  };
  if (version < 18) {
    absent(node.axes.has_value(), "axes",
           "input does not exist in " + where + "; it was added in Pad-18 (opset 18)");
  }
  if (version == 1) {
    absent(node.pads_attr.has_value(), "pads",
           "attribute does not exist in " + where + "; Pad-1 takes `paddings`");
  }
  if (version == 2) {
    absent(node.paddings.has_value(), "paddings",
           "attribute does not exist in " + where + "; Pad-2 renamed it to `pads`");
  }
  if (version <= 2) {
    const std::string why = "input does not exist in " + where + "; Pad-1/2 take only `data`";
    absent(node.pads.has_value(), "pads", why + " (pads are an attribute)");
    absent(node.constant_value.has_value(), "constant_value",
           why + " (the pad value is the `value` attribute)");
  } else {
    const std::string why =
        "attribute does not exist in " + where + "; since Pad-11 pads and the pad value are inputs";
    absent(node.paddings.has_value(), "paddings", why);
    absent(node.pads_attr.has_value(), "pads", why + " (`pads` is input 1)");
    absent(node.value.has_value(), "value", why + " (use the `constant_value` input)");
  }

  const int min_inputs = version <= 2 ? 1 : 2;
  const int max_inputs = version <= 2 ? 1 : (version < 18 ? 3 : 4);
  if (node.input_count < min_inputs || node.input_count > max_inputs) {
    const std::string range = min_inputs == max_inputs
                                  ? "exactly " + std::to_string(min_inputs)
                                  : std::to_string(min_inputs) + ".." + std::to_string(max_inputs);
    fail(Errc::invalid_argument, "inputs",
         where + " takes " + range + " input(s); the node has " + std::to_string(node.input_count));
  }
  const auto within_count = [&](bool present, std::string_view name, int position) {
    if (present && node.input_count < position + 1) {
      fail(Errc::invalid_argument, name,
           "given as input " + std::to_string(position) + " but the node has only " +
               std::to_string(node.input_count) + " input(s)");
    }
  };
  within_count(node.constant_value.has_value(), "constant_value", 2);
  within_count(node.axes.has_value(), "axes", 3);
}

/// The pad amounts of the node (attribute or input), checked for type and shape.
std::vector<std::int64_t> read_pads(const PadNode& node, int version, const std::string& where) {
  if (version == 1) {
    if (!node.paddings) {
      fail(Errc::invalid_argument, "paddings", "attribute is required by " + where);
    }
    return *node.paddings;
  }
  if (version == 2) {
    if (!node.pads_attr) fail(Errc::invalid_argument, "pads", "attribute is required by " + where);
    return *node.pads_attr;
  }
  if (!node.pads) {
    fail(Errc::invalid_argument, "pads", "input 1 is required by " + where);
  }
  constexpr std::array<DType, 1> kPadsTypes{DType::int64};
  adapters::require_type_in(*node.pads, "pads", kPadsTypes, where);
  adapters::require_vector(*node.pads, "pads");
  return node.pads->values;
}

/// The axis each pad pair belongs to: `axes` normalised (Pad-18+), or every axis in order.
std::vector<std::size_t> read_axes(const PadNode& node, std::size_t rank,
                                   const std::string& where) {
  std::vector<std::size_t> axes;
  if (!node.axes) {
    for (std::size_t k = 0; k < rank; ++k) axes.push_back(k);
    return axes;
  }
  constexpr std::array<DType, 2> kAxesTypes{DType::int32, DType::int64};
  adapters::require_type_in(*node.axes, "axes", kAxesTypes, where);
  adapters::require_vector(*node.axes, "axes");
  const auto r = static_cast<std::int64_t>(rank);
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < node.axes->values.size(); ++i) {
    const std::int64_t a = node.axes->values[i];
    if (a < -r || a >= r) {
      fail(Errc::out_of_range, "axes",
           "value " + std::to_string(a) + " at position " + std::to_string(i) + " is outside [" +
               std::to_string(-r) + ", " + std::to_string(r - 1) + "] for data of rank " +
               std::to_string(rank) + " (axes = " + list_text(node.axes->values) + ")");
    }
    const auto axis = static_cast<std::size_t>(a < 0 ? a + r : a);
    if (seen[axis]) {  // the text leaves repeats undefined; shape inference rejects them
      fail(Errc::invalid_argument, "axes",
           "axis " + std::to_string(axis) +
               " is referred to more than once (axes = " + list_text(node.axes->values) + ")");
    }
    seen[axis] = true;
    axes.push_back(axis);
  }
  return axes;
}

/// The single element of `constant_value` (rank 0, or rank 1 of length 1).
const std::string& read_constant_value(const ValueTensor& v, const ElementType& data_type,
                                       const std::string& where) {
  adapters::require_consistent(v, "constant_value");
  // Same type variable T as data, so checked whatever the mode.
  adapters::require_same_type(v, "constant_value", data_type, where);
  const bool single = v.elements.size() == 1 && v.shape.size() <= 1;
  if (!single) {
    fail(Errc::shape_mismatch, "constant_value",
         "must be a scalar (one element; rank 0, or rank 1 of length 1), got shape " +
             list_text(v.shape) + " with " + std::to_string(v.elements.size()) + " element(s)");
  }
  return v.elements[0];
}

}  // namespace

int pad_version(int opset) {
  if (opset < 1 || opset > kNewestKnownOpset) {
    fail(Errc::invalid_argument, "opset",
         "ONNX opset " + std::to_string(opset) + " is not supported; padnd knows opsets 1.." +
             std::to_string(kNewestKnownOpset));
  }
  int version = 1;
  for (int v : kVersions) {
    if (v <= opset) version = v;
  }
  return version;
}

bool type_allowed(int opset, const ElementType& type) {
  return type_allowed_at_version(pad_version(opset), type);
}

PadSpec to_canonical(const PadNode& node, const ElementType& data_type,
                     const std::vector<std::int64_t>& data_shape) {
  const int version = pad_version(node.opset);
  adapters::require_shape(data_shape, "data");
  const std::string where = context_text(version, node.opset);
  if (!type_allowed_at_version(version, data_type)) {
    fail(Errc::unsupported_type, "data",
         "element type " + data_type.name() + " is not allowed by " + where +
             first_allowed_text(data_type));
  }
  check_signature(node, version, where);

  const std::span<const adapters::ModeName> modes(kModes.data(), version >= 19 ? 4 : 3);
  const Mode mode =
      adapters::parse_mode(node.mode.value_or("constant"), modes, "mode", false, where);

  const std::vector<std::int64_t> pads = read_pads(node, version, where);
  const std::vector<std::size_t> axes = read_axes(node, data_shape.size(), where);
  const std::string_view pads_name = version == 1 ? "paddings" : "pads";
  const std::string expected = node.axes
                                   ? "2 * len(axes) = 2 * " + std::to_string(axes.size())
                                   : "2 * data rank = 2 * " + std::to_string(data_shape.size());
  adapters::require_length(pads, pads_name, 2 * axes.size(), expected);

  PadSpec spec;
  spec.axes.resize(data_shape.size());
  const std::size_t k = axes.size();
  for (std::size_t i = 0; i < k; ++i) {  // layout: all begins, then all ends
    spec.axes[axes[i]].begin = pads[i];
    spec.axes[axes[i]].end = pads[i + k];
  }
  spec.mode = mode;
  spec.negative_order = NegativeOrder::crop_then_pad;
  spec.negative_size = NegativeSize::error;

  // The value is only read in constant mode; elsewhere it stays empty (ignored, docs/spec.md §4.3).
  if (node.constant_value) {
    const std::string& element = read_constant_value(*node.constant_value, data_type, where);
    if (mode == Mode::constant) spec.value = element;
  }
  if (node.value && mode == Mode::constant) {
    spec.value = float_attribute_bytes(*node.value, data_type);
  }
  return spec;
}

}  // namespace padnd::onnx
