// SPDX-License-Identifier: Apache-2.0
// Planner: normalisation (crop as view, merged axes, folded units), shape inference without
// data, and one test per canonical validation rule (message names argument, axis and values).
#include "padnd/plan.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "padnd/error.hpp"
#include "plan/index_map.hpp"
#include "plan/plan_access.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

using detail::BorderedRow;
using detail::PlanAxis;
using detail::RowSegment;

using Shape = std::vector<std::int64_t>;

PadSpec spec_of(std::vector<AxisPad> axes, Mode mode = Mode::constant) {
  PadSpec s;
  s.axes = std::move(axes);
  s.mode = mode;
  return s;
}

/// Expects `f` to throw padnd::Error with `code` and a message containing every fragment.
template <class F>
void expect_error(F&& f, Errc code, std::vector<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "no error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& frag : fragments) {
      EXPECT_NE(std::string(e.what()).find(frag), std::string::npos)
          << "message '" << e.what() << "' lacks '" << frag << "'";
    }
  }
}

TEST(Plan, MergesUnpaddedAxesAndFoldsTheContiguousTail) {
  // conv-style: (16, 64, 128, 128), pad the two spatial axes by 1.
  const Plan p = make_plan(DType::float32, {16, 64, 128, 128}, {},
                           spec_of({{0, 0, 0}, {0, 0, 0}, {1, 1, 0}, {1, 1, 0}}));
  ASSERT_EQ(detail::program(p).axes().size(), 3u);  // batch*channels merged; two padded axes
  EXPECT_EQ(detail::program(p).axes()[0].out_len, 16 * 64);
  EXPECT_TRUE(detail::program(p).axes()[0].plain);
  EXPECT_EQ(detail::program(p).unit_bytes(), 4);
  ASSERT_EQ(detail::program(p).row_segments().size(), 3u);
  EXPECT_EQ(detail::program(p).row_segments()[1].kind, RowSegment::Kind::copy);
  EXPECT_EQ(detail::program(p).row_segments()[1].len, 128);

  // Padding only the outer axis: a short inner (4*3) block becomes one unit...
  const Plan q =
      make_plan(DType::float32, {8, 4, 3}, {}, spec_of({{2, 3, 0}, {0, 0, 0}, {0, 0, 0}}));
  EXPECT_EQ(detail::program(q).unit_bytes(), 4 * 4 * 3);
  ASSERT_EQ(detail::program(q).axes().size(), 1u);
  EXPECT_EQ(detail::program(q).axes()[0].out_len, 13);

  // ...a long one (64*32 elements, 8 KiB) stays a plain row that execution can split.
  const Plan r =
      make_plan(DType::float32, {8, 64, 32}, {}, spec_of({{2, 3, 0}, {0, 0, 0}, {0, 0, 0}}));
  EXPECT_EQ(detail::program(r).unit_bytes(), 4);
  ASSERT_EQ(detail::program(r).axes().size(), 2u);
  EXPECT_EQ(detail::program(r).axes()[0].out_len, 13);
  EXPECT_TRUE(detail::program(r).axes()[1].plain);
  EXPECT_EQ(detail::program(r).axes()[1].out_len, 64 * 32);
}

