// SPDX-License-Identifier: Apache-2.0
// padnd on every workload of bench/workloads.py, next to the machine's memcpy bounds measured in
// the same run. Bytes/second count bytes read + bytes written, for padnd and memcpy alike.
//
//   pad/<workload>/threads:all|1   execute into a preallocated, already-touched output (every
//                                  workload)
//   pad_cached/<workload>          the same on all cores with Streaming::never: what streaming
//                                  stores gain (large workloads)
//   alloc/<workload>               plan + fresh output (padnd::pad) + execute, all cores (every
//                                  workload)
//   memcpy/<workload>              all-core memcpy of the same byte count into a touched buffer
//   memcpy_fresh/<workload>        the input copied into a fresh 2 MiB-aligned MADV_HUGEPAGE
//                                  buffer of the output's size, the rest of it filled: the
//                                  pad's own bytes read and written, and its page faults
//                                  (both for large workloads: the bounds their targets quote)
//   memcpy_serial/<workload>       one thread's memcpy of the same bytes (medium: in cache)
//   overhead/plan+execute|execute/<tiny workload>   ns per call, serial
//   tiles64/<workload>             the same output as pad/<workload>/threads:all written as 64
//                                  windows, 8 x 8 tiles of the last two axes (64 pieces of a
//                                  1-D output), each into its place (large workloads); each
//                                  window's traffic decides its streaming, as a lone window's
//   tiles64_streamed/<workload>    the same with Streaming::always, as the whole pad streams
//   tiles64_concurrent/<workload>  the 64 windows shared between the cores (a contiguous range
//                                  each), every window on one thread: a tiled pipeline's way
//   memcpy_output|memcpy_tiles64/<workload>   a buffer of the output's shape copied into a
//                                  touched one whole or as the 64 tiles, all cores: the
//                                  tiling's own cost (large workloads)
//   stream_output|stream_tiles64/<workload>   the same with padnd's streamed copies (whole
//                                  parts; a tile's rows under 16 KiB kGroupRows at a time):
//                                  the tiling's cost with the stores the pad uses
//   kernel/<kernel>_<width>        each row kernel of the kernel list alone (kernel_bench.cpp)
//   value_window/<mode>/width:<w>  a 3 x 4 window half-way into a <w>-wide pad of numpy's value
//                                  mode <mode> (a 256 x 256 float32 input): a window's cost
//                                  as the pad widens
//   value_window_prepared/mean/width:<w>  the same window of the mean pad from a PreparedWindows
//                                  made once (its box, the input and one row each side)
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "executors/cpu/kernels/moves.hpp"
#include "kernel_bench.hpp"
#include "padnd/padnd.hpp"
#include "workload.hpp"

