// SPDX-License-Identifier: Apache-2.0
// The output cache (output_cache.hpp): anonymous mappings, huge pages from 4 MiB on (as numpy
// asks for its own), kept idle up to a byte limit and an idle time.
#include "output_cache.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace padnd::python {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kSmallPage = std::size_t{4} << 10;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// What is mapped for `bytes`: whole huge pages where that wastes at most a sixteenth, else
/// whole small pages.
std::size_t mapped_bytes(std::size_t bytes) {
  const std::size_t page = bytes >= 16 * kHugePage ? kHugePage : kSmallPage;
  return (bytes + page - 1) / page * page;
}

void* map_memory(std::size_t size) {
  void* memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  if (size >= 2 * kHugePage) ::madvise(memory, size, MADV_HUGEPAGE);  // a hint: may be refused
#endif
  return memory;
}

struct Idle {
  void* memory;
  std::size_t size;
  Clock::time_point since;
};

class Cache {
 public:
  Cache() {
    // A child forked while another thread held the lock would wait for ever; it also has no
    // reaper thread (a fork copies only the calling thread).
    ::pthread_atfork([] { instance().mutex_.lock(); }, [] { instance().mutex_.unlock(); },
                     [] {
                       instance().reaper_started_ = false;
                       instance().mutex_.unlock();
                     });
  }

  static Cache& instance() {
    static auto* cache = new Cache;  // never destroyed: arrays may be freed at exit
    return *cache;
  }

  void* take(std::size_t bytes, bool& reused) {
    const std::size_t size = mapped_bytes(bytes);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      auto best = idle_.end();
      for (auto it = idle_.begin(); it != idle_.end(); ++it) {
        if (it->size >= size && it->size <= size + size / 4 &&
            (best == idle_.end() || it->size < best->size)) {
          best = it;
        }
      }
      if (best != idle_.end()) {
        void* memory = best->memory;
        live_[memory] = best->size;
        held_ -= static_cast<std::int64_t>(best->size);
        idle_.erase(best);
        ++reused_;
        reused = true;
        return memory;
      }
    }
    void* memory = map_memory(size);
    if (memory == nullptr) return nullptr;
    const std::lock_guard<std::mutex> lock(mutex_);
    live_[memory] = size;
    ++mapped_;
    reused = false;
    return memory;
  }

  bool give(void* memory) {
    std::vector<Idle> unmap;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto it = live_.find(memory);
      if (it == live_.end()) return false;
      const Idle buffer{memory, it->second, Clock::now()};
      live_.erase(it);
      if (static_cast<std::int64_t>(buffer.size) > settings_.limit_bytes) {
        unmap.push_back(buffer);
      } else {
        try {
          idle_.push_back(buffer);
        } catch (...) {  // no memory for the bookkeeping: the buffer goes back to the system
          ::munmap(buffer.memory, buffer.size);
          return true;
        }
        held_ += static_cast<std::int64_t>(buffer.size);
        trim(settings_.limit_bytes, unmap);
        start_reaper();
        wake_.notify_one();
      }
    }
    for (const Idle& buffer : unmap) ::munmap(buffer.memory, buffer.size);
    return true;
  }

  std::size_t size_of(void* memory) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = live_.find(memory);
    return it == live_.end() ? 0 : it->second;
  }

  OutputCacheSettings set(const OutputCacheSettings& settings) {
    std::vector<Idle> unmap;
    OutputCacheSettings before;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      before = settings_;
      settings_ = settings;
      trim(settings_.limit_bytes, unmap);
      wake_.notify_one();  // a shorter idle time applies now
    }
    for (const Idle& buffer : unmap) ::munmap(buffer.memory, buffer.size);
    return before;
  }

  OutputCacheInfo info() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return {settings_, held_, static_cast<std::int64_t>(idle_.size()), reused_, mapped_};
  }

 private:
  /// Moves the oldest idle buffers to `unmap` until what stays holds at most `limit` bytes.
  void trim(std::int64_t limit, std::vector<Idle>& unmap) {
    std::size_t oldest_kept = 0;
    while (held_ > limit && oldest_kept < idle_.size()) {
      held_ -= static_cast<std::int64_t>(idle_[oldest_kept].size);
      unmap.push_back(idle_[oldest_kept++]);
    }
    idle_.erase(idle_.begin(), idle_.begin() + static_cast<std::ptrdiff_t>(oldest_kept));
  }

  void start_reaper() {
    if (reaper_started_) return;
    reaper_started_ = true;
    std::thread([this] { reap(); }).detach();
  }

  /// The reaper thread: unmaps each idle buffer once it has been idle for the idle time.
  [[noreturn]] void reap() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (idle_.empty()) {
        wake_.wait(lock);
        continue;
      }
      const auto idle_time = std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(settings_.idle_seconds));
      const auto now = Clock::now();
      const auto expired = std::find_if(idle_.begin(), idle_.end(), [&](const Idle& b) {
        return now - b.since < idle_time;  // idle_ is oldest first
      });
      std::vector<Idle> unmap(idle_.begin(), expired);
      for (const Idle& buffer : unmap) held_ -= static_cast<std::int64_t>(buffer.size);
      idle_.erase(idle_.begin(), expired);
      if (!unmap.empty()) {
        lock.unlock();
        for (const Idle& buffer : unmap) ::munmap(buffer.memory, buffer.size);
        lock.lock();
        continue;
      }
      wake_.wait_until(lock, idle_.front().since + idle_time);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::unordered_map<void*, std::size_t> live_;  ///< given out: mapped bytes
  std::vector<Idle> idle_;                       ///< oldest first
  OutputCacheSettings settings_;
  std::int64_t held_ = 0;
  std::int64_t reused_ = 0;
  std::int64_t mapped_ = 0;
  bool reaper_started_ = false;
};

}  // namespace

void* take_output(std::size_t bytes, bool& reused) noexcept {
  try {
    return Cache::instance().take(bytes, reused);
  } catch (...) {  // the bookkeeping's allocation failed: the caller's out-of-memory path
    return nullptr;
  }
}

bool give_output(void* memory) noexcept {
  try {
    return Cache::instance().give(memory);
  } catch (...) {  // the unmap list's allocation: a leak rather than memory given to free()
    return true;
  }
}

std::size_t output_bytes(void* memory) noexcept { return Cache::instance().size_of(memory); }

OutputCacheSettings set_output_cache(const OutputCacheSettings& settings) {
  return Cache::instance().set(settings);
}

OutputCacheInfo output_cache_info() { return Cache::instance().info(); }

}  // namespace padnd::python
