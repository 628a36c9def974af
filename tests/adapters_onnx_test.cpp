// SPDX-License-Identifier: Apache-2.0
// ONNX adapter: one test per validation rule of docs/spec.md §4.5, version tables and conversions.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "adapters/checks.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/plan.hpp"
#include "spec/helpers.hpp"

namespace padnd {
namespace {

using onnx::PadNode;
using test::expect_error;

/// A well-formed node for `opset` carrying `pads` in the form that version takes.
PadNode node_at(int opset, std::vector<std::int64_t> pads) {
  PadNode n;
  n.opset = opset;
  const int version = onnx::pad_version(opset);
  if (version == 1) {
    n.paddings = std::move(pads);
    n.input_count = 1;
  } else if (version == 2) {
    n.pads_attr = std::move(pads);
    n.input_count = 1;
  } else {
    n.pads = IntTensor::vector(std::move(pads));
    n.input_count = 2;
  }
  return n;
}

const std::vector<std::int64_t> kShape23{2, 3};

PadSpec canonical(const PadNode& n, ElementType type = DType::float32,
                  const std::vector<std::int64_t>& shape = kShape23) {
  return onnx::to_canonical(n, type, shape);
}

constexpr std::array<DType, 26> kAllTypes{
    DType::boolean,      DType::int8,           DType::int16,      DType::int32,
    DType::int64,        DType::uint8,          DType::uint16,     DType::uint32,
    DType::uint64,       DType::float16,        DType::bfloat16,   DType::float32,
    DType::float64,      DType::complex64,      DType::complex128, DType::string,
    DType::float8e4m3fn, DType::float8e4m3fnuz, DType::float8e5m2, DType::float8e5m2fnuz,
    DType::float8e8m0,   DType::int4,           DType::uint4,      DType::float4e2m1,
    DType::int2,         DType::uint2};

// --- versions and types ---------------------------------------------------------------------

// Suite names repeat the executable's name so that `ctest -R "adapters|spec"` selects them.
TEST(adapters_onnx, PadVersionMapsEveryOpset) {
  const int expected[26] = {0,  1,  2,  2,  2,  2,  2,  2,  2,  2,  2,  11, 11,
                            13, 13, 13, 13, 13, 18, 19, 19, 21, 21, 23, 24, 25};
  for (int opset = 1; opset <= 25; ++opset) {
    EXPECT_EQ(onnx::pad_version(opset), expected[opset]) << "opset " << opset;
  }
  for (int opset = 26; opset <= 28; ++opset) {  // no new Pad version after 25
    EXPECT_EQ(onnx::pad_version(opset), 25) << "opset " << opset;
  }
}

TEST(adapters_onnx, UnknownOpsetRejected) {
  for (int opset : {0, -1, 29}) {
    expect_error([&] { onnx::pad_version(opset); }, Errc::invalid_argument,
                 {"opset", std::to_string(opset)});
  }
  PadNode n = node_at(25, {0, 0});
  n.opset = 30;
  expect_error([&] { onnx::to_canonical(n, DType::float32, {3}); }, Errc::invalid_argument,
               {"opset", "30"});
}

TEST(adapters_onnx, TypeListSizesPerVersion) {
  // docs/spec.md §4.2: 3, 3, 11, 16 (x3), 22, 23, 24, 26 types.
  const std::pair<int, int> expected[] = {{1, 3},   {2, 3},   {11, 11}, {13, 16}, {18, 16},
                                          {19, 16}, {21, 22}, {23, 23}, {24, 24}, {25, 26}};
  for (auto [opset, count] : expected) {
    int allowed = 0;
    for (DType d : kAllTypes) allowed += onnx::type_allowed(opset, d) ? 1 : 0;
    EXPECT_EQ(allowed, count) << "opset " << opset;
    EXPECT_FALSE(onnx::type_allowed(opset, ElementType::opaque(4)));
    EXPECT_FALSE(onnx::type_allowed(opset, DType::datetime64));  // numpy's own types
    EXPECT_FALSE(onnx::type_allowed(opset, DType::timedelta64));
    EXPECT_FALSE(onnx::type_allowed(opset, DType::longdouble));
    EXPECT_FALSE(onnx::type_allowed(opset, DType::clongdouble));
  }
  EXPECT_FALSE(onnx::type_allowed(11, DType::boolean));
  EXPECT_FALSE(onnx::type_allowed(11, DType::string));
  EXPECT_TRUE(onnx::type_allowed(13, DType::complex128));
}

/// docs/spec.md §4.5 rule 1: each type is rejected at the last version without it and accepted at
/// the first version with it.
TEST(adapters_onnx, TypeTransitionsBetweenVersions) {
  struct Step {
    DType type;
    int rejected_opset;
    int accepted_opset;
    const char* rejected_version;
  };
  const Step steps[] = {
      {DType::bfloat16, 12, 13, "Pad-11"},       {DType::float8e4m3fn, 20, 21, "Pad-19"},
      {DType::float8e4m3fnuz, 19, 21, "Pad-19"}, {DType::float8e5m2, 19, 21, "Pad-19"},
      {DType::float8e5m2fnuz, 19, 21, "Pad-19"}, {DType::int4, 19, 21, "Pad-19"},
      {DType::uint4, 20, 21, "Pad-19"},          {DType::float4e2m1, 22, 23, "Pad-21"},
      {DType::float8e8m0, 23, 24, "Pad-23"},     {DType::int2, 24, 25, "Pad-24"},
      {DType::uint2, 24, 25, "Pad-24"},          {DType::int32, 10, 11, "Pad-2"},
      {DType::string, 12, 13, "Pad-11"},         {DType::boolean, 11, 13, "Pad-11"},
  };
  for (const Step& s : steps) {
    const ElementType type(s.type);
    SCOPED_TRACE(type.name());
    EXPECT_FALSE(onnx::type_allowed(s.rejected_opset, type));
    EXPECT_TRUE(onnx::type_allowed(s.accepted_opset, type));
    const auto at_rejected = [&] { canonical(node_at(s.rejected_opset, {0, 0, 0, 0}), type); };
    expect_error(at_rejected, Errc::unsupported_type,
                 {"data", type.name(), s.rejected_version,
                  "allowed from Pad-" + std::to_string(onnx::pad_version(s.accepted_opset))});
    EXPECT_NO_THROW(canonical(node_at(s.accepted_opset, {0, 0, 0, 0}), type));
  }
}

TEST(adapters_onnx, WrapNeedsOpset19) {
  PadNode n = node_at(18, {0, 1, 0, 1});
  n.mode = "wrap";
  expect_error([&] { canonical(n); }, Errc::invalid_argument,
               {"mode", "'wrap'", "Pad-18", "constant, reflect, edge"});
  n.opset = 19;
  EXPECT_EQ(canonical(n).mode, Mode::wrap);
  n.opset = 2;
  n.pads.reset();
  n.pads_attr = std::vector<std::int64_t>{0, 1, 0, 1};
  n.input_count = 1;
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"mode", "'wrap'", "Pad-2"});
}

