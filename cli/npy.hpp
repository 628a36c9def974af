// SPDX-License-Identifier: Apache-2.0
// Reading and writing numpy .npy files (format 1.0, 2.0, 3.0) for the padnd CLI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "padnd/element_type.hpp"
#include "padnd/tensor.hpp"

namespace padnd::cli {

/// A numpy dtype as the CLI understands it: the header's descr and what padnd pads it as.
struct NpyDtype {
  std::string descr;  ///< exactly as written in the header ("<f4", "|S5", ">M8[ns]")
  char kind = 'f';    ///< numpy kind: b i u f c S U V M m (S also for the old 'a')
  std::int64_t itemsize = 0;
  bool big_endian = false;  ///< byte order of multi-byte values ('=' resolves to the host's)
  ElementType element;      ///< numeric or time DType (either byte order), or opaque(itemsize)
};

/// Python's repr of a tuple of ints: "()", "(3,)", "(2, 3)" (also the header's shape).
std::string python_tuple(std::span<const std::int64_t> values);

/// A shape for a message: python_tuple, or for ranks over 8 its first 8 values and the rank,
/// "(1, 1, 1, 1, 1, 1, 1, 1, ...) (rank 25000)", so that a message stays short.
std::string shape_text(std::span<const std::int64_t> shape);

/// Parses a descr string; throws padnd::Error naming the descr for anything unsupported.
NpyDtype parse_descr(std::string_view descr);

/// The dtype for a padnd type name ("float32", "bfloat16", "int4", "opaque12", "string", ...),
/// for `explain --dtype`; descr is empty when numpy has no such dtype. Falls back to descr
/// syntax ("<f4", "S5", "M8[ns]").
NpyDtype dtype_from_name(std::string_view name);

struct NpyHeader {
  NpyDtype dtype;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  std::int64_t data_offset = 0;  ///< bytes before the array data
};

/// Byte strides of a column-major (Fortran) array: the first axis varies fastest.
std::vector<std::int64_t> fortran_byte_strides(const std::vector<std::int64_t>& shape,
                                               std::int64_t itemsize);

/// An array read from disk. The data stays in file order; view() describes it with strides.
struct NpyArray {
  NpyHeader header;
  std::vector<std::byte> data;

  [[nodiscard]] TensorView view() const;
  /// Strides to pass to make_plan: empty (C order) or fortran_byte_strides.
  [[nodiscard]] std::vector<std::int64_t> byte_strides() const;
};

/// Reads only the header; the data (and whether it is all there) is not looked at. "-" is
/// standard input; pipes and FIFOs are read as streams. Headers longer than 65535 bytes and
/// nesting deeper than 64 levels are rejected.
NpyHeader read_npy_header(const std::string& path);

/// An input array to pad: the header and the file size are checked before the data is touched; a
/// regular file is memory-mapped read-only (pages are read as padding touches them, so the
/// file may be larger than memory), a stream (pipe, FIFO, "-") is read into memory.
class NpyInput {
 public:
  explicit NpyInput(const std::string& path);
  NpyInput(const NpyInput&) = delete;
  NpyInput& operator=(const NpyInput&) = delete;
  ~NpyInput();

  [[nodiscard]] const NpyHeader& header() const { return array_.header; }
  [[nodiscard]] const std::byte* data() const { return data_; }
  [[nodiscard]] std::int64_t data_bytes() const;
  /// Whether the data is memory-mapped (a regular file) rather than held in memory.
  [[nodiscard]] bool mapped() const { return map_ != nullptr; }
  /// The data in memory and the header, both to be changed (a byte-order conversion): a
  /// mapped file's data is copied into memory first.
  NpyArray& in_memory();

 private:
  std::string name_;
  NpyArray array_;  ///< the header; the data when it is in memory
  const std::byte* data_ = nullptr;
  void* map_ = nullptr;  ///< the whole file, when mapped
  std::size_t map_bytes_ = 0;
};

/// The complete header block (magic, version, length, dict, padding) for a C-order array.
std::string npy_header_bytes(const std::string& descr, std::span<const std::int64_t> shape);

/// Call first in main, before any other thread starts: SIGINT, SIGTERM and SIGHUP then go to
/// one thread that removes NpyWriter's temporary files and re-raises the signal (padnd still
/// ends by it). Signals the caller ignores stay ignored.
void start_signal_cleanup();

struct WriteOptions {
  /// fsync the file before the rename and its directory after it, so that the output survives
  /// a crash of the machine (regular files only).
  bool fsync = true;
};

/// Bytes of the data of a .npy array of `shape` and `itemsize`. Throws Errc::overflow where
/// numpy could not hold the array: the item size times the lengths other than 0 must fit in
/// int64, even when a length is 0.
std::int64_t npy_data_bytes(std::int64_t itemsize, std::span<const std::int64_t> shape);

/// Whether NpyWriter writes `path` as a regular file (new or existing, also through symbolic
/// links), through a temporary file that it can map, rather than standard output, a FIFO or a
/// device.
bool writes_regular_file(const std::string& path);

/// A C-order .npy file written in pieces: the header when constructed, then the data in order
/// (write, or once through map_data), then finish(). A regular file (new, existing, or the
/// target of a symbolic link, which stays) is written to a temporary file in the same directory
/// that finish() renames over it, so that an error, destruction before finish(), SIGINT,
/// SIGTERM or SIGHUP (start_signal_cleanup) leave it untouched and no temporary file behind;
/// the temporary file's blocks are reserved when constructed, so that an output the file system
/// cannot hold is refused before any is written. A FIFO or device is written in place, and "-"
/// is standard output.
class NpyWriter {
 public:
  NpyWriter(const std::string& path, const NpyDtype& dtype, std::span<const std::int64_t> shape,
            const WriteOptions& options = {});
  NpyWriter(const NpyWriter&) = delete;
  NpyWriter& operator=(const NpyWriter&) = delete;
  ~NpyWriter();

  /// Appends `bytes` bytes of data.
  void write(const std::byte* data, std::int64_t bytes);
  /// All the data bytes, mapped writable in the file (nothing written before; regular files
  /// only: writes_regular_file), whose blocks are reserved, so that a full disk was an error
  /// when constructed, not a crash later. Valid until finish() or destruction.
  std::byte* map_data();
  /// Checks that all the data was written, then syncs, renames (regular files) and closes.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace padnd::cli