namespace {

using padnd::bench::bound_copy_bytes;
using padnd::bench::kWorkloads;
using padnd::bench::read_bytes;
using padnd::bench::spec_of;
using padnd::bench::Workload;
using padnd::bench::write_bytes;

/// Input data: every byte written once (touched), values varied.
std::vector<std::byte> make_input(const Workload& w) {
  std::vector<std::byte> in(static_cast<std::size_t>(
      padnd::storage_bytes(padnd::ElementType{w.dtype}, padnd::element_count(w.shape))));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::byte>(i * 131 + 7);
  return in;
}

int cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

/// fn(t) for every t in [0, n), each on its own thread (t = 0 on the calling thread).
template <class Fn>
void on_threads(int n, const Fn& fn) {
  std::vector<std::thread> helpers;
  for (int t = 1; t < n; ++t) helpers.emplace_back(fn, t);
  fn(0);
  for (auto& h : helpers) h.join();
}

/// memcpy of `bytes` split over `n` threads, a contiguous part each.
void parallel_memcpy(std::byte* dst, const std::byte* src, std::int64_t bytes, int n) {
  on_threads(n, [&](int t) {
    const std::int64_t b = bytes * t / n;
    const std::int64_t e = bytes * (t + 1) / n;
    std::memcpy(dst + b, src + b, static_cast<std::size_t>(e - b));
  });
}

std::byte* fresh_huge_buffer(std::int64_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t n = (static_cast<std::size_t>(bytes) + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, n);
  if (p == nullptr) throw std::bad_alloc();
  madvise(p, n, MADV_HUGEPAGE);
  return static_cast<std::byte*>(p);
}

void pad_into_touched(benchmark::State& state, const Workload& w, int threads,
                      padnd::Streaming streaming) {
  const padnd::ElementType type{w.dtype};
  const padnd::Plan plan = padnd::make_plan(type, w.shape, {}, spec_of(w));
  const auto in = make_input(w);
  std::vector<std::byte> out(static_cast<std::size_t>(plan.output_bytes()), std::byte{1});
  padnd::ExecOptions options;
  options.threads = threads;
  options.streaming = streaming;
  for (auto _ : state) {
    padnd::execute(plan, in.data(), out.data(), plan.output_bytes(), options);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * (read_bytes(w) + plan.output_bytes()));
}

void pad_allocating(benchmark::State& state, const Workload& w) {
  const auto in = make_input(w);
  const padnd::TensorView view{in.data(), padnd::ElementType{w.dtype}, w.shape, {}};
  const padnd::PadSpec spec = spec_of(w);
  std::int64_t out_bytes = 0;
  for (auto _ : state) {
    padnd::Tensor out = padnd::pad(view, spec);
    out_bytes = out.byte_size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * (read_bytes(w) + out_bytes));
}

/// memcpy of the same traffic into a touched buffer on `threads` threads: all cores for the
/// large workloads' bound; one for medium workloads, whose bytes stay in cache, which is what
/// one core can move at best.
void memcpy_touched(benchmark::State& state, const Workload& w, int threads) {
  const std::int64_t n = bound_copy_bytes(w);
  std::vector<std::byte> src(static_cast<std::size_t>(n), std::byte{3});
  std::vector<std::byte> dst(static_cast<std::size_t>(n), std::byte{1});
  for (auto _ : state) {
    parallel_memcpy(dst.data(), src.data(), n, threads);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * n);
}

/// The fresh-buffer bound: a fresh output-sized buffer, the input copied into it and the rest
/// filled (all cores). A fresh output's cost is mostly its page faults, so the bound must take
/// as many as the pad: a copy of half the traffic would fault only half of interior_f32's
/// output (4 times its input).
void memcpy_fresh(benchmark::State& state, const Workload& w) {
  const std::int64_t in_bytes = read_bytes(w);
  const std::int64_t out_bytes = write_bytes(w);
  const std::int64_t copied = std::min(in_bytes, out_bytes);
  std::vector<std::byte> src(static_cast<std::size_t>(copied), std::byte{3});
  for (auto _ : state) {
    std::byte* dst = fresh_huge_buffer(out_bytes);
    // Each thread copies its part of the input and fills its part of the rest.
    const int threads = cores();
    on_threads(threads, [&](int t) {
      const std::int64_t c0 = copied * t / threads;
      const std::int64_t c1 = copied * (t + 1) / threads;
      std::memcpy(dst + c0, src.data() + c0, static_cast<std::size_t>(c1 - c0));
      const std::int64_t f0 = copied + (out_bytes - copied) * t / threads;
      const std::int64_t f1 = copied + (out_bytes - copied) * (t + 1) / threads;
      std::memset(dst + f0, 0, static_cast<std::size_t>(f1 - f0));
    });
    benchmark::DoNotOptimize(dst);
    std::free(dst);
  }
  state.SetBytesProcessed(state.iterations() * (in_bytes + out_bytes));
}

/// Per-call time of a serial pad of `w` into a touched output: `replan` plans every call
/// (plan + execute), otherwise one plan is reused (execute alone).
void per_call(benchmark::State& state, const Workload& w, bool replan) {
  const padnd::ElementType type{w.dtype};
  const padnd::PadSpec spec = spec_of(w);
  const auto in = make_input(w);
  const padnd::Plan reused = padnd::make_plan(type, w.shape, {}, spec);
  std::vector<std::byte> out(static_cast<std::size_t>(reused.output_bytes()));
  padnd::ExecOptions serial;
  serial.threads = 1;
  for (auto _ : state) {
    if (replan) {
      const padnd::Plan plan = padnd::make_plan(type, w.shape, {}, spec);
      padnd::execute(plan, in.data(), out.data(), plan.output_bytes(), serial);
    } else {
      padnd::execute(reused, in.data(), out.data(), reused.output_bytes(), serial);
    }
    benchmark::DoNotOptimize(out.data());
  }
}

/// The output of `w` written as 64 windows into its place in a touched output, all threads.
/// The 64 tiles: 8 x 8 of the last two axes of `shape` (64 pieces of a 1-D shape).
std::vector<padnd::Window> tiles64(const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  std::vector<padnd::Window> tiles;
  const std::size_t y = rank >= 2 ? rank - 2 : 0;
  const int rows = rank >= 2 ? 8 : 1;
  const int cols = rank >= 2 ? 8 : 64;
  for (int i = 0; i < rows * cols; ++i) {
    padnd::Window t{std::vector<std::int64_t>(rank, 0), shape};
    const auto cut = [&](std::size_t k, int part, int parts) {
      t.start[k] = shape[k] * part / parts;
      t.shape[k] = shape[k] * (part + 1) / parts - t.start[k];
    };
    if (rank >= 2) cut(y, i / cols, rows);
    cut(rank - 1, i % cols, cols);
    tiles.push_back(t);
  }
  return tiles;
}

/// Dense byte strides of `shape` for `item`-byte elements.
std::vector<std::int64_t> dense_strides(const std::vector<std::int64_t>& shape, std::int64_t item) {
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t k = shape.size(); k-- > 0; item *= shape[k]) strides[k] = item;
  return strides;
}

