// SPDX-License-Identifier: Apache-2.0
// Out-of-core padding of .npy files: consecutive C-order windows of the output, each computed
// with execute_window into one reused buffer and appended to the output file.
#include "out_of_core.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "value_parse.hpp"  // printable

namespace padnd::cli {
namespace {

using Ints = std::vector<std::int64_t>;

constexpr std::int64_t kDefaultMemoryBytes = std::int64_t{1} << 30;
/// The largest window of a C-order input: one that stays in the CPU's caches from being padded
/// to being written is faster than a larger one, and as fast as a plain copy of the file
/// (docs/out-of-core.md). A Fortran-order input takes the whole budget instead: a window reads
/// each column of the file in a run of as many elements as it has rows, so larger windows read
/// it in longer runs.
constexpr std::int64_t kWindowBytes = std::int64_t{8} << 20;
/// A window is read back by write() at once: cached stores, never streamed past the caches.
constexpr ExecOptions kWindowOptions{.streaming = Streaming::never};

/// Bytes as a person reads them: "100 bytes", "1.5 KiB", "512.0 MiB", "2.0 GiB".
std::string size_text(std::int64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  auto value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  for (; value >= 1024 && unit + 1 < std::size(kUnits); ++unit) value /= 1024;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

/// "--memory allows 1048576 bytes (1.0 MiB)", for messages.
std::string budget_text(const PadFileOptions& options, std::int64_t bytes) {
  const std::string exact = std::to_string(bytes) + " bytes";
  return options.memory_option + " allows " +
         (bytes < 1024 ? exact : exact + " (" + size_text(bytes) + ")");
}

/// A progress bar on standard error: one line redrawn with '\r' when the percentage changes,
/// ended when the pad ends (or fails, so that a message starts on its own line).
class ProgressLine {
 public:
  ProgressLine(ProgressBar mode, std::int64_t total_bytes)
      : on_(mode == ProgressBar::always ||
            (mode == ProgressBar::automatic && ::isatty(STDERR_FILENO) != 0)),
        total_bytes_(total_bytes) {
    update(0);
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() {
    if (on_) show("\n");
  }
  void update(std::int64_t done_bytes) {
    const int percent = total_bytes_ == 0 ? 100 : static_cast<int>(done_bytes * 100 / total_bytes_);
    if (!on_ || percent == percent_) return;
    percent_ = percent;
    show("\rpadnd: " + std::to_string(percent) + "% (" + size_text(done_bytes) + " of " +
         size_text(total_bytes_) + ")\x1b[K");  // \x1b[K: clear what a longer line left
  }

 private:
  static void show(const std::string& text) {
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
  }
  bool on_;
  std::int64_t total_bytes_;
  int percent_ = -1;
};

/// Consecutive windows of `region` (a window of the output) that are consecutive ranges of its
/// C-order bytes, each at most `budget_bytes`: runs of indices of the first axis of which one
/// index fits (`axis_`), the axes before it stepped one index at a time.
class Slabs {
 public:
  Slabs(const Window& region, std::int64_t item_bytes, std::int64_t budget_bytes)
      : region_(region), index_(region.shape.size() + 1, 0) {
    done_ = element_count(region.shape) == 0;
    if (done_ || item_bytes > budget_bytes) return;  // max_bytes_ 0: not one element fits
    // Bytes of one index of axis_: the item times the lengths after it (they fit in int64: the
    // whole region's bytes do). A rank-0 region is its one element.
    const std::size_t rank = region.shape.size();
    std::int64_t index_bytes = item_bytes;
    axis_ = rank == 0 ? 0 : rank - 1;
    while (axis_ > 0 && index_bytes * region.shape[axis_] <= budget_bytes) {
      index_bytes *= region.shape[axis_];
      --axis_;
    }
    step_ = std::min(length(axis_), budget_bytes / index_bytes);
    max_bytes_ = step_ * index_bytes;
  }
  /// The bytes of the largest window: 0 when none fits the budget (an element is larger).
  [[nodiscard]] std::int64_t max_bytes() const { return max_bytes_; }
  [[nodiscard]] bool empty() const { return done_; }

  /// The next window, or false after the last.
  bool next(Window& slab) {
    if (done_) return false;
    slab = region_;
    for (std::size_t k = 0; k < axis_; ++k) {
      slab.start[k] += index_[k];
      slab.shape[k] = 1;
    }
    if (axis_ < region_.shape.size()) {
      slab.start[axis_] += index_[axis_];
      slab.shape[axis_] = std::min(step_, length(axis_) - index_[axis_]);
    }
    advance();
    return true;
  }

 private:
  [[nodiscard]] std::int64_t length(std::size_t k) const {
    return k < region_.shape.size() ? region_.shape[k] : 1;  // rank 0: one position
  }
  /// The odometer over axes 0..axis_, axis_ stepping step_ indices.
  void advance() {
    std::size_t k = axis_;
    std::int64_t step = step_;
    for (;;) {
      index_[k] += step;
      if (index_[k] < length(k)) return;
      index_[k] = 0;
      if (k == 0) break;
      --k;
      step = 1;
    }
    done_ = true;
  }
  Window region_;
  Ints index_;  ///< the next window's first position, relative to the region
  std::size_t axis_ = 0;
  std::int64_t step_ = 1;
  std::int64_t max_bytes_ = 0;
  bool done_ = false;
};

/// Whether the request computes with element values (numpy's value modes, odd reflection),
/// which runs in the host's byte order.
bool computes_with_values(const PadSpec& spec) {
  return computes_values(spec.mode) ||
         std::any_of(spec.axis_modes.begin(), spec.axis_modes.end(),
                     [](const AxisMode& m) { return computes_values(m.mode) || m.odd; });
}

/// Whether the plan may have axis passes, whose windows are computed over a box of the output
/// around them (docs/design.md, "Windows"): numpy's value modes, and per-axis modes, which
/// include odd reflection and per-side constants. A request without them has no passes.
bool computes_over_boxes(const PadSpec& spec) {
  return computes_values(spec.mode) || !spec.axis_modes.empty();
}

/// Whether `dtype` holds numbers whose bytes are not in the host's order.
bool non_native_numbers(const NpyDtype& dtype) {
  const bool host_big = std::endian::native == std::endian::big;
  return dtype.big_endian != host_big && dtype.itemsize >= 2 &&
         dtype.element.dtype != DType::opaque;
}

/// The bytes of each number of `dtype` reversed in place (complex: each part), turning a
/// non-native array into a native one and back.
void swap_byte_order(const NpyDtype& dtype, std::span<std::byte> data) {
  const auto part =
      static_cast<std::size_t>(dtype.kind == 'c' ? dtype.itemsize / 2 : dtype.itemsize);
  for (std::size_t at = 0; at + part <= data.size(); at += part) {
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(at),
                 data.begin() + static_cast<std::ptrdiff_t>(at + part));
  }
}

/// Turns the input into the host's byte order: its data, in memory, and its header's dtype.
/// Returns the bytes this took from the budget: the copy of a mapped input.
std::int64_t to_host_order(NpyInput& input, const PadFileOptions& options) {
  const std::int64_t copy_bytes = input.mapped() ? input.data_bytes() : 0;
  if (copy_bytes >= options.memory_bytes) {
    throw Error(Errc::invalid_argument,
                options.memory_option + ": numpy's value modes compute in the host's byte " +
                    "order, so the '" + printable(input.header().dtype.descr) + "' input (" +
                    std::to_string(copy_bytes) + " bytes) is converted in memory, and " +
                    budget_text(options, options.memory_bytes) +
                    " for that and the output; convert the file to native byte order first, "
                    "or raise " +
                    options.memory_option);
  }
  NpyArray& array = input.in_memory();
  NpyDtype& dtype = array.header.dtype;
  swap_byte_order(dtype, array.data);
  dtype.big_endian = !dtype.big_endian;
  const char order = dtype.big_endian ? '>' : '<';
  if (!dtype.descr.empty() && std::string_view("<>=|").find(dtype.descr[0]) != std::string::npos) {
    dtype.descr[0] = order;
  } else {
    dtype.descr.insert(dtype.descr.begin(), order);
  }
  return copy_bytes;
}

/// One file's pad, planned.
struct FileJob {
  Plan plan;
  Window region;      ///< the part of the output written: --window, or all of it
  bool whole = true;  ///< the region is the whole output
  std::int64_t region_bytes = 0;
  std::int64_t budget_bytes = 0;  ///< for the output's buffer
  NpyDtype out_dtype;             ///< the input file's
  bool swap_back = false;         ///< padded in the host's byte order: swap the output back
  bool fortran_input = false;
};

FileJob plan_job(const NpyHeader& header, const FileRequest& request) {
  FileJob job;
  const Ints out_shape = infer_shape(header.shape, request.spec);
  const Window all{Ints(out_shape.size(), 0), out_shape};
  job.region = request.window.value_or(all);
  job.whole = job.region.start == all.start && job.region.shape == all.shape;
  job.region_bytes = npy_data_bytes(header.dtype.itemsize, job.region.shape);
  const bool empty = element_count(job.region.shape) == 0;
  job.plan = with_memory_context(planning_text(header, out_shape),
                                 [&] { return plan_npy(header, request.spec, empty); });
  return job;
}

/// A buffer of `bytes`, not initialised; an allocation failure says how many bytes for what.
std::unique_ptr<std::byte[]> allocate_buffer(const FileJob& job, std::int64_t bytes,
                                             const PadFileOptions& options) {
  try {
    return std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    const std::string what = "the output of shape " + shape_text(job.region.shape);
    throw Error(Errc::out_of_memory,
                "cannot allocate " + std::to_string(bytes) + " bytes for " +
                    (bytes == job.region_bytes ? what
                                               : "a window of " + what + " (" +
                                                     budget_text(options, job.budget_bytes) + ")"));
  }
}

void pad_by_windows(const FileJob& job, const std::byte* in, const std::string& out_path,
                    const PadFileOptions& options) {
  const std::int64_t window_bytes =
      job.fortran_input ? job.budget_bytes : std::min(job.budget_bytes, kWindowBytes);
  Slabs slabs(job.region, job.out_dtype.itemsize, window_bytes);
  if (!slabs.empty() && slabs.max_bytes() == 0) {
    throw Error(Errc::invalid_argument,
                options.memory_option + ": one element of '" + printable(job.out_dtype.descr) +
                    "' takes " + std::to_string(job.out_dtype.itemsize) + " bytes, but " +
                    budget_text(options, job.budget_bytes));
  }
  const auto buffer = allocate_buffer(job, slabs.max_bytes(), options);
  NpyWriter writer(out_path, job.out_dtype, job.region.shape, WriteOptions{.fsync = options.fsync});
  ProgressLine progress(options.progress, job.region_bytes);
  std::int64_t written = 0;
  for (Window slab; slabs.next(slab);) {
    const std::int64_t bytes = job.out_dtype.itemsize * element_count(slab.shape);
    with_memory_context("padding", [&] {
      execute_window(job.plan, in, slab, buffer.get(), bytes, kWindowOptions);
    });
    writer.write(buffer.get(), bytes);
    written += bytes;
    progress.update(written);
    if (options.on_window) options.on_window(written, job.region_bytes);
  }
  writer.finish();
}

/// Writes the whole region, computed at once into `out` (the buffer, or the mapped file).
void compute_whole(const FileJob& job, const std::byte* in, std::byte* out, bool fresh) {
  with_memory_context("padding", [&] {
    if (job.whole) {
      execute(job.plan, in, out, job.region_bytes,
              fresh ? fresh_output_options({}) : ExecOptions{});
    } else {
      execute_window(job.plan, in, job.region, out, job.region_bytes);
    }
  });
  if (job.swap_back) {
    swap_byte_order(job.out_dtype, {out, static_cast<std::size_t>(job.region_bytes)});
  }
}

[[noreturn]] void fail_whole_budget(const FileJob& job, std::int64_t need,
                                    const PadFileOptions& options) {
  const std::string& option = options.memory_option;
  throw Error(Errc::invalid_argument,
              option + ": numpy's value modes (and per-axis modes) compute " +
                  (job.whole ? "the whole output before writing it to standard output, a FIFO "
                               "or a device"
                             : "a --window over the part of the output its statistics read, "
                               "and the window") +
                  ": " + std::to_string(need) + " bytes, but " +
                  budget_text(options, job.budget_bytes) +
                  (job.whole ? "; write to a regular file, which padnd maps, or raise " + option
                             : "; raise " + option));
}

/// Requests with axis passes compute a window over a box of the output around it, up to the
/// whole output, so they are computed whole: in memory when the budget allows it, else (the
/// whole output of a regular file) in the memory-mapped output file, whose pages the kernel
/// writes back as it needs.
void pad_whole(const FileJob& job, const std::byte* in, const std::string& out_path,
               const PadFileOptions& options) {
  // A --window also holds the box it is computed over (a budget, so a sum past int64 saturates).
  const std::int64_t work = job.whole ? 0 : window_work_bytes(job.plan, job.region);
  const std::int64_t need = job.region_bytes + std::min(work, INT64_MAX - job.region_bytes);
  const bool in_memory = need <= job.budget_bytes;
  if (!in_memory && (!job.whole || !writes_regular_file(out_path))) {
    fail_whole_budget(job, need, options);
  }
  const auto buffer = in_memory ? allocate_buffer(job, job.region_bytes, options) : nullptr;
  NpyWriter writer(out_path, job.out_dtype, job.region.shape, WriteOptions{.fsync = options.fsync});
  ProgressLine progress(options.progress, job.region_bytes);
  std::byte* out = in_memory ? buffer.get() : writer.map_data();
  compute_whole(job, in, out, in_memory);
  if (in_memory) writer.write(out, job.region_bytes);
  progress.update(job.region_bytes);
  // A stop asked for during the computation (Python's Ctrl-C) is acted on before the output
  // replaces an existing file.
  if (options.on_window) options.on_window(job.region_bytes, job.region_bytes);
  writer.finish();
}

}  // namespace

std::int64_t default_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return kDefaultMemoryBytes;
  const std::int64_t quarter = static_cast<std::int64_t>(pages) / 4 * page_bytes;
  return std::clamp<std::int64_t>(quarter, 1, kDefaultMemoryBytes);
}

std::int64_t parse_memory_size(std::string_view option, std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return Error(Errc::invalid_argument,
                 std::string(option) + ": " + why + ", got '" + printable(text) + "'");
  };
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  if (ec == std::errc::result_out_of_range) throw bad("the size does not fit in int64");
  if (ec != std::errc() || text.starts_with('-') || text.starts_with('+')) {
    throw bad(
        "expected a size such as 512M, 2G or 1048576 (bytes; K, M, G and T are powers of "
        "1024)");
  }
  if (unit.starts_with('.')) throw bad("expected a whole number of units (1536M, not 1.5G)");
  int shift = 0;
  if (!unit.empty()) {
    const std::size_t at = std::string_view("KMGT").find(
        static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))));
    if (at == std::string_view::npos) throw bad("unknown unit (expected K, M, G or T)");
    shift = 10 * static_cast<int>(at + 1);
    unit.remove_prefix(1);
    std::string rest(unit);
    for (char& c : rest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (rest != "" && rest != "b" && rest != "ib")
      throw bad("unknown unit (expected K, M, G or T)");
  }
  if (number > (INT64_MAX >> shift)) throw bad("the size does not fit in int64");
  if (number == 0) throw bad("the size must be at least 1 byte");
  return number << shift;
}

