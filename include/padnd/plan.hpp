// SPDX-License-Identifier: Apache-2.0
// Planning (all validation, once) and execution (row copies and fills, nothing else).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/export.h"
#include "padnd/inline_vector.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/parallel.hpp"
#include "padnd/tensor.hpp"

namespace padnd::detail {
// Planning and execution internals (src/plan/plan_access.hpp), declared before the public region so
// that the shared library does not export them.
struct PlanAccess;
}  // namespace padnd::detail

PADND_PUBLIC_BEGIN
namespace padnd {

/// Output shape of `spec` applied to `input_shape`, with every check of make_plan that needs no
/// element type (rank, interior, overflow of lengths and element counts, negative size, modes
/// that need data). No data needed.
std::vector<std::int64_t> infer_shape(const std::vector<std::int64_t>& input_shape,
                                      const PadSpec& spec);

/// A rectangular window of a plan's output: per output axis, the first position and the number
/// of positions (docs/design.md, "Windows").
struct Window {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> shape;
};

/// An immutable, validated, reusable plan. Holds no pointers to data. What it executes (merged
/// axes, border tables, the row program: docs/design.md, "Plans") is private to the library and
/// lives inside the object: planning and executing a pad of up to 8 axes allocates nothing but
/// the fill pattern of a non-zero pad value.
class Plan {
 public:
  static constexpr std::size_t kInlineRank = 8;

  Plan();
  Plan(const Plan& other);
  Plan(Plan&& other) noexcept;
  Plan& operator=(const Plan& other);
  Plan& operator=(Plan&& other) noexcept;
  ~Plan();

  [[nodiscard]] const ElementType& type() const noexcept { return type_; }
  [[nodiscard]] Mode mode() const noexcept { return mode_; }
  [[nodiscard]] std::span<const std::int64_t> input_shape() const noexcept { return in_shape_; }
  [[nodiscard]] std::span<const std::int64_t> output_shape() const noexcept { return out_shape_; }
  [[nodiscard]] std::int64_t output_elements() const noexcept { return out_elems_; }
  /// Bytes the output buffer needs (strings: count * sizeof(std::string)).
  [[nodiscard]] std::int64_t output_bytes() const noexcept { return out_bytes_; }
  /// Bytes the plan occupies: the object and everything it allocated (caches bound by it).
  [[nodiscard]] std::int64_t memory_bytes() const noexcept;
  /// Human-readable description: merged axes, tables, segments (the CLI's `explain`).
  [[nodiscard]] std::string describe() const;

 private:
  friend struct detail::PlanAccess;
  static constexpr std::size_t kProgramBytes = 2048;

  ElementType type_;
  Mode mode_ = Mode::constant;
  InlineVector<std::int64_t, kInlineRank> in_shape_;
  InlineVector<std::int64_t, kInlineRank> out_shape_;
  std::int64_t in_elems_ = 0;
  std::int64_t out_elems_ = 0;
  std::int64_t out_bytes_ = 0;
  /// The program (detail::Program, src/plan/program.hpp), constructed in place.
  alignas(16) std::byte program_[kProgramBytes];
};

/// Validates `spec` against an input of `type`/`shape`/`byte_strides` (empty = C-contiguous)
/// and precomputes everything execution needs. Throws padnd::Error.
Plan make_plan(const ElementType& type, const std::vector<std::int64_t>& shape,
               const std::vector<std::int64_t>& byte_strides, const PadSpec& spec);

/// Writes the padded tensor into `out` (dense row-major, `out_bytes` available; string outputs
/// are arrays of constructed std::string). Throws before writing anything if `out_bytes` is
/// smaller than plan.output_bytes(). `in` must not overlap `out`. Safe to call concurrently
/// with the same plan.
void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
             const ExecOptions& options = {});

/// Writes window `window` of the plan's output into `out`, dense row-major of window.shape
/// (`out_bytes` available; a packed type's window starts at bit 0 of `out`). Costs O(window +
/// rank) whatever the output's size, except with numpy's value modes, whose windows are
/// computed over a box of the output: on each such axis, besides the window's positions, one
/// position of each statistic's side and the stat-length elements it reads, a ramp's edge
/// element, odd reflection's whole axis unless the window lies in the first chunk mirrored on
/// each side (docs/design.md, "Windows").
/// Throws before writing anything on a bad window or a small buffer. Safe to call concurrently.
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::int64_t out_bytes, const ExecOptions& options = {});

/// The same into a strided buffer: `out` points at window element [0, ..., 0] and axis k of the
/// window steps out_byte_strides[k] bytes (any sign; multiples of sizeof(std::string) for
/// strings; packed types take the dense form only). The caller guarantees that the addressed
/// elements are writable, distinct and do not overlap the input.
void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::span<const std::int64_t> out_byte_strides,
                    const ExecOptions& options = {});

/// The part of the input that writing `window` reads, per input axis its first position and
/// count (docs/design.md §5c, "Input boxes"). A window that reads no input element (only pad
/// values, or an empty window) gives a count of 0 on every axis. With numpy's value modes, a
/// window holding pad positions of an axis reads there what the pads' values read: the
/// stat-length elements next to each edge (by default all), a ramp's edge element, odd
/// reflection's whole extent.
Window input_window(const Plan& plan, const Window& window);

/// Bytes of the buffers that writing `window` holds besides its output: with numpy's value
/// modes, the dense buffer of the box it computes, or, where more, that of a ramp side's edge
/// elements with its own box (see execute_window); 0 for other plans and empty windows. The
/// passes' own scratch (a group of lanes at a time; a median's copy of what it reads) is not
/// counted. Throws on a bad window, as execute_window does.
std::int64_t window_work_bytes(const Plan& plan, const Window& window);

/// execute_window with only a box of the input in memory (a chunk, a tile read from a file):
/// `in` points at input element `input_box.start`, `input_box.shape` elements laid out with the
/// plan's input strides, which must contain input_window(plan, window) (checked before
/// anything is written). Nothing outside the box is read. Not for packed 4-/2-bit types, which
/// take the dense form only (invalid_argument).
void execute_window(const Plan& plan, const void* in, const Window& input_box, const Window& window,
                    void* out, std::span<const std::int64_t> out_byte_strides,
                    const ExecOptions& options = {});

/// Plan::describe() of the plan that writes `window` (the CLI's `explain --window`).
std::string describe_window(const Plan& plan, const Window& window);

/// `options` for writing a freshly allocated output (never written before): Streaming::automatic
/// becomes never. The page faults that map a fresh buffer zero each page, in cache, just before
/// it is written, so cached stores hit; streamed ones would first have to evict those lines.
ExecOptions fresh_output_options(ExecOptions options);

/// One-shot: plan + allocate + execute (into the fresh output with fresh_output_options).
Tensor pad(const TensorView& input, const PadSpec& spec, const ExecOptions& options = {});

/// One-shot into a caller buffer.
void pad_into(const TensorView& input, const PadSpec& spec, void* out, std::int64_t out_bytes,
              const ExecOptions& options = {});

}  // namespace padnd
PADND_PUBLIC_END
