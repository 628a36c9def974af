// SPDX-License-Identifier: Apache-2.0
// Window execution: any rectangular window of a plan's output, into a dense or strided buffer
// (docs/design.md, "Windows").
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "core/message_text.hpp"
#include "executors/cpu/engine.hpp"
#include "executors/cpu/window_box.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "padnd/tensor.hpp"
#include "plan/plan_access.hpp"

namespace padnd {
namespace {

using detail::element_unit;
using detail::PlanAccess;
using Ints = InlineVector<std::int64_t, Plan::kInlineRank>;

using detail::axis_text;
using detail::box_work_bytes;
using detail::check_out_strides;
using detail::check_ranges;
using detail::check_window;
using detail::dense_strides;
using detail::empty_window;
using detail::execute_through_box;
using detail::window_box;
using detail::window_reads;

/// Writes a non-empty, checked window at `out_strides`; the input pointer `in` lies
/// `origin_bytes` into the input.
void run_window(const Plan& plan, const void* in, std::int64_t origin_bytes, const Window& window,
                void* out, std::span<const std::int64_t> out_strides, const ExecOptions& options) {
  if (!detail::program(plan).passes().empty()) {
    execute_through_box(plan, in, origin_bytes, window, out, out_strides, options);
    return;
  }
  detail::run_engine(
      PlanAccess::window(plan, window.start, window.shape, out_strides, origin_bytes), in, out,
      options);
}

/// Checks that `box` lies within the input and holds `needed`; returns the byte offset of its
/// first element in the input.
std::int64_t input_box_origin(const Plan& plan, const Window& box, const Window& needed) {
  const std::span<const std::int64_t> shape = plan.input_shape();
  check_ranges("input box", "input", box, shape);
  const bool reads = !empty_window(needed);
  std::int64_t origin_bytes = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t start = box.start[k];
    const std::int64_t len = box.shape[k];
    const std::int64_t first = needed.start[k];
    const std::int64_t stop = first + needed.shape[k];
    if (reads && (first < start || stop > start + len)) {
      throw Error(Errc::out_of_range, "input box: " + axis_text(k) + ": start " +
                                          std::to_string(start) + " and length " +
                                          std::to_string(len) + " do not hold input positions " +
                                          std::to_string(first) + ":" + std::to_string(stop) +
                                          ", which the window reads");
    }
    origin_bytes += start * PlanAccess::in_strides(plan)[k];  // fits: a position in the input
  }
  return origin_bytes;
}

}  // namespace

namespace detail {}  // namespace detail

void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::span<const std::int64_t> out_byte_strides, const ExecOptions& options) {
  detail::check_options(options);
  check_window(plan, window);
  check_out_strides(plan, window, out_byte_strides);
  if (empty_window(window)) return;
  detail::check_buffers(plan, in, out);
  run_window(plan, in, 0, window, out, out_byte_strides, options);
}

Window input_window(const Plan& plan, const Window& window) {
  check_window(plan, window);
  return window_reads(plan, window);
}

std::int64_t window_work_bytes(const Plan& plan, const Window& window) {
  check_window(plan, window);
  if (empty_window(window) || detail::program(plan).passes().empty()) return 0;
  return box_work_bytes(plan, window);
}

void execute_window(const Plan& plan, const void* in, const Window& input_box, const Window& window,
                    void* out, std::span<const std::int64_t> out_byte_strides,
                    const ExecOptions& options) {
  detail::check_options(options);
  check_window(plan, window);
  check_out_strides(plan, window, out_byte_strides);
  const Window needed = input_window(plan, window);
  const std::int64_t origin_bytes = input_box_origin(plan, input_box, needed);
  if (empty_window(window)) return;
  detail::check_output(out);
  if (in == nullptr && !empty_window(needed)) {
    throw Error(Errc::invalid_argument, "input: null data pointer for a box the window reads");
  }
  run_window(plan, in, origin_bytes, window, out, out_byte_strides, options);
}

void execute_window(const Plan& plan, const void* in, const Window& window, void* out,
                    std::int64_t out_bytes, const ExecOptions& options) {
  detail::check_options(options);
  detail::check_dense_window(plan, window, out_bytes);
  if (empty_window(window)) return;
  detail::check_buffers(plan, in, out);
  if (!detail::program(plan).passes().empty()) {
    run_window(plan, in, 0, window, out, dense_strides(plan, window.shape), options);
    return;
  }
  detail::run_engine(PlanAccess::window(plan, window.start, window.shape, {}), in, out, options);
}

std::string describe_window(const Plan& plan, const Window& window) {
  check_window(plan, window);
  const Window box = detail::program(plan).passes().empty() ? window : window_box(plan, window);
  const auto ranges = [](const Window& w) {
    std::string text = "[";
    for (std::size_t k = 0; k < w.start.size(); ++k) {
      text += (k ? ", " : "") + std::to_string(w.start[k]) + ":" +
              std::to_string(w.start[k] + w.shape[k]);
    }
    return text + "]";
  };
  std::string text = "window " + ranges(window) + " of the output\n";
  if (box.start != window.start || box.shape != window.shape) {
    text += "computed over " + ranges(box) +
            " (numpy's value modes: what the pads read, and the window's pad positions held next "
            "to their edge)\n";
  }
  return text + detail::describe_box(plan, window, box);
}

}  // namespace padnd