TEST(adapters_onnx, ModeListIsClosedAndCaseSensitive) {
  for (const char* bad : {"symmetric", "Constant", "EDGE", "", "reflect101"}) {
    PadNode n = node_at(25, {0, 0, 0, 0});
    n.mode = bad;
    expect_error([&] { canonical(n); }, Errc::invalid_argument,
                 {"mode", "'" + std::string(bad) + "'", "Pad-25"});
  }
  for (const auto& [text, mode] :
       {std::pair{"constant", Mode::constant}, std::pair{"reflect", Mode::reflect},
        std::pair{"edge", Mode::edge}, std::pair{"wrap", Mode::wrap}}) {
    PadNode n = node_at(25, {0, 0, 0, 0});
    n.mode = text;
    EXPECT_EQ(canonical(n).mode, mode);
  }
  EXPECT_EQ(canonical(node_at(25, {0, 0, 0, 0})).mode, Mode::constant);  // default
}

TEST(adapters_onnx, DataTypeRejectedNamesTypeAndVersion) {
  expect_error(
      [] {
        canonical(node_at(2, {0, 0, 0, 0}), DType::int32);
      },
      Errc::unsupported_type, {"data", "int32", "Pad-2", "opset 2"});
  expect_error(
      [] {
        canonical(node_at(1, {0, 0, 0, 0}), DType::uint8);
      },
      Errc::unsupported_type, {"data", "uint8", "Pad-1"});
  for (int opset : {1, 2}) {
    for (DType d : {DType::float16, DType::float32, DType::float64}) {
      EXPECT_NO_THROW(canonical(node_at(opset, {0, 0, 0, 0}), d));
    }
  }
}

