// SPDX-License-Identifier: Apache-2.0
// Threaded execution: results independent of the thread count, the task split and the task
// order; an injected parallel-for sees every task exactly once; concurrent callers share the
// built-in pool safely; the built-in pool runs every task once however it splits a loop, only
// on threads with the caller's affinity mask, and its workers join loops whether they spin or
// sleep. Pads here are big enough (>= 1 MiB) for the cost model to split them.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "executors/cpu/parallel/thread_pool.hpp"
#include "padnd/plan.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

struct Case {
  const char* name;
  ElementType type;
  std::vector<std::int64_t> shape;
  std::vector<AxisPad> pads;
  Mode mode;
};

std::vector<Case> cases() {
  return {
      {"constant_spatial",
       {DType::float32},
       {8, 16, 50, 50},
       {{0, 0}, {0, 0}, {1, 2}, {3, 1}},
       Mode::constant},
      {"reflect_outer_slabs",
       {DType::float32},
       {40, 64, 128},
       {{9, 7}, {0, 0}, {0, 0}},
       Mode::reflect},
      {"edge_3d", {DType::uint16}, {4, 40, 60, 60}, {{0, 0}, {2, 1}, {2, 2}, {1, 3}}, Mode::edge},
      {"wrap_large_pads", {DType::int8}, {300, 700}, {{400, 5}, {3, 900}}, Mode::wrap},
      {"symmetric_crop", {DType::float64}, {200, 900}, {{-3, 40}, {50, -7}}, Mode::symmetric},
      {"interior",
       {DType::float32},
       {4, 8, 64, 64},
       {{0, 0}, {1, 0}, {1, 2, 1}, {2, 1, 2}},
       Mode::constant},
      {"last_axis", {DType::float32}, {200000, 7}, {{0, 0}, {0, 1}}, Mode::constant},
      {"one_long_row", {DType::complex128}, {300000}, {{5, 3}}, Mode::reflect},
      {"three_byte_unit",
       {DType::uint8},
       {4, 300, 400, 3},
       {{0, 0}, {4, 4}, {4, 4}, {0, 0}},
       Mode::constant},
  };
}

std::vector<std::byte> random_bytes(std::int64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> bytes(static_cast<std::size_t>(n));
  for (auto& b : bytes) b = static_cast<std::byte>(rng());
  return bytes;
}

/// Runs the loop's tasks on the calling thread in reverse order and records each task.
struct RecordingPool {
  std::vector<int> calls;
  static void parallel_for(void* pool, std::int64_t task_count, padnd_task_fn fn, void* ctx) {
    auto& self = *static_cast<RecordingPool*>(pool);
    self.calls.assign(static_cast<std::size_t>(task_count), 0);
    for (std::int64_t t = task_count; t-- > 0;) {
      ++self.calls[static_cast<std::size_t>(t)];
      fn(ctx, t);
    }
  }
};

class Parallel : public ::testing::TestWithParam<Case> {};

TEST_P(Parallel, SameBytesForEveryThreadCountAndTaskOrder) {
  const Case& c = GetParam();
  PadSpec spec;
  spec.axes = c.pads;
  spec.mode = c.mode;
  spec.value = std::string(static_cast<std::size_t>(c.type.item_bytes()), '\x5a');
  const auto input = random_bytes(storage_bytes(c.type, element_count(c.shape)), 7);
  const TensorView view{input.data(), c.type, c.shape, {}};
  const Tensor expected = testing::reference_pad(view, spec);
  const Plan plan = make_plan(c.type, c.shape, {}, spec);
  ASSERT_GE(plan.output_bytes(), std::int64_t{1} << 20) << "too small to be split";

  RecordingPool recorder;
  std::vector<ExecOptions> variants(7);
  variants[0].threads = 1;
  variants[1].threads = 2;
  variants[2].threads = 3;
  variants[3].threads = 0;
  variants[4].threads = 4;
  variants[4].parallel_for = &RecordingPool::parallel_for;
  variants[4].pool = &recorder;
  variants[5].threads = 1;  // streamed stores, serial and split (tasks meet inside cache lines)
  variants[5].streaming = Streaming::always;
  variants[6].threads = 3;
  variants[6].streaming = Streaming::always;
  for (const ExecOptions& options : variants) {
    auto out = random_bytes(plan.output_bytes(), 11);  // stale bytes must all be overwritten
    execute(plan, input.data(), out.data(), plan.output_bytes(), options);
    EXPECT_TRUE(testing::same_contents(expected, out.data(), plan.output_bytes()))
        << c.name << " threads=" << options.threads
        << " streaming=" << static_cast<int>(options.streaming);
  }
  // The injected parallel-for got a real split and ran every task exactly once.
  ASSERT_GT(recorder.calls.size(), 1u) << c.name;
  EXPECT_TRUE(
      std::all_of(recorder.calls.begin(), recorder.calls.end(), [](int n) { return n == 1; }));
}

