// SPDX-License-Identifier: Apache-2.0
// Per-call cost: planning and executing a pad of a common rank allocates nothing (Plan keeps its
// shapes, axes, border tables and row program inline). Counted by replacing operator new in
// this test binary alone.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "padnd/plan.hpp"

namespace {
std::atomic<long> allocations{0};
void* volatile escaped = nullptr;
}  // namespace

void* operator new(std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace padnd {
namespace {

/// Allocations made by make_plan + execute of `spec` on a `shape` float32 input, after a first
/// call has made the process-wide statics (the shared zero pattern).
long allocations_of(const std::vector<std::int64_t>& shape, const PadSpec& spec,
                    std::vector<std::byte>& in, std::vector<std::byte>& out) {
  ExecOptions serial;
  serial.threads = 1;
  const auto pad = [&] {
    const Plan plan = make_plan(DType::float32, shape, {}, spec);
    execute(plan, in.data(), out.data(), static_cast<std::int64_t>(out.size()), serial);
  };
  pad();
  const long before = allocations.load();
  pad();
  return allocations.load() - before;
}

TEST(Allocations, PlanAndExecuteOfCommonRanksAllocateNothing) {
  std::vector<std::byte> in(4096);
  std::vector<std::byte> out(1 << 20);
  PadSpec tiny_const;  // the benchmark's tiny_const: (2, 3, 4) padded by 1 on every side
  tiny_const.axes = {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}};
  EXPECT_EQ(allocations_of({2, 3, 4}, tiny_const, in, out), 0);

  PadSpec reflect;  // NCHW, reflect 3 on the image axes
  reflect.mode = Mode::reflect;
  reflect.axes = {{0, 0, 0}, {0, 0, 0}, {3, 3, 0}, {3, 3, 0}};
  EXPECT_EQ(allocations_of({1, 3, 8, 8}, reflect, in, out), 0);

  PadSpec interior;  // interior padding and a crop
  interior.axes = {{1, -1, 1}, {2, 0, 0}};
  interior.value = std::string("\x01\0\0\0", 4);            // float32 bits 01 00 00 00: a pattern
  EXPECT_EQ(allocations_of({5, 7}, interior, in, out), 1);  // ... which is the one allocation
}

TEST(Allocations, TheCounterSeesAllocations) {  // the check above can fail
  const long before = allocations.load();
  auto* p = new std::vector<int>(100);
  escaped = p;  // a pointer that escapes: the compiler may not drop the allocations
  delete p;
  EXPECT_GE(allocations.load() - before, 2);
}

}  // namespace
}  // namespace padnd