// --- constant_value ---------------------------------------------------------------------------

TEST(adapters_onnx, ConstantValueTypeMustMatchDataEvenOutsideConstantMode) {
  for (const char* mode : {"constant", "edge", "reflect"}) {
    PadNode n = node_at(13, {0, 1, 0, 1});
    n.mode = mode;
    n.constant_value = test::scalar_value(DType::int32, 1);
    n.input_count = 3;
    expect_error([&] { canonical(n); }, Errc::unsupported_type,
                 {"constant_value", "int32", "float32"});
  }
}

TEST(adapters_onnx, ConstantValueMustBeOneElement) {
  PadNode n = node_at(13, {0, 1, 0, 1});
  n.input_count = 3;
  ValueTensor v;
  v.type = DType::float32;

  v.shape = {0};
  n.constant_value = v;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"constant_value", "[0]", "0 el"});

  v.shape = {2};
  v.elements = {test::element_bytes(DType::float32, 1), test::element_bytes(DType::float32, 2)};
  n.constant_value = v;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"constant_value", "[2]", "2 el"});

  v.shape = {1, 1};
  v.elements = {test::element_bytes(DType::float32, 7)};
  n.constant_value = v;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"constant_value", "[1, 1]"});

  v.shape = {1};  // rank 1 of length 1 is accepted, like rank 0
  n.constant_value = v;
  EXPECT_EQ(canonical(n).value, test::element_bytes(DType::float32, 7));
  n.constant_value = test::scalar_value(DType::float32, 7);
  EXPECT_EQ(canonical(n).value, test::element_bytes(DType::float32, 7));
}

TEST(adapters_onnx, ConstantValueElementsMustMatchItsShape) {
  PadNode n = node_at(13, {0, 1, 0, 1});
  n.input_count = 3;
  ValueTensor v;
  v.type = DType::float32;  // rank 0 needs one element; none given
  n.constant_value = v;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"constant_value", "0 were given"});
}

TEST(adapters_onnx, ConstantValueIgnoredOutsideConstantMode) {
  PadNode n = node_at(13, {0, 1, 0, 1});
  n.input_count = 3;
  n.constant_value = test::scalar_value(DType::float32, 9);
  n.mode = "edge";
  EXPECT_TRUE(canonical(n).value.empty());
  n.mode = "constant";
  EXPECT_EQ(canonical(n).value, test::element_bytes(DType::float32, 9));
}

TEST(adapters_onnx, ConstantValueMustBeWithinInputCount) {
  PadNode n = node_at(13, {0, 1, 0, 1});
  n.constant_value = test::scalar_value(DType::float32, 9);
  n.input_count = 2;
  expect_error([&] { canonical(n); }, Errc::invalid_argument,
               {"constant_value", "input 2", "only 2 input"});
}

// --- attributes and inputs per version --------------------------------------------------------

