// SPDX-License-Identifier: Apache-2.0
// numpy adapter: pad_width / mode / keyword / empty-axis rules of numpy.pad.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "padnd/adapters/numpy.hpp"
#include "padnd/plan.hpp"
#include "spec/helpers.hpp"

namespace padnd {
namespace {

using test::expect_error;
using Widths = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// Axis `k`'s mode: its AxisMode, or PadSpec::mode when the spec has none.
Mode mode_of(const PadSpec& spec, std::size_t k) {
  return spec.axis_modes.empty() ? spec.mode : spec.axis_modes[k].mode;
}

// Suite names repeat the executable's name so that `ctest -R "adapters|spec"` selects them.
TEST(adapters_numpy, PadWidthOnePairPerAxis) {
  expect_error(
      [] {
        numpy::to_canonical({{1, 1}}, "constant", "", {2, 3});
      },
      Errc::shape_mismatch, {"pad_width", "rank 2", "got 1 pair"});
  expect_error(
      [] {
        numpy::to_canonical({{1, 1}, {0, 0}, {0, 0}}, "edge", "", {2, 3});
      },
      Errc::shape_mismatch, {"pad_width", "rank 2", "got 3 pair"});
}

TEST(adapters_numpy, NegativeWidthsRejected) {
  expect_error(
      [] {
        numpy::to_canonical({{0, 0}, {-1, 2}}, "constant", "", {2, 3});
      },
      Errc::out_of_range,
      {"pad_width", "axis 1", "index can't contain negative values", "before -1"});
  expect_error(
      [] {
        numpy::to_canonical({{0, -3}, {0, 0}}, "wrap", "", {2, 3});
      },
      Errc::out_of_range, {"pad_width", "axis 0", "after -3"});
}

TEST(adapters_numpy, ModesAcceptedAndOthersRejected) {
  const std::pair<const char*, Mode> accepted[] = {
      {"constant", Mode::constant}, {"edge", Mode::edge},       {"reflect", Mode::reflect},
      {"symmetric", Mode::symmetric}, {"wrap", Mode::wrap},     {"empty", Mode::constant},
      {"linear_ramp", Mode::linear_ramp}, {"maximum", Mode::maximum}, {"mean", Mode::mean},
      {"median", Mode::median},     {"minimum", Mode::minimum}};
  for (auto [name, mode] : accepted) {
    EXPECT_EQ(mode_of(numpy::to_canonical({{1, 1}}, name, "", {3}), 0), mode);
    const numpy::ModeRule* rule = numpy::find_mode(name);
    ASSERT_NE(rule, nullptr);
    EXPECT_EQ(rule->mode, mode);
  }
  EXPECT_EQ(numpy::modes().size(), std::size(accepted));
  EXPECT_EQ(numpy::find_mode("Constant"), nullptr);
  EXPECT_EQ(numpy::find_mode("constant")->keyword, "constant_values");
  EXPECT_EQ(numpy::find_mode("empty")->keyword, "");
  EXPECT_EQ(numpy::find_mode("symmetric")->keyword, "reflect_type");
  EXPECT_EQ(numpy::find_mode("median")->keyword, "stat_length");
  for (const char* bad : {"Constant", "", "reflect_odd"}) {
    expect_error(
        [&] {
          numpy::to_canonical({{1, 1}}, bad, "", {3});
        },
        Errc::invalid_argument,
        {"mode", "'" + std::string(bad) + "'", "constant, edge, reflect, symmetric, wrap, empty, "
         "linear_ramp, maximum, mean, median, minimum"});
  }
}

TEST(adapters_numpy, KeywordArguments) {
  numpy::PadArgs args;
  args.pad_width = {{1, 2}, {0, 3}};
  args.modes = {"reflect", "mean"};
  args.reflect_type = "odd";
  args.stat_length = {{std::nullopt, std::nullopt}, {2, 5}};
  const PadSpec spec = numpy::to_canonical(args, {3, 4});
  EXPECT_TRUE(spec.axis_modes[0].odd);
  EXPECT_FALSE(spec.axis_modes[1].odd);
  EXPECT_EQ(spec.axis_modes[0].begin_stat_elems, kWholeAxis);
  EXPECT_EQ(spec.axis_modes[1].begin_stat_elems, 2);
  EXPECT_EQ(spec.axis_modes[1].end_stat_elems, 5);
  args.reflect_type = "anything";  // numpy: everything but "odd" is "even"
  EXPECT_FALSE(numpy::to_canonical(args, {3, 4}).axis_modes[0].odd);

  args.modes = {"edge", "wrap", "edge"};
  expect_error([&] { numpy::to_canonical(args, {3, 4}); }, Errc::shape_mismatch,
               {"mode", "one mode, or one per axis (rank 2), got 3"});
  args.modes = {"mean"};
  args.stat_length = {{1, -2}, {0, 0}};
  expect_error([&] { numpy::to_canonical(args, {3, 4}); }, Errc::out_of_range,
               {"stat_length", "axis 0", "index can't contain negative values",
                "(before 1, after -2)"});
  args.stat_length = {{1, 1}};
  expect_error([&] { numpy::to_canonical(args, {3, 4}); }, Errc::shape_mismatch,
               {"stat_length", "one (before, after) pair per axis (rank 2), got 1"});
  args.stat_length = {{1, -1}, {1, 1}};  // numpy reads no stat_length for an empty array
  args.pad_width = {{0, 0}, {0, 3}};
  EXPECT_NO_THROW(numpy::to_canonical(args, {0, 4}));
  // With one mode per axis (padnd's), a value axis after a constant-padded empty axis sees
  // elements, so its numbers are read and checked.
  args.modes = {"constant", "mean"};
  args.pad_width = {{1, 1}, {0, 3}};
  args.stat_length = {{1, 1}, {1, -2}};
  expect_error(
      [&] {
        numpy::to_canonical(args, {0, 4});
      },
      Errc::out_of_range, {"stat_length", "axis 1", "(before 1, after -2)"});
  args.stat_length = {{1, 1}, {2, 3}};
  EXPECT_EQ(numpy::to_canonical(args, {0, 4}).axis_modes[1].end_stat_elems, 3);
  args.modes = {"mean"};
  args.stat_length.clear();
  args.pad_width = {{-1, 0}, {0, 0}};
  args.negative = NegativeOrder::crop_then_pad;
  EXPECT_EQ(numpy::to_canonical(args, {3, 4}).negative_order, NegativeOrder::crop_then_pad);
}

TEST(adapters_numpy, OddReflectionOnlyWhereNumpyComputes) {
  // numpy copies the edge of a length-1 axis and leaves an unpadded axis alone: no arithmetic,
  // so odd reflection works there for every dtype.
  numpy::PadArgs args;
  args.pad_width = {{1, 2}, {0, 0}, {2, 0}, {-1, 0}};
  args.modes = {"symmetric"};
  args.reflect_type = "odd";
  args.negative = NegativeOrder::map_on_original;
  const PadSpec spec = numpy::to_canonical(args, {1, 3, 3, 1});
  EXPECT_FALSE(spec.axis_modes[0].odd);
  EXPECT_FALSE(spec.axis_modes[1].odd);
  EXPECT_TRUE(spec.axis_modes[2].odd);
  EXPECT_TRUE(spec.axis_modes[3].odd);  // a crop: the planner's "cannot crop" error
  args.pad_width = {{1, 2}, {0, 0}, {2, 0}, {0, 0}};
  const PadSpec strings = numpy::to_canonical(args, {1, 3, 1, 2});
  EXPECT_NO_THROW(make_plan(DType::string, {1, 3, 1, 2}, {}, strings));
}

TEST(adapters_numpy, NonConstantModeCannotExtendEmptyAxis) {
  for (const char* mode : {"edge", "reflect", "symmetric", "wrap"}) {
    expect_error(
        [&] {
          numpy::to_canonical({{0, 0}, {0, 1}}, mode, "", {2, 0});
        },
        Errc::out_of_range, {"pad_width", "axis 1", "can't extend empty axis 1", mode, "after 1"});
    // zero widths on the empty axis are fine, and constant mode can always fill
    EXPECT_NO_THROW(numpy::to_canonical({{1, 1}, {0, 0}}, mode, "", {2, 0}));
  }
  const Tensor in = test::numeric_tensor(DType::int16, {0, 2}, {});
  const PadSpec spec = numpy::to_canonical({{1, 0}, {0, 0}}, "constant",
                                           test::element_bytes(DType::int16, 5), {0, 2});
  const Tensor out = pad(in.view(), spec);
  EXPECT_EQ(out.shape(), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(test::numeric_values(out), (std::vector<double>{5, 5}));
}

TEST(adapters_numpy, CanonicalSwitchesAndValue) {
  const std::string seven = test::element_bytes(DType::float64, 7);
  const PadSpec spec = numpy::to_canonical({{1, 2}, {0, 3}}, "constant", seven, {2, 2});
  EXPECT_EQ(spec.axes[0], (AxisPad{1, 2, 0}));
  EXPECT_EQ(spec.axes[1], (AxisPad{0, 3, 0}));
  EXPECT_EQ(spec.negative_order, NegativeOrder::map_on_original);
  EXPECT_EQ(spec.negative_size, NegativeSize::error);
  EXPECT_EQ(spec.value, seven);
  EXPECT_TRUE(spec.axis_modes.empty());  // one index mode, one value: no per-axis rules
  EXPECT_TRUE(numpy::to_canonical({{1, 2}, {0, 3}}, "edge", seven, {2, 2}).value.empty());
}

TEST(adapters_numpy, AxisModesOnlyWhereAxesDiffer) {
  const std::string seven = test::element_bytes(DType::float64, 7);
  const std::string eight = test::element_bytes(DType::float64, 8);
  numpy::PadArgs args;
  args.pad_width = {{1, 2}, {0, 3}};
  args.modes = {"wrap"};
  EXPECT_TRUE(numpy::to_canonical(args, {2, 2}).axis_modes.empty());
  args.modes = {"wrap", "edge"};  // index modes per axis
  PadSpec spec = numpy::to_canonical(args, {2, 2});
  ASSERT_EQ(spec.axis_modes.size(), 2U);
  EXPECT_EQ(spec.axis_modes[1].mode, Mode::edge);
  args.modes = {"constant"};
  args.constant_values = {{seven, seven}, {seven, eight}};  // a side differs: numpy's corners
  spec = numpy::to_canonical(args, {2, 2});
  ASSERT_EQ(spec.axis_modes.size(), 2U);
  EXPECT_EQ(spec.value, seven);
  EXPECT_EQ(spec.axis_modes[1].end_value, eight);
  args.constant_values = {{seven, seven}, {seven, seven}};
  spec = numpy::to_canonical(args, {2, 2});
  EXPECT_TRUE(spec.axis_modes.empty());
  EXPECT_EQ(spec.value, seven);
  args.modes = {"reflect"};  // odd reflection computes: kept per axis
  args.reflect_type = "odd";
  EXPECT_EQ(numpy::to_canonical(args, {2, 2}).axis_modes.size(), 2U);
  args.modes = {"mean"};
  EXPECT_EQ(numpy::to_canonical(args, {2, 2}).axis_modes.size(), 2U);
}

TEST(adapters_numpy, DtypesFromTheElementTypeTable) {
  // numpy's kind letters and item sizes (numpy.dtype(...).kind / .itemsize).
  const std::tuple<char, std::int64_t, DType> numpy_dtypes[] = {
      {'b', 1, DType::boolean},    {'i', 1, DType::int8},        {'i', 2, DType::int16},
      {'i', 4, DType::int32},      {'i', 8, DType::int64},       {'u', 1, DType::uint8},
      {'u', 2, DType::uint16},     {'u', 4, DType::uint32},      {'u', 8, DType::uint64},
      {'f', 2, DType::float16},    {'f', 4, DType::float32},     {'f', 8, DType::float64},
      {'c', 8, DType::complex64},  {'c', 16, DType::complex128}, {'M', 8, DType::datetime64},
      {'m', 8, DType::timedelta64}};
  for (const auto& [kind, itemsize, dtype] : numpy_dtypes) {
    EXPECT_EQ(from_numpy(kind, itemsize), ElementType(dtype)) << kind << itemsize;
    EXPECT_EQ(numpy_kind(dtype), kind);
    EXPECT_EQ(numpy_only(dtype), kind == 'M' || kind == 'm');
  }
  if constexpr (sizeof(long double) > sizeof(double)) {
    EXPECT_EQ(from_numpy('f', sizeof(long double)), ElementType(DType::longdouble));
    EXPECT_EQ(from_numpy('c', 2 * sizeof(long double)), ElementType(DType::clongdouble));
  }
  EXPECT_TRUE(numpy_only(DType::longdouble) && numpy_only(DType::clongdouble));
  for (const auto& [kind, itemsize] : {std::pair<char, std::int64_t>{'f', 3},
                                       {'i', 16},
                                       {'V', 4},
                                       {'S', 1},
                                       {'O', 8},
                                       {'f', 1872219079466898772},
                                       {'i', INT64_MAX}}) {  // 8 * size overflows (a fuzz find)
    EXPECT_EQ(from_numpy(kind, itemsize), std::nullopt) << kind << itemsize;
  }
  for (DType none : {DType::bfloat16, DType::float8e4m3fn, DType::int4, DType::uint2, DType::string,
                     DType::opaque}) {
    EXPECT_EQ(numpy_kind(none), '\0');
    EXPECT_FALSE(numpy_only(none));
  }
}

/// numpy >= 2.1 results for pads larger than the axis (periodic reflect / symmetric / wrap).
TEST(adapters_numpy, ResultsMatchNumpy) {
  const Tensor in = test::numeric_tensor(DType::int32, {3}, {1, 2, 3});
  const auto run = [&](const char* mode, std::int64_t before, std::int64_t after) {
    return test::numeric_values(
        pad(in.view(), numpy::to_canonical({{before, after}}, mode, "", {3})));
  };
  EXPECT_EQ(run("reflect", 1, 8), (std::vector<double>{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}));
  EXPECT_EQ(run("symmetric", 4, 4), (std::vector<double>{3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1}));
  EXPECT_EQ(run("wrap", 4, 5), (std::vector<double>{3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2}));
  EXPECT_EQ(run("edge", 2, 1), (std::vector<double>{1, 1, 1, 2, 3, 3}));
  const Tensor one = test::numeric_tensor(DType::int32, {1}, {7});
  EXPECT_EQ(
      test::numeric_values(pad(one.view(), numpy::to_canonical({{2, 3}}, "reflect", "", {1}))),
      (std::vector<double>(6, 7)));  // numpy replicates a singleton in reflect mode
}

}  // namespace
}  // namespace padnd