TEST(Plan, RowSegmentsNameReversedAndInterleavedRuns) {
  // symmetric 3 each side of 0..4: sources 2 1 0 | 0 1 2 3 4 | 4 3 2
  const Plan s = make_plan(DType::int16, {5}, {}, spec_of({{3, 3, 0}}, Mode::symmetric));
  ASSERT_EQ(detail::program(s).row_segments().size(), 3u);
  EXPECT_EQ(detail::program(s).row_segments()[0].kind, RowSegment::Kind::reverse);
  EXPECT_EQ(detail::program(s).row_segments()[0].src_begin, 2);
  EXPECT_EQ(detail::program(s).row_segments()[1].kind, RowSegment::Kind::copy);
  EXPECT_EQ(detail::program(s).row_segments()[2].kind, RowSegment::Kind::reverse);
  EXPECT_EQ(detail::program(s).row_segments()[2].len, 3);

  // interior 2, begin 1: pad | 0 . . 1 . . 2 . . 3 | pad pad
  const Plan i = make_plan(DType::float32, {4}, {}, spec_of({{1, 2, 2}}));
  ASSERT_EQ(detail::program(i).row_segments().size(), 3u);
  const RowSegment& mid = detail::program(i).row_segments()[1];
  EXPECT_EQ(mid.kind, RowSegment::Kind::interleave);
  EXPECT_EQ(mid.out_begin, 1);
  EXPECT_EQ(mid.len, 10);
  EXPECT_EQ(mid.step, 3);
  EXPECT_EQ(mid.src_begin, 0);
}

TEST(Plan, BorderedRowsTakeEveryIndexModeBorder) {
  using Border = BorderedRow::Border;
  const auto border_is = [](const Border& b, std::int64_t len, std::int64_t src,
                            std::int64_t step) {
    return b.len == len && b.src == src && b.step == step;
  };
  // reflect 2 | 5 | 2 of 0..4: sources 2 1 | 0 1 2 3 4 | 3 2
  const Plan r = make_plan(DType::float32, {5}, {}, spec_of({{2, 2, 0}}, Mode::reflect));
  ASSERT_TRUE(detail::program(r).bordered_row().has_value());
  EXPECT_TRUE(border_is(detail::program(r).bordered_row()->begin, 2, 2, -1));
  EXPECT_EQ(detail::program(r).bordered_row()->copy_src, 0);
  EXPECT_EQ(detail::program(r).bordered_row()->copy_len, 5);
  EXPECT_TRUE(border_is(detail::program(r).bordered_row()->end, 2, 3, -1));
  // symmetric 2 | 5 | 2: sources 1 0 | 0 1 2 3 4 | 4 3 (edges repeated: three runs)
  const Plan y = make_plan(DType::float32, {5}, {}, spec_of({{2, 2, 0}}, Mode::symmetric));
  ASSERT_TRUE(detail::program(y).bordered_row().has_value());
  EXPECT_TRUE(border_is(detail::program(y).bordered_row()->begin, 2, 1, -1));
  EXPECT_EQ(detail::program(y).bordered_row()->copy_len, 5);
  EXPECT_TRUE(border_is(detail::program(y).bordered_row()->end, 2, 4, -1));
  // wrap 2 | 5 | 3: sources 3 4 | 0 1 2 3 4 | 0 1 2 (three copies: the longest is the row's)
  const Plan w = make_plan(DType::float32, {5}, {}, spec_of({{2, 3, 0}}, Mode::wrap));
  ASSERT_TRUE(detail::program(w).bordered_row().has_value());
  EXPECT_TRUE(border_is(detail::program(w).bordered_row()->begin, 2, 3, 1));
  EXPECT_EQ(detail::program(w).bordered_row()->copy_len, 5);
  EXPECT_TRUE(border_is(detail::program(w).bordered_row()->end, 3, 0, 1));
  // wrap 2 | 5 and 5 | 2: two copy segments; the longer is the row's copy, on either side
  const Plan wb = make_plan(DType::float32, {5}, {}, spec_of({{2, 0, 0}}, Mode::wrap));
  ASSERT_TRUE(detail::program(wb).bordered_row().has_value());
  EXPECT_TRUE(border_is(detail::program(wb).bordered_row()->begin, 2, 3, 1));
  EXPECT_EQ(detail::program(wb).bordered_row()->copy_len, 5);
  const Plan we = make_plan(DType::float32, {5}, {}, spec_of({{0, 2, 0}}, Mode::wrap));
  ASSERT_TRUE(detail::program(we).bordered_row().has_value());
  EXPECT_EQ(detail::program(we).bordered_row()->copy_len, 5);
  EXPECT_TRUE(border_is(detail::program(we).bordered_row()->end, 2, 0, 1));
  // edge 0 | 5 | 2: one border, a repeated source
  const Plan e = make_plan(DType::float32, {5}, {}, spec_of({{0, 2, 0}}, Mode::edge));
  ASSERT_TRUE(detail::program(e).bordered_row().has_value());
  EXPECT_EQ(detail::program(e).bordered_row()->begin.len, 0);
  EXPECT_TRUE(border_is(detail::program(e).bordered_row()->end, 2, 4, 0));
  // constant: the pad value (an output too big to be filled whole, then placed)
  const Plan c = make_plan(DType::float32, {5000}, {}, spec_of({{1, 0, 0}}));
  EXPECT_EQ(detail::program(c).strategy(), detail::Strategy::bordered);
  ASSERT_TRUE(detail::program(c).bordered_row().has_value());
  EXPECT_TRUE(border_is(detail::program(c).bordered_row()->begin, 1, PlanAxis::kPad, 0));
  // interleaved (interior) and gathered (wrap wider than the axis) rows take the segment loop
  const Plan interleaved = make_plan(DType::float32, {4}, {}, spec_of({{1, 2, 2}}));
  EXPECT_EQ(detail::program(interleaved).strategy(), detail::Strategy::segments);
  EXPECT_FALSE(detail::program(interleaved).bordered_row());
  const Plan wide_wrap = make_plan(DType::float32, {3}, {}, spec_of({{7, 0, 0}}, Mode::wrap));
  EXPECT_FALSE(detail::program(wide_wrap).bordered_row());
}