bool plans_stand_in(const NpyHeader& header, bool output_empty) {
  return output_empty && header.dtype.element.dtype == DType::opaque;
}

Plan plan_npy(const NpyHeader& header, const PadSpec& spec, bool output_empty) {
  const bool stand_in = plans_stand_in(header, output_empty);
  const std::int64_t item = stand_in ? 1 : header.dtype.itemsize;
  const Ints strides = header.fortran_order ? fortran_byte_strides(header.shape, item) : Ints{};
  if (!stand_in) return make_plan(header.dtype.element, header.shape, strides, spec);
  PadSpec stand_in_spec = spec;
  stand_in_spec.value.clear();
  for (AxisMode& m : stand_in_spec.axis_modes) {
    m.begin_value.clear();
    m.end_value.clear();
  }
  return make_plan(ElementType::opaque(1), header.shape, strides, stand_in_spec);
}

std::string planning_text(const NpyHeader& header, std::span<const std::int64_t> out_shape) {
  std::string text = "planning the output of shape " + shape_text(out_shape);
  try {
    const std::int64_t bytes =
        storage_bytes(ElementType::opaque(header.dtype.itemsize), element_count(out_shape));
    text += " (" + std::to_string(bytes) + " bytes)";
  } catch (const Error&) {  // a size beyond int64: the shape says it
  }
  return text;
}

void pad_npy_file(const std::string& in_path, const std::string& out_path,
                  const RequestFor& request_for, const PadFileOptions& options) {
  if (options.memory_bytes <= 0) {
    throw Error(Errc::invalid_argument, options.memory_option + ": the size must be at least 1 " +
                                            "byte, got " + std::to_string(options.memory_bytes));
  }
  NpyInput input(in_path);
  const NpyDtype file_dtype = input.header().dtype;
  FileRequest request = request_for(input.header());
  std::int64_t budget_bytes = options.memory_bytes;
  const bool host_order = non_native_numbers(file_dtype) && computes_with_values(request.spec);
  if (host_order) {
    budget_bytes -= to_host_order(input, options);
    request = request_for(input.header());
  }
  FileJob job = plan_job(input.header(), request);
  job.budget_bytes = budget_bytes;
  job.out_dtype = file_dtype;
  job.fortran_input = input.header().fortran_order;
  job.swap_back = host_order;
  if (computes_over_boxes(request.spec) && job.region_bytes > 0) {
    pad_whole(job, input.data(), out_path, options);
  } else {
    pad_by_windows(job, input.data(), out_path, options);
  }
}

}  // namespace padnd::cli