TEST(adapters_onnx, Pad1RequiresPaddings) {
  PadNode n = node_at(1, {0, 0, 0, 0});
  n.paddings.reset();
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"paddings", "required", "Pad-1"});
}

TEST(adapters_onnx, Pad2RequiresPadsAttribute) {
  PadNode n = node_at(7, {0, 0, 0, 0});
  n.pads_attr.reset();
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"pads", "attribute", "Pad-2"});
}

TEST(adapters_onnx, Pad11RequiresPadsInput) {
  for (int opset : {11, 13, 18, 25}) {
    PadNode n = node_at(opset, {0, 0, 0, 0});
    n.pads.reset();  // skipped with an empty name
    expect_error([&] { canonical(n); }, Errc::invalid_argument, {"pads", "input 1", "required"});
  }
}

TEST(adapters_onnx, AttributesOfOtherVersionsRejected) {
  PadNode n = node_at(1, {0, 0, 0, 0});
  n.pads_attr = std::vector<std::int64_t>{0, 0, 0, 0};
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"pads", "Pad-1", "paddings"});

  n = node_at(2, {0, 0, 0, 0});
  n.paddings = std::vector<std::int64_t>{0, 0, 0, 0};
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"paddings", "Pad-2"});

  for (int opset : {11, 13, 19}) {
    n = node_at(opset, {0, 0, 0, 0});
    n.paddings = std::vector<std::int64_t>{0, 0, 0, 0};
    expect_error([&] { canonical(n); }, Errc::invalid_argument, {"paddings", "attribute"});
    n = node_at(opset, {0, 0, 0, 0});
    n.pads_attr = std::vector<std::int64_t>{0, 0, 0, 0};
    expect_error([&] { canonical(n); }, Errc::invalid_argument, {"pads", "attribute"});
    n = node_at(opset, {0, 0, 0, 0});
    n.value = 1.0F;
    expect_error([&] { canonical(n); }, Errc::invalid_argument, {"value", "constant_value"});
  }
}

TEST(adapters_onnx, InputsOfOtherVersionsRejected) {
  PadNode n = node_at(2, {0, 0, 0, 0});
  n.pads = IntTensor::vector({0, 0, 0, 0});
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"pads", "input", "Pad-2"});

  n = node_at(2, {0, 0, 0, 0});
  n.constant_value = test::scalar_value(DType::float32, 1);
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"constant_value", "Pad-2"});

  for (int opset : {2, 11, 13, 17}) {
    n = node_at(opset, {0, 0, 0, 0});
    n.axes = IntTensor::vector({0, 1});
    n.input_count = 4;
    expect_error([&] { canonical(n); }, Errc::invalid_argument, {"axes", "Pad-18"});
  }
}

TEST(adapters_onnx, InputCountLimits) {
  struct Case {
    int opset;
    int count;
    const char* range;
  };
  for (const Case& c : {Case{1, 2, "exactly 1"}, Case{2, 0, "exactly 1"}, Case{11, 1, "2..3"},
                        Case{13, 4, "2..3"}, Case{18, 5, "2..4"}, Case{25, 1, "2..4"}}) {
    PadNode n = node_at(c.opset, {0, 0, 0, 0});
    n.input_count = c.count;
    expect_error([&] { canonical(n); }, Errc::invalid_argument,
                 {"inputs", c.range, "has " + std::to_string(c.count)});
  }
  PadNode n = node_at(18, {0, 0, 0, 0});
  n.input_count = 4;  // ["x", "pads", "", ""]: both optional inputs skipped
  EXPECT_NO_THROW(canonical(n));
  n.axes = IntTensor::vector({0, 1});
  n.input_count = 3;
  expect_error([&] { canonical(n); }, Errc::invalid_argument, {"axes", "input 3"});
}

// --- pads -------------------------------------------------------------------------------------