TEST(Plan, CropBecomesAViewOffset) {
  // (10, 10) float32, crop 2 rows and 3 columns at the start: offset 2*40 + 3*4 bytes.
  const Plan p = make_plan(DType::float32, {10, 10}, {}, spec_of({{-2, 0, 0}, {-3, 1, 0}}));
  EXPECT_EQ(detail::program(p).view_offset(), 2 * 40 + 3 * 4);
  EXPECT_EQ(Shape(p.output_shape().begin(), p.output_shape().end()), (Shape{8, 8}));
}

TEST(Plan, NoFixedMaximumRank) {
  Shape shape(40, 1);
  shape[3] = 2;
  shape[39] = 3;
  std::vector<AxisPad> axes(40);
  axes[0] = {1, 0, 0};
  axes[39] = {0, 2, 0};
  PadSpec spec = spec_of(axes, Mode::edge);
  std::vector<float> in(6);
  std::iota(in.begin(), in.end(), 1.0f);
  const Tensor out = pad(TensorView{in.data(), DType::float32, shape, {}}, spec);
  const Tensor ref = testing::reference_pad(TensorView{in.data(), DType::float32, shape, {}}, spec);
  EXPECT_EQ(out.shape(), ref.shape());
  EXPECT_TRUE(testing::same_contents(ref, out.data(), out.byte_size()));
}

TEST(Plan, RankZeroIsIdentity) {
  const double x = 5.0;
  const Tensor out = pad(TensorView{&x, DType::float64, {}, {}}, spec_of({}));
  EXPECT_TRUE(out.shape().empty());
  double y = 0;
  std::memcpy(&y, out.data(), sizeof y);
  EXPECT_EQ(y, 5.0);
}

TEST(Plan, ReusedPlanOnNewData) {
  const Plan p = make_plan(DType::int32, {3}, {}, spec_of({{1, 1, 0}}, Mode::reflect));
  const int a[3] = {1, 2, 3};
  const int b[3] = {7, 8, 9};
  int out[5] = {};
  execute(p, a, out, sizeof out);
  EXPECT_EQ((std::vector<int>(out, out + 5)), (std::vector<int>{2, 1, 2, 3, 2}));
  execute(p, b, out, sizeof out);
  EXPECT_EQ((std::vector<int>(out, out + 5)), (std::vector<int>{8, 7, 8, 9, 8}));
}