INSTANTIATE_TEST_SUITE_P(Workloads, Parallel, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ParallelOptions, SerialNeverCallsTheInjectedParallelFor) {
  RecordingPool recorder;
  ExecOptions options;
  options.threads = 1;
  options.parallel_for = &RecordingPool::parallel_for;
  options.pool = &recorder;
  PadSpec spec;
  spec.axes = {{3, 3}, {3, 3}};
  const Plan plan = make_plan({DType::float32}, {1000, 1000}, {}, spec);
  std::vector<float> in(1000 * 1000, 1.0f);
  std::vector<std::byte> out(static_cast<std::size_t>(plan.output_bytes()));
  execute(plan, in.data(), out.data(), plan.output_bytes(), options);
  EXPECT_TRUE(recorder.calls.empty());
}

/// A float32 reflect pad of random data, planned, with its reference result.
struct ReflectPad {
  std::vector<std::byte> input;
  Tensor expected;
  Plan plan;

  /// Executes with the default options into `out` (stale bytes first) and compares.
  bool matches_after_execute(std::vector<std::byte>& out) const {
    std::memset(out.data(), 0xee, out.size());
    execute(plan, input.data(), out.data(), plan.output_bytes(), ExecOptions{});
    return testing::same_contents(expected, out.data(), plan.output_bytes());
  }
};

ReflectPad reflect_pad(const std::vector<std::int64_t>& shape, std::vector<AxisPad> pads,
                       unsigned seed) {
  PadSpec spec;
  spec.axes = std::move(pads);
  spec.mode = Mode::reflect;
  auto input = random_bytes(element_count(shape) * 4, seed);
  Tensor expected =
      testing::reference_pad(TensorView{input.data(), {DType::float32}, shape, {}}, spec);
  Plan plan = make_plan({DType::float32}, shape, {}, spec);
  return {std::move(input), std::move(expected), std::move(plan)};
}

TEST(ParallelOptions, FreshOutputsAreWrittenWithCachedStoresUnlessAskedOtherwise) {
  ExecOptions options;
  options.threads = 3;
  EXPECT_EQ(fresh_output_options(options).streaming, Streaming::never);
  EXPECT_EQ(fresh_output_options(options).threads, 3);
  options.streaming = Streaming::always;
  EXPECT_EQ(fresh_output_options(options).streaming, Streaming::always);
}

TEST(ParallelOptions, MidSizedPadsInQuickSuccessionOnTheBuiltInPool) {
  // 256 KiB - 1 MiB outputs run alone while the workers sleep, and wake them; calls that find
  // them awake (spinning) split the pad. Either way the bytes must be the same.
  const ReflectPad pad = reflect_pad({4, 120, 200}, {{0, 0}, {3, 2}, {1, 4}}, 5);
  ASSERT_GT(pad.plan.output_bytes(), 256 << 10);
  ASSERT_LT(pad.plan.output_bytes(), 1 << 20);
  std::vector<std::byte> out(static_cast<std::size_t>(pad.plan.output_bytes()));
  for (int call = 0; call < 200; ++call) {
    ASSERT_TRUE(pad.matches_after_execute(out)) << call;
  }
}

