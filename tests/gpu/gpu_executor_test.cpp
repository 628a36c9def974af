// SPDX-License-Identifier: Apache-2.0
// The CUDA executor on a GPU (ctest label "gpu"; bench/gpu/device_check.sh runs it, under
// compute-sanitizer where present): random requests of every index mode and kernel width,
// whole outputs and dense windows, byte-equal to the CPU executor, guard bytes untouched.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "padnd/cuda.hpp"
#include "padnd/padnd.hpp"
#include "support/random_cases.hpp"

namespace padnd {
namespace {

constexpr std::size_t kGuardBytes = 256;

/// A device copy of `host` (freed with the object).
struct DeviceBuffer {
  explicit DeviceBuffer(const std::vector<std::byte>& host) : size(host.size()) {
    EXPECT_EQ(cudaMalloc(&data, size == 0 ? 1 : size), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data, host.data(), size, cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::vector<std::byte> to_host() const {
    std::vector<std::byte> host(size);
    EXPECT_EQ(cudaMemcpy(host.data(), data, size, cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }
  std::byte* at(std::ptrdiff_t offset) const { return static_cast<std::byte*>(data) + offset; }
  void* data = nullptr;
  std::size_t size;
};

std::vector<std::byte> random_bytes(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::byte> bytes(n);
  for (auto& b : bytes) b = static_cast<std::byte>(rng());
  return bytes;
}

TEST(GpuExecutor, RandomRequestsEqualTheCpuExecutor) {
  ASSERT_TRUE(cuda::available()) << "no CUDA device";
  std::mt19937_64 rng(39);
  const std::vector<ElementType> types = {DType::int8,    DType::uint16,         DType::float32,
                                          DType::float64, DType::complex128,     DType::int4,
                                          DType::uint2,   ElementType::opaque(3)};
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    const ElementType type = types[rng() % types.size()];
    std::vector<std::int64_t> shape(rng() % 5);
    for (auto& d : shape) d = static_cast<std::int64_t>(rng() % 9);
    const auto input = testing::make_input(rng, type, shape);
    Plan plan;
    try {
      plan =
          make_plan(type, shape, input.view.byte_strides, testing::random_spec(rng, shape, type));
    } catch (const Error&) {
      continue;
    }
    if (plan.output_bytes() > (1 << 20)) continue;
    const auto bytes = static_cast<std::size_t>(plan.output_bytes());
    std::vector<std::byte> expected = random_bytes(bytes + 2 * kGuardBytes, rng);
    const DeviceBuffer out(expected);
    const DeviceBuffer in(input.bytes);
    execute(plan, input.view.data, expected.data() + kGuardBytes, plan.output_bytes());
    const std::ptrdiff_t origin =
        static_cast<const std::byte*>(input.view.data) - input.bytes.data();
    cuda::execute(plan, in.at(origin), out.at(kGuardBytes), plan.output_bytes());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_TRUE(out.to_host() == expected) << "case " << n << "\n" << plan.describe();
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

TEST(GpuExecutor, DenseAndStridedWindowsEqualTheCpuExecutor) {
  ASSERT_TRUE(cuda::available());
  std::mt19937_64 rng(41);
  const std::vector<std::byte> host_in = random_bytes(37 * 29 * 2, rng);
  const DeviceBuffer in(host_in);
  for (int n = 0; n < 200; ++n) {
    PadSpec spec;
    spec.mode = static_cast<Mode>(n % 5);
    spec.axes = {{n % 9, 40, 0}, {-(n % 3), n % 13, 0}};
    const Plan plan = make_plan(DType::uint16, {37, 29}, {}, spec);
    const std::int64_t rows = plan.output_shape()[0], cols = plan.output_shape()[1];
    const Window window{{n % rows, (3 * n) % cols},
                        {rows - n % rows, std::max<std::int64_t>(cols - (3 * n) % cols - 1, 0)}};
    // Transposed, with a gap: element (i, j) at i * 2 + j * (rows + 3) * 2 bytes.
    const std::vector<std::int64_t> strides = {2, (window.shape[0] + 3) * 2};
    const std::size_t bytes = static_cast<std::size_t>((window.shape[1] + 1) * strides[1]);
    std::vector<std::byte> expected = random_bytes(bytes, rng);
    const DeviceBuffer out(expected);
    execute_window(plan, host_in.data(), window, expected.data(), strides);
    cuda::execute_window(plan, in.data, window, out.data, strides);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_TRUE(out.to_host() == expected) << "strided window " << n;
    const auto dense = static_cast<std::size_t>(window.shape[0] * window.shape[1] * 2);
    std::vector<std::byte> expected_dense = random_bytes(dense, rng);
    const DeviceBuffer out_dense(expected_dense);
    execute_window(plan, host_in.data(), window, expected_dense.data(),
                   static_cast<std::int64_t>(dense));
    cuda::execute_window(plan, in.data, window, out_dense.data, static_cast<std::int64_t>(dense));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_TRUE(out_dense.to_host() == expected_dense) << "dense window " << n;
  }
}

TEST(GpuExecutor, CachedImagesServeEveryStreamAndSurviveEviction) {
  ASSERT_TRUE(cuda::available());
  cudaStream_t streams[2];
  for (auto& s : streams) ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::mt19937_64 rng(5);
  const std::vector<std::byte> host_in = random_bytes(64 * 64 * 4, rng);
  const DeviceBuffer in(host_in);
  for (std::int64_t round = 0; round < 200; ++round) {  // 100 plans: more than the cache holds
    PadSpec spec;
    spec.mode = static_cast<Mode>(round % 5);
    spec.axes = {{round % 7, 3, 0}, {1, round % 11, 0}};
    const Plan plan = make_plan(DType::float32, {64, 64}, {}, spec);
    std::vector<std::byte> expected(static_cast<std::size_t>(plan.output_bytes()));
    execute(plan, host_in.data(), expected.data(), plan.output_bytes());
    const DeviceBuffer out(std::vector<std::byte>(expected.size()));
    cuda::execute(plan, in.data, out.data, plan.output_bytes(), streams[round % 2]);
    ASSERT_EQ(cudaStreamSynchronize(streams[round % 2]), cudaSuccess);
    ASSERT_TRUE(out.to_host() == expected) << "round " << round;
  }
  for (auto& s : streams) cudaStreamDestroy(s);
}

TEST(GpuExecutor, HostPointersAreRefusedByName) {
  ASSERT_TRUE(cuda::available());
  PadSpec spec;
  spec.axes = {{1, 1, 0}};
  const Plan plan = make_plan(DType::float32, {2}, {}, spec);
  std::vector<float> in = {1, 2}, out(4);
  EXPECT_THROW(cuda::execute(plan, in.data(), out.data(), 16), Error);
}

}  // namespace
}  // namespace padnd