TEST(InferShape, WorksWithoutDataAndChecksTheRules) {
  EXPECT_EQ(infer_shape({3, 0, 5}, spec_of({{1, 2, 0}, {1, 1, 0}, {-5, 0, 0}})), (Shape{6, 2, 0}));
  EXPECT_EQ(infer_shape({3}, spec_of({{0, 0, 2}})), (Shape{7}));
  // Shape inference never needs the tensor to exist: huge dims are fine.
  EXPECT_EQ(infer_shape({std::int64_t{1} << 60}, spec_of({{1, 1, 0}}, Mode::reflect)),
            (Shape{(std::int64_t{1} << 60) + 2}));
}

TEST(Validation, PadCountMustMatchRank) {
  expect_error(
      [] {
        infer_shape({2, 3}, spec_of({{1, 1, 0}}));
      },
      Errc::shape_mismatch, {"pads", "2", "1"});
}

TEST(Validation, NegativeOutputLength) {
  expect_error(
      [] {
        infer_shape({2}, spec_of({{-2, -1, 0}}));
      },
      Errc::out_of_range, {"pads", "axis 0", "-2", "-1", "is negative"});
}

TEST(Validation, NegativeOutputLengthClampsWhenAsked) {
  PadSpec s = spec_of({{-2, -2, 0}}, Mode::reflect);
  s.negative_size = NegativeSize::clamp_to_zero;
  EXPECT_EQ(infer_shape({3}, s), (Shape{0}));
}

TEST(Validation, NegativeInterior) {
  expect_error(
      [] {
        infer_shape({2, 2}, spec_of({{0, 0, 0}, {0, 0, -1}}));
      },
      Errc::invalid_argument, {"interior", "axis 1", "-1"});
}

TEST(Validation, InteriorNeedsConstantMode) {
  expect_error(
      [] {
        infer_shape({3}, spec_of({{0, 0, 1}}, Mode::edge));
      },
      Errc::invalid_argument, {"interior", "axis 0", "edge", "constant"});
}

TEST(Validation, NonConstantModeOnEmptyAxis) {
  expect_error(
      [] {
        infer_shape({0, 3}, spec_of({{1, 0, 0}, {0, 0, 0}}, Mode::reflect));
      },
      Errc::out_of_range, {"axis 0", "reflect", "empty"});
  // Zero pads on the empty axis are fine (empty output).
  EXPECT_EQ(infer_shape({0, 3}, spec_of({{0, 0, 0}, {1, 1, 0}}, Mode::reflect)), (Shape{0, 5}));
}

TEST(Validation, CropThenPadCropExceedingTheAxis) {
  PadSpec s = spec_of({{2, -7, 0}}, Mode::edge);
  s.negative_order = NegativeOrder::crop_then_pad;
  expect_error([&] { infer_shape({6}, s); }, Errc::out_of_range, {"axis 0", "edge", "7", "6"});
  s.negative_order = NegativeOrder::map_on_original;  // nGraph: [1]
  EXPECT_EQ(infer_shape({6}, s), (Shape{1}));
}

TEST(Validation, CropThenPadExtendingAnAxisCroppedToNothing) {
  PadSpec s = spec_of({{-2, 1, 0}}, Mode::wrap);
  s.negative_order = NegativeOrder::crop_then_pad;
  expect_error([&] { infer_shape({2}, s); }, Errc::out_of_range, {"axis 0", "wrap", "length 0"});
}

