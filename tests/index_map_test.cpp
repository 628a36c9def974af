// SPDX-License-Identifier: Apache-2.0
// The index map (src/plan/index_map.hpp) against a naive while-loop mapping, exhaustively.
#include "plan/index_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "support/reference.hpp"

namespace padnd {
namespace {

using detail::fold_index;
using detail::source_index;
using testing::naive_fold;
using testing::naive_source;

constexpr Mode kFoldModes[] = {Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap};

TEST(FoldIndex, MatchesNaiveMappingForEveryLengthAndFarPositions) {
  for (Mode mode : kFoldModes) {
    for (std::int64_t d = 1; d <= 9; ++d) {
      for (std::int64_t j = -60 * d - 7; j <= 60 * d + 7; ++j) {
        ASSERT_EQ(fold_index(mode, j, d), naive_fold(mode, j, d))
            << mode_name(mode) << " d=" << d << " j=" << j;
      }
    }
  }
}

// Positions near the int64 limits: reduce by whole periods (exact in 128 bits) and compare
// with the naive mapping of the reduced position.
TEST(FoldIndex, PositionsNearInt64Limits) {
  const std::int64_t far[] = {INT64_MAX,
                              INT64_MAX - 1,
                              INT64_MAX - 12345,
                              INT64_MIN + 1,
                              INT64_MIN + 2,
                              -(std::int64_t{1} << 40) - 3,
                              (std::int64_t{1} << 40) + 5};
  for (Mode mode : kFoldModes) {
    for (std::int64_t d = 1; d <= 9; ++d) {
      __int128 period = 1;
      if (mode == Mode::reflect) period = d == 1 ? 1 : 2 * (d - 1);
      if (mode == Mode::symmetric) period = 2 * d;
      if (mode == Mode::wrap) period = d;
      for (std::int64_t j : far) {
        std::int64_t reduced = j;
        if (mode != Mode::edge) {
          __int128 r = static_cast<__int128>(j) % period;
          if (r < 0) r += period;
          reduced = static_cast<std::int64_t>(r);
        }
        EXPECT_EQ(fold_index(mode, j, d), naive_fold(mode, reduced, d))
            << mode_name(mode) << " d=" << d << " j=" << j;
      }
    }
  }
}

// Inside the OpenVINO/nGraph limits the periodic formulas equal their single-step forms.
TEST(FoldIndex, SingleStepClosedFormsInsideOpenVinoLimits) {
  for (std::int64_t d = 1; d <= 9; ++d) {
    for (std::int64_t j = -d; j < 2 * d; ++j) {
      if (j >= -(d - 1) && j <= 2 * d - 2 && d >= 2) {
        const std::int64_t reflect = j < 0 ? -j : (j >= d ? 2 * d - 2 - j : j);
        EXPECT_EQ(fold_index(Mode::reflect, j, d), reflect) << "d=" << d << " j=" << j;
      }
      const std::int64_t symmetric = j < 0 ? -j - 1 : (j >= d ? 2 * d - 1 - j : j);
      EXPECT_EQ(fold_index(Mode::symmetric, j, d), symmetric) << "d=" << d << " j=" << j;
    }
  }
}

// The name table of the README: input abcd, three positions each side.
TEST(FoldIndex, ModeDiagrams) {
  const std::string abcd = "abcd";
  const auto strip = [&](Mode mode) {
    std::string s;
    for (std::int64_t j = -3; j < 7; ++j) {
      if (j == 0 || j == 4) s += '|';
      const std::int64_t i = fold_index(mode, j, 4);
      s += i == detail::kPadIndex ? 'v' : abcd[static_cast<std::size_t>(i)];
    }
    return s;
  };
  EXPECT_EQ(strip(Mode::constant), "vvv|abcd|vvv");
  EXPECT_EQ(strip(Mode::edge), "aaa|abcd|ddd");
  EXPECT_EQ(strip(Mode::reflect), "dcb|abcd|cba");
  EXPECT_EQ(strip(Mode::symmetric), "cba|abcd|dcb");
  EXPECT_EQ(strip(Mode::wrap), "bcd|abcd|abc");
}

/// Calls `check(rule, pad, out_len, where)` for every single-axis request the canonical rules
/// accept: every mode and negative order, axis lengths 0..max_d, interiors 0..3 (constant), and
/// pads from -2d-2 to pad_factor*d+2 on each side. `where` describes the case for messages.
template <class Check>
void for_each_valid_axis(std::int64_t max_d, std::int64_t pad_factor, Check check) {
  const Mode modes[] = {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap};
  const NegativeOrder orders[] = {NegativeOrder::map_on_original, NegativeOrder::crop_then_pad};
  for (Mode mode : modes) {
    for (NegativeOrder order : orders) {
      for (std::int64_t d = 0; d <= max_d; ++d) {
        for (std::int64_t interior = 0; interior <= (mode == Mode::constant ? 3 : 0); ++interior) {
          for (std::int64_t b = -2 * d - 2; b <= pad_factor * d + 2; ++b) {
            for (std::int64_t e = -2 * d - 2; e <= pad_factor * d + 2; ++e) {
              PadSpec spec;
              spec.axes = {AxisPad{b, e, interior}};
              spec.mode = mode;
              spec.negative_order = order;
              std::vector<std::int64_t> out;
              if (!testing::naive_valid({d}, spec, &out)) continue;
              const std::string where = std::string(mode_name(mode)) + " d=" + std::to_string(d) +
                                        " b=" + std::to_string(b) + " e=" + std::to_string(e) +
                                        " r=" + std::to_string(interior);
              check(detail::AxisRule{d, spec.axes[0], mode, order}, spec.axes[0], out[0], where);
            }
          }
        }
      }
    }
  }
}

TEST(SourceIndex, MatchesNaiveForEveryModeOrderPadAndInterior) {
  std::int64_t checked = 0;
  for_each_valid_axis(
      9, 4,
      [&](const detail::AxisRule& rule, const AxisPad& pad, std::int64_t out_len,
          const std::string& where) {
        for (std::int64_t o = 0; o < out_len; ++o) {
          ASSERT_EQ(source_index(rule, o), naive_source(rule.mode, rule.order, rule.in_len, pad, o))
              << where << " o=" << o;
          ++checked;
        }
      });
  EXPECT_GT(checked, 100000);
}

// The middle run the planner stores instead of a table: every position inside it maps as the
// run says, and every position outside it is a border (a pad value or a folded index).
TEST(MiddleRun, AgreesWithSourceIndexForEveryModeOrderPadAndInterior) {
  for_each_valid_axis(
      7, 3,
      [](const detail::AxisRule& rule, const AxisPad& pad, std::int64_t out_len,
         const std::string& where) {
        const detail::MiddleRun run = detail::middle_run(rule, out_len);
        ASSERT_GE(run.len, 0);
        ASSERT_GE(run.out_begin, 0);
        ASSERT_LE(run.out_begin + run.len, out_len);
        std::int64_t inside = 0;
        for (std::int64_t i = 0; i < run.len; ++i) {
          const std::int64_t want = i % run.step == 0 ? run.src + i / run.step : detail::kPadIndex;
          ASSERT_EQ(source_index(rule, run.out_begin + i), want) << where << " i=" << i;
          inside += want != detail::kPadIndex;
        }
        // No source position directly mapped is left out of the run.
        const std::int64_t d = rule.in_len;
        const std::int64_t b = pad.begin;
        const std::int64_t e = pad.end;
        const std::int64_t interior = pad.interior;
        const std::int64_t kept =
            rule.mode != Mode::constant && rule.order == NegativeOrder::crop_then_pad
                ? d - (b < 0 ? -b : 0) - (e < 0 ? -e : 0)
                : d - (b < 0 ? (-b + interior) / (interior + 1) : 0) -
                      (e < 0 ? (-e + interior) / (interior + 1) : 0);
        EXPECT_EQ(inside, std::max<std::int64_t>(kept, 0)) << where;
      });
}

// The planner tabulates one period of each border and folds farther positions onto it: any two
// border positions on one side of the middle run, a period apart, read the same source.
TEST(SourcePeriod, BordersRepeatWithThePeriodForEveryModeOrderAndPad) {
  std::int64_t checked = 0;
  for_each_valid_axis(6, 5,
                      [&](const detail::AxisRule& rule, const AxisPad&, std::int64_t out_len,
                          const std::string& where) {
                        const detail::MiddleRun run = detail::middle_run(rule, out_len);
                        const std::int64_t period = detail::source_period(rule);
                        ASSERT_GE(period, 1) << where;
                        const std::int64_t head = run.len > 0 ? run.out_begin : out_len;
                        const std::int64_t tail = run.len > 0 ? run.out_begin + run.len : out_len;
                        for (std::int64_t o = 0; o + period < out_len; ++o) {
                          const bool both_head = o + period < head;
                          const bool both_tail = o >= tail;
                          if (!both_head && !both_tail) continue;
                          ASSERT_EQ(source_index(rule, o), source_index(rule, o + period))
                              << where << " o=" << o << " period=" << period;
                          ++checked;
                        }
                      });
  EXPECT_GT(checked, 10000);
}

// A window's middle run is the whole axis's run cut to the window, starting at a source
// position: inside, every position maps as the run says; outside it in the window, none of the
// whole run's source positions is left.
TEST(MiddleRun, WindowRunIsTheWholeRunCutToTheWindow) {
  for_each_valid_axis(
      6, 3,
      [](const detail::AxisRule& rule, const AxisPad&, std::int64_t out_len,
         const std::string& where) {
        const detail::MiddleRun whole = detail::middle_run(rule, out_len);
        const auto in_whole = [&](std::int64_t o) {
          return o >= whole.out_begin && o < whole.out_begin + whole.len &&
                 (o - whole.out_begin) % whole.step == 0;
        };
        for (std::int64_t start = 0; start <= out_len; ++start) {
          for (std::int64_t len = 0; start + len <= out_len; ++len) {
            const detail::MiddleRun run = detail::window_middle_run(rule, out_len, start, len);
            const std::string at =
                where + " window " + std::to_string(start) + "+" + std::to_string(len);
            ASSERT_GE(run.out_begin, 0) << at;
            ASSERT_LE(run.out_begin + run.len, len) << at;
            for (std::int64_t i = 0; i < len; ++i) {
              const bool in_run = i >= run.out_begin && i < run.out_begin + run.len;
              const std::int64_t o = start + i;
              if (in_run && (i - run.out_begin) % run.step == 0) {
                ASSERT_EQ(source_index(rule, o), run.src + (i - run.out_begin) / run.step) << at;
              } else if (in_run) {
                ASSERT_EQ(source_index(rule, o), detail::kPadIndex) << at;
              } else {
                ASSERT_FALSE(in_whole(o)) << at << " i=" << i;
              }
            }
          }
        }
      });
}

// Pads and interiors near the int64 limits (the planner accepts them: begin + dilated length
// fits): the run's edges map as source_index says.
TEST(MiddleRun, FarPadsAndInteriors) {
  constexpr std::int64_t k62 = std::int64_t{1} << 62;
  constexpr NegativeOrder kMap = NegativeOrder::map_on_original;
  const detail::AxisRule rules[] = {
      {2, {-k62, 1, k62}, Mode::constant, kMap},  // a fuzzer's find: -begin + interior overflowed
      {2, {-(k62 + 5), 7, k62 + 3}, Mode::constant, kMap},
      {3, {-(INT64_MAX / 2), 0, INT64_MAX / 2 - 1}, Mode::constant, kMap},
      {k62, {-(k62 - 3), INT64_MAX - k62, 0}, Mode::constant, kMap},
      {k62 + 1, {k62 - 2, -k62, 0}, Mode::edge, kMap},
      {k62 + 1, {k62 - 2, -k62, 0}, Mode::reflect, NegativeOrder::crop_then_pad},
  };
  for (const detail::AxisRule& rule : rules) {
    const std::int64_t out_len = detail::padded_length(rule.in_len, rule.pad).out_len;
    const detail::MiddleRun run = detail::middle_run(rule, out_len);
    const std::string where = "D=" + std::to_string(rule.in_len) +
                              " b=" + std::to_string(rule.pad.begin) +
                              " e=" + std::to_string(rule.pad.end);
    ASSERT_EQ(detail::padded_length(rule.in_len, rule.pad).overflow, nullptr) << where;
    ASSERT_GE(run.out_begin, 0) << where;
    ASSERT_LE(run.len, out_len - run.out_begin) << where;
    const std::int64_t stop = run.out_begin + run.len;
    for (std::int64_t o : {run.out_begin - 1, run.out_begin, stop - 1, stop, out_len - 1}) {
      if (o < 0 || o >= out_len) continue;
      const bool in_run = o >= run.out_begin && o < stop && (o - run.out_begin) % run.step == 0;
      const std::int64_t want = in_run ? run.src + (o - run.out_begin) / run.step
                                       : (o >= run.out_begin && o < stop ? detail::kPadIndex : -2);
      if (want != -2) {
        EXPECT_EQ(source_index(rule, o), want) << where << " o=" << o;
      }
    }
  }
}

// The unchecked dilated length that the index map uses is padded_length's wherever that fits,
// up to lengths and interiors whose product nearly fills int64.
TEST(DilatedLength, AgreesWithTheCheckedPaddedLength) {
  const std::int64_t k31 = std::int64_t{1} << 31;
  const std::int64_t lengths[] = {0, 1, 2, 3, 7, 1000, k31, INT64_MAX / 2, INT64_MAX};
  const std::int64_t interiors[] = {0, 1, 2, 5, k31 - 1, k31, INT64_MAX / 4, INT64_MAX - 1};
  for (const std::int64_t in_len : lengths) {
    for (const std::int64_t interior : interiors) {
      const detail::PaddedLength checked = detail::padded_length(in_len, AxisPad{0, 0, interior});
      if (checked.overflow != nullptr) continue;
      EXPECT_EQ(detail::dilated_length(in_len, interior), checked.dilated)
          << "in_len=" << in_len << " interior=" << interior;
    }
  }
}

// docs/spec.md §2.5: the two orders differ exactly where one side crops and the other pads.
TEST(SourceIndex, CropThenPadVersusMapOnOriginal) {
  const auto row = [](Mode mode, NegativeOrder order, std::int64_t d, AxisPad p) {
    std::vector<std::int64_t> v;
    const detail::AxisRule rule{d, p, mode, order};
    for (std::int64_t o = 0; o < p.begin + d + p.end; ++o) v.push_back(source_index(rule, o));
    return v;
  };
  using V = std::vector<std::int64_t>;
  // [1..6], b=-4, e=+3: crop-first [5,6,5,6,5]; map-on-original [5,6,5,4,3] (0-based below).
  EXPECT_EQ(row(Mode::reflect, NegativeOrder::crop_then_pad, 6, {-4, 3, 0}), (V{4, 5, 4, 5, 4}));
  EXPECT_EQ(row(Mode::reflect, NegativeOrder::map_on_original, 6, {-4, 3, 0}), (V{4, 5, 4, 3, 2}));
  // [1,2,3,4], b=-1, e=+1 wrap: crop-first [2,3,4,2]; map-on-original [2,3,4,1].
  EXPECT_EQ(row(Mode::wrap, NegativeOrder::crop_then_pad, 4, {-1, 1, 0}), (V{1, 2, 3, 1}));
  EXPECT_EQ(row(Mode::wrap, NegativeOrder::map_on_original, 4, {-1, 1, 0}), (V{1, 2, 3, 0}));
}

}  // namespace
}  // namespace padnd
