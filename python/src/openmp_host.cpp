// SPDX-License-Identifier: Apache-2.0
// padnd.torch runs its loops on torch's OpenMP threads instead of padnd's pool. Right after a
// torch operator those threads spin, waiting for the next parallel region, and a second pool
// would share the cores with them: each pool's threads then wait for the other's. The runtime
// is the library torch loaded (libgomp, or LLVM's or Intel's, which implement the same GNU
// entry points), found by its path with RTLD_NOLOAD: padnd loads nothing and links to no
// OpenMP library. docs/frameworks.md says when it applies.
#include "openmp_host.hpp"

#include <dlfcn.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace nb = nanobind;

namespace padnd::python {
namespace {

/// The GNU OpenMP entry points a compiler's `#pragma omp parallel` calls.
struct OpenMpRuntime {
  void (*parallel)(void (*body)(void*), void* data, unsigned threads, unsigned flags) = nullptr;
  int (*thread_num)() = nullptr;
  int (*max_threads)() = nullptr;
  std::string path;
};

std::optional<OpenMpRuntime>& registered() {
  static std::optional<OpenMpRuntime> runtime;
  return runtime;
}

/// One contiguous range of a loop's tasks: its owner starts there, the others help later.
struct alignas(64) TaskRange {
  std::atomic<std::int64_t> next{0};
  std::int64_t end = 0;
};

constexpr int kMaxRanges = 64;

/// A loop split into one range per requested thread; every team member runs its own range,
/// then the others' leftovers, so the loop completes whatever size the team really has.
struct TeamLoop {
  padnd_task_fn fn = nullptr;
  void* context = nullptr;
  const OpenMpRuntime* runtime = nullptr;
  int range_count = 0;
  std::array<TaskRange, kMaxRanges> ranges;
};

void team_body(void* data) {
  auto& loop = *static_cast<TeamLoop*>(data);
  const int me = loop.runtime->thread_num() % loop.range_count;
  for (int k = 0; k < loop.range_count; ++k) {
    TaskRange& range = loop.ranges[static_cast<std::size_t>((me + k) % loop.range_count)];
    for (std::int64_t t; (t = range.next.fetch_add(1, std::memory_order_relaxed)) < range.end;) {
      loop.fn(loop.context, t);
    }
  }
}

void openmp_parallel_for(void* pool, std::int64_t task_count, padnd_task_fn task_fn,
                         void* task_context) {
  const auto& runtime = *static_cast<const OpenMpRuntime*>(pool);
  TeamLoop loop;
  loop.fn = task_fn;
  loop.context = task_context;
  loop.runtime = &runtime;
  loop.range_count = static_cast<int>(
      std::min<std::int64_t>({task_count, std::max(1, runtime.max_threads()), kMaxRanges}));
  for (int k = 0; k < loop.range_count; ++k) {
    loop.ranges[static_cast<std::size_t>(k)].next.store(task_count * k / loop.range_count,
                                                        std::memory_order_relaxed);
    loop.ranges[static_cast<std::size_t>(k)].end = task_count * (k + 1) / loop.range_count;
  }
  // Inside another parallel region the runtime gives a team of one: the loop runs serially.
  runtime.parallel(&team_body, &loop, static_cast<unsigned>(loop.range_count), 0);
}

template <class Fn>
bool find_symbol(void* library, const char* name, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  return fn != nullptr;
}

/// The registered runtime's path, or None.
std::optional<std::string> openmp_runtime() {
  if (!registered()) return std::nullopt;
  return registered()->path;
}

/// Registers the OpenMP runtime at `path` if the process has loaded it and it has the entry
/// points; returns the registered runtime's path (None: none is).
std::optional<std::string> use_openmp_runtime(const std::string& path) {
  void* library = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (library == nullptr) return openmp_runtime();
  OpenMpRuntime runtime;
  if (find_symbol(library, "GOMP_parallel", runtime.parallel) &&
      find_symbol(library, "omp_get_thread_num", runtime.thread_num) &&
      find_symbol(library, "omp_get_max_threads", runtime.max_threads)) {
    runtime.path = path;
    registered() = runtime;  // the handle stays open: the entry points must stay valid
  } else {
    dlclose(library);
  }
  return openmp_runtime();
}

}  // namespace

ExecOptions on_openmp_runtime(ExecOptions options) {
  if (!registered() || options.threads == 1) return options;
  options.parallel_for = &openmp_parallel_for;
  options.pool = &*registered();
  return options;
}

void bind_openmp_host(nb::module_& m) {
  m.def("_use_openmp_runtime", &use_openmp_runtime, nb::arg("path"),
        "Runs pad_flat_tensor's loops on the OpenMP runtime at `path` if the process has loaded "
        "it; returns the registered runtime's path, or None.");
  m.def("_openmp_runtime", &openmp_runtime, "The registered OpenMP runtime's path, or None.");
}

}  // namespace padnd::python
