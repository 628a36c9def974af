// SPDX-License-Identifier: Apache-2.0
// Outputs that keep their pages (docs/python.md, "Output cache"): large outputs of allocating
// calls are memory of this cache, and go back to it when the array that owns one is freed, so
// a loop of pads writes into pages already mapped instead of faulting fresh ones every call.
// Bounded in bytes; buffers idle longer than the idle time are unmapped by a background thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace padnd::python {

/// Outputs from this many bytes on come from the cache; smaller ones are malloc's.
inline constexpr std::size_t kCachedOutputMinBytes = std::size_t{1} << 20;

struct OutputCacheSettings {
  std::int64_t limit_bytes = 0;  ///< what idle buffers may hold in all; 0: no cache
  double idle_seconds = 0;       ///< an idle buffer is unmapped after this long
};

struct OutputCacheInfo {
  OutputCacheSettings settings;
  std::int64_t held_bytes = 0;    ///< mapped by idle buffers now
  std::int64_t held_buffers = 0;  ///< idle buffers now
  std::int64_t reused = 0;        ///< allocations served by an idle buffer, since start
  std::int64_t mapped = 0;        ///< allocations that mapped new memory, since start
};

/// `bytes` (>= kCachedOutputMinBytes) of memory for an output: an idle buffer of at least that
/// size and at most a quarter more (`reused` true: its pages are mapped), else new memory
/// (`reused` false). Null when the system has none. Thread-safe.
void* take_output(std::size_t bytes, bool& reused) noexcept;

/// Returns take_output's `memory` to the cache (or unmaps it when the cache is full or off).
/// False, doing nothing, for memory take_output did not give.
bool give_output(void* memory) noexcept;

/// The bytes mapped for take_output's `memory` while it is given out; 0 for other memory.
std::size_t output_bytes(void* memory) noexcept;

/// The settings before; applying new ones unmaps what no longer fits.
OutputCacheSettings set_output_cache(const OutputCacheSettings& settings);

OutputCacheInfo output_cache_info();

}  // namespace padnd::python