TEST(adapters_onnx, PadsMustBeInt64) {
  PadNode n = node_at(13, {});
  n.pads = IntTensor::vector({0, 1, 0, 1}, DType::int32);
  expect_error([&] { canonical(n); }, Errc::unsupported_type, {"pads", "int32", "int64"});
  n.pads = IntTensor::vector({0, 1, 0, 1}, DType::uint64);
  expect_error([&] { canonical(n); }, Errc::unsupported_type, {"pads", "uint64"});
}

TEST(adapters_onnx, PadsMustBe1D) {
  PadNode n = node_at(13, {});
  IntTensor pads = IntTensor::vector({0, 1, 0, 1});
  pads.shape = {1, 4};  // ORT's lenient [1, 2k] form is not accepted
  n.pads = pads;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"pads", "1-D", "[1, 4]"});
  pads.shape = {};
  n.pads = pads;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"pads", "1-D", "rank 0"});
}

TEST(adapters_onnx, PadsLengthMustBeTwiceRank) {
  for (int opset : {1, 2, 11, 13, 18}) {
    expect_error(
        [&] {
          canonical(node_at(opset, {1, 1, 1}));
        },
        Errc::shape_mismatch,
        {opset == 1 ? "paddings" : "pads", "expected 4", "2 * data rank", "[1, 1, 1]"});
  }
}

TEST(adapters_onnx, PadsLengthMustBeTwiceAxes) {
  PadNode n = node_at(18, {1, 1, 1});
  n.axes = IntTensor::vector({0, 1});
  n.input_count = 4;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"pads", "2 * len(axes)", "got 3"});
  n.pads = IntTensor::vector({1, 1});
  n.axes = IntTensor::vector({1});
  EXPECT_NO_THROW(canonical(n));
}

// --- axes -------------------------------------------------------------------------------------

TEST(adapters_onnx, AxesMustBe1DInt32OrInt64) {
  PadNode n = node_at(18, {1, 1});
  n.input_count = 4;
  n.axes = IntTensor::vector({1}, DType::int16);
  expect_error([&] { canonical(n); }, Errc::unsupported_type, {"axes", "int16", "int32, int64"});
  n.axes = IntTensor::vector({1}, DType::int32);
  EXPECT_EQ(canonical(n).axes[1], (AxisPad{1, 1, 0}));
  IntTensor axes = IntTensor::vector({1});
  axes.shape = {1, 1};
  n.axes = axes;
  expect_error([&] { canonical(n); }, Errc::shape_mismatch, {"axes", "1-D", "[1, 1]"});
}

TEST(adapters_onnx, AxesOutOfRangeRejected) {
  for (std::int64_t bad : {2, -3, 100}) {
    PadNode n = node_at(18, {1, 1});
    n.input_count = 4;
    n.axes = IntTensor::vector({bad});
    expect_error([&] { canonical(n); }, Errc::out_of_range,
                 {"axes", "value " + std::to_string(bad), "[-2, 1]"});
  }
}

TEST(adapters_onnx, NegativeAxesNormalised) {
  PadNode n = node_at(18, {1, 2});
  n.input_count = 4;
  n.axes = IntTensor::vector({-1});
  const PadSpec spec = canonical(n);
  EXPECT_EQ(spec.axes[0], (AxisPad{0, 0, 0}));
  EXPECT_EQ(spec.axes[1], (AxisPad{1, 2, 0}));
}

TEST(adapters_onnx, DuplicateAxesRejected) {
  PadNode n = node_at(18, {1, 1, 1, 1});
  n.input_count = 4;
  n.axes = IntTensor::vector({1, -1});
  expect_error([&] { canonical(n); }, Errc::invalid_argument,
               {"axes", "axis 1", "more than once", "[1, -1]"});
}

