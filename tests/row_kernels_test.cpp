// SPDX-License-Identifier: Apache-2.0
// Every row kernel of the kernel list (src/executors/cpu/kernels/kernel_list.hpp) alone against a
// naive loop: each unit width, row lengths 0 to 300, random row programs, unaligned outputs, rows a
// pitch apart, and random guard bytes around and between the rows that must stay unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "executors/cpu/kernels/kernel_list.hpp"
#include "plan/plan_internal.hpp"

namespace padnd {
namespace {

using detail::BorderedRow;
using detail::RowKernel;
using detail::RowSegment;

constexpr std::int64_t kMaxRowLen = 300;
/// Readable input bytes on each side of an input row: masked rows load whole pieces around it.
constexpr std::int64_t kInputSlack = 1024;

/// A row program with, per row position, the input index it reads (-1: the pad value).
struct RowCase {
  std::int64_t row_len = 0;
  std::int64_t in_len = 1;
  std::vector<RowSegment> segments;
  std::vector<std::int64_t> gather;
  std::optional<BorderedRow> bordered;
  std::vector<std::int64_t> sources;
};

std::int64_t below(std::mt19937_64& rng, std::int64_t n) {
  return n <= 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
}

/// A bordered border of `len` positions: the pad value, one element, or a run up or down.
BorderedRow::Border random_border(std::mt19937_64& rng, std::int64_t len, std::int64_t in_len,
                                  bool one_value) {
  const std::int64_t kind = below(rng, one_value && len > 1 ? 2 : 4);
  if (kind == 1) return {len, below(rng, in_len), 0};
  if (kind == 2 && len <= in_len) return {len, below(rng, in_len - len + 1), 1};
  if (kind == 3 && len <= in_len) return {len, len - 1 + below(rng, in_len - len + 1), -1};
  return {len, -1, 0};
}

void append_border_sources(const BorderedRow::Border& b, std::vector<std::int64_t>& sources) {
  for (std::int64_t i = 0; i < b.len; ++i) sources.push_back(b.src < 0 ? -1 : b.src + i * b.step);
}

/// A bordered row of `row_len` positions (its segments too, for the segment kernel's view).
RowCase bordered_case(std::mt19937_64& rng, std::int64_t row_len, bool one_value) {
  RowCase c;
  c.row_len = row_len;
  const std::int64_t copy_len = below(rng, row_len + 1);
  const std::int64_t begin_len = below(rng, row_len - copy_len + 1);
  c.in_len = std::max<std::int64_t>(copy_len, 1) + below(rng, 20);
  BorderedRow row;
  row.begin = random_border(rng, begin_len, c.in_len, one_value);
  row.copy_src = below(rng, c.in_len - copy_len + 1);
  row.copy_len = copy_len;
  row.end = random_border(rng, row_len - copy_len - begin_len, c.in_len, one_value);
  append_border_sources(row.begin, c.sources);
  for (std::int64_t i = 0; i < copy_len; ++i) c.sources.push_back(row.copy_src + i);
  append_border_sources(row.end, c.sources);
  c.bordered = row;
  return c;
}

/// Appends a random non-periodic segment of `len` positions at `at`.
void append_segment(std::mt19937_64& rng, RowCase& c, std::int64_t at, std::int64_t len) {
  using Kind = RowSegment::Kind;
  RowSegment seg{Kind::fill, at, len, 0, 1};
  const std::int64_t kind = below(rng, 6);
  std::vector<std::int64_t> src(static_cast<std::size_t>(len), -1);
  if (kind == 1 && len <= c.in_len) {
    seg = {Kind::copy, at, len, below(rng, c.in_len - len + 1), 1};
    for (std::int64_t i = 0; i < len; ++i) src[i] = seg.src_begin + i;
  } else if (kind == 2 && len <= c.in_len) {
    seg = {Kind::reverse, at, len, len - 1 + below(rng, c.in_len - len + 1), 1};
    for (std::int64_t i = 0; i < len; ++i) src[i] = seg.src_begin - i;
  } else if (kind == 3 && len >= 2) {
    const std::int64_t step = 2 + below(rng, 3);
    const std::int64_t values = (len - 1) / step + 1;
    if (values <= c.in_len) {
      seg = {Kind::interleave, at, len, below(rng, c.in_len - values + 1), step};
      for (std::int64_t i = 0; i < len; i += step) src[i] = seg.src_begin + i / step;
    }
  } else if (kind == 4) {
    seg = {Kind::gather, at, len, static_cast<std::int64_t>(c.gather.size()), 1};
    for (std::int64_t i = 0; i < len; ++i) c.gather.push_back(src[i] = below(rng, c.in_len));
  } else if (kind == 5) {
    seg = {Kind::repeat, at, len, below(rng, c.in_len), 1};
    std::fill(src.begin(), src.end(), seg.src_begin);
  }
  c.segments.push_back(seg);
  c.sources.insert(c.sources.end(), src.begin(), src.end());
}

/// A random segment program of `row_len` positions, periodic borders included: one before its
/// pattern at the start of the row, others after the segments they repeat.
RowCase segments_case(std::mt19937_64& rng, std::int64_t row_len) {
  RowCase c;
  c.row_len = row_len;
  c.in_len = 1 + below(rng, kMaxRowLen + 10);
  std::int64_t at = 0;
  if (row_len >= 3 && below(rng, 3) == 0) {  // a begin border: periodic [0, far), then pattern
    const std::int64_t far = 1 + below(rng, row_len - 2);
    const std::int64_t period = 1 + below(rng, std::min<std::int64_t>(row_len - far, 40));
    c.segments.push_back({RowSegment::Kind::periodic, 0, far, 1, 0});
    c.sources.assign(static_cast<std::size_t>(far), 0);  // set once the pattern exists
    for (std::int64_t p = far; p < far + period;) {
      const std::int64_t len = 1 + below(rng, far + period - p);
      append_segment(rng, c, p, len);
      p += len;
    }
    c.segments[0].step = static_cast<std::int64_t>(c.segments.size()) - 1;
    for (std::int64_t o = 0; o < far; ++o) {
      c.sources[o] = c.sources[far + (period - (far - o) % period) % period];
    }
    at = far + period;
  }
  while (at < row_len) {
    const std::int64_t len = 1 + below(rng, std::min<std::int64_t>(row_len - at, 60));
    const bool periodic = c.segments.size() > 0 && below(rng, 4) == 0 &&
                          c.segments.back().kind != RowSegment::Kind::periodic &&
                          c.segments.back().out_begin + c.segments.back().len == at;
    if (!periodic) {
      append_segment(rng, c, at, len);
      at += len;
      continue;
    }
    const RowSegment last = c.segments.back();  // an end border: repeat the last segment
    c.segments.push_back(
        {RowSegment::Kind::periodic, at, len, static_cast<std::int64_t>(c.segments.size()) - 1, 1});
    for (std::int64_t i = 0; i < len; ++i) {
      c.sources.push_back(c.sources[last.out_begin + i % last.len]);
    }
    at += len;
  }
  return c;
}

/// Runs kernel K (units of W bytes, `unit` at run time) on `rows` rows of `c` and compares the
/// output buffer, guards included, with what a naive per-position loop writes.
template <RowKernel K, std::int64_t W>
void check_case(std::mt19937_64& rng, const RowCase& c, std::int64_t unit, std::int64_t rows) {
  const std::int64_t row_bytes = c.row_len * unit;
  const bool masked = K == RowKernel::masked;
  const std::int64_t pitch = masked ? row_bytes : row_bytes + unit * below(rng, 3);
  const std::int64_t out_at = masked ? 64 : 64 + below(rng, 16);
  std::vector<std::byte> out(static_cast<std::size_t>(out_at + rows * pitch + 64 + 16));
  for (auto& b : out) b = static_cast<std::byte>(rng());
  auto* out_base = reinterpret_cast<std::byte*>(
      (reinterpret_cast<std::uintptr_t>(out.data()) + 15) / 16 * 16);  // aligned for masked
  const std::int64_t in_row_bytes = c.in_len * unit + 2 * kInputSlack + 16;
  std::vector<std::byte> in(static_cast<std::size_t>(rows * in_row_bytes));
  for (auto& b : in) b = static_cast<std::byte>(rng());
  std::vector<const std::byte*> in_rows;
  for (std::int64_t r = 0; r < rows; ++r) {
    in_rows.push_back(in.data() + r * in_row_bytes + kInputSlack + below(rng, 16));
  }
  std::string value(static_cast<std::size_t>(unit), '\0');
  if (below(rng, 4) != 0) {
    for (auto& ch : value) ch = static_cast<char>(rng());
  }
  const std::string pattern = detail::replicate_pattern(value);
  const bool same_bytes =
      std::all_of(value.begin(), value.end(), [&](char b) { return b == value[0]; });
  const detail::RowContext ctx{c.segments,
                               c.bordered ? &*c.bordered : nullptr,
                               c.gather.data(),
                               c.row_len,
                               unit,
                               unit,
                               &pattern,
                               same_bytes ? static_cast<unsigned char>(value[0]) : -1,
                               below(rng, 4) == 0};
  std::vector<std::byte> want(out);
  std::byte* const got_rows = out_base + out_at;
  const std::ptrdiff_t rows_at = got_rows - out.data();
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t o = 0; o < c.row_len; ++o) {
      const std::int64_t s = c.sources[o];
      const void* from = s < 0 ? static_cast<const void*>(value.data()) : in_rows[r] + s * unit;
      std::memcpy(want.data() + rows_at + r * pitch + o * unit, from,
                  static_cast<std::size_t>(unit));
    }
  }
  detail::row_kernel<K, W>(ctx, detail::RowRun{got_rows, pitch, in_rows.data(), rows});
  detail::stream_fence();
  ASSERT_EQ(out, want) << "row_len " << c.row_len << ", unit " << unit << ", rows " << rows;
}

