// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's kernel bodies run over their whole grid on the host (support/
// grid_simulator.hpp) and compared byte for byte with the CPU executor: every index mode, per-axis
// modes, interior padding, crops in both orders, every kernel width, packed types, rank 0-8,
// strided inputs, dense and strided windows, offsets beyond 2**32. Every output byte must be
// written exactly once, guard bytes untouched, and no read may leave the input.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "core/fast_divisor.hpp"
#include "executors/cuda/device_program.hpp"
#include "executors/cuda/launch.hpp"
#include "padnd/padnd.hpp"
#include "support/grid_simulator.hpp"
#include "support/random_cases.hpp"

namespace padnd {
namespace {

using detail::FastDivisor;
using testing::SimFindings;
using testing::SimMemory;
namespace cuda = detail::cuda;

TEST(FastDivisor, MatchesDivisionOnRandomAndEdgeOperands) {
  std::mt19937_64 rng(11);
  std::vector<std::int64_t> divisors = {1,
                                        2,
                                        3,
                                        5,
                                        7,
                                        255,
                                        256,
                                        257,
                                        4095,
                                        INT64_MAX,
                                        (std::int64_t{1} << 62) + 1,
                                        std::int64_t{1} << 32};
  for (int i = 0; i < 2000; ++i) {
    divisors.push_back(static_cast<std::int64_t>(rng() >> (1 + rng() % 63)) + 1);
  }
  for (const std::int64_t d : divisors) {
    const FastDivisor fast(d);
    for (int i = 0; i < 200; ++i) {
      const auto n = static_cast<std::int64_t>(rng() >> (1 + rng() % 63));
      for (const std::int64_t m : {n, d - 1, d, INT64_MAX, INT64_MAX - d + 1, std::int64_t{0}}) {
        if (m < 0) continue;
        ASSERT_EQ(fast.quotient(m), m / d) << m << " / " << d;
        ASSERT_EQ(fast.remainder(m), m % d) << m << " % " << d;
      }
    }
  }
}

const std::vector<ElementType>& types() {
  static const std::vector<ElementType> list = {DType::int8,
                                                DType::uint16,
                                                DType::float32,
                                                DType::float64,
                                                DType::complex128,
                                                DType::int4,
                                                DType::uint2,
                                                ElementType::opaque(3),
                                                ElementType::opaque(12),
                                                ElementType::opaque(32),
                                                DType::bfloat16};
  return list;
}

std::vector<std::int64_t> random_shape(std::mt19937_64& rng) {
  const std::size_t rank = rng() % 9;
  std::vector<std::int64_t> shape(rank);
  std::int64_t budget = 600;
  for (auto& d : shape) {
    d = static_cast<std::int64_t>(
        rng() % static_cast<std::uint64_t>(std::min<std::int64_t>(budget, 9) + 1));
    budget /= std::max<std::int64_t>(d, 2);
  }
  return shape;
}

/// Random per-axis index modes (PadSpec::axis_modes) on half the requests.
void maybe_per_axis_modes(std::mt19937_64& rng, PadSpec& spec) {
  if (rng() % 2 == 0 || spec.axes.empty()) return;
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    AxisMode mode;
    mode.mode = static_cast<Mode>(rng() % 5);
    spec.axis_modes.push_back(mode);
  }
}

/// One simulated launch of `plan` at vector width `width` from `in` into `out`.
SimFindings simulate(const Plan& plan, int width, const std::byte* in, std::int64_t in_lo,
                     std::int64_t in_hi, std::byte* out, std::int64_t out_lo, std::int64_t out_hi,
                     std::mt19937_64& rng) {
  SimFindings findings;
  const cuda::DeviceImage image = cuda::flatten(plan, width);
  const cuda::KernelArgs args = cuda::bind(image, image.bytes.data(), out);
  if (args.items == 0) return findings;
  const std::int64_t threads = std::vector<std::int64_t>{1, 7, 32, 256}[rng() % 4];
  const std::int64_t blocks =
      1 + static_cast<std::int64_t>(
              rng() % static_cast<std::uint64_t>((args.items + threads - 1) / threads));
  const SimMemory memory(in, in_lo, in_hi, out, out_lo, out_hi, findings);
  testing::simulate_grid(args, plan.type().packed() ? 0 : width, memory, blocks, threads, rng);
  return findings;
}

/// The widths to simulate a plan at: the widest its layout allows, and every narrower one.
std::vector<int> widths_for(const Plan& plan, const void* in, const void* out) {
  const int widest = cuda::vector_bytes_for(plan, in, out);
  if (widest == 0) return {0};
  std::vector<int> widths;
  for (int w = widest; w >= 1; w /= 2) widths.push_back(w);
  return widths;
}

struct Buffers {
  std::vector<std::byte> expected;
  std::vector<std::byte> actual;
};

constexpr std::int64_t kGuardBytes = 64;

/// What is wrong with a simulated launch (empty: nothing): reads outside the input, misaligned
/// accesses, `actual` differing from `expected`, bytes of `written` not written exactly once,
/// writes anywhere else.
std::string launch_errors(const SimFindings& f, const Buffers& b,
                          const std::vector<std::int64_t>& written) {
  std::string errors;
  if (f.bad_reads + f.bad_writes + f.misaligned != 0) {
    errors += std::to_string(f.bad_reads) + " reads and " + std::to_string(f.bad_writes) +
              " writes out of bounds, " + std::to_string(f.misaligned) + " misaligned; ";
  }
  if (b.expected != b.actual) errors += "bytes differ from the CPU executor's; ";
  std::size_t once = 0;
  for (const std::int64_t offset : written) {
    const auto it = f.writes.find(offset);
    once += it != f.writes.end() && it->second == 1;
  }
  if (once != written.size() || f.writes.size() != written.size()) {
    errors += std::to_string(written.size() - once) + " output bytes not written exactly once, " +
              std::to_string(f.writes.size()) + " bytes written for " +
              std::to_string(written.size()) + "; ";
  }
  return errors;
}

void check_launch(const SimFindings& f, const Buffers& b, const std::vector<std::int64_t>& written,
                  const std::string& what) {
  const std::string errors = launch_errors(f, b, written);
  EXPECT_TRUE(errors.empty()) << what << ": " << errors;
}

/// An output of `bytes` between guard bytes, every byte drawn from `rng`.
std::vector<std::byte> guarded(std::int64_t bytes, std::mt19937_64& rng) {
  std::vector<std::byte> buffer(static_cast<std::size_t>(bytes + 2 * kGuardBytes));
  for (auto& b : buffer) b = static_cast<std::byte>(rng());
  return buffer;
}

/// A strided output for `window` of `type`: byte strides in a random axis order with gaps, some
/// axes flipped; `origin` is the byte offset of element [0, ..., 0], `extent` the bytes spanned.
struct StridedOut {
  std::vector<std::int64_t> strides;
  std::int64_t origin = 0;
  std::int64_t extent = 0;
};

StridedOut strided_out(const std::vector<std::int64_t>& shape, std::int64_t item,
                       std::mt19937_64& rng) {
  StridedOut s;
  std::vector<std::size_t> order(shape.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  s.strides.resize(shape.size());
  std::int64_t extent = item;
  for (std::size_t i = shape.size(); i-- > 0;) {
    s.strides[order[i]] = extent;
    extent *= shape[order[i]] + static_cast<std::int64_t>(rng() % 3);
  }
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (rng() % 3 == 0 && shape[k] > 1) {
      s.origin += (shape[k] - 1) * s.strides[k];
      s.strides[k] = -s.strides[k];
    }
  }
  s.extent = std::max(extent, item);
  return s;
}

/// The byte offsets (from element [0, ..., 0]) of every element of `shape` at `strides`.
std::vector<std::int64_t> addressed_bytes(const std::vector<std::int64_t>& shape,
                                          const std::vector<std::int64_t>& strides,
                                          std::int64_t item) {
  std::vector<std::int64_t> offsets = {0};
  for (std::size_t k = 0; k < shape.size(); ++k) {
    std::vector<std::int64_t> next;
    for (const std::int64_t o : offsets) {
      for (std::int64_t i = 0; i < shape[k]; ++i) next.push_back(o + i * strides[k]);
    }
    offsets = std::move(next);
  }
  std::vector<std::int64_t> bytes;
  for (const std::int64_t o : offsets) {
    for (std::int64_t b = 0; b < item; ++b) bytes.push_back(o + b);
  }
  return bytes;
}

/// A random window of `shape`.
Window random_window(const std::vector<std::int64_t>& shape, std::mt19937_64& rng) {
  Window w;
  for (const std::int64_t d : shape) {
    const std::int64_t start = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(d + 1));
    w.start.push_back(start);
    w.shape.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(d - start + 1)));
  }
  return w;
}

