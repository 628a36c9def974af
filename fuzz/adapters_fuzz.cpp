// SPDX-License-Identifier: Apache-2.0
// Every spec adapter on arguments drawn from the fuzzer's bytes: each either throws
// padnd::Error or gives a canonical request, which is then planned and checked against the
// reference (fuzz_support.hpp).
#include <string>

#include "fuzz_support.hpp"

namespace {

using padnd::fuzz::draw_pads;

std::string draw_mode(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return in.ConsumeRandomLengthString(12);
  return in.PickValueInArray({"constant", "edge", "reflect", "symmetric", "wrap", "CONSTANT",
                              "Edge", "REFLECT", "linear_ramp", "maximum", "mean", "median",
                              "minimum", "empty"});
}

padnd::IntTensor draw_int_tensor(FuzzedDataProvider& in, std::size_t max_count) {
  padnd::IntTensor t = padnd::IntTensor::vector(draw_pads(in, max_count));
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) t.type = padnd::fuzz::draw_type(in);
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) t.shape = draw_pads(in, 2);
  return t;
}

padnd::ValueTensor draw_value_tensor(FuzzedDataProvider& in, const padnd::ElementType& type) {
  padnd::ValueTensor v = padnd::ValueTensor::scalar(type, padnd::fuzz::draw_element(in, type));
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) v.type = padnd::fuzz::draw_type(in);
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) v.shape = draw_pads(in, 2);
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) v.elements.push_back("xy");
  return v;
}

padnd::PadSpec onnx_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                         const std::vector<std::int64_t>& shape) {
  padnd::onnx::PadNode node;
  node.opset = in.ConsumeIntegralInRange<int>(0, 30);
  node.input_count = in.ConsumeIntegralInRange<int>(0, 5);
  if (in.ConsumeBool()) node.mode = draw_mode(in);
  if (in.ConsumeBool()) node.paddings = draw_pads(in, 2 * shape.size() + 1);
  if (in.ConsumeBool()) node.pads_attr = draw_pads(in, 2 * shape.size() + 1);
  if (in.ConsumeBool()) node.value = in.ConsumeFloatingPoint<float>();
  if (in.ConsumeBool()) node.pads = draw_int_tensor(in, 2 * shape.size() + 1);
  if (in.ConsumeBool()) node.constant_value = draw_value_tensor(in, type);
  if (in.ConsumeBool()) node.axes = draw_int_tensor(in, shape.size() + 1);
  return padnd::onnx::to_canonical(node, type, shape);
}

padnd::PadSpec openvino_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                             const std::vector<std::int64_t>& shape) {
  padnd::openvino::PadOp op;
  op.version = in.ConsumeIntegralInRange<int>(0, 13);
  op.pad_mode = draw_mode(in);
  op.pads_begin = draw_int_tensor(in, shape.size() + 1);
  op.pads_end = draw_int_tensor(in, shape.size() + 1);
  if (in.ConsumeBool()) op.pad_value = draw_value_tensor(in, type);
  op.allow_negative_pads_v1 = in.ConsumeBool();
  return padnd::openvino::to_canonical(op, type, shape);
}

padnd::PadSpec ngraph_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                           const std::vector<std::int64_t>& shape) {
  if (in.ConsumeBool()) {
    padnd::ngraph::PadV0 op;
    op.arg_pad_value = draw_value_tensor(in, type);
    op.padding_below = draw_pads(in, shape.size() + 1);
    op.padding_above = draw_pads(in, shape.size() + 1);
    if (in.ConsumeBool()) op.padding_interior = draw_pads(in, shape.size() + 1);
    op.pad_mode = draw_mode(in);
    return padnd::ngraph::to_canonical(op, type, shape);
  }
  padnd::ngraph::PadV1 op;
  op.pads_begin = draw_int_tensor(in, shape.size() + 1);
  op.pads_end = draw_int_tensor(in, shape.size() + 1);
  if (in.ConsumeBool()) op.arg_pad_value = draw_value_tensor(in, type);
  op.pad_mode = draw_mode(in);
  return padnd::ngraph::to_canonical(op, type, shape);
}

padnd::PadSpec numpy_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                          const std::vector<std::int64_t>& shape) {
  padnd::numpy::PadArgs args;
  const std::size_t rank = shape.size() + (in.ConsumeIntegralInRange<int>(0, 15) == 0 ? 1 : 0);
  for (std::size_t k = 0; k < rank; ++k) {
    args.pad_width.emplace_back(padnd::fuzz::draw_pad(in), padnd::fuzz::draw_pad(in));
  }
  args.modes = {draw_mode(in)};
  if (in.ConsumeBool()) args.modes.resize(shape.size(), args.modes[0]);
  for (std::string& m : args.modes) {
    if (in.ConsumeBool()) m = draw_mode(in);
  }
  const std::size_t value_count = in.ConsumeIntegralInRange<std::size_t>(0, rank);
  for (std::size_t k = 0; k < value_count; ++k) {
    args.constant_values.emplace_back(padnd::fuzz::draw_element(in, type),
                                      padnd::fuzz::draw_element(in, type));
    args.end_values.emplace_back(padnd::fuzz::draw_element(in, args.ramp_type),
                                 padnd::fuzz::draw_element(in, args.ramp_type));
    args.stat_length.emplace_back(in.ConsumeIntegralInRange<std::int64_t>(-1, 5),
                                  in.ConsumeIntegralInRange<std::int64_t>(-1, 5));
  }
  if (in.ConsumeBool()) args.reflect_type = in.ConsumeBool() ? "odd" : "bad";
  if (in.ConsumeBool()) args.negative = padnd::NegativeOrder::crop_then_pad;
  if (in.ConsumeBool()) args.interior = draw_pads(in, rank);
  return padnd::numpy::to_canonical(args, shape);
}

padnd::PadSpec any_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                        const std::vector<std::int64_t>& shape) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return onnx_spec(in, type, shape);
    case 1:
      return openvino_spec(in, type, shape);
    case 2:
      return ngraph_spec(in, type, shape);
    default:
      return numpy_spec(in, type, shape);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return padnd::fuzz::fuzz_requests(data, size, any_spec);
}
