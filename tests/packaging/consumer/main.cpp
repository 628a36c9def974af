// SPDX-License-Identifier: Apache-2.0
// A consumer of an installed / embedded padnd: pads one tensor and checks the result.
#include <cstdio>
#include <cstring>
#include <padnd/padnd.hpp>

int main() {
  const float in[3] = {1, 2, 3};
  padnd::PadSpec spec;
  spec.axes = {padnd::AxisPad{2, 1, 0}};
  spec.mode = padnd::Mode::reflect;
  const padnd::Tensor out = padnd::pad(padnd::TensorView{in, padnd::DType::float32, {3}, {}}, spec);
  const float expected[6] = {3, 2, 1, 2, 3, 2};
  if (out.size() != 6 || std::memcmp(out.data(), expected, sizeof expected) != 0) {
    std::puts("consumer: wrong result");
    return 1;
  }
  // An error thrown inside the library is caught here as padnd::Error (its type information
  // must cross a shared library's boundary).
  try {
    (void)padnd::onnx::to_canonical(padnd::onnx::PadNode{}, padnd::DType::float32, {0});
    std::puts("consumer: no error for an ONNX Pad without pads");
    return 1;
  } catch (const padnd::Error& e) {
    std::printf("consumer: caught padnd::Error (%s)\n", e.what());
  }
  std::puts("consumer: ok");
  return 0;
}
