// SPDX-License-Identifier: Apache-2.0
// Running a loop of independent tasks on threads: the host's parallel-for or padnd's own pool.
#pragma once

#if defined(__linux__)
#include <sched.h>
#endif

#include <atomic>
#include <cstdint>

#include "padnd/parallel.hpp"

namespace padnd::detail {

/// The CPUs the calling thread may run on: its affinity mask, read by read() (a system call, so
/// once per loop, and only for pads big enough to split).
struct CallerCpus {
#if defined(__linux__)
  cpu_set_t set;
#endif
  int count = -1;  ///< -1: not read yet; 0: unknown (no limit, and workers keep their masks)

  static CallerCpus read();
  /// The mask, read now if it has not been.
  const CallerCpus& ensure_read() {
    if (count < 0) *this = read();
    return *this;
  }
};

/// Threads `options` allows: `threads`, or one per hardware core when 0 (at least 1).
int thread_limit(const ExecOptions& options);

/// Threads a loop posted now from this thread would get: thread_limit, and for the built-in pool
/// at most as many as the CPUs the calling thread may run on (`cpus`, read here if it has not
/// been; the pool's workers take the caller's mask when they join a loop).
int usable_threads(const ExecOptions& options, CallerCpus& cpus);

/// Whether a loop posted now with `options` (more than one thread) starts without waking a
/// thread: the built-in pool's workers spin after a recent loop; a host's pool counts as awake
/// (the host keeps its threads as it chooses, and its loops are what it runs anyway).
bool pool_is_hot(const ExecOptions& options);

/// Wakes the built-in pool's workers without work (when `options` use it), so that they spin for
/// a while and a loop posted soon after finds them awake.
void warm_pool(const ExecOptions& options);

/// Makes the loops the calling thread posts from now on skip the tasks not yet started once
/// `*flag` is true (null: none; the flag is read between tasks, so a signal handler may set
/// it). The caller learns from the flag that its output is incomplete: padnd's Python module
/// stops a large pad this way on Ctrl-C.
void set_stop_flag(const std::atomic<bool>* flag);

/// Calls task_fn(task_context, t) for every t in [0, task_count) and returns when all are done:
/// serially on the caller for one task, through options.parallel_for when given, otherwise on
/// the built-in pool. The built-in pool serves one loop at a time; a caller that finds it busy
/// (another thread's loop, or a nested call) runs its tasks itself instead of waiting. On the
/// built-in pool, tasks run only on threads with the caller's affinity mask (`cpus`, read here
/// if null or not read yet), on as many threads as it has CPUs at most.
void parallel_for(const ExecOptions& options, std::int64_t task_count, padnd_task_fn task_fn,
                  void* task_context, CallerCpus* cpus = nullptr);

}  // namespace padnd::detail
