// SPDX-License-Identifier: Apache-2.0
// Windows of random pads (every index mode, element width, strings, packed types, interior
// padding, crops in both orders) against the same slice of the slow reference, written into
// buffers of random bytes in random layouts (dense, or strided with gaps, flips and any axis
// order) whose other bytes must stay as they were; windows of one plan from several threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "support/random_cases.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

using testing::make_input;
using testing::random_spec;

/// A random window of an output of `shape`.
Window random_window(std::mt19937_64& rng, std::span<const std::int64_t> shape) {
  Window w;
  for (const std::int64_t len : shape) {
    const auto start = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(len + 1));
    const auto left = static_cast<std::uint64_t>(len - start + 1);
    w.start.push_back(start);
    w.shape.push_back(static_cast<std::int64_t>(rng() % left));
  }
  if (rng() % 6 == 0) {  // the whole output
    w.start.assign(shape.size(), 0);
    w.shape.assign(shape.begin(), shape.end());
  }
  return w;
}

/// A destination for `shape` elements of `item` bytes: byte strides in a random axis order with
/// gaps, some axes flipped, and the offset of element [0, ..., 0] in a buffer of `bytes`.
struct Layout {
  std::vector<std::int64_t> strides;
  std::int64_t origin = 0;
  std::int64_t bytes = 0;
};

Layout random_layout(std::mt19937_64& rng, const std::vector<std::int64_t>& shape,
                     std::int64_t item) {
  const std::size_t rank = shape.size();
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (rng() % 2) std::shuffle(order.begin(), order.end(), rng);  // else row-major order
  Layout l;
  l.strides.resize(rank);
  std::int64_t extent = 1;
  for (std::size_t i = rank; i-- > 0;) {
    const std::size_t k = order[i];
    l.strides[k] = extent * item;
    extent *= shape[k] + static_cast<std::int64_t>(rng() % 3);
  }
  for (std::size_t k = 0; k < rank; ++k) {
    if (rng() % 4 == 0 && shape[k] > 0) {
      l.origin += (shape[k] - 1) * l.strides[k];
      l.strides[k] = -l.strides[k];
    }
  }
  l.bytes = extent * item;
  return l;
}

/// Byte offset of window element `flat` (row-major) of `shape` in a layout.
std::int64_t offset_of(const Layout& l, const std::vector<std::int64_t>& shape, std::int64_t flat) {
  std::int64_t offset = l.origin;
  for (std::size_t k = shape.size(); k-- > 0;) {
    offset += flat % shape[k] * l.strides[k];
    flat /= shape[k];
  }
  return offset;
}

/// Row-major index in the whole output of window element `flat`.
std::int64_t full_index(const Window& w, std::span<const std::int64_t> out_shape,
                        std::int64_t flat) {
  std::int64_t index = 0;
  std::int64_t scale = 1;
  for (std::size_t k = out_shape.size(); k-- > 0;) {
    index += (w.start[k] + flat % w.shape[k]) * scale;
    flat /= w.shape[k];
    scale *= out_shape[k];
  }
  return index;
}

int read_code(const std::byte* bytes, std::int64_t element, int bits) {
  const std::int64_t bit = element * bits;
  return (std::to_integer<int>(bytes[bit / 8]) >> (bit % 8)) & ((1 << bits) - 1);
}

/// Byte storage: the window into a strided (or dense) buffer of random bytes.
void check_bytes_window(std::mt19937_64& rng, const Plan& plan, const void* in,
                        const Tensor& expected, const Window& w) {
  const std::int64_t item = plan.type().item_bytes();
  const std::int64_t count = element_count(w.shape);
  const bool dense = rng() % 3 == 0;
  Layout l = random_layout(rng, w.shape, item);
  if (dense) l = Layout{{}, 0, std::max<std::int64_t>(count, 1) * item};
  std::vector<std::byte> buffer(static_cast<std::size_t>(l.bytes + 64));
  for (auto& b : buffer) b = static_cast<std::byte>(rng());
  std::vector<std::byte> want = buffer;
  const auto* full = static_cast<const std::byte*>(expected.data());
  for (std::int64_t e = 0; e < count; ++e) {
    const std::int64_t at = dense ? e * item : offset_of(l, w.shape, e);
    std::memcpy(want.data() + at, full + full_index(w, plan.output_shape(), e) * item,
                static_cast<std::size_t>(item));
  }
  ExecOptions options;
  options.threads = 1 + static_cast<int>(rng() % 2);
  options.streaming = rng() % 2 ? Streaming::always : Streaming::never;
  if (dense) {
    execute_window(plan, in, w, buffer.data(), count * item, options);
  } else {
    execute_window(plan, in, w, buffer.data() + l.origin, l.strides, options);
  }
  EXPECT_TRUE(buffer == want) << (dense ? "dense" : "strided") << "\n" << describe_window(plan, w);
}

