// SPDX-License-Identifier: Apache-2.0
#include "bindings/openvino/pad_op.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <openvino/core/attribute_visitor.hpp>
#include <openvino/core/except.hpp>
#include <openvino/core/parallel.hpp>
#include <utility>

#include "bindings/openvino/element_types.hpp"
#include "padnd/error.hpp"
#include "padnd/padnd.hpp"

namespace padnd::openvino_extension {
namespace {

constexpr std::array kIndexModes = {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric,
                                    Mode::wrap};

Mode parse_mode(const std::string& name) {
  for (const Mode mode : kIndexModes) {
    if (mode_name(mode) == name) return mode;
  }
  OPENVINO_THROW("PadndPad: modes: unknown mode '", name,
                 "' (expected constant, edge, reflect, symmetric or wrap)");
}

/// The pad value's bytes from the value input (an element of the data's type).
std::string value_bytes(const ov::Tensor& value, const ElementType& type) {
  OPENVINO_ASSERT(value.get_size() == 1, "PadndPad: the pad value must hold one element, got ",
                  value.get_size());
  if (type.storage() == Storage::string) return *value.data<const std::string>();
  const auto* bytes = static_cast<const char*>(value.data());
  // Packed types hold the code in the byte's low bits, as padnd's PadSpec::value does.
  return {bytes, static_cast<std::size_t>(std::max<std::int64_t>(type.item_bytes(), 1))};
}

/// padnd's tasks on OpenVINO's threads (its TBB arena), beside the plugin's own work rather
/// than on a second pool competing with it.
void openvino_parallel_for(void*, std::int64_t task_count, padnd_task_fn task, void* context) {
  ov::parallel_for(static_cast<std::size_t>(task_count),
                   [&](std::size_t i) { task(context, static_cast<std::int64_t>(i)); });
}

/// A dimension for a dynamic one while inferring the others: long enough for any crop.
std::int64_t stand_in_length(std::int64_t begin, std::int64_t end) {
  return std::max<std::int64_t>(0, -begin) + std::max<std::int64_t>(0, -end) + 2;
}

}  // namespace

PadndPad::PadndPad(const ov::OutputVector& args, const PadSpec& spec) : ov::op::Op(args) {
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    pads_begin_.push_back(spec.axes[axis].begin);
    pads_end_.push_back(spec.axes[axis].end);
    interior_.push_back(spec.axes[axis].interior);
    const Mode mode = spec.axis_modes.empty() ? spec.mode : spec.axis_modes[axis].mode;
    modes_.emplace_back(mode_name(mode));
  }
  negative_order_ =
      spec.negative_order == NegativeOrder::crop_then_pad ? "crop_then_pad" : "map_on_original";
  negative_size_ = spec.negative_size == NegativeSize::error ? "error" : "clamp_to_zero";
  constructor_validate_and_infer_types();
}

PadSpec PadndPad::spec(std::string value) const {
  PadSpec spec;
  for (std::size_t axis = 0; axis < pads_begin_.size(); ++axis) {
    spec.axes.push_back({pads_begin_[axis], pads_end_[axis], interior_[axis]});
  }
  spec.mode = modes_.empty() ? Mode::constant : parse_mode(modes_.front());
  const bool one_mode = std::all_of(modes_.begin(), modes_.end(),
                                    [&](const std::string& m) { return m == modes_.front(); });
  if (!one_mode) {
    for (const std::string& name : modes_) spec.axis_modes.push_back({parse_mode(name)});
  }
  spec.value = std::move(value);
  spec.negative_order = negative_order_ == "crop_then_pad" ? NegativeOrder::crop_then_pad
                                                           : NegativeOrder::map_on_original;
  spec.negative_size =
      negative_size_ == "error" ? NegativeSize::error : NegativeSize::clamp_to_zero;
  return spec;
}

void PadndPad::validate_and_infer_types() {
  NODE_VALIDATION_CHECK(this, get_input_size() == 1 || get_input_size() == 2,
                        "expected data and an optional pad value, got ", get_input_size(),
                        " inputs");
  const ov::element::Type type = get_input_element_type(0);
  if (get_input_size() == 2) {
    NODE_VALIDATION_CHECK(this, get_input_element_type(1).compatible(type),
                          "the pad value's element type ", get_input_element_type(1),
                          " is not data's, ", type);
  }
  const ov::PartialShape& in = get_input_partial_shape(0);
  if (in.rank().is_dynamic()) {
    set_output_type(0, type, ov::PartialShape::dynamic(pads_begin_.size()));
    return;
  }
  NODE_VALIDATION_CHECK(this,
                        in.size() == pads_begin_.size() && in.size() == pads_end_.size() &&
                            in.size() == interior_.size() && in.size() == modes_.size(),
                        "data rank ", in.size(), " needs one pad, interior and mode per axis");
  std::vector<std::int64_t> shape;
  for (std::size_t axis = 0; axis < in.size(); ++axis) {
    shape.push_back(in[axis].is_static() ? in[axis].get_length()
                                         : stand_in_length(pads_begin_[axis], pads_end_[axis]));
  }
  std::vector<std::int64_t> out;
  try {
    out = infer_shape(shape, spec({}));
  } catch (const Error& e) {
    NODE_VALIDATION_CHECK(this, false, e.what());
  }
  ov::PartialShape result(std::vector<ov::Dimension>(out.begin(), out.end()));
  for (std::size_t axis = 0; axis < in.size(); ++axis) {
    if (in[axis].is_dynamic()) result[axis] = ov::Dimension::dynamic();
  }
  set_output_type(0, type, result);
}

std::shared_ptr<ov::Node> PadndPad::clone_with_new_inputs(const ov::OutputVector& args) const {
  check_new_args_count(this, args);
  return std::make_shared<PadndPad>(args, spec({}));
}

bool PadndPad::visit_attributes(ov::AttributeVisitor& visitor) {
  visitor.on_attribute("pads_begin", pads_begin_);
  visitor.on_attribute("pads_end", pads_end_);
  visitor.on_attribute("interior", interior_);
  visitor.on_attribute("modes", modes_);
  visitor.on_attribute("negative_order", negative_order_);
  visitor.on_attribute("negative_size", negative_size_);
  return true;
}

bool PadndPad::has_evaluate() const { return true; }

bool PadndPad::evaluate(ov::TensorVector& outputs, const ov::TensorVector& inputs) const {
  const ov::Tensor& data = inputs[0];
  const ElementType type = padnd_type(data.get_element_type(), "PadndPad data");
  std::string value;
  if (inputs.size() == 2) value = value_bytes(inputs[1], type);
  const ov::Shape& dims = data.get_shape();
  try {
    const Plan plan = make_plan(type, {dims.begin(), dims.end()}, {}, spec(std::move(value)));
    const auto plan_shape = plan.output_shape();
    const ov::Shape out_shape(plan_shape.begin(), plan_shape.end());
    // The plugin hands a static-shaped output over allocated: setting its shape again would
    // allocate a new one (fresh pages) every call.
    if (outputs[0].get_shape() != out_shape) outputs[0].set_shape(out_shape);
    ExecOptions options;
    options.parallel_for = openvino_parallel_for;
    execute(plan, data.data(), outputs[0].data(),
            static_cast<std::int64_t>(outputs[0].get_byte_size()), options);
  } catch (const Error& e) {
    OPENVINO_THROW("PadndPad: ", e.what());
  }
  return true;
}

}  // namespace padnd::openvino_extension