TEST(adapters_onnx, AxesScatterInGivenOrder) {
  PadNode n = node_at(18, {1, 0, 0, 2});
  n.input_count = 4;
  n.axes = IntTensor::vector({1, 0});
  const PadSpec spec = canonical(n);
  EXPECT_EQ(spec.axes[0], (AxisPad{0, 2, 0}));
  EXPECT_EQ(spec.axes[1], (AxisPad{1, 0, 0}));
}

TEST(adapters_onnx, EmptyAxesAreIdentity) {
  PadNode n = node_at(18, {});
  n.input_count = 4;
  n.axes = IntTensor::vector({});
  const PadSpec spec = canonical(n);
  ASSERT_EQ(spec.axes.size(), 2U);
  EXPECT_EQ(spec.axes[0], (AxisPad{}));
  EXPECT_EQ(spec.axes[1], (AxisPad{}));
}

// --- canonical form and values ----------------------------------------------------------------

TEST(adapters_onnx, CanonicalSwitches) {
  PadNode n = node_at(25, {-1, 2, 0, 1});
  n.mode = "reflect";
  const PadSpec spec = canonical(n);
  EXPECT_EQ(spec.negative_order, NegativeOrder::crop_then_pad);
  EXPECT_EQ(spec.negative_size, NegativeSize::error);
  EXPECT_TRUE(spec.value.empty());  // default value
  EXPECT_EQ(spec.axes[0], (AxisPad{-1, 0, 0}));
  EXPECT_EQ(spec.axes[1], (AxisPad{2, 1, 0}));
}

TEST(adapters_onnx, Rank0DataWithEmptyPadsIsIdentity) {
  for (int opset : {1, 2, 11, 18, 25}) {
    const PadSpec spec = onnx::to_canonical(node_at(opset, {}), DType::float32, {});
    EXPECT_TRUE(spec.axes.empty());
    const Tensor in = test::numeric_tensor(DType::float32, {}, {5.0});
    const Tensor out = pad(in.view(), spec);
    EXPECT_TRUE(out.shape().empty());
    EXPECT_EQ(test::numeric_values(out), std::vector<double>{5.0});
  }
}

TEST(adapters_onnx, ValueAttributeConvertedToT) {
  PadNode n = node_at(2, {1, 0});
  n.value = 0.1F;
  // float16: round to nearest even -> 0x2E66 = 0.0999755859375 (docs/spec.md §9 ex. 36)
  const PadSpec half = onnx::to_canonical(n, DType::float16, {2});
  ASSERT_EQ(half.value.size(), 2U);
  std::uint16_t bits = 0;
  std::memcpy(&bits, half.value.data(), 2);
  EXPECT_EQ(bits, 0x2E66);
  EXPECT_EQ(test::half_to_double(bits), 0.0999755859375);
  // float: as is; double: exact widening of the float
  EXPECT_EQ(onnx::to_canonical(n, DType::float32, {2}).value,
            test::element_bytes(DType::float32, 0.1F));
  EXPECT_EQ(onnx::to_canonical(n, DType::float64, {2}).value,
            test::element_bytes(DType::float64, static_cast<double>(0.1F)));
  // Pad-1 too, and the value is dropped outside constant mode
  PadNode p1 = node_at(1, {1, 0});
  p1.value = -2.5F;
  EXPECT_EQ(onnx::to_canonical(p1, DType::float64, {2}).value,
            test::element_bytes(DType::float64, -2.5));
  p1.mode = "edge";
  EXPECT_TRUE(onnx::to_canonical(p1, DType::float64, {2}).value.empty());
}

// --- float -> float16 -------------------------------------------------------------------------

