// SPDX-License-Identifier: Apache-2.0
// A consumer of an installed / embedded padnd: pads one tensor and checks the result.
#include <padnd/padnd.hpp>

#include <cstdio>
#include <cstring>

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
  std::puts("consumer: ok");
  return 0;
}
