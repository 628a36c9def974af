// SPDX-License-Identifier: Apache-2.0
// Extreme and invalid arguments at the C++ API's boundary: each must give padnd::Error naming
// the argument, the axis and the values (never undefined behaviour: this runs under UBSan too).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "padnd/padnd.hpp"

namespace {

using padnd::DType;
using padnd::ElementType;
using padnd::Errc;
using padnd::Error;
using padnd::Mode;
using padnd::PadSpec;

constexpr std::int64_t kHuge = std::int64_t{1} << 62;

PadSpec pads(std::vector<padnd::AxisPad> axes, Mode mode = Mode::constant) {
  PadSpec spec;
  spec.axes = std::move(axes);
  spec.mode = mode;
  return spec;
}

/// Runs `f`, expects padnd::Error of `code` whose message holds every one of `parts`.
template <class F>
void expect_error(F&& f, Errc code, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const std::string& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << e.what() << "\n  lacks: " << part;
  }
}

TEST(HostileApi, InputStridesWhoseExtentOverflowsAreRejected) {
  // A crop of 2 at a stride of 2**62 would address byte 2**63.
  expect_error(
      [] {
        padnd::make_plan(DType::float32, {3}, {kHuge}, pads({{-2, 0}}, Mode::edge));
      },
      Errc::overflow, {"strides", "axis 0", "4611686018427387904"});
  expect_error(
      [] {
        padnd::make_plan(DType::uint8, {2, 2}, {kHuge, -kHuge}, pads({{0, 0}, {0, 0}}));
      },
      Errc::overflow, {"strides", "axis 1"});
  // A dense input whose bytes do not fit: its strides would not.
  expect_error(
      [] {
        padnd::make_plan(DType::float32, {kHuge / 2, 2}, {}, pads({{0, 0}, {0, 0}}));
      },
      Errc::overflow, {"4611686018427387904 elements", "float32"});
}

TEST(HostileApi, EmptyInputsOfHugeAxesPlanWithoutOverflow) {
  // 2**31 * 2**31 elements fit in int64, their float32 bytes do not: the dense strides of this
  // empty input would overflow.
  constexpr std::int64_t kLong = std::int64_t{1} << 31;
  for (const std::vector<std::int64_t>& strides :
       {std::vector<std::int64_t>{}, std::vector<std::int64_t>{4, 4, 4 * kLong}}) {
    const padnd::Plan plan = padnd::make_plan(DType::float32, {0, kLong, kLong}, strides,
                                              pads({{0, 0}, {-1, 2}, {0, 0}}));
    EXPECT_EQ(plan.output_elements(), 0);
    EXPECT_EQ(plan.output_shape()[1], kLong + 1);
  }
}

TEST(HostileApi, ElementCountOfHugeLengthsAndAZeroFailsInAnyOrder) {
  EXPECT_EQ(padnd::element_count(std::vector<std::int64_t>{0, std::int64_t{1} << 31, 7}), 0);
  for (const std::vector<std::int64_t>& shape :
       {std::vector<std::int64_t>{0, kHuge, kHuge}, std::vector<std::int64_t>{kHuge, kHuge, 0}}) {
    expect_error([&] { padnd::element_count(shape); }, Errc::overflow,
                 {"shape", "overflows int64", "4611686018427387904"});
  }
}

TEST(HostileApi, OutputCountOverflowNamesTheOutputShape) {
  const std::vector<std::int64_t> shape{1, 1};
  const PadSpec spec = pads({{std::int64_t{1} << 32, 0}, {std::int64_t{1} << 32, 0}});
  expect_error([&] { (void)padnd::make_plan(ElementType{DType::uint8}, shape, {}, spec); },
               Errc::overflow,
               {"output shape (the input's lengths with their pads): element count overflows "
                "int64 at axis 1 (length 4294967297)"});
}