/// Byte offset of a window's first element in a buffer of `strides`.
std::int64_t offset_of(const padnd::Window& t, const std::vector<std::int64_t>& strides) {
  std::int64_t at = 0;
  for (std::size_t k = 0; k < strides.size(); ++k) at += t.start[k] * strides[k];
  return at;
}

/// The 64 windows of `w`: one after another, each on all threads, or (`concurrent`) shared
/// between the cores, a contiguous range of tiles each, every window on its own thread.
void pad_tiles(benchmark::State& state, const Workload& w, padnd::Streaming streaming,
               bool concurrent) {
  const padnd::Plan plan = padnd::make_plan(padnd::ElementType{w.dtype}, w.shape, {}, spec_of(w));
  const auto in = make_input(w);
  std::vector<std::byte> out(static_cast<std::size_t>(plan.output_bytes()), std::byte{1});
  const std::vector<std::int64_t> shape(plan.output_shape().begin(), plan.output_shape().end());
  const auto strides = dense_strides(shape, padnd::ElementType{w.dtype}.item_bytes());
  const std::vector<padnd::Window> tiles = tiles64(shape);
  padnd::ExecOptions options;
  options.streaming = streaming;
  options.threads = concurrent ? 1 : 0;
  const int threads = concurrent ? cores() : 1;
  const auto tile_count = static_cast<std::int64_t>(tiles.size());
  for (auto _ : state) {
    on_threads(threads, [&](int part) {
      for (std::int64_t i = tile_count * part / threads; i < tile_count * (part + 1) / threads;
           ++i) {
        const padnd::Window& t = tiles[static_cast<std::size_t>(i)];
        padnd::execute_window(plan, in.data(), t, out.data() + offset_of(t, strides), strides,
                              options);
      }
    });
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * (read_bytes(w) + plan.output_bytes()));
}

/// How the tiling's own cost is measured: memcpy, or the streamed copies of padnd's kernels
/// (stream_bytes for whole parts and rows of padnd::detail::kGroupMaxRowBytes and more, which the
/// pad's rows copy four pages at a time too; stream_rows for a tile's shorter rows, kGroupRows at a
/// time, as a window's streamed rows go).
enum class Stores : std::uint8_t { memcpy, streamed };

/// `bytes` from `src` to `dst`, one run.
void copy_span(std::byte* dst, const std::byte* src, std::int64_t bytes, Stores stores) {
  const auto n = static_cast<std::size_t>(bytes);
  if (stores == Stores::memcpy) std::memcpy(dst, src, n);
  if (stores == Stores::streamed) padnd::detail::stream_bytes(dst, src, n);
}

