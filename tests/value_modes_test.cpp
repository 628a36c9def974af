// SPDX-License-Identifier: Apache-2.0
// numpy's value modes, odd reflection, per-axis modes and per-side constants through the
// canonical API: random cases against the axis-by-axis double reference
// (support/value_reference), and the planner's validation messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "executors/cpu/value_modes/statistics.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/plan.hpp"
#include "padnd/prepared_windows.hpp"
#include "plan/plan_access.hpp"
#include "spec/helpers.hpp"
#include "support/value_reference.hpp"

namespace padnd {
namespace {

using detail::BorderedRow;
using detail::PlanAxis;
using detail::RowSegment;

using test::expect_error;

constexpr Mode kModes[] = {Mode::constant, Mode::edge,        Mode::reflect, Mode::symmetric,
                           Mode::wrap,     Mode::linear_ramp, Mode::maximum, Mode::mean,
                           Mode::median,   Mode::minimum};

struct Case {
  ElementType type;
  testing::Grid input;
  std::vector<testing::RefAxis> axes;
};

/// Values whose arithmetic is exact in double: small integers (uint8 non-negative, so that odd
/// reflection is left out there: it would wrap) or multiples of 1/4.
Case random_case(std::mt19937_64& rng) {
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  Case c;
  const ElementType types[] = {DType::int32, DType::float64, DType::uint8, DType::int16};
  c.type = types[pick(0, 3)];
  const bool is_unsigned = c.type.dtype == DType::uint8;
  const std::int64_t rank = pick(1, 3);
  for (std::int64_t k = 0; k < rank; ++k) c.input.shape.push_back(pick(1, 4));
  std::int64_t count = 1;
  for (std::int64_t d : c.input.shape) count *= d;
  for (std::int64_t i = 0; i < count; ++i) {
    const double v = static_cast<double>(is_unsigned ? pick(0, 60) : pick(-20, 20));
    c.input.values.push_back(c.type.dtype == DType::float64 ? v / 4 : v);
  }
  const bool odd = !is_unsigned && pick(0, 1) == 1;
  for (std::int64_t k = 0; k < rank; ++k) {
    testing::RefAxis a;
    const std::int64_t len = c.input.shape[static_cast<std::size_t>(k)];
    a.begin = pick(0, 2 * len + 2);
    a.end = pick(0, 2 * len + 2);
    a.mode = kModes[pick(0, 9)];
    a.odd = odd && (a.mode == Mode::reflect || a.mode == Mode::symmetric);
    a.begin_value = static_cast<double>(is_unsigned ? pick(0, 60) : pick(-10, 10));
    a.end_value = static_cast<double>(is_unsigned ? pick(0, 60) : pick(-10, 10));
    a.begin_stat = pick(0, 1) == 1 ? kWholeAxis : pick(1, len + 2);
    a.end_stat = pick(0, 1) == 1 ? kWholeAxis : pick(1, len + 2);
    c.axes.push_back(a);
  }
  return c;
}

PadSpec spec_of(const Case& c) {
  PadSpec spec;
  spec.ramp_type = DType::float64;
  for (const testing::RefAxis& a : c.axes) {
    spec.axes.push_back({a.begin, a.end, 0});
    AxisMode m;
    m.mode = a.mode;
    m.odd = a.odd;
    if (a.mode == Mode::constant) {
      m.begin_value = test::element_bytes(c.type, a.begin_value);
      m.end_value = test::element_bytes(c.type, a.end_value);
    }
    if (a.mode == Mode::linear_ramp) {
      m.begin_value = test::element_bytes(DType::float64, a.begin_value);
      m.end_value = test::element_bytes(DType::float64, a.end_value);
    }
    m.begin_stat_elems = a.begin_stat;
    m.end_stat_elems = a.end_stat;
    spec.axis_modes.push_back(m);
  }
  return spec;
}

TEST(ValueModes, RandomCasesMatchTheAxisByAxisReference) {
  std::mt19937_64 rng(20261123);
  for (int i = 0; i < 600; ++i) {
    const Case c = random_case(rng);
    const Tensor in = test::numeric_tensor(c.type, c.input.shape, c.input.values);
    const Tensor out = pad(in.view(), spec_of(c));
    const testing::Grid expected =
        testing::reference_value_pad(c.input, c.axes, c.type.dtype != DType::float64);
    ASSERT_EQ(out.shape(), expected.shape) << "case " << i;
    ASSERT_EQ(test::numeric_values(out), expected.values) << "case " << i << " " << c.type.name();
  }
}

/// Values of window `w` of a dense row-major grid.
std::vector<double> grid_slice(const testing::Grid& grid, const Window& w) {
  std::vector<double> values;
  const std::int64_t count = element_count(w.shape);
  for (std::int64_t e = 0; e < count; ++e) {
    std::int64_t index = 0;
    std::int64_t scale = 1;
    std::int64_t rest = e;
    for (std::size_t k = w.shape.size(); k-- > 0;) {
      index += (w.start[k] + rest % w.shape[k]) * scale;
      rest /= w.shape[k];
      scale *= grid.shape[k];
    }
    values.push_back(grid.values[static_cast<std::size_t>(index)]);
  }
  return values;
}

std::string case_text(const Case& c, const Window& w, int i) {
  std::string text = "case " + std::to_string(i) + ": " + c.type.name() + " input";
  for (const std::int64_t d : c.input.shape) text += " " + std::to_string(d);
  for (const testing::RefAxis& a : c.axes) {
    text += " | " + std::string(mode_name(a.mode)) + (a.odd ? " odd " : " ") +
            std::to_string(a.begin) + "," + std::to_string(a.end);
  }
  text += " | window";
  for (std::size_t k = 0; k < w.start.size(); ++k) {
    text += " " + std::to_string(w.start[k]) + "+" + std::to_string(w.shape[k]);
  }
  return text;
}

/// A random window of an output of `shape` at least `min_len` long on each axis.
Window random_window(std::mt19937_64& rng, std::span<const std::int64_t> shape,
                     std::int64_t min_len) {
  Window w;
  for (const std::int64_t len : shape) {
    const auto start = std::uniform_int_distribution<std::int64_t>(0, len - min_len)(rng);
    w.start.push_back(start);
    w.shape.push_back(std::uniform_int_distribution<std::int64_t>(min_len, len - start)(rng));
  }
  return w;
}

/// execute_window of one plan and input, called as PreparedWindows' windows are.
struct DirectWindows {
  const Plan& plan;
  const void* in;
  void execute_window(const Window& w, void* out, std::int64_t out_bytes) const {
    padnd::execute_window(plan, in, w, out, out_bytes);
  }
  void execute_window(const Window& w, void* out, std::span<const std::int64_t> strides) const {
    padnd::execute_window(plan, in, w, out, strides);
  }
};

/// Window `w` written by `windows` dense, and at [1, ..., 1] of an output one larger on every
/// axis, equals `expected`'s slice.
template <class Windows>
void check_window(const Windows& windows, const Case& c, const testing::Grid& expected,
                  const Window& w, int i) {
  Tensor dense(c.type, w.shape);
  windows.execute_window(w, dense.data(), dense.byte_size());
  ASSERT_EQ(test::numeric_values(dense), grid_slice(expected, w)) << case_text(c, w, i);
  std::vector<std::int64_t> big_shape = w.shape;
  for (auto& d : big_shape) d += 2;
  Tensor big(c.type, big_shape);
  std::vector<std::int64_t> strides(big_shape.size());
  std::int64_t stride = c.type.item_bytes();
  std::int64_t origin = 0;
  for (std::size_t k = big_shape.size(); k-- > 0; stride *= big_shape[k]) {
    strides[k] = stride;
    origin += stride;
  }
  windows.execute_window(w, static_cast<std::byte*>(big.data()) + origin, strides);
  Window inner{std::vector<std::int64_t>(w.shape.size(), 1), w.shape};
  const testing::Grid big_grid{big_shape, test::numeric_values(big)};
  ASSERT_EQ(grid_slice(big_grid, inner), grid_slice(expected, w)) << case_text(c, w, i);
}

/// Windows read beyond themselves in the value modes (the statistics of whole lines): each one,
/// dense and inside a larger output, equals the reference's slice, written from the input and
/// copied from one prepared box (PreparedWindows; for plans it does not prepare, from the input).
TEST(ValueModes, RandomWindowsMatchTheReferenceSlice) {
  std::mt19937_64 rng(20261125);
  int prepared = 0;
  for (int i = 0; i < 400; ++i) {
    const Case c = random_case(rng);
    const Tensor in = test::numeric_tensor(c.type, c.input.shape, c.input.values);
    const Plan plan = make_plan(c.type, c.input.shape, {}, spec_of(c));
    const testing::Grid expected =
        testing::reference_value_pad(c.input, c.axes, c.type.dtype != DType::float64);
    check_window(DirectWindows{plan, in.view().data}, c, expected,
                 random_window(rng, plan.output_shape(), 0), i);
    const PreparedWindows windows(plan, in.view().data);
    prepared += windows.prepared_bytes() > 0;
    for (int n = 0; n < 3; ++n) {
      check_window(windows, c, expected, random_window(rng, plan.output_shape(), 0), i);
    }
  }
  EXPECT_GT(prepared, 50);  // the random cases reach the prepared box often
}

/// A ramp case whose lanes' steps are not exact in double and where some lanes' edge equals the
/// side's end value: a zero step, after which numpy computes every lane of that side with
/// another formula (gh-5437), which gives other last bits.
Case zero_step_ramp_case(std::mt19937_64& rng) {
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  Case c;
  c.type = DType::float64;
  const std::int64_t rank = pick(2, 3);
  for (std::int64_t k = 0; k < rank; ++k) c.input.shape.push_back(pick(1, 4));
  for (std::int64_t i = 0; i < element_count(c.input.shape); ++i) {
    c.input.values.push_back(pick(0, 1) == 0 ? 5.0 : static_cast<double>(pick(-50, 50)) / 7);
  }
  for (std::int64_t k = 0; k < rank; ++k) {
    testing::RefAxis a;
    a.mode = pick(0, 2) == 0 ? kModes[pick(0, 9)] : Mode::linear_ramp;
    a.begin = pick(0, 13);
    a.end = pick(0, 13);
    a.begin_value = a.end_value = 5;
    a.begin_stat = a.end_stat = kWholeAxis;
    c.axes.push_back(a);
  }
  return c;
}

/// Byte strides of a dense row-major float64 array of `shape`.
std::vector<std::int64_t> dense_byte_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t stride = sizeof(double);
  for (std::size_t k = shape.size(); k-- > 0; stride *= std::max<std::int64_t>(shape[k], 1)) {
    strides[k] = stride;
  }
  return strides;
}

/// `box` of the dense float64 array `in`, in an array of exactly its size.
Tensor copy_of_box(const Tensor& in, const Window& box) {
  Tensor copy(DType::float64, box.shape);
  const auto* from = static_cast<const double*>(in.data());
  auto* to = static_cast<double*>(copy.data());
  for (std::int64_t e = 0; e < element_count(box.shape); ++e) {
    std::int64_t rest = e;
    std::int64_t index = 0;
    std::int64_t scale = 1;
    for (std::size_t k = box.shape.size(); k-- > 0;) {
      index += (box.start[k] + rest % box.shape[k]) * scale;
      rest /= box.shape[k];
      scale *= in.shape()[k];
    }
    to[e] = from[index];
  }
  return copy;
}

/// A window holds some lanes of a ramp pass only, yet numpy's rule for a zero step looks at
/// all of them: windows (from the whole input and from just its input_window) give the whole
/// pad's bits.
TEST(ValueModes, RampWindowsFollowTheZeroStepRuleOfTheWholePass) {
  std::mt19937_64 rng(20261125);
  for (int i = 0; i < 400; ++i) {
    const Case c = zero_step_ramp_case(rng);
    const Tensor in = test::numeric_tensor(c.type, c.input.shape, c.input.values);
    const Plan plan = make_plan(c.type, c.input.shape, {}, spec_of(c));
    const Tensor whole = pad(in.view(), spec_of(c));
    const testing::Grid expected{whole.shape(), test::numeric_values(whole)};
    const Window w = random_window(rng, plan.output_shape(), 1);
    Tensor dense(c.type, w.shape);
    execute_window(plan, in.view().data, w, dense.data(), dense.byte_size());
    ASSERT_EQ(test::numeric_values(dense), grid_slice(expected, w)) << case_text(c, w, i);
    const Window box = input_window(plan, w);
    const Tensor part = copy_of_box(in, box);
    const Plan box_plan =
        make_plan(c.type, c.input.shape, dense_byte_strides(box.shape), spec_of(c));
    Tensor from_box(c.type, w.shape);
    execute_window(box_plan, part.data(), box, w, from_box.data(), dense_byte_strides(w.shape));
    ASSERT_EQ(test::numeric_values(from_box), grid_slice(expected, w)) << case_text(c, w, i);
  }
}

/// A side whose pad positions all hold one value per lane (a statistic, an edge, a constant) is
/// computed once, whatever its width: windows 10^8 positions into such pads read only what the
/// statistics read, and equal any position of the same side of a narrow pad.
TEST(ValueModes, WindowsOfUniformSidesCostTheirStatisticsNotThePadWidth) {
  constexpr std::int64_t kFar = 100'000'000;  // a box this wide could not be allocated
  const std::vector<std::int64_t> shape{6, 5};
  std::vector<double> values;
  for (int i = 0; i < 30; ++i) values.push_back(static_cast<double>((i * 7) % 11) - 4);
  const Tensor in = test::numeric_tensor(DType::float64, shape, values);
  const auto request = [](std::int64_t rows_pad) {
    PadSpec spec;
    spec.axes = {{rows_pad, rows_pad, 0}, {3, kFar, 0}};
    AxisMode rows;
    rows.mode = Mode::mean;
    rows.begin_stat_elems = 2;  // the end side reads every row
    AxisMode columns;
    columns.mode = Mode::maximum;
    columns.end_stat_elems = 1;
    spec.axis_modes = {rows, columns};
    return spec;
  };
  const Plan far = make_plan(DType::float64, shape, {}, request(kFar));
  // The narrow pad's rows 0 and 8 hold the begin and end sides' values (rows 0-1, 8-9 are pads).
  PadSpec narrow_spec = request(2);
  narrow_spec.axes[1].end = 4;
  const Tensor narrow = pad(in.view(), narrow_spec);
  const testing::Grid expected{narrow.shape(), test::numeric_values(narrow)};
  // Rows deep in each side, columns from the begin pad to deep in the end pad (two pieces).
  for (const std::int64_t first_row : {std::int64_t{5}, kFar + 6 + 7}) {
    const Window w{{first_row, 1}, {3, 12}};
    Tensor got(DType::float64, w.shape);
    execute_window(far, in.view().data, w, got.data(), got.byte_size());
    const std::int64_t row = first_row < kFar ? 0 : 8;
    std::vector<double> want;
    for (int r = 0; r < 3; ++r) {
      for (std::int64_t c = 1; c < 13; ++c) {
        want.push_back(expected.values[static_cast<std::size_t>(row * 12 + std::min(c, 8L))]);
      }
    }
    EXPECT_EQ(test::numeric_values(got), want) << "rows from " << first_row;
  }
  // Prepared once: the 6 x 5 originals and one position of each side (rows kFar - 1 and
  // kFar + 6, columns 2 and 8), whatever the pads' width; windows are copied from there.
  const PreparedWindows prepared(far, in.view().data);
  EXPECT_EQ(prepared.prepared_box().start, (std::vector<std::int64_t>{kFar - 1, 2}));
  EXPECT_EQ(prepared.prepared_box().shape, (std::vector<std::int64_t>{8, 7}));
  EXPECT_EQ(prepared.prepared_bytes(), 8 * 7 * 8);
  for (const std::int64_t first_row : {std::int64_t{5}, kFar + 6 + 7}) {
    const Window w{{first_row, 1}, {3, 12}};
    Tensor direct(DType::float64, w.shape);
    execute_window(far, in.view().data, w, direct.data(), direct.byte_size());
    Tensor copied(DType::float64, w.shape);
    prepared.execute_window(w, copied.data(), copied.byte_size());
    EXPECT_EQ(test::numeric_values(copied), test::numeric_values(direct));
  }
  // The begin side's mean reads input rows 0-1; the columns' maxima read whole rows.
  const Window reads = input_window(far, Window{{5, 0}, {3, 4}});
  EXPECT_EQ(reads.start, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(reads.shape, (std::vector<std::int64_t>{2, 5}));
}

/// A ramp's value depends on its side's width and the position's place in the side: windows
/// anywhere in a ramp 10^8 positions wide compute their own positions only (the box holds them
/// next to the edge), with numpy's arithmetic: start + i * ((edge - start) / width).
TEST(ValueModes, WindowsOfAWideRampComputeTheirOwnPositionsOnly) {
  constexpr std::int64_t kWide = 100'000'000;
  const std::vector<std::int64_t> shape{1000, 3};  // a box of the whole side: 800 GB
  std::vector<double> values;
  for (int i = 0; i < 3000; ++i) values.push_back(static_cast<double>((i * 5) % 13) - 6);
  const Tensor in = test::numeric_tensor(DType::float64, shape, values);
  PadSpec spec;
  spec.mode = Mode::linear_ramp;
  spec.ramp_type = DType::float64;
  spec.axes = {{0, 0, 0}, {kWide, kWide, 0}};
  AxisMode ramp;
  ramp.mode = Mode::linear_ramp;
  ramp.begin_value = test::element_bytes(DType::float64, 2.5);  // the end side ramps from 0
  spec.axis_modes = {AxisMode{}, ramp};
  const Plan plan = make_plan(DType::float64, shape, {}, spec);
  const std::int64_t original_stop = kWide + 3;
  // Output column -> value of row r: the ramps' formulas, the input's columns between them.
  const auto want = [&](std::int64_t r, std::int64_t col) {
    const auto at = [&](std::int64_t c) { return values[static_cast<std::size_t>(r * 3 + c)]; };
    if (col < kWide) return static_cast<double>(col) * ((at(0) - 2.5) / kWide) + 2.5;
    if (col < original_stop) return at(col - kWide);
    // Some rows' end edge is 0, the end value: numpy's zero-step rule (gh-5437) then computes
    // every row of that side as (i / width) * delta.
    const auto i = static_cast<double>(kWide - 1 - (col - original_stop));
    return (i / kWide) * at(2) + 0.0;
  };
  for (const std::int64_t first : {std::int64_t{0}, kWide / 2, kWide - 4, original_stop + 5,
                                   original_stop + kWide - 6, kWide + 1}) {
    const Window w{{0, first}, {1000, 6}};
    Tensor got(DType::float64, w.shape);
    execute_window(plan, in.view().data, w, got.data(), got.byte_size());
    const std::vector<double> got_values = test::numeric_values(got);
    for (std::int64_t r = 0; r < 1000; ++r) {
      for (std::int64_t c = 0; c < 6; ++c) {
        ASSERT_EQ(got_values[static_cast<std::size_t>(r * 6 + c)], want(r, first + c))
            << "window from column " << first << ", row " << r << ", column " << c;
      }
    }
  }
}

/// numpy's odd reflection extends both sides in turns, chunk by chunk: every window of 1-D
/// pads (every start and length, both modes, pads narrower and wider than the axis) equals the
/// whole pad's slice, whether its box is the window's pad positions (first chunks) or the axis.
TEST(ValueModes, OddReflectionWindowsMatchTheWholePadAtEveryPosition) {
  for (const Mode mode : {Mode::reflect, Mode::symmetric}) {
    for (std::int64_t len = 1; len <= 5; ++len) {
      std::vector<double> values;
      for (std::int64_t i = 0; i < len; ++i) values.push_back(static_cast<double>(i * i) / 3 + 1);
      const Tensor in = test::numeric_tensor(DType::float64, {len}, values);
      for (const std::int64_t begin : {0, 1, 2, 3, 4, 5, 7, 11}) {
        for (const std::int64_t end : {0, 1, 3, 4, 6, 9}) {
          PadSpec spec;
          spec.axes = {{begin, end, 0}};
          spec.axis_modes = {AxisMode{mode}};
          spec.axis_modes[0].odd = true;
          const Plan plan = make_plan(DType::float64, {len}, {}, spec);
          const std::vector<double> whole = test::numeric_values(pad(in.view(), spec));
          const std::int64_t out_len = plan.output_shape()[0];
          for (std::int64_t first = 0; first < out_len; ++first) {
            for (std::int64_t stop = first + 1; stop <= out_len; ++stop) {
              Tensor got(DType::float64, {stop - first});
              execute_window(plan, in.view().data, Window{{first}, {stop - first}}, got.data(),
                             got.byte_size());
              ASSERT_EQ(test::numeric_values(got),
                        std::vector<double>(whole.begin() + first, whole.begin() + stop))
                  << mode_name(mode) << " len " << len << " pads " << begin << "," << end
                  << " window [" << first << ", " << stop << ")";
            }
          }
        }
      }
    }
  }
}

/// Windows next to the edges of an odd reflection 2^40 positions wide (in the sides' first
/// chunks) hold their own pad positions only: the box of the whole axis (16 TiB) could not be
/// allocated.
TEST(ValueModes, OddReflectionWindowsNextToTheEdgeCostTheirOwnPositions) {
  constexpr std::int64_t kFar = std::int64_t{1} << 40;
  const std::vector<std::int64_t> shape{4, 6};
  std::vector<double> values;
  for (int i = 0; i < 24; ++i) values.push_back(static_cast<double>((i * 5) % 7) + i / 10.0);
  const Tensor in = test::numeric_tensor(DType::float64, shape, values);
  for (const Mode mode : {Mode::reflect, Mode::symmetric}) {
    const auto request = [&](std::int64_t pad) {
      PadSpec spec;
      spec.axes = {{1, 2, 0}, {pad, pad, 0}};
      spec.axis_modes = {AxisMode{Mode::edge}, AxisMode{mode}};
      spec.axis_modes[1].odd = true;
      return spec;
    };
    const Plan far = make_plan(DType::float64, shape, {}, request(kFar));
    const Tensor narrow = pad(in.view(), request(6));  // one chunk each side: 5 (reflect), 6
    const testing::Grid expected{narrow.shape(), test::numeric_values(narrow)};
    const std::int64_t chunk = mode == Mode::reflect ? 5 : 6;
    // From the begin side's first chunk across the input into the end side's.
    const Window w{{0, kFar - chunk}, {7, 6 + 2 * chunk}};
    Tensor got(DType::float64, w.shape);
    execute_window(far, in.view().data, w, got.data(), got.byte_size());
    const Window same{{0, 6 - chunk}, w.shape};
    EXPECT_EQ(test::numeric_values(got), grid_slice(expected, same)) << mode_name(mode);
  }
}

/// Tiles of one PreparedWindows written from several threads at once make the whole pad (TSan
/// in CI watches the shared box).
TEST(ValueModes, PreparedWindowsFromSeveralThreadsMakeTheWholePad) {
  std::vector<double> values;
  for (int i = 0; i < 40 * 30; ++i) values.push_back(static_cast<double>((i * 13) % 17) / 4);
  const Tensor in = test::numeric_tensor(DType::float64, {40, 30}, values);
  PadSpec spec;
  spec.axes = {{9, 4, 0}, {5, 11, 0}};
  spec.axis_modes = {AxisMode{Mode::maximum}, AxisMode{Mode::mean}};
  const Plan plan = make_plan(DType::float64, {40, 30}, {}, spec);
  const std::vector<double> whole = test::numeric_values(pad(in.view(), spec));
  const PreparedWindows prepared(plan, in.view().data);
  const std::int64_t rows = plan.output_shape()[0];
  const std::int64_t cols = plan.output_shape()[1];
  std::vector<double> out(static_cast<std::size_t>(rows * cols), -1.0);
  const std::vector<std::int64_t> strides{cols * 8, 8};
  std::vector<std::thread> threads;
  for (std::int64_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::int64_t c = 0; c < cols; c += 7) {  // row band t, tiles of 7 columns
        const Window w{{rows * t / 4, c},
                       {rows * (t + 1) / 4 - rows * t / 4, std::min<std::int64_t>(7, cols - c)}};
        prepared.execute_window(w, out.data() + w.start[0] * cols + c, strides);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(out, whole);
}

/// PreparedWindows checks windows and buffers as execute_window does; plans without numpy's
/// value modes, and ramps, prepare nothing.
TEST(ValueModes, PreparedWindowsRejectWhatExecuteWindowRejects) {
  const std::vector<double> values{1, 2, 3, 4, 5, 6};
  const Tensor in = test::numeric_tensor(DType::float64, {2, 3}, values);
  PadSpec spec;
  spec.axes = {{1, 1, 0}, {2, 2, 0}};
  spec.axis_modes = {AxisMode{Mode::median}, AxisMode{Mode::minimum}};
  const Plan plan = make_plan(DType::float64, {2, 3}, {}, spec);
  const PreparedWindows prepared(plan, in.view().data);
  EXPECT_EQ(prepared.prepared_bytes(),
            4 * 5 * 8);  // the whole 4 x 7 output but one column each side
  std::vector<double> out(8);
  expect_error(
      [&] {
        prepared.execute_window(Window{{0, 5}, {2, 3}}, out.data(), 64);
      },
      Errc::out_of_range, {"window: axis 1: start 5 and length 3 do not lie within"});
  expect_error(
      [&] {
        prepared.execute_window(Window{{0, 0}, {2, 4}}, out.data(), 63);
      },
      Errc::shape_mismatch, {"output: buffer of 63 bytes is smaller than the window's 64"});
  expect_error(
      [&] {
        prepared.execute_window(Window{{0, 0}, {2, 4}}, nullptr, 64);
      },
      Errc::invalid_argument, {"output: null buffer"});
  expect_error([&] { PreparedWindows(plan, nullptr); }, Errc::invalid_argument,
               {"input: null data pointer"});
  prepared.execute_window(Window{{0, 0}, {0, 4}}, nullptr, 0);  // empty: nothing written

  spec.axis_modes[1] = AxisMode{Mode::linear_ramp};
  spec.ramp_type = DType::float64;
  const Plan ramp = make_plan(DType::float64, {2, 3}, {}, spec);
  EXPECT_EQ(PreparedWindows(ramp, in.view().data).prepared_bytes(), 0);
  const Plan index = make_plan(DType::float64, {2, 3}, {}, PadSpec{{{1, 1, 0}, {2, 2, 0}}});
  EXPECT_EQ(PreparedWindows(index, in.view().data).prepared_bytes(), 0);
}

/// The prepared box stays within twice the input with two positions per axis: an odd
/// reflection's axis (held whole) with wide pads is not prepared, with narrow ones it is; a
/// statistic's box does not grow with its pads.
TEST(ValueModes, PreparedBoxesStayWithinTwiceTheInput) {
  const Tensor in = test::numeric_tensor(DType::float64, {5}, {1, 2, 3, 4, 5});
  const auto odd_plan = [](std::int64_t width) {
    PadSpec spec;
    spec.axes = {{width, width, 0}};
    spec.axis_modes = {AxisMode{Mode::reflect}};
    spec.axis_modes[0].odd = true;
    return make_plan(DType::float64, {5}, {}, spec);
  };
  const Plan narrow = odd_plan(2);  // 9 elements, the bound 14
  EXPECT_EQ(PreparedWindows(narrow, in.view().data).prepared_bytes(), 9 * 8);
  const Plan wide = odd_plan(5);  // 15
  EXPECT_EQ(PreparedWindows(wide, in.view().data).prepared_bytes(), 0);
  PadSpec mean_spec;
  mean_spec.axes = {{1'000'000, 1'000'000, 0}};
  mean_spec.axis_modes = {AxisMode{Mode::mean}};
  const Plan mean = make_plan(DType::float64, {5}, {}, mean_spec);
  EXPECT_EQ(PreparedWindows(mean, in.view().data).prepared_bytes(), 7 * 8);
}

/// window_work_bytes: the buffers a window's box takes, from boxes worked out by hand.
TEST(ValueModes, WindowWorkBytesAreTheBoxesAWindowHolds) {
  PadSpec mean_spec;
  mean_spec.axes = {{3, 3, 0}, {3, 3, 0}};
  AxisMode mean{Mode::mean};
  mean.begin_stat_elems = mean.end_stat_elems = 2;
  mean_spec.axis_modes = {mean, mean};
  const Plan means = make_plan(DType::float64, {20, 20}, {}, mean_spec);
  // Rows 5-14 are original; columns 0-2 are begin pads, one value per row: the box holds
  // column 2, the two it averages (3-4) and the window's others (to 9): 10 x 8 doubles.
  EXPECT_EQ(window_work_bytes(means, Window{{5, 0}, {10, 10}}), 10 * 8 * 8);
  EXPECT_EQ(window_work_bytes(means, Window{{5, 0}, {0, 10}}), 0);  // empty: nothing computed
  EXPECT_THROW(window_work_bytes(means, Window{{5, 0}, {10, 27}}), Error);  // past the output

  PadSpec odd_spec;
  odd_spec.axes = {{20, 20, 0}};
  odd_spec.axis_modes = {AxisMode{Mode::reflect}};
  odd_spec.axis_modes[0].odd = true;
  const Plan odd = make_plan(DType::float64, {5}, {}, odd_spec);
  EXPECT_EQ(window_work_bytes(odd, Window{{0}, {2}}), 45 * 8);  // beyond the first chunk: all
  // Positions 16-19, the begin side's first chunk (4 for reflect), and the 5 originals.
  EXPECT_EQ(window_work_bytes(odd, Window{{16}, {4}}), 9 * 8);

  PadSpec ramp_spec;
  ramp_spec.axes = {{2, 2, 0}, {0, 0, 0}};
  ramp_spec.ramp_type = DType::float64;
  ramp_spec.axis_modes = {AxisMode{Mode::linear_ramp}, AxisMode{}};
  const Plan ramp = make_plan(DType::float64, {4, 3}, {}, ramp_spec);
  // Column 0 of begin rows 0-1: the box holds rows 0-2 (the edge); the side's zero-step rule
  // needs all three columns of the edge row first: its buffer (3) and its own box (3).
  EXPECT_EQ(window_work_bytes(ramp, Window{{0, 0}, {2, 1}}), (3 + 3) * 8);
  EXPECT_EQ(window_work_bytes(ramp, Window{{0, 0}, {2, 3}}), 3 * 3 * 8);  // every column: no rule

  const Plan index = make_plan(DType::float64, {4, 3}, {}, PadSpec{{{2, 2, 0}, {1, 1, 0}}});
  EXPECT_EQ(window_work_bytes(index, Window{{0, 0}, {8, 5}}), 0);  // written in place
}

TEST(ValueModes, WideRowsSplitIntoSeveralLaneGroupsMatchTheReference) {
  // 2500 neighbouring lanes per row: more than one group of lanes (Lanes::kMaxGroupLanes).
  // (reflect makes no pass here: it checks the engine against the same reference.)
  std::mt19937_64 rng(11);
  for (const Mode mode :
       {Mode::maximum, Mode::minimum, Mode::mean, Mode::median, Mode::constant, Mode::reflect}) {
    Case c;
    c.type = DType::int32;
    c.input.shape = {5, 2500};
    for (int i = 0; i < 5 * 2500; ++i)
      c.input.values.push_back(static_cast<double>(rng() % 41) - 20);
    testing::RefAxis outer;
    outer.begin = 3;
    outer.end = 2;
    outer.mode = mode;
    outer.begin_value = 7;  // constant: per-side values, so a pass writes them
    outer.end_value = -3;
    outer.begin_stat = mode == Mode::median ? 2 : kWholeAxis;
    outer.end_stat = kWholeAxis;
    testing::RefAxis row;  // unpadded
    row.mode = Mode::constant;
    c.axes = {outer, row};
    const Tensor in = test::numeric_tensor(c.type, c.input.shape, c.input.values);
    const Tensor out = pad(in.view(), spec_of(c));
    const testing::Grid expected = testing::reference_value_pad(c.input, c.axes, true);
    ASSERT_EQ(test::numeric_values(out), expected.values) << mode_name(mode);
  }
}

/// The bits a maximum / minimum must give, found in two plain steps: the first NaN if there is
/// one, else of the equal extreme values (0.0 and -0.0) the later one (numpy's float32/float64
/// loops) or the first (its long double loop).
template <class F>
F expected_extreme(const std::vector<F>& run, bool maximum, bool later_of_equal) {
  for (F v : run) {
    if (std::isnan(v)) return v;  // the first NaN, payload and all
  }
  F best = run[0];
  for (F v : run) {
    const bool better = maximum ? v > best : v < best;
    if (better || (later_of_equal && v == best)) best = v;
  }
  return best;
}

/// `value_bytes`: the bytes that hold the value (x87 long double: 10 of 16).
template <class F>
void check_long_extremes(DType dtype, bool later_of_equal, std::size_t value_bytes) {
  std::mt19937_64 rng(7);
  const F nan_a = std::numeric_limits<F>::quiet_NaN();
  F nan_b = nan_a;  // another payload
  unsigned char bytes[sizeof(F)];
  std::memcpy(bytes, &nan_b, sizeof(F));
  bytes[0] ^= 0x5a;
  std::memcpy(&nan_b, bytes, sizeof(F));
  constexpr std::int64_t kLong = 45;  // long runs: reduced in several stretches
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t pass_axis = trial % 2;  // 0: lanes side by side; 1: one lane at a time
    const std::vector<std::int64_t> shape =
        pass_axis == 0 ? std::vector<std::int64_t>{kLong, 3} : std::vector<std::int64_t>{3, kLong};
    const bool maximum = trial % 4 < 2;
    // Zeros of both signs are the extreme (equal values, different bits), or in every other
    // trial a non-zero value (the vector path's own result), and some lanes get a NaN or two at
    // random places (also after the vector path's last whole block).
    const bool zeros = trial % 8 < 4;
    const F pool[] = {zeros ? F(0) : F(2), zeros ? F(-0.0) : F(3), maximum ? F(-1) : F(1)};
    std::vector<F> values(3 * kLong);
    for (F& v : values) v = pool[rng() % 3];
    for (int k = static_cast<int>(rng() % 4); k-- > 0;) {
      values[rng() % values.size()] = k % 2 == 0 ? nan_a : nan_b;
    }
    PadSpec spec;
    spec.axes = {{0, 0, 0}, {0, 0, 0}};
    spec.axes[pass_axis] = {2, 1, 0};
    spec.axis_modes.resize(2);
    spec.axis_modes[pass_axis].mode = maximum ? Mode::maximum : Mode::minimum;
    const TensorView in{values.data(), dtype, shape, {}};
    const Tensor out = pad(in, spec);
    for (std::int64_t lane = 0; lane < 3; ++lane) {
      std::vector<F> run;
      for (std::int64_t i = 0; i < kLong; ++i) {
        run.push_back(
            values[static_cast<std::size_t>(pass_axis == 0 ? i * 3 + lane : lane * kLong + i)]);
      }
      const F want = expected_extreme(run, maximum, later_of_equal);
      const auto* got = static_cast<const F*>(out.data());
      const std::int64_t at = pass_axis == 0 ? lane : lane * (kLong + 3);  // first pad position
      ASSERT_EQ(std::memcmp(&got[at], &want, value_bytes), 0)
          << "trial " << trial << " lane " << lane << " got " << got[at] << " want " << want;
    }
  }
}

TEST(ValueModes, LongMaximumMinimumRunsGiveTheBitsOfOneLeftToRightPass) {
  check_long_extremes<float>(DType::float32, true, sizeof(float));
  check_long_extremes<double>(DType::float64, true, sizeof(double));
  check_long_extremes<long double>(
      DType::longdouble, false,
      std::numeric_limits<long double>::digits == 64 ? 10 : sizeof(long double));
}

/// The vector paths of contiguous runs (maximum, minimum, pairwise sums) against the scalar
/// paths, which a lane with a gap between its elements takes: the same bits for every length, for
/// random values, for runs whose extreme is a zero of either sign, and for runs with a NaN (two
/// payloads) at a random place.
template <class F>
void check_vector_paths_match_scalar() {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<F> value(F(-1000), F(1000));
  F nan_b = std::numeric_limits<F>::quiet_NaN();
  unsigned char bytes[sizeof(F)];
  std::memcpy(bytes, &nan_b, sizeof(F));
  bytes[0] ^= 0x5a;
  std::memcpy(&nan_b, bytes, sizeof(F));
  const F nans[] = {std::numeric_limits<F>::quiet_NaN(), nan_b};
  const auto same = [](F a, F b) { return std::memcmp(&a, &b, sizeof(F)) == 0; };
  for (int kind = 0; kind < 3; ++kind) {  // random values; zero extremes; a NaN somewhere
    for (std::int64_t n = 1; n <= 300; ++n) {
      for (const bool maximum : {true, false}) {
        const F zeros_and_one[] = {F(0), F(-0.0), maximum ? F(-1) : F(1)};
        std::vector<F> dense(static_cast<std::size_t>(n));
        for (F& v : dense) v = kind == 1 ? zeros_and_one[rng() % 3] : value(rng);
        if (kind == 2) dense[rng() % dense.size()] = nans[rng() % 2];
        std::vector<F> gapped(static_cast<std::size_t>(2 * n));
        for (std::size_t i = 0; i < dense.size(); ++i) gapped[2 * i] = dense[i];
        const detail::Lane<F> contiguous{reinterpret_cast<std::byte*>(dense.data()), sizeof(F)};
        const detail::Lane<F> strided{reinterpret_cast<std::byte*>(gapped.data()), 2 * sizeof(F)};
        const F vector = maximum ? detail::extreme_of_run(detail::MaxOp<F>{}, contiguous, 0, n)
                                 : detail::extreme_of_run(detail::MinOp<F>{}, contiguous, 0, n);
        const F scalar = maximum ? detail::extreme_of_run(detail::MaxOp<F>{}, strided, 0, n)
                                 : detail::extreme_of_run(detail::MinOp<F>{}, strided, 0, n);
        EXPECT_TRUE(same(vector, scalar))
            << (maximum ? "maximum" : "minimum") << " of " << n << ", kind " << kind;
        if (kind == 0 && maximum) {
          EXPECT_TRUE(
              same(detail::pairwise_sum(contiguous, 0, n), detail::pairwise_sum(strided, 0, n)))
              << "pairwise sum of " << n;
        }
      }
    }
  }
}

TEST(ValueModes, VectorPathsGiveTheBitsOfTheScalarPaths) {
  check_vector_paths_match_scalar<float>();
  check_vector_paths_match_scalar<double>();
}

TEST(ValueModes, RampWindowsReadBoolEdgesAsTheKernelDoes) {
  // A window's zero-step rule reads the edge elements of all lanes: a bool byte other than 0
  // or 1 is true there too (found by adapters_fuzz; UBSan flagged the load).
  const std::vector<std::uint8_t> bytes = {203, 0, 1, 0};
  PadSpec spec;
  spec.axes = {{2, 2, 0}, {3, 3, 0}};
  spec.ramp_type = DType::float64;
  AxisMode ramp{Mode::linear_ramp};
  ramp.begin_value = ramp.end_value = test::element_bytes(DType::float64, 1);
  spec.axis_modes = {AxisMode{Mode::edge}, ramp};
  const TensorView in{bytes.data(), DType::boolean, {2, 2}, {}};
  const Plan plan = make_plan(DType::boolean, {2, 2}, {}, spec);
  const Tensor whole = pad(in, spec);
  const Window w{{1, 0}, {2, 8}};
  Tensor part(DType::boolean, w.shape);
  execute_window(plan, in.data, w, part.data(), part.byte_size());
  const auto* all = static_cast<const std::uint8_t*>(whole.data());
  const std::vector<std::uint8_t> expected(all + 8, all + 24);
  const auto* got = static_cast<const std::uint8_t*>(part.data());
  EXPECT_EQ(std::vector<std::uint8_t>(got, got + 16), expected);
}

/// Ramps on both axes: rows ramp from 1 (begin) and to 7 (end), columns from 7 (begin) and to 0.
Plan two_ramps_plan(std::int64_t row_pads) {
  PadSpec spec;
  spec.axes = {{row_pads, row_pads, 0}, {3, 2, 0}};
  spec.ramp_type = DType::float64;
  AxisMode rows{Mode::linear_ramp};
  rows.begin_value = test::element_bytes(DType::float64, 1);
  rows.end_value = test::element_bytes(DType::float64, 7);
  AxisMode columns{Mode::linear_ramp};
  columns.begin_value = test::element_bytes(DType::float64, 7);
  spec.axis_modes = {rows, columns};
  return make_plan(DType::float64, {3, 2}, {}, spec);
}

/// A window in the columns' begin side holds few of its lanes (every output row), so numpy's
/// zero-step rule is decided over all their edge elements, computed a bounded piece at a time:
/// the buffers do not grow with the rows' pads, and a zero step in the last lane only (the
/// last row ramps to exactly 7, the columns' begin value) still switches the side.
TEST(ValueModes, PartlySeenRampSidesScanTheirLanesInBoundedPieces) {
  const Window far{{99'999'997, 0}, {8, 3}};
  const std::int64_t bytes = window_work_bytes(two_ramps_plan(100'000'000), far);
  EXPECT_EQ(window_work_bytes(two_ramps_plan(10'000'000), Window{{9'999'997, 0}, {8, 3}}), bytes);
  EXPECT_LT(bytes, std::int64_t{4} << 20);

  constexpr std::int64_t kRowPads = 100'000;  // lanes: 200003 rows, pieces of 65536
  const Plan plan = two_ramps_plan(kRowPads);
  const Tensor in = test::numeric_tensor(DType::float64, {3, 2}, {4, 9, 6, 2, 8, 3});
  Tensor whole(DType::float64, {2 * kRowPads + 3, 7});
  execute(plan, in.view().data, whole.data(), whole.byte_size());
  const std::int64_t row_bytes = 7 * 8;
  for (const std::int64_t first_row : {std::int64_t{0}, kRowPads - 40, 2 * kRowPads - 37}) {
    const Window w{{first_row, 0}, {40, 3}};
    Tensor part(DType::float64, w.shape);
    execute_window(plan, in.view().data, w, part.data(), part.byte_size());
    for (std::int64_t r = 0; r < 40; ++r) {
      const auto* want = static_cast<const std::byte*>(whole.data()) + (first_row + r) * row_bytes;
      const auto* got = static_cast<const std::byte*>(part.data()) + r * 3 * 8;
      EXPECT_EQ(std::memcmp(want, got, 3 * 8), 0) << "row " << first_row + r;
    }
  }
}

TEST(ValueModes, BoolLanesSideBySideReadAnyNonZeroByteAsTrue) {
  // numpy stores bool as 0 or 1; a buffer may hold other bytes, which read as true.
  const std::vector<std::uint8_t> bytes = {2, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0};
  PadSpec spec;
  spec.axes = {{1, 1, 0}, {0, 0, 0}};
  spec.axis_modes = {AxisMode{Mode::maximum}, AxisMode{Mode::constant}};
  const Tensor out = pad(TensorView{bytes.data(), DType::boolean, {3, 4}, {}}, spec);
  const auto* got = static_cast<const std::uint8_t*>(out.data());
  const std::vector<std::uint8_t> first(got, got + 4);
  const std::vector<std::uint8_t> last(got + 16, got + 20);
  EXPECT_EQ(first, (std::vector<std::uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(last, (std::vector<std::uint8_t>{1, 1, 0, 0}));
}

TEST(ValueModes, NumpyExamples) {
  // numpy.pad's docstring examples
  const Tensor a = test::numeric_tensor(DType::int64, {5}, {1, 2, 3, 4, 5});
  const auto run = [&](const char* mode, std::int64_t before, std::int64_t after,
                       numpy::PadArgs args = {}) {
    args.pad_width = {{before, after}};
    args.modes = {mode};
    return test::numeric_values(pad(a.view(), numpy::to_canonical(args, {5})));
  };
  numpy::PadArgs ramp;
  ramp.end_values = {
      {test::element_bytes(DType::float64, 5), test::element_bytes(DType::float64, -4)}};
  EXPECT_EQ(run("linear_ramp", 2, 3, ramp), (std::vector<double>{5, 3, 1, 2, 3, 4, 5, 2, -1, -4}));
  EXPECT_EQ(run("maximum", 2, 2), (std::vector<double>{5, 5, 1, 2, 3, 4, 5, 5, 5}));
  EXPECT_EQ(run("mean", 2, 2), (std::vector<double>{3, 3, 1, 2, 3, 4, 5, 3, 3}));
  EXPECT_EQ(run("median", 2, 2), (std::vector<double>{3, 3, 1, 2, 3, 4, 5, 3, 3}));
  numpy::PadArgs odd;
  odd.reflect_type = "odd";
  EXPECT_EQ(run("reflect", 2, 3, odd), (std::vector<double>{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(run("symmetric", 2, 3, odd), (std::vector<double>{0, 1, 1, 2, 3, 4, 5, 5, 6, 7}));
}

TEST(ValueModes, PerSideConstantsLaterAxesOwnTheCorners) {
  const Tensor a = test::numeric_tensor(DType::uint8, {1, 1}, {5});
  numpy::PadArgs args;
  args.pad_width = {{1, 1}, {1, 1}};
  args.constant_values = {
      {test::element_bytes(DType::uint8, 1), test::element_bytes(DType::uint8, 2)},
      {test::element_bytes(DType::uint8, 3), test::element_bytes(DType::uint8, 4)}};
  const Tensor out = pad(a.view(), numpy::to_canonical(args, {1, 1}));
  EXPECT_EQ(test::numeric_values(out), (std::vector<double>{3, 1, 4, 3, 5, 4, 3, 2, 4}));
}

TEST(ValueModes, PassesStartAtTheFirstAxisTheEngineCannotFinish) {
  PadSpec spec;
  spec.axes = {{1, 1, 0}, {2, 0, 0}, {0, 0, 0}, {1, 1, 0}};
  spec.axis_modes = {AxisMode{Mode::edge}, AxisMode{Mode::median}, AxisMode{Mode::mean},
                     AxisMode{Mode::wrap}};
  const Plan plan = make_plan(DType::float32, {2, 3, 4, 5}, {}, spec);
  ASSERT_EQ(detail::program(plan).passes().size(),
            2U);  // axis 0: the engine; axis 2: nothing to pad
  EXPECT_EQ(detail::program(plan).passes()[0].axis, 1U);
  EXPECT_EQ(detail::program(plan).passes()[1].axis, 3U);
  EXPECT_NE(plan.describe().find("axis passes, in numpy's order (over the output, after the "
                                 "rows): axis 1 median, axis 3 wrap"),
            std::string::npos)
      << plan.describe();
  spec.axis_modes = {AxisMode{Mode::edge}, AxisMode{Mode::reflect}, AxisMode{Mode::constant},
                     AxisMode{Mode::wrap}};
  const Plan index_only = make_plan(DType::float32, {2, 3, 4, 5}, {}, spec);
  EXPECT_TRUE(detail::program(index_only).passes().empty());
}

PadSpec one_axis(Mode mode, std::int64_t begin = 1, std::int64_t end = 1) {
  PadSpec spec;
  spec.axes = {{begin, end, 0}};
  spec.axis_modes = {AxisMode{mode}};
  return spec;
}

/// A 1-D tensor of int64 ticks (datetime64 / timedelta64), padded per `spec`, as ticks.
std::vector<std::int64_t> pad_ticks(ElementType type, const std::vector<std::int64_t>& ticks,
                                    const PadSpec& spec) {
  Tensor in(type, {static_cast<std::int64_t>(ticks.size())});
  std::memcpy(in.data(), ticks.data(), ticks.size() * sizeof(std::int64_t));
  const Tensor out = pad(in.view(), spec);
  std::vector<std::int64_t> got(static_cast<std::size_t>(out.size()));
  std::memcpy(got.data(), out.data(), got.size() * sizeof(std::int64_t));
  return got;
}

constexpr std::int64_t kNaT = std::numeric_limits<std::int64_t>::min();

TEST(ValueModes, LongDoubleComputesInLongDouble) {  // numpy's np.longdouble: no double roundings
  const long double tiny = 0x1p-60L;
  const std::vector<long double> values{1.0L, 1.0L + tiny};
  const auto run = [&](Mode mode) {
    Tensor in(DType::longdouble, {2});
    std::memcpy(in.data(), values.data(), 2 * sizeof(long double));
    const Tensor out = pad(in.view(), one_axis(mode, 1, 0));
    long double first = 0;
    std::memcpy(&first, out.data(), sizeof first);
    return first;
  };
  EXPECT_EQ(run(Mode::maximum), 1.0L + tiny);
  EXPECT_EQ(run(Mode::minimum), 1.0L);
  EXPECT_EQ(run(Mode::mean), 1.0L + tiny / 2);
  EXPECT_EQ(run(Mode::median), 1.0L + tiny / 2);
}

TEST(ValueModes, DatetimeMaximumMinimumPropagateNaT) {  // values from numpy 2.4
  PadSpec spec = one_axis(Mode::maximum, 2, 1);
  spec.axis_modes[0].end_stat_elems = 2;
  EXPECT_EQ(pad_ticks(DType::datetime64, {5, kNaT, 9, 3}, spec),
            (std::vector<std::int64_t>{kNaT, kNaT, 5, kNaT, 9, 3, 9}));
  spec.axis_modes[0].mode = Mode::minimum;
  spec.axis_modes[0].begin_stat_elems = 1;
  EXPECT_EQ(pad_ticks(DType::datetime64, {5, kNaT, 9, 3}, spec),
            (std::vector<std::int64_t>{5, 5, 5, kNaT, 9, 3, 3}));
}

TEST(ValueModes, TimedeltaOddReflectionWrapsAndPropagatesNaT) {  // values from numpy 2.4
  PadSpec spec = one_axis(Mode::reflect, 5, 5);
  spec.axis_modes[0].odd = true;
  const std::int64_t big = std::int64_t{1} << 62;  // 2 * big wraps to INT64_MIN: NaT
  EXPECT_EQ(pad_ticks(DType::timedelta64, {5, -3, kNaT, 7, big}, spec),
            (std::vector<std::int64_t>{-9223372036854775791, -4611686018427387894, 3, kNaT, 13, 5,
                                       -3, kNaT, 7, big, kNaT, kNaT, kNaT, kNaT, kNaT}));
  spec = one_axis(Mode::reflect, 3, 3);
  spec.axis_modes[0].odd = true;
  EXPECT_EQ(pad_ticks(DType::timedelta64, {big + 5, 3, -big}, spec),
            (std::vector<std::int64_t>{13, -4611686018427387894, -9223372036854775801, big + 5, 3,
                                       -big, kNaT, kNaT, kNaT}));
}

TEST(AxisModesValidation, Messages) {
  PadSpec two = one_axis(Mode::mean);
  two.axis_modes.push_back(AxisMode{});
  expect_error([&] { make_plan(DType::float32, {4}, {}, two); }, Errc::shape_mismatch,
               {"axis_modes", "one entry per input axis (1), got 2"});
  PadSpec odd = one_axis(Mode::edge);
  odd.axis_modes[0].odd = true;
  expect_error([&] { make_plan(DType::float32, {4}, {}, odd); }, Errc::invalid_argument,
               {"axis_modes: axis 0", "'odd' needs mode reflect or symmetric, got edge"});
  expect_error([&] { make_plan(DType::float32, {4}, {}, one_axis(Mode::mean, -1, 2)); },
               Errc::out_of_range, {"pads: axis 0", "mean mode cannot crop (begin -1, end 2)"});
  PadSpec zero = one_axis(Mode::maximum, 0, 0);
  zero.axis_modes[0].end_stat_elems = 0;
  expect_error(
      [&] { make_plan(DType::float32, {4}, {}, zero); }, Errc::invalid_argument,
      {"stat_length: axis 0", "stat_length of 0 yields no value for padding", "(begin -1, end 0)"});
  EXPECT_NO_THROW(make_plan(DType::float32, {0}, {}, zero));  // numpy computes nothing then
  PadSpec negative = one_axis(Mode::median);
  negative.axis_modes[0].begin_stat_elems = -3;
  expect_error([&] { make_plan(DType::float32, {4}, {}, negative); }, Errc::out_of_range,
               {"stat_length: axis 0", "negative stat length (begin -3, end -1)"});
  PadSpec int_mean = one_axis(Mode::mean);
  int_mean.axis_modes[0].begin_stat_elems = 0;
  expect_error([&] { make_plan(DType::int16, {4}, {}, int_mean); }, Errc::invalid_argument,
               {"stat_length: axis 0", "mean of 0 elements", "no int16 value"});
  EXPECT_NO_THROW(make_plan(DType::float16, {4}, {}, int_mean));  // NaN, as numpy
  // A side with no positions writes nothing: its empty statistic is never stored.
  PadSpec end_only = one_axis(Mode::median, 0, 2);
  end_only.axis_modes[0].begin_stat_elems = 0;
  const std::vector<std::int64_t> values{1, 2, 4, 8};
  Tensor in(DType::int64, {4});
  std::memcpy(in.data(), values.data(), sizeof(std::int64_t) * values.size());
  const Tensor out = pad(in.view(), end_only);
  std::vector<std::int64_t> padded(6);
  std::memcpy(padded.data(), out.data(), sizeof(std::int64_t) * padded.size());
  EXPECT_EQ(padded, (std::vector<std::int64_t>{1, 2, 4, 8, 3, 3}));  // median of all 4: 3
}

TEST(AxisModesValidation, TypesWithoutArithmetic) {
  for (Mode mode : {Mode::linear_ramp, Mode::maximum, Mode::mean, Mode::median, Mode::minimum}) {
    expect_error([&] { make_plan(ElementType::opaque(3), {4}, {}, one_axis(mode)); },
                 Errc::unsupported_type,
                 {"mode: axis 0", std::string(mode_name(mode)) + " computes values", "opaque3"});
  }
  PadSpec odd = one_axis(Mode::reflect);
  odd.axis_modes[0].odd = true;
  expect_error([&] { make_plan(DType::bfloat16, {4}, {}, odd); }, Errc::unsupported_type,
               {"reflect with reflect_type 'odd' computes values", "bfloat16"});
  // numpy computes datetime64 maximum/minimum and timedelta64 odd reflection only
  for (Mode mode : {Mode::linear_ramp, Mode::mean, Mode::median}) {
    expect_error([&] { make_plan(DType::datetime64, {4}, {}, one_axis(mode)); },
                 Errc::unsupported_type, {"mode: axis 0", "datetime64"});
  }
  for (Mode mode : {Mode::linear_ramp, Mode::maximum, Mode::mean, Mode::median, Mode::minimum}) {
    expect_error([&] { make_plan(DType::timedelta64, {4}, {}, one_axis(mode)); },
                 Errc::unsupported_type, {"mode: axis 0", "timedelta64"});
  }
  expect_error([&] { make_plan(DType::datetime64, {4}, {}, odd); }, Errc::unsupported_type,
               {"reflect with reflect_type 'odd' computes values", "datetime64"});
  EXPECT_NO_THROW(make_plan(DType::datetime64, {4}, {}, one_axis(Mode::maximum)));
  EXPECT_NO_THROW(make_plan(DType::timedelta64, {4}, {}, odd));
  PadSpec ramp = one_axis(Mode::linear_ramp);
  ramp.ramp_type = DType::complex64;
  expect_error([&] { make_plan(DType::int8, {4}, {}, ramp); }, Errc::unsupported_type,
               {"end_values: axis 0", "complex ramp cannot be floored to int8"});
  ramp.ramp_type = DType::int32;
  expect_error([&] { make_plan(DType::float32, {4}, {}, ramp); }, Errc::unsupported_type,
               {"ramp_type", "got int32"});
  ramp.ramp_type = DType::float32;
  ramp.axis_modes[0].end_value = "abc";
  expect_error([&] { make_plan(DType::float32, {4}, {}, ramp); }, Errc::invalid_argument,
               {"end_values: axis 0: end", "4 bytes; got 3"});
}

TEST(AxisModesValidation, PassesNeedFixedSizeElementsAndNoCropsOrInterior) {
  PadSpec sides = one_axis(Mode::constant);
  sides.axis_modes[0].end_value = "x";
  expect_error([&] { make_plan(DType::string, {2}, {}, sides); }, Errc::unsupported_type,
               {"axis_modes: axis 0", "per-side constants and value modes", "string"});
  PadSpec crop;
  crop.axes = {{-1, 0, 0}, {1, 1, 0}};
  crop.axis_modes = {AxisMode{Mode::edge}, AxisMode{Mode::mean}};
  expect_error(
      [&] {
        make_plan(DType::float32, {3, 3}, {}, crop);
      },
      Errc::invalid_argument,
      {"pads: axis 0", "cannot be combined with per-side constants or value modes (axis 1)"});
  PadSpec interior;
  interior.axes = {{1, 1, 2}, {1, 1, 0}};
  interior.axis_modes = {AxisMode{Mode::constant}, AxisMode{Mode::median}};
  expect_error(
      [&] {
        make_plan(DType::float32, {3, 3}, {}, interior);
      },
      Errc::invalid_argument,
      {"interior: axis 0: interior padding 2 cannot be combined", "(axis 1)"});
}

}  // namespace
}  // namespace padnd
