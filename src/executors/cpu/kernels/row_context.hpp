// SPDX-License-Identifier: Apache-2.0
// What a row kernel needs from the plan (the row's segments and its gather table), and where the
// input rows of a run of output rows start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "padnd/plan.hpp"
#include "plan/program.hpp"

namespace padnd::detail {

struct RowContext {
  std::span<const RowSegment> segments;
  const BorderedRow* bordered;  ///< the row program's bordered form, or null
  const std::int64_t* table;    ///< sources of the gather segments (Plan::gather_table())
  std::int64_t row_len;         ///< output positions per row
  std::int64_t in_stride;       ///< input stride of the row axis (bytes, or elements if packed)
  std::int64_t unit_bytes;      ///< bytes per position (byte storage)
  const std::string* fill;      ///< replicated pattern / string value / packed code
  int fill_byte;                ///< the byte every fill byte equals (memset), or -1
  bool stream;                  ///< long copies use non-temporal stores (traffic exceeds the LLC)
};

/// The input rows of a run of output rows, evenly spaced: row i starts at in + i * stride.
struct EvenRows {
  const std::byte* in;
  std::int64_t stride;
  const std::byte* operator[](std::int64_t i) const { return in + i * stride; }
  /// The rows from row i on.
  [[nodiscard]] EvenRows from(std::int64_t i) const { return {in + i * stride, stride}; }
};

/// The input rows of a run of output rows, listed: row i starts at in + offsets[i].
struct ListedRows {
  const std::byte* in;
  const std::int64_t* offsets;
  const std::byte* operator[](std::int64_t i) const { return in + offsets[i]; }
  [[nodiscard]] ListedRows from(std::int64_t i) const { return {in, offsets + i}; }
};

}  // namespace padnd::detail