TEST(adapters_onnx, FloatToHalfSpecialValues) {
  const auto f = [](double v) { return static_cast<float>(v); };
  const std::pair<float, std::uint16_t> cases[] = {
      {0.0F, 0x0000},
      {-0.0F, 0x8000},
      {1.0F, 0x3C00},
      {-2.0F, 0xC000},
      {0.1F, 0x2E66},
      {65504.0F, 0x7BFF},                    // largest finite
      {65519.0F, 0x7BFF},                    // below the midpoint to 65536
      {65520.0F, 0x7C00},                    // tie: rounds to even = infinity
      {1e6F, 0x7C00},                        // overflow
      {-1e6F, 0xFC00},                       //
      {INFINITY, 0x7C00},                    //
      {-INFINITY, 0xFC00},                   //
      {f(std::ldexp(1.0, -24)), 0x0001},     // smallest subnormal
      {f(std::ldexp(1.0, -25)), 0x0000},     // tie between 0 and 1: even
      {f(std::ldexp(3.0, -25)), 0x0002},     // tie between 1 and 2: even
      {f(std::ldexp(1.5, -25)), 0x0001},     // above the midpoint
      {f(std::ldexp(1023.0, -24)), 0x03FF},  // largest subnormal
      {f(std::ldexp(2047.0, -25)), 0x0400},  // tie between 0x3FF and 0x400: even (normal)
      {f(std::ldexp(1.0, -14)), 0x0400},     // smallest normal
      {f(1.0 + std::ldexp(1.0, -11)), 0x3C00},
      {f(1.0 + std::ldexp(3.0, -11)), 0x3C02},
      {f(std::ldexp(1.0, -40)), 0x0000},  // far below the subnormals
      {f(-std::ldexp(1.0, -40)), 0x8000},
      {std::numeric_limits<float>::denorm_min(), 0x0000},
  };
  for (auto [value, bits] : cases) {
    EXPECT_EQ(adapters::float_to_half_bits(value), bits) << value;
  }
  const std::uint16_t nan = adapters::float_to_half_bits(NAN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
}

/// Every finite half round-trips; every midpoint between neighbours rounds to the even one,
/// and the floats just beside a midpoint round to the nearer neighbour.
TEST(adapters_onnx, FloatToHalfExhaustiveMidpoints) {
  for (std::uint32_t code = 0; code < 0x7C00; ++code) {
    for (std::uint32_t sign : {0U, 0x8000U}) {
      const auto h = static_cast<std::uint16_t>(code | sign);
      const double v = test::half_to_double(h);
      ASSERT_EQ(adapters::float_to_half_bits(static_cast<float>(v)), h) << v;
      const auto next = static_cast<std::uint16_t>(h + 1);
      const double upper =
          code + 1 == 0x7C00 ? std::ldexp(1.0, 16) * (v < 0 ? -1 : 1) : test::half_to_double(next);
      const auto mid = static_cast<float>((v + upper) / 2);  // exact: 12 significant bits
      const std::uint16_t even = (h & 1) == 0 ? h : next;
      ASSERT_EQ(adapters::float_to_half_bits(mid), even) << "midpoint above " << v;
      const float toward_v = std::nextafter(mid, static_cast<float>(v));
      const float toward_upper = std::nextafter(mid, static_cast<float>(upper));
      ASSERT_EQ(adapters::float_to_half_bits(toward_v), h) << "just below midpoint " << mid;
      ASSERT_EQ(adapters::float_to_half_bits(toward_upper), next) << "just above " << mid;
    }
  }
}

// --- errors the planner raises for ONNX specs --------------------------------------------------

TEST(adapters_onnx, PlannerRejectsNegativeSizeAndOverCrop) {
  const Tensor in = test::numeric_tensor(DType::float32, {2}, {1, 2});
  PadNode n = node_at(25, {-2, -1});
  expect_error([&] { pad(in.view(), canonical(n, DType::float32, {2})); }, Errc::out_of_range,
               {"pads", "axis 0", "-1"});
  n = node_at(25, {2, -3});
  n.mode = "edge";
  expect_error([&] { pad(in.view(), canonical(n, DType::float32, {2})); }, Errc::out_of_range,
               {"pads", "axis 0", "edge"});
}

}  // namespace
}  // namespace padnd