/// Rows of `row_bytes` at the byte offsets `at` (at most kGroupRows) from `src` to `dst`.
void copy_rows(std::byte* dst, const std::byte* src, const std::int64_t* at, int rows,
               std::int64_t row_bytes, Stores stores) {
  if (stores == Stores::memcpy || row_bytes >= padnd::detail::kGroupMaxRowBytes) {
    for (int p = 0; p < rows; ++p) copy_span(dst + at[p], src + at[p], row_bytes, stores);
    return;
  }
  std::byte* to[padnd::detail::kGroupRows];
  const std::byte* from[padnd::detail::kGroupRows];
  for (int p = 0; p < rows; ++p) {
    to[p] = dst + at[p];
    from[p] = src + at[p];
  }
  padnd::detail::stream_rows(to, from, rows, static_cast<std::size_t>(row_bytes));
}

/// Rows [r0, r1) of `tile` (in a buffer of `strides`, its rows along the last axis).
void copy_tile_rows(std::byte* dst, const std::byte* src, const padnd::Window& tile,
                    const std::vector<std::int64_t>& strides, std::int64_t r0, std::int64_t r1,
                    Stores stores) {
  const std::size_t row_axis = strides.size() - 1;
  const std::int64_t row_bytes = tile.shape[row_axis] * strides[row_axis];
  const std::int64_t first = offset_of(tile, strides);
  std::int64_t at[padnd::detail::kGroupRows];
  int count = 0;
  for (std::int64_t r = r0; r < r1; ++r) {
    std::int64_t o = first;  // the row's first element
    for (std::int64_t q = r, k = static_cast<std::int64_t>(row_axis); k-- > 0;
         q /= tile.shape[static_cast<std::size_t>(k)]) {
      o += q % tile.shape[static_cast<std::size_t>(k)] * strides[static_cast<std::size_t>(k)];
    }
    at[count++] = o;
    if (count == padnd::detail::kGroupRows || r + 1 == r1) {
      copy_rows(dst, src, at, count, row_bytes, stores);
      count = 0;
    }
  }
}

