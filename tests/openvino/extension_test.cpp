// SPDX-License-Identifier: Apache-2.0
// libpadnd_openvino loaded into a C++ program through ov::Core::add_extension(path), as a C++
// user of OpenVINO loads it: an ONNX model whose Pad is wrap (which OpenVINO's own frontend
// refuses) is read, compiled for the CPU and run, and equals padnd's ONNX Pad-19.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <openvino/openvino.hpp>
#include <string>
#include <vector>

#include "padnd/adapters/onnx.hpp"
#include "padnd/padnd.hpp"

namespace {

TEST(OpenVinoExtension, RunsAnOnnxWrapPadThroughAddExtension) {
  ov::Core core;
  core.add_extension(PADND_OPENVINO_EXTENSION);
  const std::shared_ptr<ov::Model> model = core.read_model(PADND_OPENVINO_MODEL);
  bool has_padnd_pad = false;
  for (const auto& op : model->get_ops()) {
    has_padnd_pad |= std::string(op->get_type_name()) == "PadndPad";
  }
  EXPECT_TRUE(has_padnd_pad);

  std::vector<float> input(6);
  std::iota(input.begin(), input.end(), 1.0F);
  ov::InferRequest request = core.compile_model(model, "CPU").create_infer_request();
  request.set_input_tensor(ov::Tensor(ov::element::f32, ov::Shape{2, 3}, input.data()));
  request.infer();
  const ov::Tensor output = request.get_output_tensor();

  padnd::onnx::PadNode node;
  node.opset = 19;
  node.mode = "wrap";
  node.pads = padnd::IntTensor::vector({1, 2, 2, 1});
  const padnd::PadSpec spec = padnd::onnx::to_canonical(node, padnd::DType::float32, {2, 3});
  const padnd::Plan plan = padnd::make_plan(padnd::DType::float32, {2, 3}, {}, spec);
  std::vector<float> expected(static_cast<std::size_t>(plan.output_elements()));
  padnd::execute(plan, input.data(), expected.data(), plan.output_bytes());

  ASSERT_EQ(output.get_shape(), (ov::Shape{5, 6}));
  const auto* got = output.data<const float>();
  EXPECT_EQ(std::vector<float>(got, got + output.get_size()), expected);
}

TEST(OpenVinoExtension, WithoutItOpenVinoRefusesTheModel) {
  ov::Core core;  // OpenVINO's own ONNX frontend has no wrap mode
  EXPECT_THROW(core.compile_model(core.read_model(PADND_OPENVINO_MODEL), "CPU"), ov::Exception);
}

}  // namespace