void check_string_window(std::mt19937_64& rng, const Plan& plan, const void* in,
                         const Tensor& expected, const Window& w) {
  const auto item = static_cast<std::int64_t>(sizeof(std::string));
  const std::int64_t count = element_count(w.shape);
  const Layout l = random_layout(rng, w.shape, item);
  std::vector<std::string> buffer(static_cast<std::size_t>(l.bytes / item + 1), "junk");
  std::vector<std::string> want = buffer;
  const auto* full = static_cast<const std::string*>(expected.data());
  for (std::int64_t e = 0; e < count; ++e) {
    want[static_cast<std::size_t>(offset_of(l, w.shape, e) / item)] =
        full[full_index(w, plan.output_shape(), e)];
  }
  execute_window(plan, in, w, reinterpret_cast<std::byte*>(buffer.data()) + l.origin, l.strides);
  EXPECT_TRUE(buffer == want) << describe_window(plan, w);
}

void check_packed_window(std::mt19937_64& rng, const Plan& plan, const void* in,
                         const Tensor& expected, const Window& w) {
  const std::int64_t count = element_count(w.shape);
  const std::int64_t bytes = storage_bytes(plan.type(), count);
  std::vector<std::byte> buffer(static_cast<std::size_t>(bytes + 16));
  for (auto& b : buffer) b = static_cast<std::byte>(rng());
  const std::vector<std::byte> before = buffer;
  execute_window(plan, in, w, buffer.data(), bytes);
  const int bits = plan.type().bits();
  const auto* full = static_cast<const std::byte*>(expected.data());
  for (std::int64_t e = 0; e < count; ++e) {
    ASSERT_EQ(read_code(buffer.data(), e, bits),
              read_code(full, full_index(w, plan.output_shape(), e), bits))
        << "element " << e << "\n"
        << describe_window(plan, w);
  }
  EXPECT_EQ(std::memcmp(buffer.data() + bytes, before.data() + bytes, 16), 0) << "wrote after";
}

void run_window_case(std::mt19937_64& rng, const ElementType& type, int case_id) {
  std::vector<std::int64_t> shape(rng() % 5);
  for (auto& d : shape) d = 1 + static_cast<std::int64_t>(rng() % 7);
  testing::RandomInput in = make_input(rng, type, shape);
  const PadSpec spec = random_spec(rng, shape, type);
  if (!testing::naive_valid(shape, spec, nullptr)) return;
  const Plan plan = make_plan(type, shape, in.view.byte_strides, spec);
  if (plan.output_elements() > 20000) return;
  const Tensor expected = testing::reference_pad(in.view, spec);
  SCOPED_TRACE("case " + std::to_string(case_id) + " " + type.name() + "\n" + plan.describe());
  for (int i = 0; i < 4; ++i) {
    const Window w = random_window(rng, plan.output_shape());
    if (type.packed()) {
      check_packed_window(rng, plan, in.view.data, expected, w);
    } else if (type.storage() == Storage::string) {
      check_string_window(rng, plan, in.view.data, expected, w);
    } else {
      check_bytes_window(rng, plan, in.view.data, expected, w);
    }
  }
}

class Windows : public ::testing::TestWithParam<ElementType> {};

TEST_P(Windows, RandomWindowsMatchTheReferenceSlice) {
  std::mt19937_64 rng(0xa0761d6478bd642fULL ^ static_cast<std::uint64_t>(GetParam().dtype) ^
                      (static_cast<std::uint64_t>(GetParam().bits()) << 40));
  for (int i = 0; i < 700; ++i) {
    run_window_case(rng, GetParam(), i);
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryWidth, Windows,
                         ::testing::Values(ElementType(DType::boolean), ElementType(DType::float16),
                                           ElementType(DType::float32), ElementType(DType::float64),
                                           ElementType(DType::complex128), ElementType::opaque(3),
                                           ElementType::opaque(40), ElementType(DType::int4),
                                           ElementType(DType::uint2), ElementType(DType::string)),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return info.param.name();
                         });

