// SPDX-License-Identifier: Apache-2.0
// InlineVector against std::vector: the same operations give the same elements on both sides of
// the inline capacity, and copies and moves of inline and spilled vectors are independent.
#include "padnd/inline_vector.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace padnd {
namespace {

using Small = InlineVector<std::int64_t, 4>;

std::vector<std::int64_t> elements(const Small& v) { return {v.begin(), v.end()}; }

TEST(InlineVector, RandomOperationsMatchStdVectorAcrossTheInlineCapacity) {
  std::mt19937_64 rng(7);
  Small got;
  std::vector<std::int64_t> want;
  for (int step = 0; step < 20000; ++step) {
    const auto value = static_cast<std::int64_t>(rng());
    switch (rng() % 7) {
      case 0:
      case 1:
      case 2:
        got.push_back(value);
        want.push_back(value);
        break;
      case 3:
        if (!want.empty()) {
          got.pop_back();
          want.pop_back();
        }
        break;
      case 4: {
        const std::size_t n = rng() % 10;  // grows, shrinks, crosses the capacity both ways
        got.resize(n);
        want.resize(n);
        break;
      }
      case 5: {  // a contiguous range (one block inline), from an inline or a spilled vector
        std::vector<std::int64_t> range(rng() % 10);
        for (auto& x : range) x = static_cast<std::int64_t>(rng());
        got.assign(range.begin(), range.end());
        want = range;
        break;
      }
      default:
        if (!want.empty()) {
          const std::size_t i = rng() % want.size();
          got[i] = value;
          want[i] = value;
        }
        break;
    }
    ASSERT_EQ(got.size(), want.size()) << "step " << step;
    ASSERT_EQ(elements(got), want) << "step " << step;
    if (!want.empty()) {
      ASSERT_EQ(got.back(), want.back());
    }
  }
}

TEST(InlineVector, ResizeValueInitialisesNewElements) {
  Small v{1, 2, 3};
  v.resize(1);
  v.resize(4);  // the dropped 2 and 3 must not come back
  EXPECT_EQ(elements(v), (std::vector<std::int64_t>{1, 0, 0, 0}));
  v.resize(7);
  EXPECT_EQ(elements(v), (std::vector<std::int64_t>{1, 0, 0, 0, 0, 0, 0}));
}

TEST(InlineVector, CopiesAndMovesAreIndependentAndLeaveTheSourceEmpty) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{9}}) {
    Small a;
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<std::int64_t>(10 * i + 1));
    const std::vector<std::int64_t> want = elements(a);

    Small copy(a);
    Small assigned;
    assigned.push_back(99);
    assigned = a;
    if (n > 0) a[0] = -5;  // the copies must not see it
    EXPECT_EQ(elements(copy), want) << n;
    EXPECT_EQ(elements(assigned), want) << n;
    EXPECT_TRUE(copy == assigned);

    Small moved(std::move(copy));
    EXPECT_EQ(elements(moved), want) << n;
    EXPECT_TRUE(copy.empty()) << n;  // NOLINT(bugprone-use-after-move): the moved-from state
    copy.push_back(7);               // and it stays usable
    EXPECT_EQ(elements(copy), (std::vector<std::int64_t>{7}));

    Small target{5, 6, 7, 8, 9, 10};
    target = std::move(moved);
    EXPECT_EQ(elements(target), want) << n;
    EXPECT_TRUE(moved.empty()) << n;  // NOLINT(bugprone-use-after-move)
  }
}

}  // namespace
}  // namespace padnd
