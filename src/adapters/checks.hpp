// SPDX-License-Identifier: Apache-2.0
// Validation and message helpers shared by the spec adapters (ONNX, OpenVINO, nGraph, numpy).
//
// Every adapter error is a padnd::Error whose message starts with the spec's own argument name
// ("pads: ...", "pad_value: ...") and then names the axis and the offending values. Codes:
//   unsupported_type  an element type the spec does not allow, or two types that must match
//   shape_mismatch    wrong rank, length or element count
//   out_of_range      an axis index or pad amount outside what the spec allows
//   invalid_argument  names (mode, version), missing / extra attributes and inputs, duplicates
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/message_text.hpp"
#include "padnd/adapters/inputs.hpp"
#include "padnd/element_type.hpp"
#include "padnd/error.hpp"
#include "padnd/pad_spec.hpp"

namespace padnd::adapters {

/// Throws Error(code, "<argument>: <detail>").
[[noreturn]] void fail(Errc code, std::string_view argument, const std::string& detail);

// The message pieces of src/core/message_text.hpp, under the adapters' names.
using detail::axis_text;
using detail::list_text;
using detail::quoted;

/// Requires `t` to be 1-D with as many values as its shape says.
void require_vector(const IntTensor& t, std::string_view argument);
/// Requires `t.type` to be one of `allowed`.
void require_type_in(const IntTensor& t, std::string_view argument, std::span<const DType> allowed,
                     std::string_view context);
/// Rejects numpy's own element types (datetime64, timedelta64, longdouble, clongdouble), which
/// `context` does not have.
void require_not_numpy_only(const ElementType& type, std::string_view argument,
                            std::string_view context);
/// Requires `t.type` to be an integer type (padnd::is_integer).
void require_integer_type(const IntTensor& t, std::string_view argument, std::string_view context);
/// Requires `values.size() == expected`; `expected_text` explains it ("the data rank 2").
void require_length(std::span<const std::int64_t> values, std::string_view argument,
                    std::size_t expected, const std::string& expected_text);

/// Requires the value tensor's element list to match its shape.
void require_consistent(const ValueTensor& v, std::string_view argument);
/// Requires `v.type == data_type`.
void require_same_type(const ValueTensor& v, std::string_view argument,
                       const ElementType& data_type, std::string_view context);
/// Requires rank 0.
void require_scalar(const ValueTensor& v, std::string_view argument, std::string_view context);

/// One accepted spelling of a mode.
struct ModeName {
  std::string_view name;
  Mode mode;
};
/// Parses `text` against `accepted` (exactly, or ignoring ASCII case); the error lists them.
Mode parse_mode(std::string_view text, std::span<const ModeName> accepted,
                std::string_view argument, bool ignore_case, std::string_view context);

/// Requires a valid data shape (no negative length, an element count within int64), before any
/// rule compares pads with it (docs/spec.md §1.2); `argument` names the data input.
void require_shape(std::span<const std::int64_t> shape, std::string_view argument);

/// Per-axis pads from a begin and an end vector of equal length.
std::vector<AxisPad> axis_pads(std::span<const std::int64_t> begin,
                               std::span<const std::int64_t> end);

/// Requires every `pads[k].begin` / `.end` to be >= 0 (`why` says which spec forbids it).
void require_non_negative(const std::vector<AxisPad>& pads, std::string_view begin_name,
                          std::string_view end_name, std::string_view why);

/// Requires in_len >= min_len on every axis with a positive pad (EDGE needs 1, REFLECT 2).
void require_length_where_padded(const std::vector<AxisPad>& pads,
                                 std::span<const std::int64_t> shape, std::int64_t min_len,
                                 std::string_view begin_name, std::string_view end_name,
                                 std::string_view mode_text);

/// Requires begin <= in_len + slack and end <= in_len + slack on every axis (negative pads
/// always pass). REFLECT in OpenVINO uses slack -1, SYMMETRIC uses 0.
void require_pads_at_most(const std::vector<AxisPad>& pads, std::span<const std::int64_t> shape,
                          std::int64_t slack, std::string_view begin_name,
                          std::string_view end_name, std::string_view mode_text);

/// Requires begin + L + end >= 0 on every axis, L being the (interior-dilated) input length.
/// Sums that overflow are left to the planner, which reports them as overflow.
void require_non_negative_output(const std::vector<AxisPad>& pads,
                                 std::span<const std::int64_t> shape, std::string_view begin_name,
                                 std::string_view end_name);

/// `value` rounded to the nearest float16 (ties to even), as IEEE binary16 bits. Handles
/// subnormals, overflow to infinity, infinities and NaN (kept quiet, sign preserved).
std::uint16_t float_to_half_bits(float value);

}  // namespace padnd::adapters