/// Tiles of a large padded image, each written by its own thread straight into its place in
/// one output, equal the whole pad; the tiles' row kernels see a pitch wider than their rows.
TEST(Windows, TilesFromSeveralThreadsMakeTheWholeOutput) {
  for (const Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    const std::vector<std::int64_t> shape = {3, 97, 131};
    std::vector<float> in(static_cast<std::size_t>(element_count(shape)));
    std::iota(in.begin(), in.end(), 0.0F);
    PadSpec spec;
    spec.mode = mode;
    spec.axes = {{0, 1, 0}, {40, 37, 0}, {5, 150, 0}};
    const Plan plan = make_plan(DType::float32, shape, {}, spec);
    std::vector<float> whole(static_cast<std::size_t>(plan.output_elements()));
    execute(plan, in.data(), whole.data(), plan.output_bytes());
    std::vector<float> tiled(whole.size(), -1.0F);
    const std::span<const std::int64_t> out = plan.output_shape();
    const std::vector<std::int64_t> strides = {out[1] * out[2] * 4, out[2] * 4, 4};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        const std::int64_t y0 = out[1] * t / 8;
        const std::int64_t y1 = out[1] * (t + 1) / 8;
        for (int x = 0; x < 8; ++x) {
          const std::int64_t x0 = out[2] * x / 8;
          const std::int64_t x1 = out[2] * (x + 1) / 8;
          const Window w{{0, y0, x0}, {out[0], y1 - y0, x1 - x0}};
          execute_window(plan, in.data(), w,
                         reinterpret_cast<std::byte*>(tiled.data()) + y0 * strides[1] + x0 * 4,
                         strides);
        }
      });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_TRUE(tiled == whole) << mode_name(mode);
  }
}

/// A window of many row blocks (a plane tile of a 4-d output, in the whole output's buffer) big
/// enough for the cost model to split its blocks between threads, from 1, 2 and all threads:
/// the tile's elements equal the whole pad's, and nothing outside the tile is written.
TEST(Windows, ManyBlocksSplitBetweenThreadsWriteTheTile) {
  const std::vector<std::int64_t> shape = {5, 33, 61, 70};
  std::vector<float> in(static_cast<std::size_t>(element_count(shape)));
  std::iota(in.begin(), in.end(), 0.0F);
  for (const Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::wrap}) {
    PadSpec spec;
    spec.mode = mode;
    const float fill = -2.0F;
    spec.value = std::string(reinterpret_cast<const char*>(&fill), sizeof fill);
    spec.axes = {{0, 0, 0}, {1, 0, 0}, {3, 4, 0}, {9, 2, 0}};
    const Plan plan = make_plan(DType::float32, shape, {}, spec);
    std::vector<float> whole(static_cast<std::size_t>(plan.output_elements()));
    execute(plan, in.data(), whole.data(), plan.output_bytes());
    const std::span<const std::int64_t> out = plan.output_shape();
    const std::vector<std::int64_t> strides = {out[1] * out[2] * out[3] * 4, out[2] * out[3] * 4,
                                               out[3] * 4, 4};
    const Window w{{0, 0, 1, 5}, {out[0], out[1], out[2] - 10, out[3] - 7}};
    for (const int threads : {1, 2, 0}) {
      std::vector<float> tiled(whole.size(), -1.0F);
      ExecOptions options;
      options.threads = threads;
      execute_window(plan, in.data(), w,
                     reinterpret_cast<std::byte*>(tiled.data()) + strides[2] + 5 * strides[3],
                     strides, options);
      std::int64_t mismatches = 0;
      for (std::size_t e = 0; e < whole.size(); ++e) {
        const std::int64_t y = static_cast<std::int64_t>(e) / out[3] % out[2];
        const std::int64_t x = static_cast<std::int64_t>(e) % out[3];
        const bool inside = y >= 1 && y < out[2] - 9 && x >= 5 && x < out[3] - 2;
        mismatches += tiled[e] != (inside ? whole[e] : -1.0F);
      }
      EXPECT_EQ(mismatches, 0) << mode_name(mode) << ", threads " << threads;
    }
  }
}

