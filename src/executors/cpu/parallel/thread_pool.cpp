// SPDX-License-Identifier: Apache-2.0
// padnd's built-in pool: workers claim tasks from shares of the loop (see Loop), and the calling
// thread claims tasks too, so a loop never waits for a wake-up to make progress. Between loops a
// worker spins for kSpin, then sleeps on a condition variable: waking a sleeping thread takes tens
// of microseconds on a VM, longer than a mid-sized pad.
//
// The pool shares the machine with whatever else the process and the system run, so it assumes
// neither that its threads get a core each nor that they may run anywhere:
// - a loop uses at most as many threads as the caller's affinity mask has CPUs, and a worker
//   that joins a loop takes the caller's mask first (a worker started while its creator was
//   pinned to one CPU would otherwise stay there for good);
// - a thread that falls behind holds up a loop by one task at most (see Loop), whether its CPU
//   is busy with other threads or its page faults are slow, and a worker that would finish
//   after all the other threads stops taking tasks;
// - a worker does not spin between loops on the CPU the caller last ran on: it would only delay
//   the caller there.
#include "executors/cpu/parallel/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "executors/cpu/simd.hpp"

namespace padnd::detail {
namespace {

/// How long a worker spins for the next loop before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);

/// The CPU the calling thread runs on, or -1 where unknown (a read of the thread's rseq area
/// with glibc 2.35 or later).
int current_cpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

/// Gives the calling thread the mask `cpus` if it is known and differs from `own` (the thread's
/// own, updated).
void take_mask(const CallerCpus& cpus, CallerCpus& own) {
#if defined(__linux__)
  if (cpus.count <= 0 || (own.count == cpus.count && CPU_EQUAL(&own.set, &cpus.set))) return;
  if (sched_setaffinity(0, sizeof(cpus.set), &cpus.set) == 0) own = cpus;
#else
  (void)cpus;
  (void)own;
#endif
}

void cpu_relax() {
#if PADND_SSE2
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

/// One participant's share of a loop: tasks [front, back), taken one at a time from the front by
/// its owner and from the back by participants whose own shares are done. Both ends live in one
/// word so that they move atomically.
struct alignas(64) Share {
  std::atomic<std::uint64_t> ends{0};    // front in the low 32 bits, back in the high 32
  std::atomic<std::int64_t> task_ns{0};  // how long the owner's latest task took (0: none yet)

  static std::uint64_t pack(std::uint64_t front, std::uint64_t back) { return back << 32 | front; }
  static std::int64_t front_of(std::uint64_t e) {
    return static_cast<std::int64_t>(e & 0xffffffffu);
  }
  static std::int64_t back_of(std::uint64_t e) { return static_cast<std::int64_t>(e >> 32); }

  [[nodiscard]] std::int64_t left() const {
    const std::uint64_t e = ends.load(std::memory_order_relaxed);
    return back_of(e) - front_of(e);
  }
  /// The next task from the front (from the back if `from_back`), or -1 when none is left.
  std::int64_t take(bool from_back) {
    std::uint64_t e = ends.load(std::memory_order_relaxed);
    for (;;) {
      const std::int64_t front = front_of(e);
      const std::int64_t back = back_of(e);
      if (front >= back) return -1;
      const std::uint64_t taken = from_back ? pack(front, back - 1) : pack(front + 1, back);
      if (ends.compare_exchange_weak(e, taken, std::memory_order_relaxed)) {
        return from_back ? back - 1 : front;
      }
    }
  }
};

/// A loop of many tasks is split into one contiguous share per participant (the caller's is share
/// 0): each runs its own share front to back, so the threads write apart (a fresh output's pages
/// fault on the thread that writes them, whole), then takes tasks from the back of the share with
/// the most left. A participant that falls behind (a busy or shared CPU, slow page faults) holds
/// up the loop by the one task it is running. A loop of a few tasks per participant (a mid-sized
/// pad) hands them out from one counter instead: it costs less.
struct Loop {
  static constexpr std::int64_t kMaxTasks = std::int64_t{1} << 31;

  padnd_task_fn fn = nullptr;
  void* context = nullptr;
  std::int64_t count = 0;
  const CallerCpus* caller_cpus = nullptr;
  Share* shares = nullptr;  // inline_shares, or heap_shares for more participants
  int share_count = 0;      // 0: tasks come from `next`
  std::atomic<int> next_share{1};
  std::atomic<std::int64_t> next{0};

  /// Prepares the loop for `participants` threads (count < kMaxTasks).
  void split(int participants) {
    if (count < std::int64_t{kMinTasksToShare} * participants) return;
    share_count = participants;
    if (participants <= kInlineShares) {
      shares = inline_shares;
    } else {
      heap_shares = std::make_unique<Share[]>(static_cast<std::size_t>(participants));
      shares = heap_shares.get();
    }
    for (int i = 0; i < participants; ++i) {
      shares[i].ends.store(Share::pack(static_cast<std::uint64_t>(count * i / participants),
                                       static_cast<std::uint64_t>(count * (i + 1) / participants)),
                           std::memory_order_relaxed);
    }
  }

  /// Runs share `own` (`own` < participants), then the others' leftovers. A worker stops once
  /// it is so much slower than the fastest participant that a task it took would end after all
  /// the tasks left (the caller never stops, so every task runs).
  void work(int own) {
    if (share_count == 0) {
      for (std::int64_t t; (t = next.fetch_add(1, std::memory_order_relaxed)) < count;)
        fn(context, t);
      return;
    }
    Share& mine = shares[own];
    for (;;) {
      Share* most = nullptr;     // the share with the most tasks left
      std::int64_t left = 0;     // in all shares
      std::int64_t fastest = 0;  // the others' shortest latest task, ns
      for (int i = 0; i < share_count; ++i) {
        const std::int64_t n = shares[i].left();
        left += n;
        if (n > 0 && (most == nullptr || n > most->left())) most = &shares[i];
        const std::int64_t ns = shares[i].task_ns.load(std::memory_order_relaxed);
        if (i != own && ns > 0 && (fastest == 0 || ns < fastest)) fastest = ns;
      }
      if (most == nullptr) return;
      const std::int64_t my_ns = mine.task_ns.load(std::memory_order_relaxed);
      if (own != 0 && fastest > 0 && my_ns > left * fastest) return;
      Share* from = mine.left() > 0 ? &mine : most;
      const std::int64_t t = from->take(from != &mine);
      if (t < 0) continue;
      const auto start = std::chrono::steady_clock::now();
      fn(context, t);
      mine.task_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count(),
                         std::memory_order_relaxed);
    }
  }

 private:
  static constexpr int kInlineShares = 4;
  static constexpr int kMinTasksToShare = 8;  // per participant

  Share inline_shares[kInlineShares];  // a small loop allocates nothing
  std::unique_ptr<Share[]> heap_shares;
};

/// The workers join a loop without a lock: the caller publishes it (loop_, then generation_) and
/// a spinning worker starts on it within a cache-line transfer or two; locks and condition
/// variables serve only threads that sleep. Every access to loop_, generation_, attached_ and
/// sleeping_ is sequentially consistent: each pair of "announce, then check the other side"
/// below relies on it to never lose a wake-up nor free a loop a worker still reads.
class Pool {
 public:
  explicit Pool(int workers) {
    threads_.reserve(static_cast<std::size_t>(workers));
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { worker(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_.store(true);
    }
    post();
    for (auto& t : threads_) t.join();
  }

  [[nodiscard]] int workers() const { return static_cast<int>(threads_.size()); }

  /// Runs the loop with the caller and up to `helpers` workers; false if the pool is busy.
  bool try_run(Loop& loop, int helpers) {
    std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    helpers_wanted_.store(std::min(helpers, workers()));
    loop_.store(&loop);
    post();
    loop.work(0);
    caller_cpu_.store(current_cpu(), std::memory_order_relaxed);
    // Every task is taken: no worker may join from here on. A worker that did holds `loop` until
    // it detaches; they usually do within a task length, so wait spinning (kSpin), then asleep.
    loop_.store(nullptr);
    spin_while([&] { return attached_.load() != 0; }, std::chrono::steady_clock::now() + kSpin);
    if (attached_.load() != 0) {
      std::unique_lock lock(mutex_);
      idle_.wait(lock, [&] { return attached_.load() == 0; });
    }
    return true;
  }

  /// Wakes the workers without a loop, so that they spin for kSpin.
  void wake() {
    caller_cpu_.store(current_cpu(), std::memory_order_relaxed);
    post();
  }

  /// Whether some worker is spinning: a loop posted now starts on it without a wake-up.
  [[nodiscard]] bool hot() const { return spinning_.load(std::memory_order_relaxed) > 0; }

 private:
  /// Moves the generation on: spinning workers see it at once, sleeping ones are woken. A worker
  /// counts itself in sleeping_ before its last look at generation_, so one of the two sees the
  /// other.
  void post() {
    generation_.fetch_add(1);
    if (sleeping_.load() == 0) return;
    { std::lock_guard lock(mutex_); }  // a worker between its look and its wait holds mutex_
    wake_.notify_all();
  }

  void worker() {
    CallerCpus mask = CallerCpus::read();  // this thread's own
    std::uint64_t seen = 0;
    while (!stopping_.load()) {
      if (!on_caller_cpu()) spin_while_unchanged(seen);
      if (generation_.load() == seen && !sleep_while_unchanged(seen)) return;
      seen = generation_.load();
      help(mask);
    }
  }

  /// Sleeps until the generation moves on from `seen`; false if the pool is stopping.
  bool sleep_while_unchanged(std::uint64_t seen) {
    std::unique_lock lock(mutex_);
    sleeping_.fetch_add(1);
    wake_.wait(lock, [&] { return stopping_.load() || generation_.load() != seen; });
    sleeping_.fetch_sub(1);
    return !stopping_.load();
  }

  /// Joins the posted loop if it still wants a helper. A worker counts itself in attached_
  /// before it reads loop_, and the caller clears loop_ before it waits for attached_ to fall to
  /// 0: a worker that reads the loop keeps it alive until it detaches.
  void help(CallerCpus& mask) {
    attached_.fetch_add(1);
    Loop* loop = loop_.load();
    if (loop != nullptr && claim_helper()) {
      take_mask(*loop->caller_cpus, mask);
      loop->work(loop->next_share.fetch_add(1, std::memory_order_relaxed));
    }
    if (attached_.fetch_sub(1) == 1) {
      { std::lock_guard lock(mutex_); }  // the caller may be between its look and its wait
      idle_.notify_all();
    }
  }

  /// Takes one of the posted loop's helper places, if one is left.
  bool claim_helper() {
    int wanted = helpers_wanted_.load();
    while (wanted > 0 && !helpers_wanted_.compare_exchange_weak(wanted, wanted - 1)) {
    }
    return wanted > 0;
  }

  /// Whether this thread runs where the latest caller did (spinning there would only delay the
  /// caller).
  [[nodiscard]] bool on_caller_cpu() const {
    const int cpu = current_cpu();
    return cpu >= 0 && cpu == caller_cpu_.load(std::memory_order_relaxed);
  }

  /// Spins until the generation moves on from `seen` or kSpin has passed.
  void spin_while_unchanged(std::uint64_t seen) {
    spinning_.fetch_add(1, std::memory_order_relaxed);
    spin_while([&] { return generation_.load() == seen; },
               std::chrono::steady_clock::now() + kSpin);
    spinning_.fetch_sub(1, std::memory_order_relaxed);
  }

  // What a joining worker reads, in one cache line the caller writes.
  alignas(64) std::atomic<Loop*> loop_{nullptr};
  std::atomic<int> helpers_wanted_{0};
  std::atomic<std::uint64_t> generation_{0};
  alignas(64) std::atomic<int> attached_{0};  // workers between help()'s two counts
  std::atomic<int> sleeping_{0};
  std::atomic<int> spinning_{0};
  std::atomic<int> caller_cpu_{-1};  // where the latest loop's caller ran (or the waker)
  std::atomic<bool> stopping_{false};
  std::mutex busy_;   // held by the one caller whose loop the pool is running
  std::mutex mutex_;  // what the sleeping threads wait under (wake_, idle_)
  std::condition_variable wake_;
  std::condition_variable idle_;
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

thread_local const std::atomic<bool>* t_stop_flag = nullptr;  ///< set_stop_flag's

/// A loop's task that runs only while its stop flag is false.
struct StoppableTask {
  padnd_task_fn fn;
  void* context;
  const std::atomic<bool>* stop;
};

void run_unless_stopped(void* context, std::int64_t task) {
  const auto& t = *static_cast<const StoppableTask*>(context);
  if (!t.stop->load(std::memory_order_relaxed)) t.fn(t.context, task);
}

}  // namespace

void set_stop_flag(const std::atomic<bool>* flag) { t_stop_flag = flag; }

CallerCpus CallerCpus::read() {
  CallerCpus cpus;
  cpus.count = 0;
#if defined(__linux__)
  if (sched_getaffinity(0, sizeof(cpus.set), &cpus.set) == 0) cpus.count = CPU_COUNT(&cpus.set);
#endif
  return cpus;
}

int thread_limit(const ExecOptions& options) {
  return options.threads > 0 ? options.threads : hardware_threads();
}

int usable_threads(const ExecOptions& options, CallerCpus& cpus) {
  const int limit = thread_limit(options);
  if (limit == 1 || options.parallel_for != nullptr) return limit;
  const int count = cpus.ensure_read().count;
  return count > 0 ? std::min(limit, count) : limit;
}

bool pool_is_hot(const ExecOptions& options) {
  if (thread_limit(options) == 1) return false;
  return options.parallel_for != nullptr || default_pool().hot();
}

void warm_pool(const ExecOptions& options) {
  if (options.parallel_for == nullptr && thread_limit(options) > 1) default_pool().wake();
}

void parallel_for(const ExecOptions& options, std::int64_t task_count, padnd_task_fn task_fn,
                  void* task_context, CallerCpus* cpus) {
  StoppableTask stoppable{task_fn, task_context, t_stop_flag};
  if (t_stop_flag != nullptr) {
    task_fn = &run_unless_stopped;
    task_context = &stoppable;
  }
  if (task_count <= 1 || thread_limit(options) == 1) {
    run_serially(task_count, task_fn, task_context);
    return;
  }
  if (options.parallel_for != nullptr) {
    options.parallel_for(options.pool, task_count, task_fn, task_context);
    return;
  }
  CallerCpus own;
  CallerCpus& caller = cpus != nullptr ? *cpus : own;
  Pool& pool = default_pool();
  const auto threads = std::min<std::int64_t>(
      {task_count, usable_threads(options, caller), std::int64_t{pool.workers()} + 1});
  if (threads == 1 || task_count >= Loop::kMaxTasks) {
    run_serially(task_count, task_fn, task_context);
    return;
  }
  Loop loop;
  loop.fn = task_fn;
  loop.context = task_context;
  loop.count = task_count;
  loop.caller_cpus = &caller;
  loop.split(static_cast<int>(threads));
  if (!pool.try_run(loop, static_cast<int>(threads) - 1)) {
    run_serially(task_count, task_fn, task_context);
  }
}

}  // namespace padnd::detail
