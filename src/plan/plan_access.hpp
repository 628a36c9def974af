// SPDX-License-Identifier: Apache-2.0
// What planning and execution see of a Plan beyond its public interface.
#pragma once

#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "padnd/plan.hpp"
#include "plan/program.hpp"

namespace padnd::detail {

struct PlanAccess {
  static const Program& program(const Plan& p) {
    return *std::launder(reinterpret_cast<const Program*>(p.program_));
  }
  static Program& program(Plan& p) { return *std::launder(reinterpret_cast<Program*>(p.program_)); }
  /// Constructs, copies, moves or destroys the program in a Plan's storage (Plan's special
  /// members).
  // Default-initialised: every member has its initialiser, and the storage is not zeroed first.
  static void construct(Plan& p) { new (p.program_) Program; }
  static void construct(Plan& p, const Plan& from) { new (p.program_) Program(program(from)); }
  static void construct(Plan& p, Plan&& from) {
    new (p.program_) Program(std::move(program(from)));
  }
  static void destroy(Plan& p) { program(p).~Program(); }
  static constexpr std::size_t program_bytes() { return Plan::kProgramBytes; }
  static std::span<const AxisPad> pads(const Plan& p) { return program(p).pads_; }
  static std::span<const Mode> engine_modes(const Plan& p) { return program(p).engine_modes_; }
  static std::span<const std::int64_t> in_strides(const Plan& p) { return program(p).in_strides_; }
  static NegativeOrder negative_order(const Plan& p) { return program(p).negative_order_; }
  static std::int64_t input_elements(const Plan& p) { return p.in_elems_; }
  /// The replicated pad value (zero_pattern() for an all-zero one), string value or packed code.
  static const std::string& fill(const Plan& p);
  static int fill_byte(const Plan& p) { return program(p).fill_byte_; }

  /// The plan that writes positions [starts[k], starts[k] + shape[k]) of `plan`'s output, axis k
  /// stepping out_strides[k] bytes in its output (none: dense). Its passes are empty: value modes
  /// go through window_box (window_box.cpp).
  /// `origin_bytes`: where the input pointer execution gets lies in the input (an input box's
  /// first element), so the window's reads are relative to it.
  static Plan window(const Plan& plan, std::span<const std::int64_t> starts,
                     std::span<const std::int64_t> shape, std::span<const std::int64_t> out_strides,
                     std::int64_t origin_bytes = 0);
  /// The input positions [first, last] that output positions [start, start + len) of input axis
  /// `axis` read (last < first: none, all pad value).
  static std::pair<std::int64_t, std::int64_t> source_range(const Plan& plan, std::size_t axis,
                                                            std::int64_t start, std::int64_t len);
  /// Per axis, the original elements the passes read: the input's length (a window box's part).
  static std::span<const std::int64_t> pass_lengths(const Plan& p) { return program(p).pass_lens_; }
  /// Sets a window plan's passes, and per axis where its original elements start (begins) and
  /// how many it holds (lens).
  static void set_passes(Plan& p, std::vector<AxisPass> passes, std::vector<std::int64_t> begins,
                         std::vector<std::int64_t> lens) {
    program(p).passes_ = std::move(passes);
    program(p).begins_ = std::move(begins);
    program(p).pass_lens_ = std::move(lens);
  }
  /// Validation, the request kept per axis, and the program of the whole output (make_plan):
  /// validate, then complete.
  static Plan make(const ElementType& type, const std::vector<std::int64_t>& shape,
                   const std::vector<std::int64_t>& byte_strides, const PadSpec& spec);
  /// Every check of make_plan, the shapes and the passes, without building a table: pad()
  /// allocates its output between the two, so a request too big to allocate fails first.
  static Plan validate(const ElementType& type, const std::vector<std::int64_t>& shape,
                       const std::vector<std::int64_t>& byte_strides, const PadSpec& spec);
  /// The fill, the request per axis and the program of a validated plan.
  static void complete(Plan& plan, const std::vector<std::int64_t>& byte_strides,
                       const PadSpec& spec);

 private:
  /// The program of output window `starts` (the plan's output shape is the window's; none: the
  /// whole output): axes, border table, row program and its forms; `out_strides` empty for a
  /// dense output.
  static void build_program(Plan& p, std::span<const std::int64_t> starts,
                            std::span<const std::int64_t> out_strides);
  static void set_fill(Plan& p, const std::string& value);
  static void set_rules(Plan& p, const std::vector<std::int64_t>& byte_strides,
                        const PadSpec& spec);
};

/// The program of `plan` (what execution runs).
inline const Program& program(const Plan& plan) { return PlanAccess::program(plan); }

/// Output units of one element: bytes (std::string objects' bytes for strings), 1 for packed
/// types (their strides count elements).
inline std::int64_t element_unit(const ElementType& type) {
  return type.packed() ? 1 : type.item_bytes();
}

/// Writes the strides of a dense row-major tensor of `shape` with `unit` bytes (or elements) per
/// element into `strides`.
void dense_strides(std::span<const std::int64_t> shape, std::int64_t unit,
                   std::span<std::int64_t> strides);

/// Throws Errc::overflow, naming `argument` and the axis, where the bytes a tensor of `shape`
/// and `byte_strides` spans do not fit in int64 (a caller's strides: every offset computed
/// from them must fit).
void check_strided_extent(std::string_view argument, std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> byte_strides, std::int64_t item_bytes);

}  // namespace padnd::detail
