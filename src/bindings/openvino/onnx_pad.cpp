// SPDX-License-Identifier: Apache-2.0
#include "bindings/openvino/onnx_pad.hpp"

#include <cstdint>
#include <memory>
#include <openvino/core/except.hpp>
#include <openvino/op/constant.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bindings/openvino/element_types.hpp"
#include "bindings/openvino/pad_op.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/error.hpp"

namespace padnd::openvino_extension {
namespace {

/// Whether input `index` is there: ONNX skips an optional input with an empty name, which the
/// frontend gives as a node of type NullNode (or leaves out when it is the last).
bool present(const ov::frontend::NodeContext& context, int index) {
  if (index >= static_cast<int>(context.get_input_size())) return false;
  return std::string(context.get_input(index).get_node()->get_type_name()) != "NullNode";
}

std::shared_ptr<ov::op::v0::Constant> constant_input(const ov::frontend::NodeContext& context,
                                                     int index, const char* name) {
  auto constant =
      ov::as_type_ptr<ov::op::v0::Constant>(context.get_input(index).get_node_shared_ptr());
  OPENVINO_ASSERT(constant, "Pad ", context.get_name(), ": input '", name,
                  "' must be a constant (an initializer) for padnd's Pad");
  return constant;
}

IntTensor int_tensor(const ov::op::v0::Constant& constant, const char* name) {
  IntTensor tensor;
  tensor.type = padnd_type(constant.get_element_type(), name);
  const ov::Shape& shape = constant.get_shape();
  if (shape.empty()) {
    // The frontend turns an empty initializer into a rank-0 zero; pads and axes are 1-D in
    // every Pad version, so a rank-0 one is that empty tensor.
    tensor.shape = {0};
    return tensor;
  }
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.values = constant.cast_vector<std::int64_t>();
  return tensor;
}

ValueTensor value_tensor(const ov::op::v0::Constant& constant) {
  ValueTensor tensor;
  tensor.type = padnd_type(constant.get_element_type(), "constant_value");
  const ov::Shape& shape = constant.get_shape();
  tensor.shape.assign(shape.begin(), shape.end());
  if (constant.get_element_type() == ov::element::string) {  // the texts, not the objects
    tensor.elements = constant.get_vector<std::string>();
    return tensor;
  }
  const std::size_t bytes = constant.get_element_type().size();
  const auto* data = static_cast<const char*>(constant.get_data_ptr());
  for (std::size_t i = 0; i < ov::shape_size(shape); ++i) {
    tensor.elements.emplace_back(data + i * bytes, bytes);
  }
  return tensor;
}

/// The ONNX node as padnd's adapter reads it. Pad-1 and Pad-2 are told apart by their attributes
/// (`paddings`, `pads`).
onnx::PadNode read_node(const ov::frontend::NodeContext& context, bool& dynamic_value) {
  onnx::PadNode node;
  node.input_count = static_cast<int>(context.get_input_size());
  if (context.has_attribute("mode")) node.mode = context.get_attribute<std::string>("mode");
  if (context.has_attribute("paddings")) {
    node.opset = 1;
    node.paddings = context.get_attribute<std::vector<std::int64_t>>("paddings");
  } else if (context.has_attribute("pads")) {
    node.opset = 2;
    node.pads_attr = context.get_attribute<std::vector<std::int64_t>>("pads");
  }
  if (context.has_attribute("value")) node.value = context.get_attribute<float>("value");
  if (node.opset <= 2) return node;
  // The frontend does not tell an extension the model's opset: the input forms (Pad-11 ... 25)
  // are read with Pad-25's rules, which accept what every earlier one does (docs/runtimes.md).
  node.opset = onnx::kLatestOpset;
  if (present(context, 1)) node.pads = int_tensor(*constant_input(context, 1, "pads"), "pads");
  if (present(context, 2)) {
    auto value = ov::as_type_ptr<ov::op::v0::Constant>(context.get_input(2).get_node_shared_ptr());
    dynamic_value = value == nullptr;
    if (value) node.constant_value = value_tensor(*value);
  }
  if (present(context, 3)) node.axes = int_tensor(*constant_input(context, 3, "axes"), "axes");
  return node;
}

/// A scalar constant holding `bytes` (one element of `type`).
ov::Output<ov::Node> scalar(const ov::element::Type& type, const std::string& bytes) {
  if (type == ov::element::string) {
    return std::make_shared<ov::op::v0::Constant>(type, ov::Shape{},
                                                  std::vector<std::string>{bytes});
  }
  std::vector<char> element(type.size(), 0);
  std::copy(bytes.begin(), bytes.end(), element.begin());
  return std::make_shared<ov::op::v0::Constant>(type, ov::Shape{}, element.data());
}

}  // namespace

ov::OutputVector convert_onnx_pad(const ov::frontend::NodeContext& context) {
  const ov::Output<ov::Node> data = context.get_input(0);
  const ov::PartialShape& shape = data.get_partial_shape();
  OPENVINO_ASSERT(shape.rank().is_static(), "Pad ", context.get_name(),
                  ": padnd's Pad needs data of a known rank");
  std::vector<std::int64_t> dims;  // the adapter reads only the rank; unknown lengths as 0
  for (const ov::Dimension& d : shape) dims.push_back(d.is_static() ? d.get_length() : 0);
  bool dynamic_value = false;
  const onnx::PadNode node = read_node(context, dynamic_value);
  const ov::element::Type type = data.get_element_type();
  PadSpec spec;
  try {
    spec = onnx::to_canonical(node, padnd_type(type, "data"), dims);
  } catch (const Error& e) {
    OPENVINO_THROW("Pad ", context.get_name(), ": ", e.what());
  }
  ov::OutputVector args{data};
  if (spec.mode == Mode::constant && dynamic_value) {
    args.push_back(context.get_input(2));
  } else if (spec.mode == Mode::constant && !spec.value.empty()) {
    args.push_back(scalar(type, spec.value));
  }
  return {std::make_shared<PadndPad>(args, spec)->output(0)};
}

}  // namespace padnd::openvino_extension
