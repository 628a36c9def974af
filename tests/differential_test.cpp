// SPDX-License-Identifier: Apache-2.0
// Thousands of random pads (rank 0-6, sizes 0-7, negative and oversize pads, every element
// width, strided inputs) against the slow reference; the output buffer starts as random bytes
// with guard bytes on both sides.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "support/random_cases.hpp"
#include "support/reference.hpp"

namespace padnd {

// Readable test names and failure messages for parameterised tests.
void PrintTo(const ElementType& type, std::ostream* os) { *os << type.name(); }

namespace {

constexpr std::int64_t kGuardBytes = 64;

using testing::make_input;
using testing::random_spec;
using testing::RandomInput;

/// How a case's plan writes a constant pad of byte storage, so that tests can require both ways.
struct ConstantPaths {
  int fill_then_place = 0;  ///< the whole output filled, then the input rows placed
  int row_walk = 0;         ///< rows and pad blocks walked
};

/// Runs one random case; a mismatch is a gtest failure.
void run_case(std::mt19937_64& rng, const ElementType& type, int case_id,
              std::uint64_t rank_limit = 7, std::uint64_t dim_limit = 8,
              ConstantPaths* paths = nullptr) {
  const std::size_t rank = rng() % rank_limit;
  std::vector<std::int64_t> shape(rank);
  for (auto& d : shape) d = static_cast<std::int64_t>(rng() % dim_limit);
  if (rng() % 3 == 0) {  // fewer empty tensors
    for (auto& d : shape) d = std::max<std::int64_t>(d, 1);
  }
  RandomInput in = make_input(rng, type, shape);
  const PadSpec spec = random_spec(rng, shape, type);
  std::vector<std::int64_t> expected_shape;
  const bool valid = testing::naive_valid(shape, spec, &expected_shape);
  SCOPED_TRACE("case " + std::to_string(case_id) + " type " + type.name() + " rank " +
               std::to_string(rank));
  if (!valid) {
    EXPECT_THROW(make_plan(type, shape, in.view.byte_strides, spec), Error);
    return;
  }
  // Keep big outputs out of this test (the reference is slow).
  if (element_count(expected_shape) > 40000) return;
  const Plan plan = make_plan(type, shape, in.view.byte_strides, spec);
  ASSERT_EQ(std::vector<std::int64_t>(plan.output_shape().begin(), plan.output_shape().end()), expected_shape);
  const Tensor expected = testing::reference_pad(in.view, spec);
  if (paths != nullptr && spec.mode == Mode::constant && type.storage() == Storage::bytes &&
      plan.output_elements() > 0) {
    const bool placed = plan.describe().find("filled whole") != std::string::npos;
    ++(placed ? paths->fill_then_place : paths->row_walk);
  }

  if (type.storage() == Storage::string) {
    std::vector<std::string> out(static_cast<std::size_t>(plan.output_elements()) + 2, "junk");
    execute(plan, in.view.data, out.data() + 1, plan.output_bytes());
    EXPECT_EQ(out.front(), "junk");
    EXPECT_EQ(out.back(), "junk");
    EXPECT_TRUE(testing::same_contents(expected, out.data() + 1, plan.output_bytes()));
    return;
  }
  // Both store paths (cached, and streamed through the stage, whose lines depend on the output's
  // alignment), each at a random offset from a cache line.
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    ExecOptions options;
    options.streaming = streaming;
    const auto shift = static_cast<std::int64_t>(rng() % 64);
    std::vector<std::byte> out(static_cast<std::size_t>(plan.output_bytes() + 2 * kGuardBytes + shift));
    for (auto& b : out) b = static_cast<std::byte>(rng());
    const std::vector<std::byte> before = out;
    std::byte* const dst = out.data() + kGuardBytes + shift;
    execute(plan, in.view.data, dst, plan.output_bytes(), options);
    SCOPED_TRACE(streaming == Streaming::always ? "streamed" : "cached");
    EXPECT_EQ(std::memcmp(out.data(), before.data(), kGuardBytes + shift), 0)
        << "wrote before the output";
    EXPECT_EQ(std::memcmp(dst + plan.output_bytes(), before.data() + kGuardBytes + shift +
                                                         plan.output_bytes(), kGuardBytes),
              0)
        << "wrote after the output";
    EXPECT_TRUE(testing::same_contents(expected, dst, plan.output_bytes())) << plan.describe();
  }
}

class Differential : public ::testing::TestWithParam<ElementType> {};

TEST_P(Differential, RandomCasesMatchReference) {
  std::mt19937_64 rng(0x9e3779b97f4a7c15ULL ^ (static_cast<std::uint64_t>(GetParam().dtype) << 8) ^
                      static_cast<std::uint64_t>(GetParam().bits()));
  ConstantPaths paths;
  for (int i = 0; i < 1500; ++i) {
    run_case(rng, GetParam(), i, 7, 8, &paths);
    if (HasFailure()) return;
  }
  if (GetParam().storage() == Storage::bytes) {  // small constant pads take both ways
    EXPECT_GE(paths.fill_then_place, 20);
    EXPECT_GE(paths.row_walk, 40);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryWidth, Differential,
                         ::testing::Values(ElementType(DType::boolean), ElementType(DType::float16),
                                           ElementType(DType::float32), ElementType(DType::float64),
                                           ElementType(DType::complex128), ElementType::opaque(3),
                                           ElementType::opaque(12), ElementType::opaque(40),
                                           ElementType(DType::int4), ElementType(DType::float4e2m1),
                                           ElementType(DType::uint2), ElementType(DType::string)),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return info.param.name();
                         });

/// Long rows (up to 69 positions): the packed types' fills and copies move whole bytes (memcpy
/// or a funnel shift) between per-code heads and tails, at every alignment of source and output;
/// reflect and symmetric borders of 1-, 2-, 4- and 8-byte units are reversed 16 bytes at a time.
class LongRows : public ::testing::TestWithParam<ElementType> {};

TEST_P(LongRows, RandomCasesMatchReference) {
  std::mt19937_64 rng(0x5851f42d4c957f2dULL ^ static_cast<std::uint64_t>(GetParam().dtype) ^
                      (static_cast<std::uint64_t>(GetParam().item_bytes()) << 32));
  ConstantPaths paths;
  for (int i = 0; i < 800; ++i) {
    run_case(rng, GetParam(), i, 4, 70, &paths);
    if (HasFailure()) return;
  }
  if (GetParam().storage() == Storage::bytes) {
    EXPECT_GE(paths.fill_then_place, 8);
    EXPECT_GE(paths.row_walk, 20);
  }
}

/// A host parallel-for that runs the tasks on the calling thread, last first, and records how
/// many there were (`pool` points at the count).
void reverse_serial_for(void* pool, std::int64_t task_count, padnd_task_fn task_fn,
                        void* task_context) {
  *static_cast<std::int64_t*>(pool) = task_count;
  for (std::int64_t t = task_count; t-- > 0;) task_fn(task_context, t);
}

/// Runs `plan` with streamed and cached stores into a 16-byte aligned output between guard bytes
/// and compares it with the reference: on one or two threads of the pool, or, with `split`, as
/// several tasks of a host parallel-for (required: tasks that start inside a plane).
void expect_both_store_kinds(std::mt19937_64& rng, const Plan& plan, const TensorView& view,
                             const PadSpec& spec, const std::string& what, bool split = false) {
  const Tensor expected = testing::reference_pad(view, spec);
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    ExecOptions options;
    options.streaming = streaming;
    options.threads = 1 + static_cast<int>(rng() % 2);
    std::int64_t tasks = 0;
    if (split) {
      options.threads = 4;
      options.parallel_for = reverse_serial_for;
      options.pool = &tasks;
    }
    std::vector<std::byte> out(
        static_cast<std::size_t>(plan.output_bytes() + 2 * kGuardBytes + 16));
    for (auto& b : out) b = static_cast<std::byte>(rng());
    const std::vector<std::byte> before = out;
    const std::size_t at =
        kGuardBytes + (16 - reinterpret_cast<std::uintptr_t>(out.data() + kGuardBytes) % 16) % 16;
    const std::size_t after = at + static_cast<std::size_t>(plan.output_bytes());
    execute(plan, view.data, out.data() + at, plan.output_bytes(), options);
    const std::string label = std::string(view.type.name()) + ' ' + what + " threads " +
                              std::to_string(options.threads) +
                              (streaming == Streaming::always ? " streamed" : " cached");
    EXPECT_TRUE(testing::same_contents(expected, out.data() + at, plan.output_bytes())) << label;
    EXPECT_EQ(std::memcmp(out.data(), before.data(), at), 0) << label << ": bytes before";
    EXPECT_EQ(std::memcmp(out.data() + after, before.data() + after, out.size() - after), 0)
        << label << ": bytes after";
    if (split) {
      EXPECT_GE(tasks, 2) << label;
    }
  }
}

