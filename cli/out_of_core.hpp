// SPDX-License-Identifier: Apache-2.0
// Padding .npy files larger than memory (docs/out-of-core.md): the input memory-mapped, the
// output written window by window through one bounded buffer. The CLI and padnd.pad_file run it.
#pragma once

#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "npy.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"

namespace padnd::cli {

/// Whether pad_npy_file draws a progress bar on standard error.
enum class ProgressBar {
  automatic,  ///< when standard error is a terminal
  always,
  never,
};

/// What pad_npy_file writes for an input: the canonical spec, and the window of its output
/// (none: the whole output).
struct FileRequest {
  PadSpec spec;
  std::optional<Window> window;
};

/// The request for an input of `header` (it throws for a request the spec rejects). Called once,
/// or, when the request computes with the numbers (numpy's value modes, odd reflection) of an
/// input in non-native byte order, a second time with the header in the host's byte order: the
/// order the data is then padded in.
using RequestFor = std::function<FileRequest(const NpyHeader& header)>;

/// The budget without --memory: 1 GiB, or a quarter of the physical memory where that is less.
std::int64_t default_memory_bytes();

/// Parses a size: "1048576" (bytes), or a number followed by K, M, G or T (powers of 1024, in
/// either case, optionally followed by "iB" or "B"), such as "512M", "2G" or "64KiB". Throws
/// Errc::invalid_argument naming `option` and the text.
std::int64_t parse_memory_size(std::string_view option, std::string_view text);

struct PadFileOptions {
  /// The most memory the pad allocates for data: its output buffer, plus a host-order copy of
  /// a mapped input that numpy's value modes compute on (docs/out-of-core.md).
  std::int64_t memory_bytes = default_memory_bytes();
  std::string memory_option = "--memory";  ///< how messages name memory_bytes
  ProgressBar progress = ProgressBar::automatic;
  bool fsync = true;  ///< WriteOptions::fsync
  /// Called after each window with the output's data bytes written so far and in all (a
  /// whole computation: once, before the output replaces the target). It may throw to stop
  /// the pad (Python's Ctrl-C); no output file is left then, and an existing one is untouched.
  std::function<void(std::int64_t written_bytes, std::int64_t total_bytes)> on_window;
};

/// Pads the .npy file `in_path` into `out_path` (NpyWriter's targets, in C order, with the
/// input's dtype). A regular input is memory-mapped; a stream is read into memory. The output
/// is computed and written in consecutive windows through one buffer of at most
/// options.memory_bytes. Requests with axis passes (numpy's value modes, odd reflection,
/// per-axis modes and per-side constants) compute the whole output at once: in memory when it
/// fits the budget, else in the memory-mapped output file. Throws padnd::Error; the output is
/// then left as it was.
void pad_npy_file(const std::string& in_path, const std::string& out_path,
                  const RequestFor& request_for, const PadFileOptions& options);

/// Whether planning uses a one-byte stand-in for the element type: for an empty output of
/// opaque elements the plan is only validated, and the real one would build one element (up to
/// 2 GiB) that nothing writes.
bool plans_stand_in(const NpyHeader& header, bool output_empty);

/// The plan of `spec` on an input of `header`, with the input's strides (Fortran order too).
Plan plan_npy(const NpyHeader& header, const PadSpec& spec, bool output_empty);

/// What planning is for, in an out-of-memory message: the output's shape and bytes.
std::string planning_text(const NpyHeader& header, std::span<const std::int64_t> out_shape);

/// Runs `step`; an allocation failure becomes an error that says what was being done.
template <class F>
auto with_memory_context(const std::string& what, F&& step) {
  try {
    return step();
  } catch (const std::bad_alloc&) {
    throw Error(Errc::out_of_memory, "out of memory while " + what);
  }
}

}  // namespace padnd::cli
