// SPDX-License-Identifier: Apache-2.0
// Reading and writing numpy .npy files (format 1.0, 2.0, 3.0) for the padnd CLI.
#pragma once

#include <cstddef>
#include <cstdint>
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
  ElementType element;      ///< numeric DType (either byte order) or opaque(itemsize)
};

/// Python's repr of a tuple of ints: "()", "(3,)", "(2, 3)" (also the header's shape).
std::string python_tuple(std::span<const std::int64_t> values);

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

/// Reads only the header; the data (and whether it is all there) is not looked at.
NpyHeader read_npy_header(const std::string& path);

/// Reads a whole .npy file, which must hold exactly the data its header announces.
/// Throws padnd::Error (Errc::io or invalid_argument).
NpyArray read_npy(const std::string& path);

/// The complete header block (magic, version, length, dict, padding) for a C-order array.
std::string npy_header_bytes(const std::string& descr, std::span<const std::int64_t> shape);

/// Writes a C-order .npy file atomically: a temporary file in the same directory is renamed
/// over `path` only after everything was written, so a failure leaves `path` untouched.
void write_npy(const std::string& path, const std::string& descr,
               std::span<const std::int64_t> shape, const std::byte* data, std::int64_t data_bytes);

}  // namespace padnd::cli