TEST(Validation, OverflowIsAnError) {
  expect_error(
      [] {
        infer_shape({5}, spec_of({{INT64_MAX, 1, 0}}));
      },
      Errc::overflow, {"axis 0", "overflows"});
  expect_error([] { infer_shape({5}, spec_of({{INT64_MIN, 1, 0}})); }, Errc::overflow, {"axis 0"});
  expect_error(
      [] {
        infer_shape({3}, spec_of({{0, 0, INT64_MAX}}));
      },
      Errc::overflow, {"axis 0", "interior + 1", "interior 9223372036854775807"});
  // Two crops near INT64_MAX (found by plan_execute_fuzz: their sum overflowed, UBSan).
  expect_error(
      [] {
        PadSpec spec = spec_of({{-(INT64_MAX / 2 + 1), -(INT64_MAX / 2 + 1), 0}}, Mode::edge);
        spec.negative_order = NegativeOrder::crop_then_pad;
        spec.negative_size = NegativeSize::clamp_to_zero;
        infer_shape({3}, spec);
      },
      Errc::out_of_range, {"axis 0", "crops more than INT64_MAX elements"});
  // An empty axis too: the index map steps by interior + 1 (found by plan_execute_fuzz, where
  // a window of such a plan overflowed in middle_run).
  expect_error(
      [] {
        infer_shape({0, 2}, spec_of({{1, 0, INT64_MAX}, {0, 0, 0}}));
      },
      Errc::overflow, {"axis 0", "interior + 1"});
  expect_error(
      [] {
        infer_shape({3}, spec_of({{0, 0, INT64_MAX / 2}}));
      },
      Errc::overflow, {"axis 0", "dilated length", "input length 3"});
  // (2 - 1) * (INT64_MAX - 1 + 1) fits; + 1 does not (UBSan found the unchecked + 1).
  expect_error(
      [] {
        infer_shape({2}, spec_of({{0, 0, INT64_MAX - 1}}));
      },
      Errc::overflow, {"axis 0", "dilated length", "+ 1", "input length 2"});
  // The dilated length fits, begin + it does not.
  expect_error(
      [] {
        infer_shape({2}, spec_of({{INT64_MAX - 2, 0, INT64_MAX / 2}}));
      },
      Errc::overflow, {"axis 0", "begin + input length"});
  // Each axis fits but the element count does not.
  expect_error(
      [] {
        make_plan(DType::float32, {1, 1}, {}, spec_of({{0, INT64_MAX / 2, 0}, {0, 4, 0}}));
      },
      Errc::overflow, {"overflow"});
}

TEST(Validation, ValueMustBeOneElementOfTheType) {
  PadSpec s = spec_of({{1, 1, 0}});
  s.value = std::string(2, '\0');
  expect_error([&] { make_plan(DType::float32, {2}, {}, s); }, Errc::invalid_argument,
               {"value", "float32", "4", "2"});
  s.value = std::string(1, '\x1f');  // 5 bits do not fit an int4 code
  expect_error([&] { make_plan(DType::int4, {2}, {}, s); }, Errc::invalid_argument,
               {"value", "int4", "31"});
}

TEST(Validation, StridesMustMatchRankAndPackedTypesAreDense) {
  expect_error(
      [] {
        make_plan(DType::float32, {2, 2}, {8}, spec_of({{0, 0, 0}, {0, 0, 0}}));
      },
      Errc::shape_mismatch, {"strides", "2", "1"});
  expect_error(
      [] {
        make_plan(DType::uint4, {4}, {1}, spec_of({{0, 0, 0}}));
      },
      Errc::invalid_argument, {"strides", "uint4"});
}

TEST(Validation, OpaqueSizeMustBePositive) {
  expect_error(
      [] {
        make_plan(ElementType::opaque(0), {2}, {}, spec_of({{0, 0, 0}}));
      },
      Errc::unsupported_type, {"opaque", "0"});
}

TEST(Execute, TooSmallOutputBufferWritesNothing) {
  const Plan p = make_plan(DType::uint8, {4}, {}, spec_of({{2, 2, 0}}));
  const unsigned char in[4] = {1, 2, 3, 4};
  unsigned char out[8];
  std::memset(out, 0xAB, sizeof out);
  expect_error([&] { execute(p, in, out, 7); }, Errc::shape_mismatch, {"output", "7", "8"});
  for (unsigned char c : out) EXPECT_EQ(c, 0xAB);
}

