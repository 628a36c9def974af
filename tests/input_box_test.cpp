// SPDX-License-Identifier: Apache-2.0
// Input boxes: input_window against the bounding box of the input elements a window of the
// reference pad shows (every element of the input is distinct), and windows executed from a
// copy of just a box of the input, allocated to its exact size, against the reference slice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "support/random_cases.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

constexpr std::int64_t kIdBase = 0x7ead0000'00000000;  // far from any pad value random_spec picks

/// An input whose element at row-major position i holds kIdBase + i (int64) or "#i" (strings).
struct IdInput {
  std::vector<std::int64_t> ids;
  std::vector<std::string> texts;
  TensorView view;
};

IdInput id_input(const ElementType& type, const std::vector<std::int64_t>& shape) {
  IdInput in;
  const std::int64_t count = element_count(shape);
  for (std::int64_t i = 0; i < count; ++i) {
    if (type.storage() == Storage::string) {
      in.texts.push_back("#" + std::to_string(i));
    } else {
      in.ids.push_back(kIdBase + i);
    }
  }
  void* data = type.storage() == Storage::string ? static_cast<void*>(in.texts.data())
                                                 : static_cast<void*>(in.ids.data());
  in.view = TensorView{data, type, shape, {}};
  return in;
}

/// The input position element `e` of the reference output holds, or -1 for a pad value (a
/// pad value that looks like an id names no position of an input of `count` elements).
std::int64_t input_position(const ElementType& type, const Tensor& full, std::int64_t e,
                            std::int64_t count) {
  std::int64_t p = -1;
  if (type.storage() == Storage::string) {
    const std::string& s = static_cast<const std::string*>(full.data())[e];
    const bool id = s.size() > 1 && s.size() < 12 && s[0] == '#' &&
                    s.find_first_not_of("0123456789", 1) == std::string::npos;
    if (id) p = std::stoll(s.substr(1));
  } else {
    const std::int64_t v = static_cast<const std::int64_t*>(full.data())[e];
    if (v >= kIdBase) p = v - kIdBase;
  }
  return p < count ? p : -1;
}

/// Row-major position in an array of `shape` of multi-index `index`, and back.
std::int64_t flat_of(const std::vector<std::int64_t>& index, std::span<const std::int64_t> shape) {
  std::int64_t flat = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) flat = flat * shape[k] + index[k];
  return flat;
}

std::vector<std::int64_t> index_of(std::int64_t flat, std::span<const std::int64_t> shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  return index;
}

/// Calls `visit(window index, output index)` for each element of window `w`.
template <class Visit>
void for_each_in(const Window& w, Visit visit) {
  const std::int64_t count = element_count(w.shape);
  for (std::int64_t e = 0; e < count; ++e) {
    std::vector<std::int64_t> index = index_of(e, w.shape);
    std::vector<std::int64_t> out_index = index;
    for (std::size_t k = 0; k < index.size(); ++k) out_index[k] += w.start[k];
    visit(index, out_index);
  }
}

/// The bounding box of the input elements window `w` of the reference output shows.
Window shown_box(const Plan& plan, const Tensor& full, const Window& w) {
  const std::size_t rank = plan.input_shape().size();
  std::vector<std::int64_t> lo(rank, INT64_MAX);
  std::vector<std::int64_t> hi(rank, -1);
  for_each_in(w, [&](const auto&, const auto& out_index) {
    const std::int64_t p =
        input_position(plan.type(), full, flat_of(out_index, plan.output_shape()),
                       element_count(plan.input_shape()));
    if (p < 0) return;
    const std::vector<std::int64_t> at = index_of(p, plan.input_shape());
    for (std::size_t k = 0; k < rank; ++k) {
      lo[k] = std::min(lo[k], at[k]);
      hi[k] = std::max(hi[k], at[k]);
    }
  });
  Window box{std::vector<std::int64_t>(rank, 0), std::vector<std::int64_t>(rank, 0)};
  if (rank > 0 && hi[0] < 0) return box;
  for (std::size_t k = 0; k < rank; ++k) {
    box.start[k] = lo[k];
    box.shape[k] = hi[k] - lo[k] + 1;
  }
  return box;
}

Window random_window(std::mt19937_64& rng, std::span<const std::int64_t> shape) {
  Window w;
  for (const std::int64_t len : shape) {
    const auto start = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(len + 1));
    w.start.push_back(start);
    w.shape.push_back(
        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(len - start + 1)));
  }
  return w;
}

/// `needed` widened by random margins within the input (an empty `needed`: any box).
Window random_box(std::mt19937_64& rng, const Window& needed, std::span<const std::int64_t> shape) {
  Window box = needed;
  const bool reads = std::find(needed.shape.begin(), needed.shape.end(), 0) == needed.shape.end();
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (!reads) box.start[k] = box.shape[k] = 0;
    const std::int64_t stop = box.start[k] + box.shape[k];
    box.start[k] -= static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(box.start[k] + 1));
    box.shape[k] =
        stop - box.start[k] +
        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(shape[k] - stop + 1));
  }
  return box;
}

/// A copy of `box` of the input in an allocation of exactly its size (ASan sees any read
/// beyond it), dense row-major; its byte strides in `strides`.
template <class T>
std::unique_ptr<T[]> copy_box(const T* input, std::span<const std::int64_t> in_shape,
                              const Window& box, std::vector<std::int64_t>& strides) {
  const std::int64_t count = element_count(box.shape);
  auto copy = std::make_unique<T[]>(static_cast<std::size_t>(std::max<std::int64_t>(count, 1)));
  for_each_in(box, [&](const auto& index, const auto& in_index) {
    copy[static_cast<std::size_t>(flat_of(index, box.shape))] = input[flat_of(in_index, in_shape)];
  });
  strides.assign(box.shape.size(), 0);
  std::int64_t stride = sizeof(T);
  for (std::size_t k = box.shape.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= std::max<std::int64_t>(box.shape[k], 1);
  }
  return copy;
}

