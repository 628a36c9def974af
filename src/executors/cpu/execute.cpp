// SPDX-License-Identifier: Apache-2.0
// Execution: walk the output rows in order; each row is either filled or built from segments.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "executors/cpu/engine.hpp"
#include "executors/cpu/kernels/bytes_rows.hpp"
#include "executors/cpu/kernels/fill_then_place.hpp"
#include "executors/cpu/kernels/kernel_list.hpp"
#include "executors/cpu/kernels/masked_rows.hpp"
#include "executors/cpu/kernels/packed_rows.hpp"
#include "executors/cpu/kernels/staged_output.hpp"
#include "executors/cpu/kernels/string_rows.hpp"
#include "executors/cpu/outer_walker.hpp"
#include "executors/cpu/parallel/thread_pool.hpp"
#include "executors/cpu/simd.hpp"
#include "executors/cpu/value_modes/passes.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "plan/plan_access.hpp"
#include "plan/plan_internal.hpp"

namespace padnd {
namespace {

using detail::PlanAxis;
using detail::Program;

using detail::OuterWalker;
using detail::RowContext;
using detail::Strategy;

/// Virtual machines may report the host's whole last-level cache, far more than one guest's share:
/// the cap keeps streaming for pads whose traffic really leaves the cache (docs/perf-cpp.md).
constexpr std::int64_t kStreamAboveMaxBytes = std::int64_t{96} << 20;

/// Streaming::automatic streams a pad whose traffic exceeds this: the last-level cache's size
/// (sysconf), at most kStreamAboveMaxBytes.
std::int64_t stream_above_bytes() {
  static const std::int64_t bytes = [] {
    long size = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    size = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    return size > 0 ? std::min(std::int64_t{size}, kStreamAboveMaxBytes) : kStreamAboveMaxBytes;
  }();
  return bytes;
}

std::int64_t outer_rows(std::span<const PlanAxis> axes) {
  std::int64_t n = 1;
  for (std::size_t k = 0; k + 1 < axes.size(); ++k) n *= axes[k].out_len;  // divides the output
  return n;
}

/// The cost model (docs/design.md, "Threads and the cost model"): a task moves at least
/// kMinTaskBytes of output when the pool's workers sleep (waking one costs more than it saves
/// below that), or kHotTaskBytes when they are awake (spinning after a recent loop). A loop has a
/// few tasks per thread so a slow thread does not hold it up (a loop too small for kTasksPerThread
/// on awake threads has one task per thread instead), and, unless streamed, tasks of kMaxTaskBytes
/// at most: a thread whose CPU is taken by other threads, or whose page faults are slow (a fresh
/// output's), holds up the loop by the one task it is running (the built-in pool keeps each
/// thread's tasks contiguous, so many tasks cost no locality). A streamed output was written
/// before (no page faults), and some streamed pads lose speed when split finer (an outer-axis
/// reflect of 4 KiB rows).
constexpr std::int64_t kMinTaskBytes = std::int64_t{512} << 10;
constexpr std::int64_t kHotTaskBytes = std::int64_t{128} << 10;
constexpr std::int64_t kTasksPerThread = 4;
constexpr std::int64_t kMaxTaskBytes = std::int64_t{1} << 20;
constexpr std::int64_t kMaxTasks = std::int64_t{1} << 16;
/// When outer axes repeat input rows (their borders), rows longer than this are written in column
/// chunks of this size, each across all the task's rows before the next, so that repeated input
/// is still in cache. Otherwise rows are written whole: one long memcpy streams best.
constexpr std::int64_t kChunkBytes = std::int64_t{64} << 10;

bool outer_rows_repeat(std::span<const PlanAxis> axes) {
  for (std::size_t k = 0; k + 1 < axes.size(); ++k) {
    if (!axes[k].plain && axes[k].in_len > 0) return true;
  }
  return false;
}

/// A byte-storage pad split into a grid of tasks: row ranges x column (position) ranges.
struct BytesLoop {
  const Plan* plan;
  /// Pointed to, not copied: a copy of a context just built stalls on store forwarding.
  const detail::RowContext* ctx;
  const std::byte* in;
  std::byte* out;
  std::int64_t rows;
  std::int64_t row_parts;
  std::int64_t col_parts;
  std::int64_t chunk;      ///< positions written per row before moving to the next row
  std::int64_t first_row;  ///< the plan's row that the loop's row 0 is
  std::int64_t pitch;      ///< output bytes from one row to the next (row bytes: dense)
  /// How whole rows are written; segments (the default) covers everything else.
  enum class Path : std::uint8_t {
    segments,  ///< write_rows straight to the output
    staged,    ///< whole rows through a StagedOutput (ctx.stream is then off)
    masked,    ///< whole rows by MaskedRows, from registers (streamed if ctx.stream)
  } path;
  std::uintptr_t in_lo;  ///< masked: address of the lowest input byte of the view
  std::uintptr_t in_hi;  ///< masked: one past the highest
};

/// Short rows (up to kBatchRowBytes) are written in batches of kBatchRows: their sources are
/// gathered first, then each segment of the row program runs over the whole batch, so a row costs
/// a few instructions per segment. Longer rows are written one at a time: batching them splits
/// each row's cache lines between segment passes, which measured slower.
constexpr std::int64_t kBatchRows = 64;
constexpr std::int64_t kBatchRowBytes = 256;

/// The walker is at a pad block of an outer axis: fills its rows from `r` (at `row`) up to r1,
/// and those of the pad blocks right after it, positions [p0, p1) of each (whole rows are one
/// fill: they are contiguous in the output), and moves the walker past them. Returns the next
/// row.
std::int64_t fill_pad_block(const BytesLoop& loop, OuterWalker& walker, std::int64_t r,
                            std::int64_t r1, std::byte* row, std::int64_t p0, std::int64_t p1) {
  const RowContext& ctx = *loop.ctx;
  const std::int64_t row_bytes = ctx.row_len * ctx.unit_bytes;
  std::int64_t n = 0;
  do {  // adjacent blocks (the end of one axis's run, the start of the next) make one fill
    const std::int64_t block_rows = walker.pad_rows();
    const std::int64_t rows = std::min(r1 - r - n, block_rows);
    if (rows == block_rows) {
      walker.skip_pad_block();
    } else {
      walker.advance_in_pad(rows);
    }
    n += rows;
  } while (r + n < r1 && walker.pad());
  if (p0 == 0 && p1 == ctx.row_len && loop.pitch == row_bytes) {
    detail::fill_bytes(row, n * row_bytes, ctx);
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      detail::fill_bytes(row + i * loop.pitch + p0 * ctx.unit_bytes, (p1 - p0) * ctx.unit_bytes,
                         ctx);
    }
  }
  return r + n;
}

/// Whole rows [r0, r1), row r0 at `out`: pad blocks are filled, and every other row is written
/// a run (or a plane of a listed run) at a time by write_run(out_row, in_rows, rows, lo, hi),
/// with in_rows an EvenRows or a ListedRows (the input rows, starting at input offsets in
/// [lo, hi]): the loop keeps the offsets in registers.
template <class WriteRun>
void whole_rows(const BytesLoop& loop, OuterWalker& walker, std::int64_t r0, std::int64_t r1,
                std::byte* out, const WriteRun& write_run) {
  const RowContext& ctx = *loop.ctx;
  for (std::int64_t r = r0; r < r1;) {
    std::byte* row = out + (r - r0) * loop.pitch;
    if (walker.pad()) {
      r = fill_pad_block(loop, walker, r, r1, row, 0, ctx.row_len);
      continue;
    }
    const OuterWalker::Run run = walker.take_run(r1 - r, /*whole_planes=*/true);
    const std::byte* in = loop.in + run.offset;
    if (run.listed != nullptr) {
      const std::int64_t plane_rows = run.rows / run.planes;
      for (std::int64_t p = 0; p < run.planes; ++p) {
        const std::int64_t shift = p * run.plane_stride;
        write_run(row + p * plane_rows * loop.pitch, detail::ListedRows{in + shift, run.listed},
                  plane_rows, run.lo + shift, run.hi + shift);
      }
    } else {
      write_run(row, detail::EvenRows{in, run.stride}, run.rows, run.lo, run.hi);
    }
    r += run.rows;
  }
}

/// How bordered rows read their input. A window's rows are pieces of longer input rows, each
/// starting cold for the hardware prefetcher: streamed ones are copied kGroupRows at a time
/// (stream_rows), cached ones ask for the next row's start. Back-to-back input rows need
/// neither, short ones cost less than the help, and copies of 16 KiB and more already keep four
/// pages busy each (PageLoop).
enum class RowReads : std::uint8_t { plain, prefetched, grouped };

RowReads row_reads(const Plan& plan, const RowContext& ctx) {
  constexpr std::int64_t kPrefetchMinBytes = 512;
  const std::int64_t copy_bytes = ctx.bordered->copy_len * ctx.unit_bytes;
  if (copy_bytes < kPrefetchMinBytes) return RowReads::plain;  // first: tiny pads pay nothing more
  const std::span<const PlanAxis> axes = detail::program(plan).axes();
  if (axes.size() < 2 || axes[axes.size() - 2].in_stride == copy_bytes) return RowReads::plain;
  if (ctx.stream && copy_bytes >= detail::kStreamMinBytes &&
      copy_bytes < detail::kGroupMaxRowBytes) {
    return RowReads::grouped;
  }
  return RowReads::prefetched;
}

/// Writes positions [p0, p1) of rows [r0, r1), row r0 at `out`, and leaves `walker` at r1.
template <std::int64_t W>
void write_rows(const BytesLoop& loop, OuterWalker& walker, std::int64_t r0, std::int64_t r1,
                std::byte* out, std::int64_t p0, std::int64_t p1) {
  const RowContext& ctx = *loop.ctx;
  const std::int64_t row_bytes = ctx.row_len * ctx.unit_bytes;
  if (ctx.bordered != nullptr && p0 == 0 && p1 == ctx.row_len) {
    // The bordered form: a row costs its copy and two short border writes. The pitch is a
    // local: read through `loop`, it would be reloaded after every row's byte stores.
    const detail::BorderedRowWriter<W> write_row(ctx);
    const std::int64_t pitch = loop.pitch;
    const RowReads reads = row_reads(*loop.plan, ctx);
    // One loop per way of reading, chosen once: a single loop choosing inside measured slower
    // on short rows.
    if (reads == RowReads::grouped) {
      whole_rows(loop, walker, r0, r1, out,
                 [&](std::byte* row, const auto& in_rows, std::int64_t rows, std::int64_t,
                     std::int64_t) { write_row.streamed_groups(row, pitch, in_rows, rows); });
      return;
    }
    if (reads == RowReads::prefetched) {
      whole_rows(
          loop, walker, r0, r1, out,
          [&](std::byte* row, const auto& in_rows, std::int64_t rows, std::int64_t, std::int64_t) {
            for (std::int64_t i = 0; i < rows; ++i) {
              if (i + 1 < rows) write_row.prefetch(in_rows[i + 1]);
              write_row(row + i * pitch, in_rows[i]);
            }
          });
      return;
    }
    whole_rows(
        loop, walker, r0, r1, out,
        [&](std::byte* row, const auto& in_rows, std::int64_t rows, std::int64_t, std::int64_t) {
          for (std::int64_t i = 0; i < rows; ++i) write_row(row + i * pitch, in_rows[i]);
        });
    return;
  }
  const auto row_at = [&](std::int64_t r) { return out + (r - r0) * loop.pitch; };
  const std::int64_t batch = row_bytes <= kBatchRowBytes ? kBatchRows : 1;
  std::byte* dst[kBatchRows];
  const std::byte* src[kBatchRows];
  std::byte* seg_dst[kBatchRows];
  for (std::int64_t r = r0; r < r1;) {
    const std::int64_t end = std::min(r1, r + batch);
    std::int64_t count = 0;
    while (r < end) {
      if (walker.pad()) {
        r = fill_pad_block(loop, walker, r, r1, row_at(r), p0, p1);
        continue;
      }
      const OuterWalker::Run run = walker.take_run(end - r);
      for (std::int64_t i = 0; i < run.rows; ++i, ++count) {
        dst[count] = row_at(r + i);
        src[count] = loop.in + run.row_offset(i);
      }
      r += run.rows;
    }
    detail::bytes_rows<W>(ctx, detail::RowBatch{count, dst, src}, p0, p1, seg_dst);
  }
}

#if PADND_SSE2
/// One bordered row, out of line: inlined into the masked loop for its few rows at the view's
/// ends, it slowed every row of a pad of short rows by a third.
template <std::int64_t W>
[[gnu::noinline]] void bordered_row_out_of_line(const detail::BorderedRowWriter<W>& write_row,
                                                std::byte* row, const std::byte* in) {
  write_row(row, in);
}

/// Whole rows [r0, r1) of a plan that MaskedRows fits, from registers. The rows of a run whose
/// loads would reach outside the input view (where the pieces read past the row: the view's
/// first and last rows, and every row of a view with a zero stride) are written from the row
/// program, the rest of the run still from registers.
template <std::int64_t W>
void masked_rows(const BytesLoop& loop, std::int64_t r0, std::int64_t r1) {
  const RowContext& ctx = *loop.ctx;
  const std::int64_t row_bytes = ctx.row_len * ctx.unit_bytes;
  const detail::MaskedRows<W> masked(ctx, *ctx.bordered);
  const detail::BorderedRowWriter<W> bordered_row(ctx);
  // Whether the loads of rows starting from input offsets `lo` to `hi` stay inside the view.
  const auto inside = [&](std::int64_t lo, std::int64_t hi) {
    const auto first = reinterpret_cast<std::uintptr_t>(loop.in) + lo + masked.shift();
    const auto last = reinterpret_cast<std::uintptr_t>(loop.in) + hi + masked.shift();
    return first >= loop.in_lo && last + row_bytes <= loop.in_hi;  // may wrap: then outside
  };
  OuterWalker walker(*loop.plan, loop.first_row + r0);
  whole_rows(loop, walker, r0, r1, loop.out + r0 * row_bytes,
             [&](std::byte* row, const auto& in_rows, std::int64_t rows, std::int64_t lo,
                 std::int64_t hi) {
               if (inside(lo, hi)) [[likely]] {
                 masked.write_run(row, in_rows, rows);
                 return;
               }
               // Rows outside, one by one; the stretches of rows between them, as runs.
               const auto row_inside = [&](std::int64_t i) {
                 const std::int64_t at = in_rows[i] - loop.in;
                 return inside(at, at);
               };
               for (std::int64_t i = 0; i < rows;) {
                 if (!row_inside(i)) {
                   bordered_row_out_of_line(bordered_row, row + i * row_bytes, in_rows[i]);
                   ++i;
                   continue;
                 }
                 std::int64_t end = i + 1;
                 while (end < rows && row_inside(end)) ++end;
                 masked.write_run(row + i * row_bytes, in_rows.from(i), end - i);
                 i = end;
               }
             });
  detail::stream_fence();
}
#endif

#if PADND_SSE2
/// The input bytes a plan's view spans: [lo, hi) relative to the input pointer (the masked
/// rows' bounds).
std::pair<std::int64_t, std::int64_t> view_span(const Plan& plan) {
  const Program& prog = detail::program(plan);
  std::int64_t lo = prog.view_offset();
  std::int64_t hi = prog.view_offset() + prog.unit_bytes();
  for (const PlanAxis& a : prog.axes()) {
    const std::int64_t reach = (a.in_len - 1) * a.in_stride;  // in_len >= 1: rows are read
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}
#endif

/// Whole rows [r0, r1) through a StagedOutput, a stage-full at a time.
template <std::int64_t W>
void staged_rows(const BytesLoop& loop, std::int64_t r0, std::int64_t r1) {
  const std::int64_t row_bytes = loop.ctx->row_len * loop.ctx->unit_bytes;
  const std::int64_t group = detail::StagedOutput::kStageBytes / row_bytes;
  detail::StagedOutput stage(loop.out + r0 * row_bytes);
  OuterWalker walker(*loop.plan, loop.first_row + r0);
  for (std::int64_t r = r0; r < r1;) {
    const std::int64_t r_end = std::min(r1, r + group);
    if (stage.room() < (r_end - r) * row_bytes) stage.flush();
    write_rows<W>(loop, walker, r, r_end, stage.reserve((r_end - r) * row_bytes), 0,
                  loop.ctx->row_len);
    r = r_end;
  }
  stage.finish();
}

template <std::int64_t W>
void bytes_task(void* context, std::int64_t task) {
  const BytesLoop& loop = *static_cast<const BytesLoop*>(context);
  const RowContext& ctx = *loop.ctx;
  // The whole grid when it is one task (every small pad): six 64-bit divisions cost as much as
  // writing a tiny output.
  std::int64_t r0 = 0;
  std::int64_t r1 = loop.rows;
  std::int64_t c0 = 0;
  std::int64_t c1 = ctx.row_len;
  if (loop.row_parts > 1 || loop.col_parts > 1) {
    const std::int64_t row_part = task / loop.col_parts;
    const std::int64_t col_part = task % loop.col_parts;
    r0 = loop.rows * row_part / loop.row_parts;
    r1 = loop.rows * (row_part + 1) / loop.row_parts;
    c0 = ctx.row_len * col_part / loop.col_parts;
    c1 = ctx.row_len * (col_part + 1) / loop.col_parts;
  }
  if (loop.path == BytesLoop::Path::staged) {
    staged_rows<W>(loop, r0, r1);
    return;
  }
#if PADND_SSE2
  if constexpr (W > 0 && 16 % W == 0) {
    if (loop.path == BytesLoop::Path::masked) {
      masked_rows<W>(loop, r0, r1);
      return;
    }
  }
#endif
  for (std::int64_t p0 = c0; p0 < c1; p0 += loop.chunk) {
    const std::int64_t p1 = std::min(c1, p0 + loop.chunk);
    OuterWalker walker(*loop.plan, loop.first_row + r0);
    write_rows<W>(loop, walker, r0, r1, loop.out + r0 * loop.pitch, p0, p1);
  }
  if (ctx.stream) detail::stream_fence();
}

/// Rows [first_row, first_row + rows) of a plan's output, the first at `out`, `pitch` bytes
/// (string objects: strings, bytes: packed) from one to the next.
struct RowBlock {
  std::int64_t first_row;
  std::int64_t rows;
  std::byte* out;
  std::int64_t pitch;
};

/// How many tasks the cost model splits `bytes` of output into (1: it runs on the calling
/// thread); reads the caller's CPUs into `cpus` if it considers splitting.
std::int64_t task_count(std::int64_t bytes, const ExecOptions& options, bool streamed,
                        detail::CallerCpus& cpus) {
  if (bytes < 2 * kHotTaskBytes || detail::thread_limit(options) == 1) return 1;
  const int threads = detail::usable_threads(options, cpus);
  if (threads == 1) return 1;
  const bool hot = detail::pool_is_hot(options);
  std::int64_t tasks = std::clamp<std::int64_t>(bytes / (hot ? kHotTaskBytes : kMinTaskBytes), 1,
                                                std::int64_t{threads} * kTasksPerThread);
  // A mid-sized pad that runs alone because the workers sleep wakes them for the next call.
  if (tasks == 1) detail::warm_pool(options);
  // Awake threads claim a mid-sized loop's tasks from one counter: a second task each costs
  // more in claims than it balances (docs/perf-windows.md).
  if (hot && tasks < std::int64_t{threads} * kTasksPerThread) {
    tasks = std::min<std::int64_t>(tasks, threads);
  }
  if (!streamed) tasks = std::clamp(bytes / kMaxTaskBytes, tasks, kMaxTasks);
  // A whole number of tasks per thread: with 3 tasks on 2 threads one thread does two thirds.
  if (tasks > threads) tasks = tasks / threads * threads;
  return tasks;
}

/// Splits the loop's rows and columns into `tasks` parts.
void split_grid(BytesLoop& loop, std::int64_t row_len, std::int64_t tasks) {
  if (loop.chunk < row_len && row_len / loop.chunk >= tasks) {
    loop.col_parts = tasks;  // repeated rows: every task keeps all rows, so reuse stays in-task
  } else if (loop.rows >= tasks) {
    loop.row_parts = tasks;
  } else {  // few long rows: split them into column ranges too
    loop.row_parts = loop.rows;
    loop.col_parts = std::min(row_len, (tasks + loop.rows - 1) / loop.rows);
  }
}

/// How whole rows are written: from registers (masked), through a stage, or as segments.
template <std::int64_t W>
void choose_path(BytesLoop& loop, [[maybe_unused]] const Plan& plan) {
  const RowContext& ctx = *loop.ctx;
  const std::int64_t row_bytes = ctx.row_len * ctx.unit_bytes;
  // Both fast paths write rows back to back.
  if (loop.col_parts != 1 || loop.chunk < ctx.row_len || loop.pitch != row_bytes) return;
#if PADND_SSE2
  if constexpr (W > 0 && 16 % W == 0) {
    if (ctx.bordered != nullptr && detail::MaskedRows<W>::fits(*ctx.bordered, row_bytes) &&
        reinterpret_cast<std::uintptr_t>(loop.out) % 16 == 0) {
      const auto [lo, hi] = view_span(plan);
      loop.path = BytesLoop::Path::masked;
      loop.in_lo = reinterpret_cast<std::uintptr_t>(loop.in) + lo;
      loop.in_hi = reinterpret_cast<std::uintptr_t>(loop.in) + hi;
      return;
    }
  }
#endif
  if (ctx.stream && row_bytes >= detail::StagedOutput::kMinRowBytes &&
      row_bytes <= detail::StagedOutput::kMaxRowBytes) {
    loop.path = BytesLoop::Path::staged;
  }
}

/// Writes a block of rows as `tasks` tasks (1: on the calling thread).
template <std::int64_t W>
void run_bytes(const Plan& plan, const RowContext& ctx, const std::byte* in, const RowBlock& block,
               std::int64_t tasks, const ExecOptions& options, detail::CallerCpus& cpus) {
  BytesLoop loop{.plan = &plan,
                 .ctx = &ctx,
                 .in = in,
                 .out = block.out,
                 .rows = block.rows,
                 .row_parts = 1,
                 .col_parts = 1,
                 .chunk = ctx.row_len,
                 .first_row = block.first_row,
                 .pitch = block.pitch,
                 .path = BytesLoop::Path::segments,
                 .in_lo = 0,
                 .in_hi = 0};
  if (ctx.row_len * ctx.unit_bytes > kChunkBytes &&
      outer_rows_repeat(detail::program(plan).axes())) {
    loop.chunk = std::max<std::int64_t>(1, kChunkBytes / ctx.unit_bytes);
  }
  split_grid(loop, ctx.row_len, tasks);
  choose_path<W>(loop, plan);
  // Made only when staged: value-initialising a context on every call zeroes it (rep stos).
  std::optional<RowContext> staged_ctx;
  if (loop.path == BytesLoop::Path::staged) {
    staged_ctx.emplace(ctx);
    staged_ctx->stream = false;  // the stage itself is cached; it streams out
    loop.ctx = &*staged_ctx;
  }
  const std::int64_t parts = loop.row_parts * loop.col_parts;
  if (parts == 1) {
    bytes_task<W>(&loop, 0);  // every tiny and small pad: no call through the pool
  } else {
    detail::parallel_for(options, parts, &bytes_task<W>, &loop, &cpus);
  }
}

/// An output's rows as blocks whose rows lie a constant pitch apart: one block for a dense
/// output; a window in a strided buffer has one per position of the outer axes whose strides do
/// not follow from the inner ones (axes [0, uniform)).
struct BlockGrid {
  std::span<const PlanAxis> axes;
  std::byte* out;
  std::size_t uniform;
  std::int64_t rows;   ///< rows per block
  std::int64_t count;  ///< blocks

  BlockGrid(const Plan& plan, std::byte* out_) : axes(detail::program(plan).axes()), out(out_) {
    const std::size_t outer = axes.size() - 1;
    uniform = outer == 0 ? 0 : outer - 1;
    rows = outer == 0 ? 1 : axes[uniform].out_len;
    while (uniform > 0 &&
           axes[uniform - 1].out_stride == axes[uniform].out_len * axes[uniform].out_stride) {
      rows *= axes[--uniform].out_len;
    }
    count = 1;
    for (std::size_t k = 0; k < uniform; ++k) count *= axes[k].out_len;  // divides the output
  }

  RowBlock block(std::int64_t b) const {
    const std::size_t outer = axes.size() - 1;
    // One row: its pitch is its own size, as in a dense output.
    const std::int64_t pitch =
        outer == 0 ? axes[0].out_len * axes[0].out_stride : axes[outer - 1].out_stride;
    std::int64_t offset = 0;
    for (std::int64_t q = b, k = static_cast<std::int64_t>(uniform); k-- > 0;
         q /= axes[k].out_len) {
      offset += q % axes[k].out_len * axes[k].out_stride;
    }
    return RowBlock{b * rows, rows, out + offset, pitch};
  }
};

/// A byte-storage output of many blocks, split between tasks a range of whole blocks each.
struct BlocksLoop {
  const Plan* plan;
  const RowContext* ctx;
  const std::byte* in;
  const BlockGrid* grid;
  const ExecOptions* options;
  std::int64_t tasks;
};

template <std::int64_t W>
void blocks_task(void* context, std::int64_t task) {
  const BlocksLoop& loop = *static_cast<const BlocksLoop*>(context);
  const std::int64_t count = loop.grid->count;
  detail::CallerCpus unused;  // one task per block: the pool is not asked
  for (std::int64_t b = count * task / loop.tasks; b < count * (task + 1) / loop.tasks; ++b) {
    run_bytes<W>(*loop.plan, *loop.ctx, loop.in, loop.grid->block(b), 1, *loop.options, unused);
  }
}

/// The blocks of a byte-storage output: as many tasks as the cost model gives their bytes, each a
/// range of blocks; blocks fewer than that are split into tasks one after another.
template <std::int64_t W>
void run_bytes_blocks(const Plan& plan, const RowContext& ctx, const std::byte* in, std::byte* out,
                      const ExecOptions& options) {
  const BlockGrid grid(plan, out);
  const std::int64_t block_bytes = grid.rows * ctx.row_len * ctx.unit_bytes;
  detail::CallerCpus cpus;  // read only for a pad big enough to split
  const std::int64_t tasks = task_count(grid.count * block_bytes, options, ctx.stream, cpus);
  if (grid.count >= tasks && grid.count > 1) {
    BlocksLoop loop{&plan, &ctx, in, &grid, &options, tasks};
    if (tasks == 1) return blocks_task<W>(&loop, 0);
    return detail::parallel_for(options, tasks, &blocks_task<W>, &loop, &cpus);
  }
  for (std::int64_t b = 0; b < grid.count; ++b) {
    const std::int64_t block_tasks =
        grid.count == 1 ? tasks : task_count(block_bytes, options, ctx.stream, cpus);
    run_bytes<W>(plan, ctx, in, grid.block(b), block_tasks, options, cpus);
  }
}

void run_strings(const Plan& plan, const RowContext& ctx, const std::byte* in,
                 const RowBlock& block) {
  OuterWalker walker(plan, block.first_row);
  for (std::int64_t r = 0; r < block.rows; ++r, walker.next()) {
    auto* dst = reinterpret_cast<std::string*>(block.out + r * block.pitch);
    if (walker.pad()) {
      detail::string_fill(dst, ctx.row_len, *ctx.fill);
    } else {
      detail::string_row(ctx, dst, in + walker.offset());
    }
  }
}

/// Packed outputs are dense: their rows need not start at a byte.
template <int BITS>
void run_packed(const Plan& plan, const RowContext& ctx, const std::uint8_t* in,
                std::uint8_t* out) {
  OuterWalker walker(plan, 0);
  const std::int64_t rows = outer_rows(detail::program(plan).axes());
  detail::PackedWriter<BITS> writer(out);
  const auto fill = static_cast<std::uint8_t>((*ctx.fill)[0]);
  for (std::int64_t r = 0; r < rows; ++r, walker.next()) {
    if (walker.pad()) {
      writer.put_fill(fill, ctx.row_len);
    } else {
      detail::packed_row<BITS>(ctx, writer, in, walker.offset());
    }
  }
  writer.flush();
}

RowContext row_context(const Plan& plan, const ExecOptions& options) {
  using detail::PlanAccess;
  const Program& prog = detail::program(plan);
  const PlanAxis& row = prog.axes().back();
  return RowContext{
      prog.row_segments(),
      prog.bordered_row() ? &*prog.bordered_row() : nullptr,
      prog.gather_table().data(),
      row.out_len,
      row.in_stride,
      prog.unit_bytes(),
      &PlanAccess::fill(plan),
      PlanAccess::fill_byte(plan),
      options.streaming == Streaming::always || (options.streaming == Streaming::automatic &&
                                                 prog.traffic_bytes() > stream_above_bytes())};
}

void run_by_width(const Plan& plan, const RowContext& ctx, const std::byte* in, std::byte* out,
                  const ExecOptions& options) {
  const std::int64_t unit = detail::program(plan).unit_bytes();
  // The unit widths of the kernel list, in order; its last entry (0) takes every other unit.
#define PADND_RUN_WIDTH(kernel, W) \
  if (W == 0 || unit == W) return run_bytes_blocks<W>(plan, ctx, in, out, options);
  PADND_UNIT_WIDTHS(PADND_RUN_WIDTH, segments)
#undef PADND_RUN_WIDTH
}

}  // namespace

namespace detail {
void run_engine(const Plan& plan, const void* in, void* out, const ExecOptions& options) {
  const auto* in_bytes = static_cast<const std::byte*>(in);
  auto* out_bytes = static_cast<std::byte*>(out);
  switch (program(plan).strategy()) {
    case Strategy::nothing:
      return;
    case Strategy::fill_then_place:
      return fill_then_place(plan, in_bytes, out_bytes, PlanAccess::fill_byte(plan),
                             PlanAccess::fill(plan));
    case Strategy::strings: {
      const RowContext ctx = row_context(plan, options);
      const BlockGrid grid(plan, out_bytes);
      for (std::int64_t b = 0; b < grid.count; ++b) run_strings(plan, ctx, in_bytes, grid.block(b));
      return;
    }
    case Strategy::packed: {
      const RowContext ctx = row_context(plan, options);
      const auto* in_codes = static_cast<const std::uint8_t*>(in);
      auto* out_codes = static_cast<std::uint8_t*>(out);
      if (plan.type().storage() == Storage::nibble) {
        return run_packed<4>(plan, ctx, in_codes, out_codes);
      }
      return run_packed<2>(plan, ctx, in_codes, out_codes);
    }
    case Strategy::bordered:
    case Strategy::segments:
      return run_by_width(plan, row_context(plan, options), in_bytes, out_bytes, options);
  }
}

void check_options(const ExecOptions& options) {
  if (options.threads < 0) {
    throw Error(Errc::invalid_argument,
                "threads: expected 0 (one per core) or a positive count, got " +
                    std::to_string(options.threads));
  }
  if (static_cast<unsigned>(options.streaming) > static_cast<unsigned>(Streaming::never)) {
    throw Error(Errc::invalid_argument,
                "streaming: unknown Streaming value " +
                    std::to_string(static_cast<unsigned>(options.streaming)));
  }
}

}  // namespace detail

void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
             const ExecOptions& options) {
  detail::check_options(options);
  if (out_bytes < plan.output_bytes()) {
    throw Error(Errc::shape_mismatch, "output: buffer of " + std::to_string(out_bytes) +
                                          " bytes is smaller than the " +
                                          std::to_string(plan.output_bytes()) + " bytes needed");
  }
  if (plan.output_elements() == 0) return;
  detail::check_buffers(plan, in, out);
  detail::run_engine(plan, in, out, options);
  if (!detail::program(plan).passes().empty()) {
    detail::run_passes(plan, static_cast<std::byte*>(out));  // numpy's passes
  }
}

ExecOptions fresh_output_options(ExecOptions options) {
  if (options.streaming == Streaming::automatic) options.streaming = Streaming::never;
  return options;
}

Tensor pad(const TensorView& input, const PadSpec& spec, const ExecOptions& options) {
  // The output before any table: a request too big to allocate fails before planning work.
  Plan plan = detail::PlanAccess::validate(input.type, input.shape, input.byte_strides, spec);
  Tensor out =
      Tensor::uninitialized(input.type, {plan.output_shape().begin(), plan.output_shape().end()});
  detail::PlanAccess::complete(plan, input.byte_strides, spec);
  execute(plan, input.data, out.data(), out.byte_size(), fresh_output_options(options));
  return out;
}

void pad_into(const TensorView& input, const PadSpec& spec, void* out, std::int64_t out_bytes,
              const ExecOptions& options) {
  const Plan plan = make_plan(input.type, input.shape, input.byte_strides, spec);
  execute(plan, input.data, out, out_bytes, options);
}

}  // namespace padnd