/// Border widths (begin, end) of a row of `out_row` positions in `mode`: any for constant and
/// edge (MaskedRows takes a border of one repeated value of any width), else 0 or 1 (a border
/// of one element), leaving the input row long enough for the mode.
std::pair<std::int64_t, std::int64_t> masked_borders(std::mt19937_64& rng, Mode mode,
                                                     std::int64_t out_row) {
  if (mode == Mode::constant || mode == Mode::edge) {
    const auto begin = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(out_row));
    const auto end = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(out_row - begin));
    return {begin, end};
  }
  if (out_row < 4) return {0, 0};
  return {static_cast<std::int64_t>(rng() % 2), static_cast<std::int64_t>(rng() % 2)};
}

constexpr Mode kIndexModes[] = {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric,
                                Mode::wrap};

/// Many short rows made of whole 16-byte pieces whose borders each hold one value (the pad
/// value, or one input element: edge borders, or one-element borders in any index mode), too
/// large to be filled whole and placed: MaskedRows writes them from registers, with streamed or
/// cached stores, and the rows whose loads would leave the input view (its first and last) from
/// the row program.
TEST(MaskedRows, ManyShortRowsMatchReference) {
  std::mt19937_64 rng(0x2545f4914f6cdd1dULL);
  for (const DType dtype :
       {DType::uint8, DType::float16, DType::float32, DType::float64, DType::complex128}) {
    const ElementType type(dtype);
    const std::int64_t item = type.item_bytes();
    for (const Mode mode : kIndexModes) {
      for (int trial = 0; trial < 6; ++trial) {
        const auto out_row = static_cast<std::int64_t>(16 * (1 + rng() % 4)) / item;  // positions
        const auto [begin, end] = masked_borders(rng, mode, out_row);
        const std::int64_t rows =
            (std::int64_t{300} << 10) / (out_row * item) + trial;  // > 256 KiB
        const std::vector<std::int64_t> shape = {rows, out_row - begin - end};
        std::vector<std::byte> in(static_cast<std::size_t>(element_count(shape) * item));
        for (auto& b : in) b = static_cast<std::byte>(rng());
        PadSpec spec;
        spec.mode = mode;
        spec.axes = {{0, 0, 0}, {begin, end, 0}};
        for (std::int64_t i = 0; mode == Mode::constant && i < item; ++i) {
          spec.value += static_cast<char>(rng());
        }
        const TensorView view{in.data(), type, shape, {}};
        const Plan plan = make_plan(type, shape, {}, spec);
        SCOPED_TRACE(plan.describe());
        ASSERT_EQ(plan.describe().find("filled whole"), std::string::npos);
        expect_both_store_kinds(rng, plan, view, spec, std::string(mode_name(mode)));
      }
    }
  }
}