/// Outputs the random tests simulate: every byte is tracked, so they stay small.
constexpr std::int64_t kMaxOutputBytes = 16384;

struct Case {
  testing::RandomInput input;
  Plan plan;
  std::int64_t in_lo = 0;
  std::int64_t in_hi = 0;
};

/// A random supported request, or nothing when planning refuses the draw.
std::optional<Case> random_case(std::mt19937_64& rng) {
  const ElementType type = types()[rng() % types().size()];
  const std::vector<std::int64_t> shape = random_shape(rng);
  Case c{testing::make_input(rng, type, shape), Plan{}, 0, 0};
  PadSpec spec = testing::random_spec(rng, shape, type);
  maybe_per_axis_modes(rng, spec);
  try {
    c.plan = make_plan(type, shape, c.input.view.byte_strides, spec);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (c.plan.output_bytes() > kMaxOutputBytes) return std::nullopt;  // pads wide on many axes
  const auto* base = c.input.bytes.data();
  c.in_lo = base - static_cast<const std::byte*>(c.input.view.data);
  c.in_hi = c.in_lo + static_cast<std::int64_t>(c.input.bytes.size());
  return c;
}

TEST(CudaGridSimulator, WholeOutputsEqualTheCpuExecutorAtEveryWidth) {
  std::mt19937_64 rng(2026);
  int simulated = 0;
  std::map<int, int> per_width;  // every kernel of the list runs
  for (int n = 0; n < 1500; ++n) {
    auto c = random_case(rng);
    if (!c) continue;
    const std::int64_t bytes = c->plan.output_bytes();
    Buffers b{guarded(bytes, rng), {}};
    const std::vector<std::byte> pattern = b.expected;
    execute(c->plan, c->input.view.data, b.expected.data() + kGuardBytes, bytes);
    std::vector<std::int64_t> written(static_cast<std::size_t>(bytes));
    std::iota(written.begin(), written.end(), std::int64_t{0});
    for (const int width : widths_for(c->plan, c->input.view.data, pattern.data() + kGuardBytes)) {
      b.actual = pattern;
      const auto f = simulate(c->plan, width, static_cast<const std::byte*>(c->input.view.data),
                              c->in_lo, c->in_hi, b.actual.data() + kGuardBytes, 0, bytes, rng);
      check_launch(f, b, written,
                   "case " + std::to_string(n) + " width " + std::to_string(width) + "\n" +
                       c->plan.describe());
      if (::testing::Test::HasFailure()) return;
      ++simulated;
      ++per_width[c->plan.type().packed() ? 0 : width];
    }
  }
  EXPECT_GT(simulated, 1500);
  for (const int width : cuda::kKernelWidths) EXPECT_GT(per_width[width], 20) << "width " << width;
}

/// One window of a case, dense or strided, through the CPU executor and the simulator.
void check_window(const Case& c, const Window& window, bool strided, std::mt19937_64& rng,
                  const std::string& what) {
  const std::int64_t item = c.plan.type().packed() ? 1 : c.plan.type().item_bytes();
  StridedOut s;
  std::vector<std::int64_t> written;
  if (strided) {
    s = strided_out(window.shape, item, rng);
    written = addressed_bytes(window.shape, s.strides, item);
    for (auto& w : written) w += s.origin;
  } else {
    s.extent = storage_bytes(c.plan.type(), element_count(window.shape));
    written.resize(static_cast<std::size_t>(s.extent));
    std::iota(written.begin(), written.end(), std::int64_t{0});
  }
  Buffers b{guarded(s.extent, rng), {}};
  const std::vector<std::byte> pattern = b.expected;
  std::byte* cpu_out = b.expected.data() + kGuardBytes;
  if (strided) {
    execute_window(c.plan, c.input.view.data, window, cpu_out + s.origin, s.strides);
  } else {
    execute_window(c.plan, c.input.view.data, window, cpu_out, s.extent);
  }
  if (std::find(window.shape.begin(), window.shape.end(), 0) != window.shape.end()) return;
  const Plan plan = cuda::window_plan(c.plan, window, s.strides);
  b.actual = pattern;
  std::byte* out = b.actual.data() + kGuardBytes + s.origin;
  for (const int width : widths_for(plan, c.input.view.data, out)) {
    b.actual = pattern;
    auto f = simulate(plan, width, static_cast<const std::byte*>(c.input.view.data), c.in_lo,
                      c.in_hi, out, -s.origin, s.extent - s.origin, rng);
    std::vector<std::int64_t> relative = written;
    for (auto& w : relative) w -= s.origin;
    check_launch(f, b, relative, what + " width " + std::to_string(width));
  }
}

TEST(CudaGridSimulator, DenseAndStridedWindowsEqualTheCpuExecutor) {
  std::mt19937_64 rng(39);
  int windows = 0;
  for (int n = 0; n < 1500 && !::testing::Test::HasFailure(); ++n) {
    auto c = random_case(rng);
    if (!c || c->plan.output_elements() == 0) continue;
    std::vector<std::int64_t> shape(c->plan.output_shape().begin(), c->plan.output_shape().end());
    const Window window = random_window(shape, rng);
    const bool strided = !c->plan.type().packed() && rng() % 2 == 0;
    check_window(*c, window, strided, rng,
                 "case " + std::to_string(n) + (strided ? " strided" : " dense"));
    ++windows;
  }
  EXPECT_GT(windows, 400);
}

/// `bytes` of address space, mapped lazily: offsets beyond 2**32 cost only the pages touched.
struct SparseMapping {
  explicit SparseMapping(std::size_t bytes) : size(bytes) {
    data = static_cast<std::byte*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  }
  ~SparseMapping() {
    if (data != MAP_FAILED) munmap(data, size);
  }
  SparseMapping(const SparseMapping&) = delete;
  SparseMapping& operator=(const SparseMapping&) = delete;
  std::byte* data;
  std::size_t size;
};

/// Input and output strides past 2**32 bytes: every offset needs 64 bits.
struct SparseCase {
  static constexpr std::int64_t kFar = (std::int64_t{1} << 32) + 16;
  SparseMapping in{static_cast<std::size_t>(3 * kFar)};
  SparseMapping cpu{static_cast<std::size_t>(6 * kFar)};
  SparseMapping gpu{static_cast<std::size_t>(6 * kFar)};
  Plan plan;
  Window window;
  std::vector<std::int64_t> out_strides;

  explicit SparseCase(Mode mode) {
    PadSpec spec;
    spec.mode = mode;
    spec.axes = {{2, 3, 0}, {1, 2, 0}};
    plan = make_plan(DType::float32, {3, 4}, {kFar, 4}, spec);
    window = Window{{0, 0}, {8, 7}};
    out_strides = {kFar / 2, 16};  // rows 2**31 + 8 bytes apart
    for (std::int64_t i = 0; i < 3; ++i) {
      for (std::int64_t j = 0; j < 4; ++j) {
        const float v = static_cast<float>(10 * i + j + 1);
        std::memcpy(in.data + i * kFar + j * 4, &v, 4);
      }
    }
  }
};

TEST(CudaGridSimulator, OffsetsBeyondTwoToThe32Bytes) {
  for (const Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    SparseCase s(mode);
    ASSERT_NE(s.in.data, MAP_FAILED);
    execute_window(s.plan, s.in.data, s.window, s.cpu.data, s.out_strides);
    const Plan plan = cuda::window_plan(s.plan, s.window, s.out_strides);
    std::mt19937_64 rng(7);
    const auto f = simulate(plan, cuda::vector_bytes_for(plan, s.in.data, s.gpu.data), s.in.data, 0,
                            static_cast<std::int64_t>(s.in.size), s.gpu.data, 0,
                            static_cast<std::int64_t>(s.gpu.size), rng);
    EXPECT_EQ(f.bad_reads + f.bad_writes + f.misaligned, 0);
    const auto written = addressed_bytes(s.window.shape, s.out_strides, 4);
    EXPECT_EQ(f.writes.size(), written.size());
    for (const std::int64_t o : written) {
      ASSERT_EQ(f.writes.count(o), 1u) << o;
      ASSERT_EQ(s.cpu.data[o], s.gpu.data[o]) << "byte " << o << " mode " << static_cast<int>(mode);
    }
    EXPECT_GT(written.back(), std::int64_t{1} << 32);
  }
}

/// A reflect pad many periods wide (borders fold beyond their table) and its CPU result.
struct FoldCase {
  std::vector<float> in = {1, 2, 3, 4, 5};
  Plan plan;
  Buffers b;
  std::vector<std::int64_t> written;
  FoldCase() {
    PadSpec spec;
    spec.mode = Mode::reflect;
    spec.axes = {{17, 13, 0}};
    plan = make_plan(DType::float32, {5}, {}, spec);
    b.expected.resize(static_cast<std::size_t>(plan.output_bytes()));
    execute(plan, in.data(), b.expected.data(), plan.output_bytes());
    b.actual.assign(b.expected.size(), std::byte{0});
    written.resize(b.expected.size());
    std::iota(written.begin(), written.end(), std::int64_t{0});
  }
  /// Simulates `image` (this plan's, possibly corrupted) and returns what is wrong.
  std::string run(cuda::DeviceImage image, std::mt19937_64& rng) {
    const cuda::KernelArgs args = cuda::bind(image, image.bytes.data(), b.actual.data());
    SimFindings f;
    const SimMemory memory(reinterpret_cast<const std::byte*>(in.data()), 0, 20, b.actual.data(), 0,
                           plan.output_bytes(), f);
    testing::simulate_grid(args, 4, memory, 2, 3, rng);
    return launch_errors(f, b, written);
  }
};

cuda::DeviceAxis& first_axis(cuda::DeviceImage& image) {
  return *reinterpret_cast<cuda::DeviceAxis*>(image.bytes.data() + image.axes_at);
}

TEST(CudaGridSimulatorCatches, NothingInTheUnplantedFold) {
  FoldCase c;
  std::mt19937_64 rng(1);
  EXPECT_EQ(c.run(cuda::flatten(c.plan, 4), rng), "");
}

TEST(CudaGridSimulatorCatches, AnOffByOneInAFold) {
  FoldCase c;
  std::mt19937_64 rng(1);
  cuda::DeviceImage image = cuda::flatten(c.plan, 4);
  cuda::DeviceAxis& axis = first_axis(image);
  axis.period += 1;
  axis.period_divisor_ = detail::FastDivisor(axis.period);
  EXPECT_NE(c.run(image, rng).find("differ"), std::string::npos);
}

TEST(CudaGridSimulatorCatches, ATailWrittenTwice) {
  FoldCase c;
  std::mt19937_64 rng(1);
  const cuda::DeviceImage image = cuda::flatten(c.plan, 4);
  const cuda::KernelArgs args = cuda::bind(image, image.bytes.data(), c.b.actual.data());
  SimFindings f;
  const SimMemory memory(reinterpret_cast<const std::byte*>(c.in.data()), 0, 20, c.b.actual.data(),
                         0, c.plan.output_bytes(), f);
  testing::simulate_grid(args, 4, memory, 2, 3, rng);
  EXPECT_EQ(launch_errors(f, c.b, c.written), "");
  cuda::write_group<4>(args, memory, args.items - 1);  // a second writer of the last group
  EXPECT_NE(launch_errors(f, c.b, c.written).find("not written exactly once"), std::string::npos);
}

/// The accessor of a kernel that computes offsets in 32 bits.
class Truncating32 {
 public:
  explicit Truncating32(const SimMemory& memory) : memory_(memory) {}
  template <int V>
  cuda::Bits<V> load(std::int64_t offset) const {
    return memory_.load<V>(static_cast<std::int32_t>(offset));
  }
  template <int V>
  void store(std::int64_t offset, cuda::Bits<V> bits) const {
    memory_.store<V>(static_cast<std::int32_t>(offset), bits);
  }

 private:
  const SimMemory& memory_;
};

TEST(CudaGridSimulatorCatches, AThirtyTwoBitIndex) {
  SparseCase s(Mode::edge);
  ASSERT_NE(s.in.data, MAP_FAILED);
  execute_window(s.plan, s.in.data, s.window, s.cpu.data, s.out_strides);
  const Plan plan = cuda::window_plan(s.plan, s.window, s.out_strides);
  const cuda::DeviceImage image = cuda::flatten(plan, 4);
  const cuda::KernelArgs args = cuda::bind(image, image.bytes.data(), s.gpu.data);
  SimFindings f;
  const SimMemory memory(s.in.data, 0, static_cast<std::int64_t>(s.in.size), s.gpu.data, 0,
                         static_cast<std::int64_t>(s.gpu.size), f);
  const Truncating32 truncated(memory);
  for (std::int64_t t = 0; t < args.items; ++t)
    cuda::run_thread<4>(args, truncated, t, 0, args.items, 1);
  std::size_t wrong = 0;
  for (const std::int64_t o : addressed_bytes(s.window.shape, s.out_strides, 4)) {
    wrong += f.writes.count(o) != 1 || s.cpu.data[o] != s.gpu.data[o];
  }
  EXPECT_GT(wrong + static_cast<std::size_t>(f.bad_reads + f.bad_writes), 0u);
}

/// A request the random generator does not draw: `shape` of `type` at byte `strides` (empty:
/// dense) in a buffer whose element [0, ..., 0] lies `misalign` bytes past a 16-byte boundary.
Case edge_case(const ElementType& type, const std::vector<std::int64_t>& shape,
               std::vector<std::int64_t> strides, const PadSpec& spec, std::int64_t misalign,
               std::mt19937_64& rng) {
  const std::int64_t item = type.packed() ? 1 : type.item_bytes();
  if (strides.empty() && !type.packed()) {
    strides.resize(shape.size());
    std::int64_t extent = item;
    for (std::size_t k = shape.size(); k-- > 0;) {
      strides[k] = extent;
      extent *= shape[k];
    }
  }
  std::int64_t lo = 0;
  std::int64_t hi = type.packed() ? storage_bytes(type, element_count(shape)) : item;
  for (std::size_t k = 0; k < strides.size(); ++k) {
    if (shape[k] == 0) continue;
    (strides[k] < 0 ? lo : hi) += (shape[k] - 1) * strides[k];
  }
  Case c{{}, Plan{}, 0, 0};
  c.input.bytes.resize(static_cast<std::size_t>(hi - lo + 32));
  for (auto& b : c.input.bytes) b = static_cast<std::byte>(rng());
  auto* base = c.input.bytes.data();
  const auto gap = static_cast<std::int64_t>(
      (16 - reinterpret_cast<std::uintptr_t>(base - lo) % 16 + misalign) % 16);
  c.input.view.data = base - lo + gap;
  c.input.view.type = type;
  c.input.view.shape = shape;
  c.input.view.byte_strides = strides;
  c.plan = make_plan(type, shape, strides, spec);
  c.in_lo = lo - gap;
  c.in_hi = c.in_lo + static_cast<std::int64_t>(c.input.bytes.size());
  return c;
}

/// The whole output of `c` through the CPU executor and the simulator, at every width.
void check_whole(const Case& c, std::mt19937_64& rng, const std::string& what) {
  const std::int64_t bytes = c.plan.output_bytes();
  Buffers b{guarded(bytes, rng), {}};
  const std::vector<std::byte> pattern = b.expected;
  execute(c.plan, c.input.view.data, b.expected.data() + kGuardBytes, bytes);
  std::vector<std::int64_t> written(static_cast<std::size_t>(bytes));
  std::iota(written.begin(), written.end(), std::int64_t{0});
  for (const int width : widths_for(c.plan, c.input.view.data, pattern.data() + kGuardBytes)) {
    b.actual = pattern;
    const auto f = simulate(c.plan, width, static_cast<const std::byte*>(c.input.view.data),
                            c.in_lo, c.in_hi, b.actual.data() + kGuardBytes, 0, bytes, rng);
    check_launch(f, b, written, what + " width " + std::to_string(width));
  }
}

TEST(CudaGridSimulator, RequestsTheRandomCasesDoNotDraw) {
  std::mt19937_64 rng(5);
  PadSpec spec;
  // Elements wider than the 256-byte fill pattern, with the default value and another.
  spec.axes = {{1, 2, 1}, {2, 1, 0}};
  for (const std::string& value : {std::string(), std::string(300, '\x5a')}) {
    spec.value = value;
    const Case c = edge_case(ElementType::opaque(300), {2, 3}, {}, spec, 0, rng);
    check_whole(c, rng, "opaque(300) value " + std::to_string(value.size()));
  }
  // A 40-byte element (16-byte lanes, the pattern shifted per lane) with a non-zero value.
  spec.value.clear();
  for (int i = 0; i < 40; ++i) spec.value.push_back(static_cast<char>(i + 1));
  check_whole(edge_case(ElementType::opaque(40), {3, 2}, {}, spec, 0, rng), rng, "opaque(40)");
  // Odd byte strides: a float32 axis 6 bytes apart, a row 2 bytes past alignment, broadcast.
  spec = PadSpec{};
  spec.value = std::string("\x01\x02\x03\x04", 4);
  spec.axes = {{1, 1, 0}, {2, 3, 0}};
  check_whole(edge_case(DType::float32, {3, 4}, {-26, 6}, spec, 2, rng), rng, "odd strides");
  check_whole(edge_case(DType::float32, {3, 4}, {0, 4}, spec, 0, rng), rng, "broadcast");
  spec.value = std::string(16, '\x03');
  for (const Mode mode : {Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    spec.mode = mode;
    check_whole(edge_case(DType::complex128, {3, 4}, {-128, 0}, spec, 8, rng), rng,
                "broadcast rows " + std::string(mode_name(mode)));
  }
  // Rank 0, and an empty input axis padded with the value.
  spec = PadSpec{};
  spec.value = std::string(8, '\x7f');
  check_whole(edge_case(DType::float64, {}, {}, spec, 0, rng), rng, "rank 0");
  spec.axes = {{2, 3, 0}, {1, 0, 0}};
  check_whole(edge_case(DType::float64, {0, 2}, {}, spec, 0, rng), rng, "empty axis");
  // Pads of 2**40 on every mode, seen through windows near the input, dense and strided.
  for (const Mode mode : {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap}) {
    spec = PadSpec{};
    spec.mode = mode;
    spec.value = mode == Mode::constant ? std::string(4, '\x11') : std::string();
    const std::int64_t far = std::int64_t{1} << 40;
    spec.axes = {{far, far, 0}, {3, far >> 22, 0}};  // 2**59 elements
    const Case c = edge_case(DType::int32, {3, 5}, {}, spec, 0, rng);
    for (const bool strided : {false, true}) {
      check_window(c, Window{{far - 4, 0}, {11, 12}}, strided, rng,
                   "far " + std::string(mode_name(mode)));
      check_window(c, Window{{far * 2 - 4, (far >> 22) - 1}, {7, 9}}, strided, rng,
                   "far end " + std::string(mode_name(mode)));
    }
  }
  // Packed windows at odd starts.
  spec = PadSpec{};
  spec.mode = Mode::reflect;
  spec.axes = {{3, 5, 0}, {7, 2, 0}};
  const Case packed = edge_case(DType::int4, {5, 7}, {}, spec, 0, rng);
  check_window(packed, Window{{1, 3}, {9, 13}}, false, rng, "packed window");
}

TEST(CudaExecutor, RefusesStringsAndValueModesByName) {
  PadSpec spec;
  spec.axes = {{1, 1, 0}};
  const Plan strings = make_plan(DType::string, {2}, {}, spec);
  EXPECT_THROW(
      {
        try {
          cuda::flatten(strings, 1);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("type string"), std::string::npos);
          throw;
        }
      },
      Error);
  spec.mode = Mode::mean;
  const Plan mean = make_plan(DType::float32, {2}, {}, spec);
  try {
    cuda::flatten(mean, 4);
    ADD_FAILURE() << "a mean pad flattened";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mode: numpy's value modes"), std::string::npos);
  }
}

}  // namespace
}  // namespace padnd