TEST(Execute, EmptyOutputWritesNothingButStillValidates) {
  const Plan p = make_plan(DType::float32, {0, 3}, {}, spec_of({{0, 0, 0}, {1, 1, 0}}, Mode::edge));
  EXPECT_EQ(p.output_elements(), 0);
  execute(p, nullptr, nullptr, 0);
  EXPECT_THROW(make_plan(DType::float32, {0, 3}, {}, spec_of({{1, 0, 0}, {1, 1, 0}}, Mode::edge)),
               Error);
}

// Tables hold the borders only: a plan's memory does not grow with the axis (the issue's
// O(sum of pads) rule), here a 2^40-element row that no table could hold.
TEST(Plan, TablesHoldOnlyTheBordersOfAVeryLongAxis) {
  const std::int64_t n = std::int64_t{1} << 40;
  for (Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    const Plan p = make_plan(DType::float64, {n}, {}, spec_of({{3, 2, 0}}, mode));
    ASSERT_EQ(detail::program(p).axes().size(), 1u);
    const PlanAxis& row = detail::program(p).axes()[0];
    EXPECT_EQ(row.head_len, 3) << mode_name(mode);
    EXPECT_EQ(row.mid_len, n) << mode_name(mode);
    EXPECT_EQ(row.border_len(), 5) << mode_name(mode);
    // Constant and edge borders repeat one source (or the pad value): one entry per side.
    const bool one_source = mode == Mode::constant || mode == Mode::edge;
    EXPECT_EQ(detail::program(p).border_table().size(), one_source ? 2u : 5u) << mode_name(mode);
    EXPECT_LE(detail::program(p).row_segments().size(), 5u) << mode_name(mode);
    EXPECT_LE(detail::program(p).gather_table().size(), 5u) << mode_name(mode);
  }
  PadSpec interior = spec_of({{-3, 1, 2}});
  const Plan q = make_plan(DType::float32, {n}, {}, interior);
  const PlanAxis& row = detail::program(q).axes()[0];
  EXPECT_EQ(row.head_len, 0);  // -3 crops a whole step: the row starts at source 1
  EXPECT_EQ(row.mid_step, 3);
  EXPECT_EQ(row.source(0, detail::program(q).border_table().data()),
            0);  // relative to the cropped view
  EXPECT_EQ(row.source(1, detail::program(q).border_table().data()), PlanAxis::kPad);
  ASSERT_EQ(detail::program(q).row_segments().size(), 2u);
  EXPECT_EQ(detail::program(q).row_segments()[0].kind, RowSegment::Kind::interleave);
}

// Plans as small as the request: pads of 2^40 on every index mode, around inputs short and
// long, on the row and on an outer axis, cost a few KiB however wide the pads are, and more only
// in proportion to one period of the input.
TEST(Plan, PlanMemoryStaysBoundedForPadsOf2To40) {
  const std::int64_t wide = std::int64_t{1} << 40;
  for (Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    for (const std::int64_t d : {std::int64_t{1}, std::int64_t{2}, std::int64_t{7}}) {
      const Plan row = make_plan(DType::uint8, {d}, {}, spec_of({{wide, wide, 0}}, mode));
      EXPECT_LT(row.memory_bytes(), 4096) << mode_name(mode) << " d=" << d;
      const Plan outer =
          make_plan(DType::uint8, {d, 3}, {}, spec_of({{wide, wide - 1, 0}, {1, 2, 0}}, mode));
      EXPECT_LT(outer.memory_bytes(), 4096) << mode_name(mode) << " d=" << d;
    }
    // A long input: one period of sources per side at most (2 * 1000 entries for symmetric).
    const Plan long_row = make_plan(DType::uint8, {1000}, {}, spec_of({{wide, wide, 0}}, mode));
    EXPECT_LT(long_row.memory_bytes(), 4096 + 2 * 2 * 1000 * 8) << mode_name(mode);
  }
}