/// The same rows in planes (N, H, W) padded on H too, in every index mode: a short H whose
/// borders read the input is walked from a list of its rows, whole planes at a time. Large cases
/// run as several tasks (which start inside a plane and finish it first); views are flipped on
/// N or H or broadcast on N (every row's loads then leave the view's span: the row program); a
/// fourth axis padded at its start only lets the planes carry into it. The first and last rows
/// of the view take the row program (the input vectors are exactly the view's size, so a load
/// past them fails under AddressSanitizer).
TEST(MaskedRows, PlanesWithOuterBordersMatchReference) {
  std::mt19937_64 rng(0x9e3779b97f4a7c15ULL);
  for (const DType dtype : {DType::uint8, DType::float16, DType::float32, DType::float64}) {
    const ElementType type(dtype);
    const std::int64_t item = type.item_bytes();
    for (const Mode mode : kIndexModes) {
      for (int trial = 0; trial < 10; ++trial) {
        const auto out_row = static_cast<std::int64_t>(16 * (1 + rng() % 4)) / item;
        const auto [begin, end] = masked_borders(rng, mode, out_row);
        const std::int64_t height = 2 + static_cast<std::int64_t>(rng() % (trial < 7 ? 8 : 70));
        const std::int64_t top = static_cast<std::int64_t>(rng() % 3) % height;
        const std::int64_t bottom = static_cast<std::int64_t>(rng() % 3) % height;
        const std::int64_t plane_bytes = (height + top + bottom) * out_row * item;
        const bool split = trial % 2 == 1;  // over 1 MiB: the cost model makes several tasks
        const std::int64_t planes = split ? 2 + (std::int64_t{1100} << 10) / plane_bytes : 3;
        const bool rank4 = trial % 3 == 2;
        std::vector<std::int64_t> shape = {planes, height, out_row - begin - end};
        PadSpec spec;
        spec.mode = mode;
        spec.axes = {{0, 0, 0}, {top, bottom, 0}, {begin, end, 0}};
        if (rank4) {  // (2, planes / 2 + 1, H, W), the plane axis padded by one at its start
          shape.insert(shape.begin(), 2);
          shape[1] = planes / 2 + 1;
          spec.axes = {{0, 0, 0}, {1, 0, 0}, {top, bottom, 0}, {begin, end, 0}};
        }
        const std::size_t rank = shape.size();
        std::vector<std::byte> in(static_cast<std::size_t>(element_count(shape) * item));
        for (auto& b : in) b = static_cast<std::byte>(rng());
        // Dense strides, then one of: as is, N flipped, H flipped, N broadcast.
        std::vector<std::int64_t> strides(rank);
        std::int64_t stride = item;
        for (std::size_t k = rank; k-- > 0;) {
          strides[k] = stride;
          stride *= shape[k];
        }
        const std::byte* data = in.data();
        const std::size_t flip = trial % 4 == 1 ? 0 : rank - 2;  // N or H
        if (trial % 4 == 1 || trial % 4 == 2) {
          data += (shape[flip] - 1) * strides[flip];
          strides[flip] = -strides[flip];
        } else if (trial % 4 == 3) {
          strides[0] = 0;
        }
        const TensorView view{data, type, shape, strides};
        const Plan plan = make_plan(type, shape, strides, spec);
        SCOPED_TRACE(plan.describe());
        expect_both_store_kinds(rng, plan, view, spec, std::string(mode_name(mode)), split);
      }
    }
  }
}

