// SPDX-License-Identifier: Apache-2.0
// The fast path's plan cache: per thread, the plans of the last few requests, keyed by the
// request and bounded in count and bytes, so repeated and alternating calls plan once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "padnd/adapters/numpy.hpp"
#include "padnd/element_type.hpp"
#include "padnd/plan.hpp"

namespace padnd::python {

/// Everything a fast-path plan depends on: the data's element type and layout, and numpy.pad's
/// arguments as the numpy adapter takes them.
struct PadRequest {
  ElementType type;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> byte_strides;
  numpy::PadArgs args;

  friend bool operator==(const PadRequest&, const PadRequest&) = default;
};

/// How much one thread's cache may hold (Plan::memory_bytes() of its plans).
struct PlanCacheLimits {
  std::size_t max_plans = 8;
  std::int64_t max_bytes = std::int64_t{16} << 20;      ///< all its plans together
  std::int64_t max_plan_bytes = std::int64_t{4} << 20;  ///< a larger plan serves its call only
};

/// What a cache holds now, and how it has served (for tests: padnd._padnd._plan_cache_info).
struct PlanCacheInfo {
  std::vector<std::int64_t> plan_bytes;  ///< most recently used first
  std::int64_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  PlanCacheLimits limits;
};

/// Least recently used plans, most recent first. Plans are shared: a call keeps its plan alive
/// even if a nested call (a finalizer that pads) evicts it meanwhile.
class PlanCache {
 public:
  /// The cached plan of `request` (now the most recent), or null.
  std::shared_ptr<const Plan> find(const PadRequest& request);
  /// Caches `plan` for `request` if it is at most limits().max_plan_bytes, then evicts the
  /// least recently used plans beyond the limits; returns the plan either way.
  std::shared_ptr<const Plan> add(const PadRequest& request, Plan plan);

  [[nodiscard]] PlanCacheInfo info() const;
  [[nodiscard]] const PlanCacheLimits& limits() const noexcept { return limits_; }
  /// Sets the limits and empties the cache (its counters too).
  void reset(const PlanCacheLimits& limits);

 private:
  struct Entry {
    PadRequest request;
    std::shared_ptr<const Plan> plan;
    std::int64_t bytes = 0;
  };

  void evict_beyond_limits();

  std::vector<Entry> entries_;
  std::int64_t bytes_ = 0;
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
  PlanCacheLimits limits_;
};

/// The calling thread's cache.
PlanCache& thread_plan_cache();

}  // namespace padnd::python
