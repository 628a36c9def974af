// SPDX-License-Identifier: Apache-2.0
// The checks every executor makes of its buffers and windows before writing anything.
#include "plan/exec_checks.hpp"

#include <algorithm>
#include <string>

#include "core/checked.hpp"
#include "core/message_text.hpp"
#include "padnd/error.hpp"
#include "padnd/tensor.hpp"
#include "plan/plan_access.hpp"

namespace padnd::detail {

void check_ranges(const char* what, const char* of, const Window& ranges,
                  std::span<const std::int64_t> shape) {
  if (ranges.start.size() != shape.size() || ranges.shape.size() != shape.size()) {
    throw Error(Errc::shape_mismatch, std::string(what) +
                                          ": expected a start and a length for "
                                          "each of the " +
                                          std::to_string(shape.size()) + " " + of + " axes, got " +
                                          std::to_string(ranges.start.size()) + " starts and " +
                                          std::to_string(ranges.shape.size()) + " lengths");
  }
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t start = ranges.start[k];
    const std::int64_t len = ranges.shape[k];
    if (start < 0 || len < 0 || start > shape[k] || len > shape[k] - start) {
      throw Error(Errc::out_of_range, std::string(what) + ": " + axis_text(k) + ": start " +
                                          std::to_string(start) + " and length " +
                                          std::to_string(len) + " do not lie within the " + of +
                                          "'s length " + std::to_string(shape[k]));
    }
  }
}

void check_window(const Plan& plan, const Window& window) {
  check_ranges("window", "output", window, plan.output_shape());
}

void check_out_strides(const Plan& plan, const Window& window,
                       std::span<const std::int64_t> strides) {
  const std::size_t rank = plan.output_shape().size();
  if (strides.size() != rank) {
    throw Error(Errc::shape_mismatch, "output strides: expected " + std::to_string(rank) +
                                          " byte strides (one per output axis), got " +
                                          std::to_string(strides.size()));
  }
  if (plan.type().packed()) {
    throw Error(Errc::invalid_argument, "output strides: " + plan.type().name() +
                                            " elements are packed densely; a window of a packed "
                                            "type is written dense");
  }
  const std::int64_t unit = element_unit(plan.type());
  for (std::size_t k = 0; k < rank; ++k) {
    if (plan.type().storage() == Storage::string && strides[k] % unit != 0) {
      throw Error(Errc::invalid_argument, "output strides: " + axis_text(k) + ": byte stride " +
                                              std::to_string(strides[k]) +
                                              " is not a multiple of sizeof(std::string)");
    }
  }
  detail::check_strided_extent("output strides", window.shape, strides, unit);
}

WindowInts dense_strides(const Plan& plan, std::span<const std::int64_t> shape) {
  WindowInts strides(shape.size());
  detail::dense_strides(shape, element_unit(plan.type()), strides);
  return strides;
}

bool empty_window(const Window& window) {
  return std::find(window.shape.begin(), window.shape.end(), 0) != window.shape.end();
}

void check_dense_window(const Plan& plan, const Window& window, std::int64_t out_bytes) {
  check_window(plan, window);
  const std::int64_t needed = storage_bytes(plan.type(), element_count(window.shape));
  if (out_bytes < needed) {
    throw Error(Errc::shape_mismatch, "output: buffer of " + std::to_string(out_bytes) +
                                          " bytes is smaller than the window's " +
                                          std::to_string(needed) + " bytes");
  }
  if (plan.type().packed() && !detail::program(plan).passes().empty() && !empty_window(window)) {
    throw Error(Errc::unsupported_type, "window: " + plan.type().name() +
                                            " windows of numpy's value modes are not supported");
  }
}

void check_input(const Plan& plan, const void* in) {
  if (in == nullptr && PlanAccess::input_elements(plan) > 0) {
    throw Error(Errc::invalid_argument, "input: null data pointer for a non-empty tensor");
  }
}

void check_output(const void* out) {
  if (out == nullptr) throw Error(Errc::invalid_argument, "output: null buffer");
}

void check_buffers(const Plan& plan, const void* in, const void* out) {
  check_output(out);
  check_input(plan, in);
}
}  // namespace padnd::detail
