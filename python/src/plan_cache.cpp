// SPDX-License-Identifier: Apache-2.0
// The fast path's per-thread LRU plan cache.
#include "plan_cache.hpp"

#include <algorithm>
#include <utility>

namespace padnd::python {

std::shared_ptr<const Plan> PlanCache::find(const PadRequest& request) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->request == request) {
      std::rotate(entries_.begin(), it, it + 1);  // now the most recent
      ++hits_;
      return entries_.front().plan;
    }
  }
  return nullptr;
}

std::shared_ptr<const Plan> PlanCache::add(const PadRequest& request, Plan plan) {
  ++misses_;
  const std::int64_t bytes = plan.memory_bytes();
  auto shared = std::make_shared<const Plan>(std::move(plan));
  if (bytes > limits_.max_plan_bytes || limits_.max_plans == 0) return shared;
  entries_.insert(entries_.begin(), Entry{request, shared, bytes});
  bytes_ += bytes;
  evict_beyond_limits();
  return shared;
}

void PlanCache::evict_beyond_limits() {
  while (!entries_.empty() && (entries_.size() > limits_.max_plans || bytes_ > limits_.max_bytes)) {
    bytes_ -= entries_.back().bytes;
    entries_.pop_back();
  }
}

PlanCacheInfo PlanCache::info() const {
  PlanCacheInfo info;
  for (const Entry& e : entries_) info.plan_bytes.push_back(e.bytes);
  info.bytes = bytes_;
  info.hits = hits_;
  info.misses = misses_;
  info.limits = limits_;
  return info;
}

void PlanCache::reset(const PlanCacheLimits& limits) {
  entries_.clear();
  bytes_ = 0;
  hits_ = 0;
  misses_ = 0;
  limits_ = limits;
}

PlanCache& thread_plan_cache() {
  thread_local PlanCache cache;
  return cache;
}

}  // namespace padnd::python
