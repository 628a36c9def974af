// SPDX-License-Identifier: Apache-2.0
// The .npy reader on arbitrary files: each either reads, holding exactly the data its header
// announces, or fails with padnd::Error. A file that reads is written back and must read the
// same. The file lives in memory (memfd), so the reader's own path handling is exercised.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "cli/npy.hpp"
#include "padnd/error.hpp"

namespace {

/// A memory file holding `size` bytes of `data`, and its path.
std::string memory_file(int fd, const void* data, std::size_t size) {
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    std::abort();
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const int input_fd = ::memfd_create("npy_input", 0);
  static const int copy_fd = ::memfd_create("npy_copy", 0);
  const std::string path = memory_file(input_fd, data, size);
  try {
    (void)padnd::cli::read_npy_header(path);
  } catch (const padnd::Error&) {
  }
  padnd::cli::NpyArray array;
  try {
    array = padnd::cli::read_npy(path);
  } catch (const padnd::Error&) {
    return 0;
  }
  const padnd::cli::NpyHeader& h = array.header;
  if (padnd::cli::npy_data_bytes(h.dtype.itemsize, h.shape) !=
      static_cast<std::int64_t>(array.data.size())) {
    std::abort();
  }
  std::string copy = padnd::cli::npy_header_bytes(h.dtype.descr, h.shape);
  copy.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  const padnd::cli::NpyArray again =
      padnd::cli::read_npy(memory_file(copy_fd, copy.data(), copy.size()));
  if (again.header.shape != h.shape || again.header.dtype.descr != h.dtype.descr ||
      again.data != array.data) {
    std::abort();
  }
  return 0;
}