/// The window executed from a copy of `box` equals the reference's slice.
template <class T>
void check_from_box(const T* input, const Plan& plan, const PadSpec& spec, const Tensor& full,
                    const Window& box, const Window& w) {
  std::vector<std::int64_t> box_strides;
  const std::unique_ptr<T[]> copy = copy_box(input, plan.input_shape(), box, box_strides);
  const std::vector<std::int64_t> shape(plan.input_shape().begin(), plan.input_shape().end());
  const Plan box_plan = make_plan(plan.type(), shape, box_strides, spec);
  std::vector<T> out(static_cast<std::size_t>(element_count(w.shape)));
  std::vector<std::int64_t> out_strides(w.shape.size());
  std::int64_t stride = sizeof(T);
  for (std::size_t k = w.shape.size(); k-- > 0;) {
    out_strides[k] = stride;
    stride *= std::max<std::int64_t>(w.shape[k], 1);
  }
  execute_window(box_plan, copy.get(), box, w, out.data(), out_strides);
  const T* want = static_cast<const T*>(full.data());
  for_each_in(w, [&](const auto& index, const auto& out_index) {
    ASSERT_EQ(out[static_cast<std::size_t>(flat_of(index, w.shape))],
              want[flat_of(out_index, plan.output_shape())]);
  });
}

void run_case(std::mt19937_64& rng, const ElementType& type) {
  std::vector<std::int64_t> shape(rng() % 4);
  for (auto& d : shape) d = 1 + static_cast<std::int64_t>(rng() % 6);
  const IdInput in = id_input(type, shape);
  const PadSpec spec = testing::random_spec(rng, shape, type);
  if (!testing::naive_valid(shape, spec, nullptr)) return;
  const Plan plan = make_plan(type, shape, {}, spec);
  if (plan.output_elements() > 4000) return;
  const Tensor full = testing::reference_pad(in.view, spec);
  SCOPED_TRACE(plan.describe());
  for (int i = 0; i < 4; ++i) {
    const Window w = random_window(rng, plan.output_shape());
    const Window needed = input_window(plan, w);
    const Window shown = shown_box(plan, full, w);
    ASSERT_EQ(needed.start, shown.start) << describe_window(plan, w);
    ASSERT_EQ(needed.shape, shown.shape) << describe_window(plan, w);
    const Window box = random_box(rng, needed, plan.input_shape());
    if (type.storage() == Storage::string) {
      check_from_box(in.texts.data(), plan, spec, full, box, w);
    } else {
      check_from_box(in.ids.data(), plan, spec, full, box, w);
    }
  }
}

TEST(InputBoxes, MatchTheElementsWindowsShowAndSufficeToWriteThem) {
  std::mt19937_64 rng(0x1b0c5eedULL);
  for (const ElementType type : {ElementType(DType::int64), ElementType(DType::string)}) {
    for (int i = 0; i < 1500 && !HasFailure(); ++i) run_case(rng, type);
  }
}

TEST(InputBoxes, ABoxMissingWhatTheWindowReadsIsRejectedBeforeAnyWrite) {
  const std::vector<std::int64_t> shape{4, 5};
  PadSpec spec;
  spec.mode = Mode::reflect;
  spec.axes = {{2, 2}, {3, 1}};
  const Plan plan = make_plan(ElementType(DType::int32), shape, {}, spec);
  const Window w{{0, 0}, {3, 4}};  // reflect: rows 2..0, columns 3..1 and 0
  const Window needed = input_window(plan, w);
  EXPECT_EQ(needed.start, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(needed.shape, (std::vector<std::int64_t>{3, 4}));
  std::vector<std::int32_t> box(12, 7);
  std::vector<std::int32_t> out(12, -1);
  const std::vector<std::int64_t> out_strides{16, 4};
  const Window short_box{{0, 1}, {3, 3}};
  try {
    execute_window(plan, box.data(), short_box, w, out.data(), out_strides);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::out_of_range);
    EXPECT_STREQ(e.what(),
                 "input box: axis 1: start 1 and length 3 do not hold input positions 0:4, "
                 "which the window reads");
  }
  const Window outside{{2, 0}, {3, 5}};
  EXPECT_THROW(execute_window(plan, box.data(), outside, w, out.data(), out_strides), Error);
  EXPECT_THROW(execute_window(plan, box.data(), Window{{0}, {3}}, w, out.data(), out_strides),
               Error);
  EXPECT_EQ(out, std::vector<std::int32_t>(12, -1));
}

TEST(InputBoxes, AWindowOfPadValuesOnlyReadsNothing) {
  PadSpec spec;
  spec.mode = Mode::constant;
  spec.axes = {{3, 3}};
  const Plan plan = make_plan(ElementType(DType::float32), {4}, {}, spec);
  const Window needed = input_window(plan, Window{{0}, {3}});
  EXPECT_EQ(needed.shape, std::vector<std::int64_t>{0});
  std::vector<float> out(3, 1.0F);
  const std::vector<std::int64_t> out_strides{4};
  execute_window(plan, nullptr, Window{{0}, {0}}, Window{{0}, {3}}, out.data(), out_strides);
  EXPECT_EQ(out, std::vector<float>(3, 0.0F));
}

}  // namespace
}  // namespace padnd