// Sources beyond the tabulated period fold onto it: every position of a border many periods
// wide reads what the index map says.
TEST(Plan, FoldedBordersMatchTheIndexMap) {
  for (Mode mode : {Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    for (const std::int64_t d :
         {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{5}}) {
      const AxisPad pad{23, 31, 0};
      const Plan p = make_plan(DType::uint8, {d, 2}, {}, spec_of({pad, {0, 0, 0}}, mode));
      const PlanAxis& axis = detail::program(p).axes()[0];
      ASSERT_LE(axis.tabulated(), 2 * axis.period) << mode_name(mode);
      const detail::AxisRule rule{d, pad, mode, NegativeOrder::map_on_original};
      for (std::int64_t o = 0; o < axis.out_len; ++o) {
        ASSERT_EQ(axis.source(o, detail::program(p).border_table().data()),
                  detail::source_index(rule, o))
            << mode_name(mode) << " d=" << d << " o=" << o;
      }
    }
  }
}

// An output no machine can hold fails as an allocation error that names its bytes (before
// any planning work: pad() allocates first), never as std::bad_alloc or after building tables.
TEST(Pad, AnOutputTooBigToAllocateNamesItsBytes) {
  const std::uint8_t one = 7;
  const TensorView input{&one, ElementType(DType::uint8), {1}, {}};
  const std::int64_t wide = std::int64_t{1} << 61;
  for (Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    try {
      (void)pad(input, spec_of({{wide, wide, 0}}, mode));
      ADD_FAILURE() << "no error for " << mode_name(mode);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::out_of_memory);
      EXPECT_NE(std::string(e.what()).find(std::to_string(2 * wide + 1) + " bytes"),
                std::string::npos)
          << e.what();
    }
  }
}

// A tensor or a value-mode window's box that cannot be allocated says its bytes, its type and
// shape, and what it is for. (String tensors take the same path, but their std::vector's
// operator new aborts under ASan instead of throwing, so they are not tried here.)
TEST(Pad, AllocationFailuresSayWhatTheyAreFor) {
  const std::int64_t huge = std::int64_t{1} << 58;
  try {
    (void)Tensor::uninitialized(DType::float32, {2, huge});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::out_of_memory);
    EXPECT_STREQ(e.what(),
                 ("cannot allocate " + std::to_string(8 * huge) +
                  " bytes for a float32 tensor of shape [2, " + std::to_string(huge) + "]")
                     .c_str());
  }
  const float in[2] = {1, 2};
  // Beyond each side's first chunk, odd reflection's box is the whole axis (numpy extends
  // both sides in turns); this window starts 2^58 positions out.
  PadSpec odd = spec_of({{huge, huge, 0}}, Mode::reflect);
  AxisMode odd_reflect;
  odd_reflect.mode = Mode::reflect;
  odd_reflect.odd = true;
  odd.axis_modes = {odd_reflect};
  const Plan plan = make_plan(DType::float32, {2}, {}, odd);
  float out[4] = {};
  try {
    execute_window(plan, in, Window{{0}, {4}}, out, sizeof out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::out_of_memory);
    EXPECT_NE(std::string(e.what()).find(
                  "the box of the output that numpy's value modes compute windows from"),
              std::string::npos)
        << e.what();
  }
}

/// Whether a plan writes its output by filling it whole and placing the input rows.
bool fills_then_places(const Plan& p) {
  const bool chosen = detail::program(p).strategy() == detail::Strategy::fill_then_place;
  EXPECT_EQ(chosen,
            p.describe().find("filled whole, then the input rows placed") != std::string::npos);
  return chosen;
}

