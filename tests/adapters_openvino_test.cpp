// SPDX-License-Identifier: Apache-2.0
// OpenVINO adapter: one test per validation rule of docs/spec.md §5.4.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "padnd/adapters/openvino.hpp"
#include "padnd/plan.hpp"
#include "spec/helpers.hpp"

namespace padnd {
namespace {

using openvino::PadOp;
using test::expect_error;

PadOp op_of(int version, const char* mode, std::vector<std::int64_t> begin,
            std::vector<std::int64_t> end) {
  PadOp op;
  op.version = version;
  op.pad_mode = mode;
  op.pads_begin = IntTensor::vector(std::move(begin));
  op.pads_end = IntTensor::vector(std::move(end));
  return op;
}

PadSpec canonical(const PadOp& op, const std::vector<std::int64_t>& shape = {2, 2},
                  ElementType type = DType::float32) {
  return openvino::to_canonical(op, type, shape);
}

// Suite names repeat the executable's name so that `ctest -R "adapters|spec"` selects them.
TEST(adapters_openvino, UnknownVersionRejected) {
  for (int version : {0, 3, 11, 13}) {
    expect_error(
        [&] {
          canonical(op_of(version, "constant", {0, 0}, {0, 0}));
        },
        Errc::invalid_argument, {"version", "Pad-" + std::to_string(version), "1, 12"});
  }
}

TEST(adapters_openvino, NumpyOnlyTypesRejected) {
  for (int version : {1, 12}) {
    for (DType type :
         {DType::datetime64, DType::timedelta64, DType::longdouble, DType::clongdouble}) {
      expect_error([&] { canonical(op_of(version, "edge", {0, 1}, {0, 0}), {2, 2}, type); },
                   Errc::unsupported_type,
                   {"data", ElementType(type).name(), "OpenVINO Pad-" + std::to_string(version)});
    }
  }
}

TEST(adapters_openvino, PadsMustBe1D) {
  PadOp op = op_of(12, "constant", {0, 0}, {0, 0});
  op.pads_begin.shape = {2, 1};
  expect_error([&] { canonical(op); }, Errc::shape_mismatch, {"pads_begin", "1-D", "[2, 1]"});
  op = op_of(12, "constant", {0, 0}, {0, 0});
  op.pads_end.shape = {};
  expect_error([&] { canonical(op); }, Errc::shape_mismatch, {"pads_end", "1-D", "rank 0"});
}

TEST(adapters_openvino, PadsMustBeInteger) {
  for (DType bad : {DType::float32, DType::boolean, DType::float16}) {
    PadOp op = op_of(12, "constant", {0, 0}, {0, 0});
    op.pads_end.type = bad;
    expect_error([&] { canonical(op); }, Errc::unsupported_type,
                 {"pads_end", "integer", ElementType(bad).name()});
  }
}

/// docs/spec.md §4.5 rule 4 and §5.1: int32 pads are rejected by ONNX but accepted here (any
/// integer type).
TEST(adapters_openvino, AnyIntegerPadsTypeAccepted) {
  for (DType t : {DType::int32, DType::int8, DType::uint16, DType::int64, DType::uint64}) {
    for (int version : {1, 12}) {
      PadOp op = op_of(version, "constant", {0, 1}, {1, 0});
      op.pads_begin.type = t;
      op.pads_end.type = t;
      const PadSpec spec = canonical(op);
      EXPECT_EQ(spec.axes[0], (AxisPad{0, 1, 0}));
      EXPECT_EQ(spec.axes[1], (AxisPad{1, 0, 0}));
    }
  }
}

TEST(adapters_openvino, PadsLengthMustEqualRank) {
  expect_error(
      [] {
        canonical(op_of(12, "constant", {0, 0, 0}, {0, 0}));
      },
      Errc::shape_mismatch, {"pads_begin", "expected 2", "rank 2", "got 3"});
  expect_error(
      [] {
        canonical(op_of(1, "constant", {0, 0}, {0}));
      },
      Errc::shape_mismatch, {"pads_end", "expected 2", "got 1"});
}

TEST(adapters_openvino, PadValueMustBeScalarInConstantMode) {
  PadOp op = op_of(12, "constant", {0, 1}, {0, 0});
  ValueTensor v = test::scalar_value(DType::float32, 3);
  v.shape = {1};
  op.pad_value = v;
  expect_error([&] { canonical(op); }, Errc::shape_mismatch, {"pad_value", "scalar", "[1]"});
}

TEST(adapters_openvino, PadValueTypeMustMatchInConstantMode) {
  PadOp op = op_of(1, "constant", {0, 1}, {0, 0});
  op.pad_value = test::scalar_value(DType::int32, 3);
  expect_error([&] { canonical(op); }, Errc::unsupported_type,
               {"pad_value", "int32", "float32", "Pad-1"});
  op.pad_value = test::scalar_value(DType::float32, 3);
  EXPECT_EQ(canonical(op).value, test::element_bytes(DType::float32, 3));
}

TEST(adapters_openvino, PadValueIgnoredOutsideConstantMode) {
  for (const char* mode : {"edge", "reflect", "symmetric"}) {
    PadOp op = op_of(12, mode, {0, 1}, {0, 0});
    ValueTensor v = test::scalar_value(DType::int8, 3);
    v.shape = {1};  // neither shape nor type is checked
    op.pad_value = v;
    const PadSpec spec = canonical(op);
    EXPECT_TRUE(spec.value.empty()) << mode;
  }
}

TEST(adapters_openvino, Pad1RejectsStringData) {
  expect_error([] { canonical(op_of(1, "constant", {1}, {0}), {2}, DType::string); },
               Errc::unsupported_type, {"data", "string", "Pad-1"});
}

TEST(adapters_openvino, Pad12StringOnlyWithConstant) {
  PadOp op = op_of(12, "constant", {1}, {0});
  op.pad_value = ValueTensor::scalar(DType::string, "pad");
  EXPECT_EQ(canonical(op, {2}, DType::string).value, "pad");
  for (const char* mode : {"edge", "reflect", "symmetric"}) {
    expect_error([&] { canonical(op_of(12, mode, {1}, {0}), {2}, DType::string); },
                 Errc::invalid_argument, {"pad_mode", mode, "string", "Pad-12"});
  }
}

// boolean is accepted as a numeric type by both versions (documented decision in openvino.cpp).
TEST(adapters_openvino, BooleanAndPackedTypesAccepted) {
  for (int version : {1, 12}) {
    for (DType t : {DType::boolean, DType::int4, DType::float8e5m2, DType::complex64}) {
      EXPECT_NO_THROW(canonical(op_of(version, "edge", {1, 0}, {0, 1}), {2, 2}, t));
    }
  }
}

TEST(adapters_openvino, Pad1NegativePadsRejected) {
  expect_error(
      [] {
        canonical(op_of(1, "constant", {0, -1}, {0, 0}));
      },
      Errc::out_of_range, {"pads_begin", "axis 1", "-1", "Pad-1"});
  expect_error(
      [] {
        canonical(op_of(1, "edge", {0, 0}, {-2, 0}));
      },
      Errc::out_of_range, {"pads_end", "axis 0", "-2"});
}

TEST(adapters_openvino, Pad1NegativePadsAllowedBySwitch) {
  PadOp op = op_of(1, "constant", {-1}, {0});
  op.allow_negative_pads_v1 = true;
  const PadSpec spec = canonical(op, {3});
  EXPECT_EQ(spec.negative_order, NegativeOrder::map_on_original);
  EXPECT_EQ(spec.negative_size, NegativeSize::error);
  const Tensor in = test::numeric_tensor(DType::int32, {3}, {1, 2, 3});
  EXPECT_EQ(test::numeric_values(pad(in.view(), canonical(op, {3}, DType::int32))),
            (std::vector<double>{2, 3}));
}

TEST(adapters_openvino, Pad1NegativeOutputSizeRejected) {
  PadOp op = op_of(1, "constant", {-2}, {-2});
  op.allow_negative_pads_v1 = true;
  expect_error([&] { canonical(op, {3}); }, Errc::out_of_range,
               {"pads_begin/pads_end", "axis 0", "= -1", "negative"});
}

TEST(adapters_openvino, Pad12ClampsNegativeSize) {
  const PadSpec spec = canonical(op_of(12, "constant", {-2}, {-2}), {3});
  EXPECT_EQ(spec.negative_size, NegativeSize::clamp_to_zero);
  EXPECT_EQ(spec.negative_order, NegativeOrder::map_on_original);
  EXPECT_EQ(canonical(op_of(1, "constant", {0}, {0}), {3}).negative_size, NegativeSize::error);
}

TEST(adapters_openvino, ReflectPadsAtMostDimMinusOne) {
  for (int version : {1, 12}) {
    expect_error(
        [&] {
          canonical(op_of(version, "reflect", {0, 2}, {0, 0}));
        },
        Errc::out_of_range, {"pads_begin", "axis 1", "reflect pad 2", "= 1"});
    expect_error(
        [&] {
          canonical(op_of(version, "reflect", {0, 0}, {2, 0}));
        },
        Errc::out_of_range, {"pads_end", "axis 0", "reflect pad 2"});
    expect_error([&] { canonical(op_of(version, "reflect", {1}, {0}), {1}); }, Errc::out_of_range,
                 {"pads_begin", "axis 0", "reflect pad 1", "= 0"});
    EXPECT_NO_THROW(canonical(op_of(version, "reflect", {0, 1}, {1, 0})));
  }
  EXPECT_NO_THROW(canonical(op_of(12, "reflect", {-5, 1}, {1, -1})));  // negatives always pass
}

TEST(adapters_openvino, ReflectRejectsZeroLengthAxisEvenWithoutPads) {
  for (int version : {1, 12}) {
    expect_error(
        [&] {
          canonical(op_of(version, "reflect", {0, 0}, {0, 0}), {0, 2});
        },
        Errc::out_of_range, {"pads_begin", "axis 0", "reflect pad 0", "= -1"});
  }
}

TEST(adapters_openvino, SymmetricPadsAtMostDim) {
  for (int version : {1, 12}) {
    expect_error(
        [&] {
          canonical(op_of(version, "symmetric", {0, 3}, {0, 0}));
        },
        Errc::out_of_range, {"pads_begin", "axis 1", "symmetric pad 3", "length 2"});
    expect_error(
        [&] {
          canonical(op_of(version, "symmetric", {0, 0}, {0, 3}));
        },
        Errc::out_of_range, {"pads_end", "axis 1", "symmetric pad 3"});
    EXPECT_NO_THROW(canonical(op_of(version, "symmetric", {2, 2}, {2, 2})));
  }
  EXPECT_NO_THROW(canonical(op_of(12, "symmetric", {0, 0}, {0, 0}), {0, 2}));
}

TEST(adapters_openvino, EdgeNeedsNonEmptyPaddedAxis) {
  for (int version : {1, 12}) {
    expect_error(
        [&] {
          canonical(op_of(version, "edge", {1, 0}, {0, 0}), {0, 2});
        },
        Errc::out_of_range, {"pads_begin", "axis 0", "edge", "at least 1", "length is 0"});
    expect_error(
        [&] {
          canonical(op_of(version, "edge", {0, 0}, {0, 1}), {2, 0});
        },
        Errc::out_of_range, {"pads_end", "axis 1", "edge"});
    EXPECT_NO_THROW(canonical(op_of(version, "edge", {0, 1}, {0, 1}), {0, 2}));
  }
}

TEST(adapters_openvino, UnknownPadModeRejected) {
  for (const char* bad : {"wrap", "", "reflect_101", "circular"}) {
    expect_error(
        [&] {
          canonical(op_of(12, bad, {0, 0}, {0, 0}));
        },
        Errc::invalid_argument,
        {"pad_mode", "'" + std::string(bad) + "'", "constant, edge, reflect, symmetric"});
  }
  // OpenVINO's attribute parser ignores case.
  EXPECT_EQ(canonical(op_of(12, "EDGE", {0, 0}, {0, 0})).mode, Mode::edge);
  EXPECT_EQ(canonical(op_of(1, "Symmetric", {0, 0}, {0, 0})).mode, Mode::symmetric);
}

}  // namespace
}  // namespace padnd
