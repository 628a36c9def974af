// SPDX-License-Identifier: Apache-2.0
// Prepared windows: the box that every window of numpy's value modes can be copied from,
// computed once (docs/design.md, "Prepared windows").
#include "padnd/prepared_windows.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "core/checked.hpp"
#include "executors/cpu/engine.hpp"
#include "executors/cpu/window_box.hpp"
#include "plan/plan_access.hpp"

namespace padnd {
namespace {

/// Whether windows of the plan are copied from one prepared box: it has passes (numpy's value
/// modes), none a ramp, whose box places a window's positions next to the edge by the window.
bool prepares(const Plan& plan) {
  const auto& passes = detail::program(plan).passes();
  return !passes.empty() && std::none_of(passes.begin(), passes.end(), [](const auto& pass) {
    return pass.rule.mode == Mode::linear_ramp;
  });
}

/// The window whose box every window can be copied from: on each axis whose sides repeat one
/// value per lane, the original elements and one position of each side; other axes whole.
Window whole_box_window(const Plan& plan) {
  const std::span<const std::int64_t> out = plan.output_shape();
  Window w{std::vector<std::int64_t>(out.size(), 0), {out.begin(), out.end()}};
  for (const detail::AxisPass& pass : detail::program(plan).passes()) {
    if (!detail::uniform_sides(pass)) continue;
    const std::size_t k = pass.axis;
    const std::int64_t first = pass.begin > 0 ? pass.begin - 1 : pass.begin;
    const std::int64_t stop = pass.begin + pass.in_len + (pass.end > 0 ? 1 : 0);
    w.start[k] = first;
    w.shape[k] = stop - first;
  }
  return w;
}

/// Whether `box` holds at most twice the elements of the input with two more positions per
/// axis: the prepared values stay O(input). Axes the box holds whole, pads included (odd
/// reflection, index modes after a value axis, axes the engine pads), can make it far larger;
/// windows then compute their own boxes, which hold only their own positions there.
bool bounded(const Plan& plan, const Window& box) {
  std::int64_t limit = 2;
  for (const std::int64_t len : plan.input_shape()) {
    const auto with_sides = detail::checked_add(len, 2);
    const auto grown = with_sides ? detail::checked_mul(limit, *with_sides) : std::nullopt;
    if (!grown) return true;  // beyond int64: no box of an output that exists is larger
    limit = *grown;
  }
  std::int64_t elements = 1;
  for (const std::int64_t len : box.shape) {
    const auto grown = detail::checked_mul(elements, len);
    if (!grown || *grown > limit) return false;
    elements = *grown;
  }
  return true;
}

}  // namespace

PreparedWindows::PreparedWindows(const Plan& plan, const void* in, const ExecOptions& options)
    : plan_(&plan), in_(in), options_(options) {
  detail::check_options(options);
  detail::check_input(plan, in);
  if (!prepares(plan)) return;
  const Window whole = whole_box_window(plan);
  if (detail::empty_window(whole) || plan.type().packed()) return;  // as execute_window does
  const Window box = detail::window_box(plan, whole);
  if (!bounded(plan, box)) return;
  values_ = detail::compute_box(plan, in, 0, whole, box, options);
  box_ = box;
}

void PreparedWindows::execute_window(const Window& window, void* out,
                                     std::int64_t out_bytes) const {
  if (box_.shape.empty()) {
    padnd::execute_window(*plan_, in_, window, out, out_bytes, options_);
    return;
  }
  detail::check_dense_window(*plan_, window, out_bytes);
  copy_window(window, out, detail::dense_strides(*plan_, window.shape));
}

void PreparedWindows::execute_window(const Window& window, void* out,
                                     std::span<const std::int64_t> out_byte_strides) const {
  if (box_.shape.empty()) {
    padnd::execute_window(*plan_, in_, window, out, out_byte_strides, options_);
    return;
  }
  detail::check_window(*plan_, window);
  detail::check_out_strides(*plan_, window, out_byte_strides);
  copy_window(window, out, out_byte_strides);
}

void PreparedWindows::copy_window(const Window& window, void* out,
                                  std::span<const std::int64_t> out_byte_strides) const {
  if (detail::empty_window(window)) return;
  detail::check_output(out);
  detail::copy_out_of_box(*plan_, box_, static_cast<const std::byte*>(values_.data()), window,
                          static_cast<std::byte*>(out), out_byte_strides);
}

}  // namespace padnd
