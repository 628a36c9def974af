// SPDX-License-Identifier: Apache-2.0
// Execution options: a thread count, an injectable C-compatible parallel-for, streaming stores.
#pragma once

#include <cstdint>

#include "padnd/export.h"

PADND_PUBLIC_BEGIN
namespace padnd {

extern "C" {
/// One task of a parallel loop: processes task `task` of the loop described by `context`.
typedef void (*padnd_task_fn)(void* context, std::int64_t task);
/// A parallel-for supplied by the host (an inference engine's own pool, OpenMP, TBB...):
/// must call `task_fn(task_context, t)` exactly once for every t in [0, task_count), on any
/// threads, and return only when all calls have returned. `pool` is the host's own pointer.
typedef void (*padnd_parallel_for_fn)(void* pool, std::int64_t task_count, padnd_task_fn task_fn,
                                      void* task_context);
}

/// Whether execution writes the output with non-temporal (streaming) stores, which bypass the
/// caches: faster when the output will not be read again before it would be evicted anyway.
enum class Streaming : std::uint8_t {
  automatic,  ///< when the pad's traffic (bytes read + written) exceeds the cache, into a
              ///< buffer written before (see fresh_output_options)
  always,
  never,
};

/// How execution may use threads and the caches. The default uses padnd's built-in pool with
/// one thread per hardware core; small pads (below the cost model's threshold) always run on
/// the calling thread.
struct ExecOptions {
  /// Upper bound on threads: 0 = one per hardware core, 1 = serial on the calling thread.
  int threads = 0;
  /// Host parallel-for; null = padnd's built-in pool. Loops for a host are split as for a pool
  /// whose threads are awake (mid-sized pads get tasks too).
  padnd_parallel_for_fn parallel_for = nullptr;
  void* pool = nullptr;  ///< passed unchanged to `parallel_for`
  Streaming streaming = Streaming::automatic;
};

}  // namespace padnd
PADND_PUBLIC_END