/// Rows of whole 16-byte pieces up to MaskedRows' limit, borders of one value each. The masked
/// kernel exists with SSE2 only: the scalar build lists no masked kernel (kernel_list.hpp).
template <std::int64_t W>
void check_masked_case(std::mt19937_64& rng, std::int64_t len, std::int64_t unit,
                       std::int64_t rows) {
#if PADND_SSE2
  const std::int64_t pieces = 1 + len % (512 / 16);
  const RowCase c = bordered_case(rng, pieces * 16 / unit, true);
  ASSERT_TRUE(detail::MaskedRows<W>::fits(*c.bordered, c.row_len * unit));
  check_case<RowKernel::masked, W>(rng, c, unit, rows);
#else
  (void)rng, (void)len, (void)unit, (void)rows;
#endif
}

template <RowKernel K, std::int64_t W>
void check_kernel() {
  std::mt19937_64 rng(1234 + static_cast<int>(K) * 100 + W);
  const std::vector<std::int64_t> units =
      W > 0 ? std::vector<std::int64_t>{W} : std::vector<std::int64_t>{3, 12, 20};
  for (const std::int64_t unit : units) {
    for (std::int64_t len = 0; len <= kMaxRowLen; ++len) {
      const std::int64_t rows = 1 + below(rng, 4);
      if constexpr (K == RowKernel::masked) {
        check_masked_case<W>(rng, len, unit, rows);
      } else if constexpr (K == RowKernel::bordered) {
        check_case<K, W>(rng, bordered_case(rng, len, false), unit, rows);
      } else {
        check_case<K, W>(rng, segments_case(rng, len), unit, rows);
      }
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

#define PADND_KERNEL_TEST(kernel, W) \
  TEST(RowKernels, kernel##_##W) { check_kernel<RowKernel::kernel, W>(); }
PADND_ROW_KERNELS(PADND_KERNEL_TEST)
#undef PADND_KERNEL_TEST

}  // namespace
}  // namespace padnd