/// Every adapter checks the data's shape before comparing pads with it (docs/spec.md §1.2):
/// a reflect limit of length - 1 on INT64_MIN would overflow.
TEST(HostileApi, AdaptersRejectNegativeDataLengthsFirst) {
  const std::vector<std::int64_t> shape{2, std::numeric_limits<std::int64_t>::min()};
  const std::vector<std::string> named{"shape: axis 1 has negative length -9223372036854775808"};
  padnd::openvino::PadOp ov;
  ov.pad_mode = "reflect";
  ov.pads_begin = padnd::IntTensor::vector({0, 1});
  ov.pads_end = padnd::IntTensor::vector({0, 0});
  expect_error([&] { padnd::openvino::to_canonical(ov, DType::float32, shape); },
               Errc::invalid_argument, {"data shape", named[0]});
  padnd::ngraph::PadV1 v1;
  v1.pads_begin = ov.pads_begin;
  v1.pads_end = ov.pads_end;
  v1.pad_mode = "reflect";
  expect_error([&] { padnd::ngraph::to_canonical(v1, DType::float32, shape); },
               Errc::invalid_argument, {"arg shape", named[0]});
  padnd::onnx::PadNode node;
  node.opset = 18;
  node.input_count = 2;
  node.mode = "reflect";
  node.pads = padnd::IntTensor::vector({0, 1, 0, 0});
  expect_error([&] { padnd::onnx::to_canonical(node, DType::float32, shape); },
               Errc::invalid_argument, {"data shape", named[0]});
  padnd::numpy::PadArgs args;
  args.pad_width = {{0, 0}, {1, 0}};
  args.modes = {"reflect"};
  expect_error([&] { padnd::numpy::to_canonical(args, shape); }, Errc::invalid_argument,
               {"array shape", named[0]});
}

TEST(HostileApi, OutOfRangeEnumsAreRejected) {
  expect_error(
      [] {
        padnd::make_plan(static_cast<DType>(200), {2}, {}, pads({{1, 1}}));
      },
      Errc::unsupported_type, {"type", "200"});
  expect_error(
      [] {
        padnd::infer_shape({2}, pads({{1, 1}}, static_cast<Mode>(77)));
      },
      Errc::invalid_argument, {"mode", "77"});
  PadSpec order = pads({{1, 1}}, Mode::edge);
  order.negative_order = static_cast<padnd::NegativeOrder>(9);
  expect_error([&] { padnd::infer_shape({2}, order); }, Errc::invalid_argument,
               {"negative_order", "9"});
  PadSpec size = pads({{1, 1}});
  size.negative_size = static_cast<padnd::NegativeSize>(5);
  expect_error([&] { padnd::infer_shape({2}, size); }, Errc::invalid_argument,
               {"negative_size", "5"});
  PadSpec axis = pads({{1, 1}, {0, 0}});
  axis.axis_modes.resize(2);
  axis.axis_modes[1].mode = static_cast<Mode>(10);
  expect_error(
      [&] {
        padnd::infer_shape({2, 2}, axis);
      },
      Errc::invalid_argument, {"axis_modes", "axis 1", "10"});
  PadSpec ramp = pads({{1, 1}}, Mode::linear_ramp);
  ramp.ramp_type = static_cast<DType>(99);
  expect_error([&] { padnd::make_plan(DType::float32, {2}, {}, ramp); }, Errc::unsupported_type,
               {"ramp_type", "99"});
  const padnd::Plan plan = padnd::make_plan(DType::uint8, {2}, {}, pads({{1, 1}}));
  std::vector<std::uint8_t> in(2), out(4);
  padnd::ExecOptions bad_streaming;
  bad_streaming.streaming = static_cast<padnd::Streaming>(3);
  expect_error([&] { padnd::execute(plan, in.data(), out.data(), 4, bad_streaming); },
               Errc::invalid_argument, {"streaming", "3"});
  padnd::ExecOptions bad_threads;
  bad_threads.threads = -2;
  expect_error([&] { padnd::execute(plan, in.data(), out.data(), 4, bad_threads); },
               Errc::invalid_argument, {"threads", "-2"});
  const padnd::Window whole{{0}, {4}};  // both window overloads check the options too
  expect_error([&] { padnd::execute_window(plan, in.data(), whole, out.data(), 4, bad_threads); },
               Errc::invalid_argument, {"threads", "-2"});
  const std::vector<std::int64_t> dense{1};
  expect_error(
      [&] { padnd::execute_window(plan, in.data(), whole, out.data(), dense, bad_streaming); },
      Errc::invalid_argument, {"streaming", "3"});
}

// Stride 0 lets 2**61 float64 elements live in 8 bytes; cropping to one element, the executor
// once multiplied the input's element count by the item size to size its tasks (UBSan).
TEST(HostileApi, ZeroStrideInputOfMoreElementsThanBytesCanCount) {
  const std::int64_t n = std::int64_t{1} << 61;
  const padnd::Plan plan =
      padnd::make_plan(DType::float64, {n}, {0}, pads({{-(n - 1), 0}}, Mode::constant));
  const double in = 2.5;
  double out = 0;
  padnd::execute(plan, &in, &out, sizeof out);
  EXPECT_EQ(out, 2.5);
}