/// Windows of `plan` (a pad of a float32 input `in` of two axes) at 24 random places, streamed:
/// a third at the output's left edge, a third at its right edge, each at least 1 KiB wide,
/// written into a buffer whose pitch moves their rows' alignment, against the whole pad.
void streamed_windows_match_the_whole_pad(const Plan& plan, const std::vector<float>& in,
                                          std::mt19937_64& rng) {
  std::vector<float> whole(static_cast<std::size_t>(plan.output_elements()));
  execute(plan, in.data(), whole.data(), plan.output_bytes());
  const std::span<const std::int64_t> out = plan.output_shape();
  for (int i = 0; i < 24; ++i) {
    const auto below = [&](std::int64_t n) {
      return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    };
    const std::int64_t width = 260 + below(2700);  // 1 KiB and more
    const std::int64_t edge_x0[] = {0, out[1] - width};
    const std::int64_t x0 = i % 3 < 2 ? edge_x0[i % 3] : below(out[1] - width + 1);
    const std::int64_t rows = 1 + below(out[0]);
    const std::int64_t y0 = below(out[0] - rows + 1);
    const std::int64_t pitch = out[1] + below(20);  // elements
    std::vector<float> got(static_cast<std::size_t>(out[0] * pitch), -1.0F);
    ExecOptions options;
    options.streaming = Streaming::always;
    options.threads = i % 4;
    const Window w{{y0, x0}, {rows, width}};
    const std::vector<std::int64_t> strides = {pitch * 4, 4};
    execute_window(plan, in.data(), w, got.data() + y0 * pitch + x0, strides, options);
    std::int64_t mismatches = 0;
    for (std::int64_t y = 0; y < out[0]; ++y) {
      for (std::int64_t x = 0; x < pitch; ++x) {
        const bool inside = y >= y0 && y < y0 + rows && x >= x0 && x < x0 + width;
        const float want = inside ? whole[static_cast<std::size_t>(y * out[1] + x)] : -1.0F;
        mismatches += got[static_cast<std::size_t>(y * pitch + x)] != want;
      }
    }
    ASSERT_EQ(mismatches, 0) << plan.describe() << " window " << describe_window(plan, w);
  }
}

/// Windows whose rows are long pieces of longer rows, streamed: their copies go kGroupRows rows
/// at a time, with the rows' borders (a left edge's, a right edge's; short ones streamed through
/// a stage with the copy's partial lines, long ones written directly), any number of rows past
/// the last whole group, and pitches that move each row's alignment.
TEST(Windows, StreamedRowGroupsMatchTheWholePad) {
  const std::vector<std::int64_t> shape = {53, 3000};
  std::vector<float> in(static_cast<std::size_t>(element_count(shape)));
  std::iota(in.begin(), in.end(), 0.0F);
  std::mt19937_64 rng(17);
  for (const Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    for (const AxisPad columns : {AxisPad{30, 41, 0}, AxisPad{300, 1, 0}, AxisPad{2, 400, 0}}) {
      PadSpec spec;
      spec.mode = mode;
      spec.axes = {{7, 9, 0}, columns};
      streamed_windows_match_the_whole_pad(make_plan(DType::float32, shape, {}, spec), in, rng);
    }
  }
}

TEST(Windows, BadWindowsAreRejectedBeforeAnyWrite) {
  const Plan plan = make_plan(DType::uint8, {4, 5}, {}, PadSpec{{{1, 1, 0}, {2, 2, 0}}});
  const std::vector<std::uint8_t> in(20, 7);
  std::vector<std::uint8_t> out(100, 1);
  const auto run = [&](const Window& w, std::int64_t bytes) {
    execute_window(plan, in.data(), w, out.data(), bytes);
  };
  EXPECT_THROW(run({{0}, {6}}, 100), Error);                // rank
  EXPECT_THROW(run({{0, -1}, {6, 2}}, 100), Error);         // negative start
  EXPECT_THROW(run({{0, 8}, {6, 2}}, 100), Error);          // beyond the end
  EXPECT_THROW(run({{0, 0}, {7, 9}}, 100), Error);          // too long
  EXPECT_THROW(run({{0, 1}, {6, INT64_MAX}}, 100), Error);  // start + length overflows
  EXPECT_THROW(run({{0, 0}, {6, 9}}, 53), Error);           // buffer too small
  const std::vector<std::int64_t> strides = {9};
  EXPECT_THROW(execute_window(plan, in.data(), Window{{0, 0}, {6, 9}}, out.data(), strides), Error);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 1; }));
  try {
    run({{0, 8}, {6, 2}}, 100);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("window: axis 1: start 8 and length 2"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace padnd