/// The tiling's own cost: a buffer of the output's shape copied into another as the 64 tiles
/// (each tile's rows split between all cores), or (`tiled` false) whole, all cores.
void copy_output(benchmark::State& state, const Workload& w, bool tiled, Stores stores) {
  const std::vector<std::int64_t> shape = padnd::infer_shape(w.shape, spec_of(w));
  const std::int64_t bytes = write_bytes(w);
  std::vector<std::byte> src(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 131 + 7);
  std::vector<std::byte> dst(static_cast<std::size_t>(bytes), std::byte{1});
  const auto strides = dense_strides(shape, padnd::ElementType{w.dtype}.item_bytes());
  const std::vector<padnd::Window> tiles = tiles64(shape);
  const int threads = cores();
  for (auto _ : state) {
    on_threads(threads, [&](int t) {
      if (!tiled) {
        const std::int64_t b = bytes * t / threads;
        copy_span(dst.data() + b, src.data() + b, bytes * (t + 1) / threads - b, stores);
      }
      for (std::size_t i = 0; tiled && i < tiles.size(); ++i) {
        const padnd::Window& tile = tiles[i];
        if (padnd::element_count(tile.shape) == 0) continue;  // a narrow axis's empty parts
        const std::int64_t rows = padnd::element_count(tile.shape) / tile.shape.back();
        if (rows == 1) {  // a 1-D output's tile: its row split between the cores, as the pad's
          const std::int64_t first = offset_of(tile, strides);
          const std::int64_t row_bytes = tile.shape.back() * strides.back();
          const std::int64_t b = first + row_bytes * t / threads;
          copy_span(dst.data() + b, src.data() + b, first + row_bytes * (t + 1) / threads - b,
                    stores);
          continue;
        }
        copy_tile_rows(dst.data(), src.data(), tile, strides, rows * t / threads,
                       rows * (t + 1) / threads, stores);
      }
      padnd::detail::stream_fence();
    });
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  if (dst != src) state.SkipWithError("the copy is not its source");  // a bound that is a copy
  state.SetBytesProcessed(state.iterations() * 2 * bytes);
}

void value_window(benchmark::State& state, padnd::Mode mode, std::int64_t width, bool prepared) {
  const std::vector<std::int64_t> shape{256, 256};
  const std::vector<float> in(256 * 256, 1.5f);
  padnd::PadSpec spec;
  spec.mode = mode;
  spec.axes = {{width, width, 0}, {0, 0, 0}};
  const padnd::Plan plan = padnd::make_plan(padnd::DType::float32, shape, {}, spec);
  std::optional<padnd::PreparedWindows> windows;
  if (prepared) windows.emplace(plan, in.data());
  const padnd::Window window{{width / 2, 100}, {3, 4}};
  float out[12];
  for (auto _ : state) {
    if (windows) {
      windows->execute_window(window, out, sizeof out);
    } else {
      padnd::execute_window(plan, in.data(), window, out, sizeof out);
    }
    benchmark::DoNotOptimize(out);
  }
}

benchmark::TimeUnit unit_for(const std::string& size) {
  return size == "large"    ? benchmark::kMillisecond
         : size == "medium" ? benchmark::kMicrosecond
                            : benchmark::kNanosecond;
}

void register_all() {
  for (const Workload& w : kWorkloads) {
    const std::string name = w.name;
    const std::string size = w.size_class;
    const benchmark::TimeUnit unit = unit_for(size);
    for (const int threads : {0, 1}) {
      const std::string label = threads == 0 ? "all" : "1";
      benchmark::RegisterBenchmark(("pad/" + name + "/threads:" + label).c_str(), pad_into_touched,
                                   w, threads, padnd::Streaming::automatic)
          ->UseRealTime()
          ->Unit(unit);
    }
    benchmark::RegisterBenchmark(("alloc/" + name).c_str(), pad_allocating, w)
        ->UseRealTime()
        ->Unit(unit);
    if (size == "tiny") {
      benchmark::RegisterBenchmark(("overhead/plan+execute/" + name).c_str(), per_call, w, true);
      benchmark::RegisterBenchmark(("overhead/execute/" + name).c_str(), per_call, w, false);
    }
    if (size == "medium") {
      benchmark::RegisterBenchmark(("memcpy_serial/" + name).c_str(), memcpy_touched, w, 1)
          ->UseRealTime()
          ->Unit(unit);
    }
    if (size != "large") continue;  // the all-core memcpy bounds are quoted for large workloads
    benchmark::RegisterBenchmark(("tiles64/" + name).c_str(), pad_tiles, w,
                                 padnd::Streaming::automatic, false)
        ->UseRealTime()
        ->Unit(unit);
    benchmark::RegisterBenchmark(("tiles64_streamed/" + name).c_str(), pad_tiles, w,
                                 padnd::Streaming::always, false)
        ->UseRealTime()
        ->Unit(unit);
    benchmark::RegisterBenchmark(("tiles64_concurrent/" + name).c_str(), pad_tiles, w,
                                 padnd::Streaming::automatic, true)
        ->UseRealTime()
        ->Unit(unit);
    for (const bool tiled : {false, true}) {
      for (const Stores stores : {Stores::memcpy, Stores::streamed}) {
        const std::string kind = stores == Stores::memcpy ? "memcpy" : "stream";
        benchmark::RegisterBenchmark((kind + (tiled ? "_tiles64/" : "_output/") + name).c_str(),
                                     copy_output, w, tiled, stores)
            ->UseRealTime()
            ->Unit(unit);
      }
    }
    benchmark::RegisterBenchmark(("pad_cached/" + name).c_str(), pad_into_touched, w, 0,
                                 padnd::Streaming::never)
        ->UseRealTime()
        ->Unit(unit);
    benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), memcpy_touched, w, cores())
        ->UseRealTime()
        ->Unit(unit);
    benchmark::RegisterBenchmark(("memcpy_fresh/" + name).c_str(), memcpy_fresh, w)
        ->UseRealTime()
        ->Unit(unit);
  }
  for (const padnd::Mode mode : {padnd::Mode::mean, padnd::Mode::linear_ramp}) {
    for (const std::int64_t width : {1'000, 100'000, 10'000'000}) {
      const std::string name =
          "value_window/" + std::string(padnd::mode_name(mode)) + "/width:" + std::to_string(width);
      benchmark::RegisterBenchmark(name.c_str(), value_window, mode, width, false)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  for (const std::int64_t width : {1'000, 10'000'000}) {
    const std::string name = "value_window_prepared/mean/width:" + std::to_string(width);
    benchmark::RegisterBenchmark(name.c_str(), value_window, padnd::Mode::mean, width, true)
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  register_kernel_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
