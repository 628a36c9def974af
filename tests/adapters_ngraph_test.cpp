// SPDX-License-Identifier: Apache-2.0
// nGraph adapter: one test per rule of the library rule in docs/spec.md §6.4 (v0 and v1).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "padnd/adapters/ngraph.hpp"
#include "padnd/plan.hpp"
#include "spec/helpers.hpp"

namespace padnd {
namespace {

using ngraph::PadV0;
using ngraph::PadV1;
using test::expect_error;

PadV0 v0(std::vector<std::int64_t> below, std::vector<std::int64_t> above,
         const char* mode = "CONSTANT", double value = 0) {
  PadV0 op;
  op.arg_pad_value = test::scalar_value(DType::float32, value);
  op.padding_below = std::move(below);
  op.padding_above = std::move(above);
  op.pad_mode = mode;
  return op;
}

PadV1 v1(std::vector<std::int64_t> begin, std::vector<std::int64_t> end,
         const char* mode = "CONSTANT") {
  PadV1 op;
  op.pads_begin = IntTensor::vector(std::move(begin));
  op.pads_end = IntTensor::vector(std::move(end));
  op.pad_mode = mode;
  return op;
}

template <class Op>
PadSpec canonical(const Op& op, const std::vector<std::int64_t>& shape = {3, 3},
                  ElementType type = DType::float32) {
  return ngraph::to_canonical(op, type, shape);
}

// --- v0 ---------------------------------------------------------------------------------------

// Suite names repeat the executable's name so that `ctest -R "adapters|spec"` selects them.
TEST(adapters_ngraph, V0PadValueTypeMustMatchInEveryMode) {
  for (const char* mode : {"CONSTANT", "EDGE", "REFLECT", "SYMMETRIC"}) {
    PadV0 op = v0({0, 1}, {0, 0}, mode);
    op.arg_pad_value = test::scalar_value(DType::int64, 1);
    expect_error([&] { canonical(op); }, Errc::unsupported_type,
                 {"arg_pad_value", "Argument element types do not match", "int64", "float32"});
  }
}

TEST(adapters_ngraph, NumpyOnlyTypesRejected) {
  for (DType type : {DType::datetime64, DType::timedelta64, DType::longdouble, DType::clongdouble}) {
    PadV0 op0 = v0({0, 1}, {0, 0}, "EDGE");
    const auto item = static_cast<std::size_t>(ElementType(type).item_bytes());
    op0.arg_pad_value = ValueTensor::scalar(type, std::string(item, '\0'));
    expect_error([&] { canonical(op0, {3, 3}, type); }, Errc::unsupported_type,
                 {"arg", ElementType(type).name(), "nGraph Pad v0"});
    expect_error([&] { canonical(v1({0, 1}, {0, 0}, "EDGE"), {3, 3}, type); },
                 Errc::unsupported_type, {"arg", ElementType(type).name(), "nGraph Pad v1"});
  }
}

TEST(adapters_ngraph, V0PadValueMustBeScalarInEveryMode) {
  for (const char* mode : {"CONSTANT", "EDGE"}) {
    PadV0 op = v0({0, 1}, {0, 0}, mode);
    op.arg_pad_value.shape = {1};
    expect_error([&] { canonical(op); }, Errc::shape_mismatch,
                 {"arg_pad_value", "Argument for padding value is not a scalar", "[1]"});
  }
}

TEST(adapters_ngraph, V0PadValueElementsMustMatchShape) {
  PadV0 op = v0({0, 1}, {0, 0});
  op.arg_pad_value.elements.clear();
  expect_error([&] { canonical(op); }, Errc::shape_mismatch, {"arg_pad_value", "0 were given"});
}

TEST(adapters_ngraph, V0BelowAndAboveRanksMustMatch) {
  expect_error(
      [] {
        canonical(v0({0, 1}, {0, 0, 0}));
      },
      Errc::shape_mismatch,
      {"padding_below", "Ranks for padding_below (2) and padding_above (3)", "[0, 1]"});
}

TEST(adapters_ngraph, V0PaddingRankMustEqualArgRank) {
  expect_error(
      [] {
        canonical(v0({0, 1, 2}, {0, 0, 0}));
      },
      Errc::shape_mismatch, {"padding_below", "expected 2", "rank 2", "[0, 1, 2]"});
}

TEST(adapters_ngraph, V0InteriorLengthMustEqualRank) {
  PadV0 op = v0({0, 0}, {0, 0});
  op.padding_interior = std::vector<std::int64_t>{1};
  expect_error([&] { canonical(op); }, Errc::shape_mismatch,
               {"padding_interior", "expected 2", "got 1"});
}

TEST(adapters_ngraph, V0InteriorMustBeNonNegative) {
  PadV0 op = v0({0, 0}, {0, 0});
  op.padding_interior = std::vector<std::int64_t>{0, -1};
  expect_error([&] { canonical(op); }, Errc::out_of_range, {"padding_interior", "axis 1", "-1"});
}

TEST(adapters_ngraph, V0InteriorOnlyWithConstant) {
  for (const char* mode : {"EDGE", "REFLECT", "SYMMETRIC"}) {
    PadV0 op = v0({0, 0}, {0, 0}, mode);
    op.padding_interior = std::vector<std::int64_t>{0, 2};
    expect_error([&] { canonical(op); }, Errc::invalid_argument,
                 {"padding_interior", "axis 1", "interior padding 2", "CONSTANT", mode});
    op.padding_interior = std::vector<std::int64_t>{0, 0};  // all-zero interior is fine
    EXPECT_NO_THROW(canonical(op));
  }
  PadV0 op = v0({1, 0}, {0, 1});
  op.padding_interior = std::vector<std::int64_t>{1, 2};
  const PadSpec spec = canonical(op);
  EXPECT_EQ(spec.axes[0], (AxisPad{1, 0, 1}));
  EXPECT_EQ(spec.axes[1], (AxisPad{0, 1, 2}));
}

TEST(adapters_ngraph, ModesInAnyCase) {
  EXPECT_EQ(canonical(v0({0, 0}, {0, 0}, "edge")).mode, Mode::edge);
  EXPECT_EQ(canonical(v0({0, 0}, {0, 0}, "Reflect")).mode, Mode::reflect);
  EXPECT_EQ(canonical(v0({0, 0}, {0, 0}, "SYMMETRIC")).mode, Mode::symmetric);
  EXPECT_EQ(canonical(v1({0, 0}, {0, 0}, "constant")).mode, Mode::constant);
  for (const char* bad : {"WRAP", "", "REPLICATE"}) {
    expect_error(
        [&] {
          canonical(v0({0, 0}, {0, 0}, bad));
        },
        Errc::invalid_argument,
        {"pad_mode", "'" + std::string(bad) + "'", "CONSTANT, EDGE, REFLECT, SYMMETRIC"});
    expect_error(
        [&] {
          canonical(v1({0, 0}, {0, 0}, bad));
        },
        Errc::invalid_argument, {"pad_mode", "nGraph Pad v1"});
  }
}

TEST(adapters_ngraph, EdgeNeedsLengthOneWherePadded) {
  expect_error(
      [] {
        canonical(v0({1, 0}, {0, 0}, "EDGE"), {0, 2});
      },
      Errc::out_of_range, {"padding_below", "axis 0", "EDGE", "at least 1", "length is 0"});
  expect_error(
      [] {
        canonical(v1({0, 0}, {0, 1}, "EDGE"), {2, 0});
      },
      Errc::out_of_range, {"pads_end", "axis 1", "EDGE"});
  // Every axis counts, not only the "spatial" ones nGraph itself checked.
  expect_error(
      [] {
        canonical(v0({0, 0, 0}, {1, 0, 0}, "EDGE"), {0, 2, 2});
      },
      Errc::out_of_range, {"padding_above", "axis 0"});
  EXPECT_NO_THROW(canonical(v0({0, 1}, {0, 1}, "EDGE"), {0, 2}));
}

TEST(adapters_ngraph, ReflectNeedsLengthTwoWherePadded) {
  expect_error(
      [] {
        canonical(v0({0, 1}, {0, 0}, "REFLECT"), {2, 1});
      },
      Errc::out_of_range, {"padding_below", "axis 1", "REFLECT", "at least 2", "length is 1"});
  expect_error(
      [] {
        canonical(v1({0, 0}, {0, 1}, "REFLECT"), {2, 1});
      },
      Errc::out_of_range, {"pads_end", "axis 1", "REFLECT"});
  // pads beyond D - 1 are fine: nGraph reflects repeatedly
  EXPECT_NO_THROW(canonical(v0({10}, {9}, "REFLECT"), {3}));
  EXPECT_NO_THROW(canonical(v0({0, 0}, {0, 0}, "REFLECT"), {1, 0}));
}

TEST(adapters_ngraph, SymmetricPadsAtMostDim) {
  expect_error(
      [] {
        canonical(v0({4, 0}, {0, 0}, "SYMMETRIC"));
      },
      Errc::out_of_range, {"padding_below", "axis 0", "SYMMETRIC pad 4", "length 3"});
  expect_error(
      [] {
        canonical(v1({0, 0}, {0, 4}, "SYMMETRIC"));
      },
      Errc::out_of_range, {"pads_end", "axis 1", "SYMMETRIC pad 4"});
  EXPECT_NO_THROW(canonical(v0({3, 3}, {3, 3}, "SYMMETRIC")));
}

TEST(adapters_ngraph, NegativeResultDimensionRejected) {
  expect_error(
      [] {
        canonical(v0({5, 3, 0}, {6, 9, -3}), {5, 4, 2});
      },
      Errc::out_of_range,
      {"padding_below/padding_above", "axis 2", "negative after padding", "= -1"});
  expect_error([] { canonical(v1({-2}, {-2}, "EDGE"), {3}); }, Errc::out_of_range,
               {"pads_begin/pads_end", "axis 0", "negative"});
  // With interior padding the dilated length counts: 3 elements, interior 1 -> 5.
  PadV0 op = v0({-3}, {-2});
  op.padding_interior = std::vector<std::int64_t>{1};
  EXPECT_NO_THROW(canonical(op, {3}));
  op.padding_below = {-4};
  expect_error([&] { canonical(op, {3}); }, Errc::out_of_range, {"axis 0", "-4 + 5 + -2"});
  // Interior padding whose dilated length overflows is left to the planner, which names it
  // (the adapter's own check must not overflow on the way: UBSan runs this).
  for (const std::int64_t interior : {INT64_MAX, INT64_MAX / 2}) {
    op.padding_below = {0};
    op.padding_interior = std::vector<std::int64_t>{interior};
    const PadSpec spec = canonical(op, {3});
    expect_error([&] { infer_shape({3}, spec); }, Errc::overflow, {"axis 0", "interior", "3"});
  }
}

TEST(adapters_ngraph, CanonicalSwitchesAndValue) {
  PadV0 op = v0({1, -1}, {0, 2}, "CONSTANT", 42);
  const PadSpec spec = canonical(op);
  EXPECT_EQ(spec.negative_order, NegativeOrder::map_on_original);
  EXPECT_EQ(spec.negative_size, NegativeSize::error);
  EXPECT_EQ(spec.value, test::element_bytes(DType::float32, 42));
  op.pad_mode = "EDGE";
  EXPECT_TRUE(canonical(op).value.empty());  // only read in CONSTANT
}

// --- v1 ---------------------------------------------------------------------------------------

TEST(adapters_ngraph, V1PadsMustBe1DIntegral) {
  PadV1 op = v1({0, 0}, {0, 0});
  op.pads_begin.shape = {1, 2};
  expect_error([&] { canonical(op); }, Errc::shape_mismatch, {"pads_begin", "1-D", "[1, 2]"});
  op = v1({0, 0}, {0, 0});
  op.pads_end.type = DType::float64;
  expect_error([&] { canonical(op); }, Errc::unsupported_type, {"pads_end", "integer", "float64"});
  op.pads_end.type = DType::int32;
  EXPECT_NO_THROW(canonical(op));
}

TEST(adapters_ngraph, V1PadsLengthsEqualEachOtherAndRank) {
  expect_error(
      [] {
        canonical(v1({0, 0}, {0}));
      },
      Errc::shape_mismatch, {"pads_begin", "Ranks for pads_begin (2) and pads_end (1)"});
  expect_error([] { canonical(v1({0}, {0})); }, Errc::shape_mismatch,
               {"pads_begin", "expected 2", "got 1"});
}

TEST(adapters_ngraph, V1PadValueCheckedOnlyInConstant) {
  PadV1 op = v1({0, 1}, {0, 0}, "EDGE");
  ValueTensor bad = test::scalar_value(DType::int32, 1);
  bad.shape = {1};
  op.arg_pad_value = bad;
  EXPECT_NO_THROW(canonical(op));
  op.pad_mode = "CONSTANT";
  expect_error([&] { canonical(op); }, Errc::unsupported_type,
               {"arg_pad_value", "Argument element types do not match", "int32"});
  op.arg_pad_value = test::scalar_value(DType::float32, 5);
  EXPECT_EQ(canonical(op).value, test::element_bytes(DType::float32, 5));
  op.arg_pad_value.reset();
  EXPECT_TRUE(canonical(op).value.empty());  // absent: zero
  ValueTensor vec = test::scalar_value(DType::float32, 5);
  vec.shape = {1};
  op.arg_pad_value = vec;
  expect_error([&] { canonical(op); }, Errc::shape_mismatch,
               {"arg_pad_value", "not a scalar", "nGraph Pad v1"});
}

}  // namespace
}  // namespace padnd
