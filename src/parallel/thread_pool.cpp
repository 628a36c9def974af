// SPDX-License-Identifier: Apache-2.0
// padnd's built-in pool: workers claim tasks from a shared counter, and the calling thread claims
// tasks too, so a loop never waits for a wake-up to make progress. Between loops a worker spins
// for kSpin, then sleeps on a condition variable: waking a sleeping thread takes tens of
// microseconds on a VM, longer than a mid-sized pad.
#include "thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace padnd::detail {
namespace {

/// How long a worker spins for the next loop before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);

void cpu_relax() {
#if defined(__SSE2__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

/// Spins while `waiting()` holds, until `deadline` at the latest (the clock is read every 64
/// turns).
template <class Waiting>
void spin_while(const Waiting& waiting, std::chrono::steady_clock::time_point deadline) {
  for (unsigned n = 1; waiting(); ++n) {
    cpu_relax();
    if (n % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return;
  }
}

struct Loop {
  padnd_task_fn fn = nullptr;
  void* context = nullptr;
  std::int64_t count = 0;
  std::atomic<std::int64_t> next{0};
  std::atomic<std::int64_t> done{0};

  /// Claims and runs tasks until none are left.
  void work() {
    for (std::int64_t t; (t = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      fn(context, t);
      done.fetch_add(1, std::memory_order_release);
    }
  }
};

class Pool {
 public:
  explicit Pool(int workers) {
    threads_.reserve(static_cast<std::size_t>(workers));
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { worker(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  [[nodiscard]] int workers() const { return static_cast<int>(threads_.size()); }

  /// Runs the loop with the caller and up to `helpers` workers; false if the pool is busy.
  bool try_run(Loop& loop, int helpers) {
    std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard lock(mutex_);
      loop_ = &loop;
      helpers_wanted_ = std::min(helpers, workers());
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    loop.work();
    // Helpers usually finish within a few task lengths: wait for them spinning, not asleep, and
    // for them to detach (sleeping on idle_ until a worker's notify costs a wake-up); kSpin in
    // all.
    const auto deadline = std::chrono::steady_clock::now() + kSpin;
    spin_while([&] { return loop.done.load(std::memory_order_acquire) != loop.count; }, deadline);
    spin_while([&] { return attached_.load(std::memory_order_acquire) != 0; }, deadline);
    // Workers that have not woken yet are not waited for: they will find no loop. Tasks may
    // still run on attached workers, and a worker may still hold `loop` after its last task.
    std::unique_lock lock(mutex_);
    loop_ = nullptr;
    helpers_wanted_ = 0;
    idle_.wait(lock, [&] {
      return loop.done.load(std::memory_order_acquire) == loop.count && attached_ == 0;
    });
    return true;
  }

  /// Wakes the workers without a loop, so that they spin for kSpin.
  void wake() {
    {
      std::lock_guard lock(mutex_);
      ++generation_;
    }
    wake_.notify_all();
  }

  /// Whether some worker is spinning: a loop posted now starts on it without a wake-up.
  [[nodiscard]] bool hot() const { return spinning_.load(std::memory_order_relaxed) > 0; }

 private:
  void worker() {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!stopping_ && generation_.load(std::memory_order_relaxed) == seen) {
        lock.unlock();
        spin_while_unchanged(seen);
        lock.lock();
      }
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (loop_ == nullptr || helpers_wanted_ == 0) continue;
      --helpers_wanted_;
      Loop* loop = loop_;
      ++attached_;
      lock.unlock();
      loop->work();
      lock.lock();
      --attached_;
      idle_.notify_all();
    }
  }

  /// Spins until the generation moves on from `seen` or kSpin has passed.
  void spin_while_unchanged(std::uint64_t seen) {
    spinning_.fetch_add(1, std::memory_order_relaxed);
    spin_while([&] { return generation_.load(std::memory_order_acquire) == seen; },
               std::chrono::steady_clock::now() + kSpin);
    spinning_.fetch_sub(1, std::memory_order_relaxed);
  }

  std::mutex busy_;   // held by the one caller whose loop the pool is running
  std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  std::condition_variable idle_;
  Loop* loop_ = nullptr;
  int helpers_wanted_ = 0;
  std::atomic<int> attached_{0};              // written under mutex_; the caller also spins on it
  std::atomic<std::uint64_t> generation_{0};  // written under mutex_, read by spinners without
  std::atomic<int> spinning_{0};
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

int hardware_threads() {
  static const int n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return n;
}

Pool& default_pool() {
  static Pool pool(hardware_threads() - 1);  // the caller is the last thread
  return pool;
}

void run_serially(std::int64_t task_count, padnd_task_fn task_fn, void* task_context) {
  for (std::int64_t t = 0; t < task_count; ++t) task_fn(task_context, t);
}

}  // namespace

int thread_limit(const ExecOptions& options) {
  return options.threads > 0 ? options.threads : hardware_threads();
}

bool pool_is_hot(const ExecOptions& options) {
  return options.parallel_for == nullptr && thread_limit(options) > 1 && default_pool().hot();
}

void warm_pool(const ExecOptions& options) {
  if (options.parallel_for == nullptr && thread_limit(options) > 1) default_pool().wake();
}

void parallel_for(const ExecOptions& options, std::int64_t task_count, padnd_task_fn task_fn,
                  void* task_context) {
  if (task_count <= 1 || thread_limit(options) == 1) {
    run_serially(task_count, task_fn, task_context);
    return;
  }
  if (options.parallel_for != nullptr) {
    options.parallel_for(options.pool, task_count, task_fn, task_context);
    return;
  }
  Loop loop;
  loop.fn = task_fn;
  loop.context = task_context;
  loop.count = task_count;
  const auto helpers = static_cast<int>(
      std::min<std::int64_t>(task_count, thread_limit(options)) - 1);
  if (!default_pool().try_run(loop, helpers)) run_serially(task_count, task_fn, task_context);
}

}  // namespace padnd::detail