/// Bordered rows longer than the stage (8 KiB and more), streamed: their copies' whole lines,
/// then each row's ends through a stage (a border with the copy's partial line) or, for a
/// border longer than the stage, written directly; every index mode, borders from none to
/// several KiB, rows whose alignment moves from one to the next.
TEST(BorderedRows, LongStreamedRowsMatchReference) {
  std::mt19937_64 rng(0x6a09e667f3bcc909ULL);
  const std::int64_t border_elems[] = {0, 1, 3, 16, 64, 300, 1500};
  for (const DType dtype : {DType::uint8, DType::float32, DType::float64, DType::complex128}) {
    const ElementType type(dtype);
    const std::int64_t item = type.item_bytes();
    for (const Mode mode : kIndexModes) {
      for (int trial = 0; trial < 4; ++trial) {
        const auto pick = [&] { return border_elems[rng() % std::size(border_elems)]; };
        const std::int64_t begin = pick();
        const std::int64_t end = pick();
        const std::int64_t width =
            (std::int64_t{8} << 10) / item + 1600 + static_cast<std::int64_t>(rng() % 64);
        const std::vector<std::int64_t> shape = {3 + trial, width};
        std::vector<std::byte> in(static_cast<std::size_t>(element_count(shape) * item));
        for (auto& b : in) b = static_cast<std::byte>(rng());
        PadSpec spec;
        spec.mode = mode;
        spec.axes = {{trial % 2, 1, 0}, {begin, end, 0}};
        const TensorView view{in.data(), type, shape, {}};
        const Plan plan = make_plan(type, shape, {}, spec);
        SCOPED_TRACE(plan.describe());
        expect_both_store_kinds(rng, plan, view, spec, std::string(mode_name(mode)));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryWidth, LongRows,
                         ::testing::Values(ElementType(DType::int4), ElementType(DType::uint2),
                                           ElementType(DType::uint8), ElementType(DType::float16),
                                           ElementType(DType::float32), ElementType(DType::float64),
                                           ElementType(DType::complex128), ElementType::opaque(3)),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return info.param.name();
                         });

}  // namespace
}  // namespace padnd