TEST(HostileApi, StringPlanOfAnEmptyNullInput) {
  const padnd::Plan plan = padnd::make_plan(DType::string, {0}, {}, pads({{2, 1}}));
  std::vector<std::string> out(3, "x");
  padnd::execute(plan, nullptr, out.data(), 3 * sizeof(std::string));
  EXPECT_EQ(out, std::vector<std::string>(3));
  const padnd::Plan crop = padnd::make_plan(DType::string, {2, 0}, {}, pads({{-1, 0}, {1, 0}}));
  std::vector<std::string> one(1, "y");
  padnd::execute(crop, nullptr, one.data(), sizeof(std::string));
  EXPECT_EQ(one, std::vector<std::string>(1));
}

TEST(HostileApi, WindowStridesWhoseExtentOverflowsAreRejected) {
  const padnd::Plan plan = padnd::make_plan(DType::float32, {4, 4}, {}, pads({{1, 1}, {1, 1}}));
  std::vector<float> in(16);
  std::vector<float> out(64);
  const padnd::Window window{{0, 0}, {3, 2}};
  const std::vector<std::int64_t> strides{kHuge, 4};
  expect_error([&] { padnd::execute_window(plan, in.data(), window, out.data(), strides); },
               Errc::overflow, {"output strides", "axis 0", "4611686018427387904"});
}

}  // namespace

namespace {

// Found by plan_execute_fuzz: interior 2**62 on an axis of one element (valid: its dilated
// length is 1) made fill_then_place multiply the unused step by the row bytes (UBSan).
TEST(HostileApi, HugeInteriorOnALengthOneAxis) {
  PadSpec spec = pads({{1, 1, kHuge}, {1, 1, 0}});
  spec.axis_modes.resize(2);
  spec.axis_modes[1].mode = Mode::symmetric;
  spec.value = std::string("\x07\x00", 2);
  const std::vector<std::uint16_t> in{1, 2, 3, 4, 5, 6};
  const padnd::Plan plan = padnd::make_plan(DType::float16, {1, 6}, {}, spec);
  ASSERT_EQ(plan.output_elements(), 3 * 8);
  std::vector<std::uint16_t> out(24);
  padnd::execute(plan, in.data(), out.data(), 48);
  const std::vector<std::uint16_t> middle{1, 1, 2, 3, 4, 5, 6, 6};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i], 7) << i;
    EXPECT_EQ(out[8 + i], middle[i]) << i;
    EXPECT_EQ(out[16 + i], 7) << i;
  }
}

}  // namespace

namespace {

// Found by plan_execute_fuzz: an empty input whose empty axis is constant-padded gives a
// non-empty array to a later axis's maximum; with a stat_length of 0 that pass read past its
// lane (ASan). numpy's order defines it: the pass reads a non-empty array, so stat_length 0
// yields no value, as numpy says; with a stat_length of 1 it is the constant fill.
TEST(HostileApi, StatisticAfterAnEmptyAxisWasPadded) {
  PadSpec spec = pads({{2, 1}, {1, 1}, {1, 1}});
  spec.axis_modes.resize(3);
  spec.axis_modes[2].mode = Mode::maximum;
  spec.axis_modes[2].end_stat_elems = 0;
  expect_error(
      [&] {
        padnd::make_plan(DType::boolean, {3, 0, 3}, {}, spec);
      },
      Errc::invalid_argument, {"stat_length", "axis 2", "yields no value"});
  expect_error(
      [&] {
        padnd::infer_shape({3, 0, 3}, spec);
      },
      Errc::invalid_argument, {"stat_length", "axis 2"});
  spec.axis_modes[2].end_stat_elems = 1;
  spec.axis_modes[0].begin_value = std::string(1, '\1');  // axis 0's begin rows: true
  const padnd::Plan plan = padnd::make_plan(DType::boolean, {3, 0, 3}, {}, spec);
  ASSERT_EQ(plan.output_elements(), 6 * 2 * 5);
  std::vector<std::uint8_t> out(60, 9);
  padnd::execute(plan, nullptr, out.data(), 60);
  for (std::size_t i = 0; i < 60; ++i) EXPECT_EQ(out[i], 0) << i;  // axis 1 fills them all
}

}  // namespace