TEST(Plan, SmallConstantPadsFillThenPlace) {
  const PadSpec one = spec_of({{0, 0, 0}, {1, 1, 0}, {1, 1, 0}});
  EXPECT_TRUE(fills_then_places(
      make_plan(DType::float32, {2, 3, 4}, {}, spec_of({{1, 1, 0}, {1, 1, 0}, {1, 1, 0}}))));
  // Rows of at most 64 bytes up to 256 KiB: (4096, 14) float32 padded to 16 columns is 256 KiB.
  const PadSpec columns = spec_of({{0, 0, 0}, {1, 1, 0}});
  EXPECT_TRUE(fills_then_places(make_plan(DType::float32, {4096, 14}, {}, columns)));
  EXPECT_FALSE(fills_then_places(make_plan(DType::float32, {4097, 14}, {}, columns)));
  EXPECT_FALSE(
      fills_then_places(make_plan(DType::float32, {4096, 17}, {}, columns)));  // 68-byte rows
  // Longer rows up to 16 KiB: 4094 + 2 float32 columns is 16 KiB.
  EXPECT_TRUE(fills_then_places(make_plan(DType::float32, {1, 4094}, {}, columns)));
  EXPECT_FALSE(fills_then_places(make_plan(DType::float32, {1, 4095}, {}, columns)));
  EXPECT_FALSE(
      fills_then_places(make_plan(DType::float32, {8, 56, 56}, {}, one)));  // 224-byte rows
  // Interior padding on outer axes is placed; in the row it is not one copy.
  EXPECT_TRUE(
      fills_then_places(make_plan(DType::float32, {3, 4}, {}, spec_of({{1, 1, 2}, {1, 1, 0}}))));
  EXPECT_FALSE(
      fills_then_places(make_plan(DType::float32, {3, 4}, {}, spec_of({{1, 1, 0}, {1, 1, 1}}))));
  // Borders that read the input, and rows that are not contiguous in the input, are walked.
  EXPECT_FALSE(fills_then_places(make_plan(
      DType::float32, {2, 3, 4}, {}, spec_of({{1, 1, 0}, {1, 1, 0}, {1, 1, 0}}, Mode::edge))));
  EXPECT_FALSE(fills_then_places(make_plan(DType::float32, {3, 4}, {32, 8}, columns)));
  EXPECT_TRUE(
      fills_then_places(make_plan(DType::float32, {3, 4}, {32, 4}, columns)));  // strided outer
  // A plan without pad positions is one copy.
  EXPECT_FALSE(
      fills_then_places(make_plan(DType::float32, {3, 4}, {}, spec_of({{0, 0, 0}, {0, 0, 0}}))));
  // No input at all: the output is the pad value, and the null input is never read.
  PadSpec rows = spec_of({{1, 1, 0}, {0, 0, 0}});
  rows.value = std::string("\x01\x02\x03\x04", 4);
  const Plan empty = make_plan(DType::float32, {0, 3}, {}, rows);
  ASSERT_TRUE(fills_then_places(empty));
  std::vector<std::byte> out(static_cast<std::size_t>(empty.output_bytes()));
  execute(empty, nullptr, out.data(), empty.output_bytes());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(static_cast<int>(out[i]), static_cast<int>(i % 4) + 1) << i;
  }
}

TEST(Describe, NamesShapesAxesAndSegments) {
  const Plan p =
      make_plan(DType::float32, {2, 3}, {}, spec_of({{1, 0, 0}, {2, 1, 0}}, Mode::reflect));
  const std::string text = p.describe();
  EXPECT_NE(text.find("output shape (3, 6)"), std::string::npos) << text;
  EXPECT_NE(text.find("table: 1 0 1"), std::string::npos) << text;
  // row sources 2 1 | 0 1 2 | 1: a reversed run, the copy, a single repeated source
  EXPECT_NE(text.find("reverse[0,2)<-2"), std::string::npos) << text;
  EXPECT_NE(text.find("copy[2,5)<-0"), std::string::npos) << text;
  EXPECT_NE(text.find("repeat[5,6)<-1"), std::string::npos) << text;
}

}  // namespace
}  // namespace padnd
