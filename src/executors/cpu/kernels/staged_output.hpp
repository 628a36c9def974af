// SPDX-License-Identifier: Apache-2.0
// Output written through a small cache-resident stage and streamed out in whole cache lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "executors/cpu/kernels/moves.hpp"

namespace padnd::detail {

/// A contiguous output range written front to back through a stage that stays in L1: callers
/// build rows in the stage (any mix of copies, fills and short border writes), and the stage
/// goes out with non-temporal stores, one whole aligned cache line at a time. Written directly,
/// short rows and row borders cost a read of every output line (the store misses) and split
/// lines between cached and streamed stores; through the stage every line is streamed whole.
class StagedOutput {
 public:
  /// Stage capacity. Rows outside [kMinRowBytes, kMaxRowBytes] are written otherwise: longer
  /// ones stream their copies themselves; shorter ones measured slower staged (32-byte rows)
  /// and use MaskedRows or cached stores.
  static constexpr std::int64_t kStageBytes = std::int64_t{16} << 10;
  static constexpr std::int64_t kMinRowBytes = 256;
  static constexpr std::int64_t kMaxRowBytes = kStageBytes / 2;
  static constexpr std::int64_t kLine = 64;  ///< cache line bytes

  /// `out`: where the first byte reserved goes.
  explicit StagedOutput(std::byte* out)
      : out_(out),
        lead_(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) % kLine)),
        used_(lead_) {}
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  /// Bytes that can be reserved before the next flush(); a flush leaves more than kStageBytes.
  [[nodiscard]] std::int64_t room() const { return kStageBytes + kLine - used_; }

  /// The next `bytes` of output (at most room()), to be written in the stage.
  std::byte* reserve(std::int64_t bytes) {
    std::byte* at = stage_ + used_;
    used_ += bytes;
    return at;
  }

  /// Streams every whole cache line staged so far and keeps the partial last one.
  void flush() {
    const std::int64_t lines_end = used_ / kLine * kLine;
    std::int64_t from = 0;
    if (lead_ > 0) {  // the output's first line is partial (its start belongs to other rows)
      if (lines_end < kLine) return;
      copy_bytes(out_, stage_ + lead_, static_cast<std::size_t>(kLine - lead_));
      from = kLine;
    }
    stream_lines(out_ + (from - lead_), stage_ + from, lines_end - from);
    out_ += lines_end - lead_;
    used_ -= lines_end;
    std::memcpy(stage_, stage_ + lines_end, static_cast<std::size_t>(used_));
    lead_ = 0;
  }

  /// Writes out the rest (the partial last line cached) and orders the streamed stores before
  /// anything the caller does next. Call once, at the end.
  void finish() {
    flush();
    copy_bytes(out_, stage_ + lead_, static_cast<std::size_t>(used_ - lead_));
    stream_fence();
  }

 private:
  std::byte* out_;     ///< output address of stage_ + lead_
  std::int64_t lead_;  ///< stage bytes before the first staged byte (the output's misalignment)
  std::int64_t used_;  ///< stage bytes in use, lead_ included
  alignas(64) std::byte stage_[kStageBytes + 2 * kLine];
};

}  // namespace padnd::detail
