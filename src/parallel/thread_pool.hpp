// SPDX-License-Identifier: Apache-2.0
// Running a loop of independent tasks on threads: the host's parallel-for or padnd's own pool.
#pragma once

#include <cstdint>

#include "padnd/parallel.hpp"

namespace padnd::detail {

/// Threads `options` allows: `threads`, or one per hardware core when 0 (at least 1).
int thread_limit(const ExecOptions& options);

/// Whether the built-in pool (when `options` use it, with more than one thread) has workers
/// awake, spinning after a recent loop: a loop posted now starts without waking a thread.
bool pool_is_hot(const ExecOptions& options);

/// Wakes the built-in pool's workers without work (when `options` use it), so that they spin for
/// a while and a loop posted soon after finds them awake.
void warm_pool(const ExecOptions& options);

/// Calls task_fn(task_context, t) for every t in [0, task_count) and returns when all are done:
/// serially on the caller for one task, through options.parallel_for when given, otherwise on
/// the built-in pool. The built-in pool serves one loop at a time; a caller that finds it busy
/// (another thread's loop, or a nested call) runs its tasks itself instead of waiting.
void parallel_for(const ExecOptions& options, std::int64_t task_count, padnd_task_fn task_fn,
                  void* task_context);

}  // namespace padnd::detail