TEST(ParallelOptions, ConcurrentCallersShareThePoolSafely) {
  const ReflectPad pad = reflect_pad({6, 200, 300}, {{0, 0}, {5, 4}, {6, 3}}, 3);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 6; ++t) {
    callers.emplace_back([&] {
      std::vector<std::byte> out(static_cast<std::size_t>(pad.plan.output_bytes()));
      for (int rep = 0; rep < 10; ++rep) {
        if (!pad.matches_after_execute(out)) ++mismatches;
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

/// Counts the runs of every task; tasks in [slow_from, slow_to) take a while, so that the other
/// threads finish first and take them from the back of that share.
struct TaskCounter {
  std::vector<std::atomic<int>> runs;
  std::int64_t slow_from = 0;
  std::int64_t slow_to = 0;

  explicit TaskCounter(std::int64_t n) : runs(static_cast<std::size_t>(n)) {}
  static void task(void* self_ptr, std::int64_t t) {
    auto& self = *static_cast<TaskCounter*>(self_ptr);
    if (t >= self.slow_from && t < self.slow_to) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ++self.runs[static_cast<std::size_t>(t)];
  }
};

TEST(ParallelPool, EveryTaskRunsOnceWhateverTheSplit) {
  // A few tasks per thread (one counter) and many (a share per thread, the shares of slow
  // threads taken from the back by the others), on 2 to 5 threads (more than the machine may
  // have: the pool's own worker count caps them).
  for (const std::int64_t count : {2, 7, 16, 100, 1000, 4099}) {
    for (const int threads : {2, 3, 5}) {
      TaskCounter counter(count);
      counter.slow_from = count / 2;  // the middle of the loop: another thread's share
      counter.slow_to = count / 2 + std::min<std::int64_t>(count / 4, 20);
      ExecOptions options;
      options.threads = threads;
      detail::parallel_for(options, count, &TaskCounter::task, &counter);
      for (std::int64_t t = 0; t < count; ++t) {
        ASSERT_EQ(counter.runs[static_cast<std::size_t>(t)].load(), 1)
            << "task " << t << " of " << count << " on " << threads << " threads";
      }
    }
  }
}

/// Counts the tasks run by threads other than the caller; task 0 waits (up to a few seconds)
/// until there is one, so that a loop completes quickly only if a worker joined it.
struct JoinWaiter {
  std::atomic<int> others{0};
  std::thread::id caller = std::this_thread::get_id();

  static void task(void* self_ptr, std::int64_t t) {
    auto& self = *static_cast<JoinWaiter*>(self_ptr);
    if (std::this_thread::get_id() != self.caller) ++self.others;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (t == 0 && self.others == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
  }
};

TEST(ParallelPool, WorkersJoinLoopsWhetherSpinningOrAsleep) {
  // Loops back to back find the workers spinning; after a pause longer than their spin they
  // sleep, and posting the loop must wake one (a lost wake-up shows as a loop no worker joins).
  if (std::thread::hardware_concurrency() < 2 || detail::CallerCpus::read().count == 1) {
    GTEST_SKIP() << "one CPU: no worker joins a loop";
  }
  for (int round = 0; round < 60; ++round) {
    if (round % 2 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    JoinWaiter waiter;
    detail::parallel_for(ExecOptions{}, 8, &JoinWaiter::task, &waiter);
    ASSERT_GT(waiter.others.load(), 0) << "round " << round << ": no worker joined within 5 s";
  }
}

#if defined(__linux__)
/// For every task, the thread that ran it and that thread's affinity mask; the first task waits
/// for another thread as JoinWaiter's does, so that a woken worker joins.
struct MaskRecorder {
  std::mutex mutex;
  std::vector<std::thread::id> threads;
  std::vector<cpu_set_t> masks;
  JoinWaiter joins;

  static void task(void* self_ptr, std::int64_t t) {
    auto& self = *static_cast<MaskRecorder*>(self_ptr);
    JoinWaiter::task(&self.joins, t);
    cpu_set_t mask;
    ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
    std::lock_guard lock(self.mutex);
    self.threads.push_back(std::this_thread::get_id());
    self.masks.push_back(mask);
  }
};

/// Restores the calling thread's affinity mask when it goes out of scope.
struct AffinityGuard {
  cpu_set_t saved;
  AffinityGuard() { sched_getaffinity(0, sizeof(saved), &saved); }
  ~AffinityGuard() { sched_setaffinity(0, sizeof(saved), &saved); }
};

TEST(ParallelPool, TasksRunOnlyOnThreadsWithTheCallersAffinity) {
  const AffinityGuard guard;
  const cpu_set_t all = guard.saved;
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  // Pinned to one CPU (as an inference engine may pin its calling thread): the loop runs on the
  // caller alone. Waking the pool here starts its workers, if this test starts them, on that CPU.
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  detail::CallerCpus cpus;
  EXPECT_EQ(detail::usable_threads(ExecOptions{}, cpus), 1);
  detail::warm_pool(ExecOptions{});
  MaskRecorder pinned;
  pinned.joins.others = 1;  // no worker may join: the first task does not wait for one
  detail::parallel_for(ExecOptions{}, 16, &MaskRecorder::task, &pinned);
  EXPECT_EQ(std::count(pinned.threads.begin(), pinned.threads.end(), pinned.joins.caller), 16);
  // The whole mask again: workers that join take it, whatever mask they started with.
  ASSERT_EQ(sched_setaffinity(0, sizeof(all), &all), 0);
  if (CPU_COUNT(&all) < 2) GTEST_SKIP() << "one CPU: no worker joins a loop";
  cpus = detail::CallerCpus::read();
  EXPECT_EQ(detail::usable_threads(ExecOptions{}, cpus),
            std::min<int>(CPU_COUNT(&all), detail::thread_limit({})));
  MaskRecorder free;
  detail::parallel_for(ExecOptions{}, 64, &MaskRecorder::task, &free);
  ASSERT_EQ(free.masks.size(), 64u);
  EXPECT_GT(free.joins.others.load(), 0) << "no worker joined within 5 s";
  for (const cpu_set_t& mask : free.masks) EXPECT_TRUE(CPU_EQUAL(&mask, &all));
}
#endif

}  // namespace
}  // namespace padnd
