// SPDX-License-Identifier: Apache-2.0
// The .npy reader (NpyInput, as the CLI and padnd.pad_file use it) on arbitrary files: each
// either reads, holding exactly the data its header announces, or fails with padnd::Error. A
// file that reads is written back and must read the same. The file lives in memory (memfd), so
// the reader's own path handling is exercised.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
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

/// Whether `bytes` bytes at `a` and `b` are equal (either may be null when `bytes` is 0).
bool same_bytes(const void* a, const void* b, std::int64_t bytes) {
  return bytes == 0 || std::memcmp(a, b, static_cast<std::size_t>(bytes)) == 0;
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
  std::string copy;
  padnd::cli::NpyHeader header;
  try {
    // The CLI's reader: a regular file (the memfd) is mapped, not read.
    padnd::cli::NpyInput input(path);
    header = input.header();
    if (padnd::cli::npy_data_bytes(header.dtype.itemsize, header.shape) != input.data_bytes()) {
      std::abort();
    }
    copy = padnd::cli::npy_header_bytes(header.dtype.descr, header.shape);
    if (input.data_bytes() > 0) {
      copy.append(reinterpret_cast<const char*>(input.data()),
                  static_cast<std::size_t>(input.data_bytes()));
    }
    // The byte-order path copies a mapped file's data into memory: it must hold the same bytes.
    const padnd::cli::NpyArray& in_memory = input.in_memory();
    const auto memory_bytes = static_cast<std::int64_t>(in_memory.data.size());
    if (input.mapped() || memory_bytes != input.data_bytes() ||
        !same_bytes(in_memory.data.data(), copy.data() + copy.size() - memory_bytes,
                    memory_bytes)) {
      std::abort();
    }
  } catch (const padnd::Error&) {
    return 0;
  }
  const padnd::cli::NpyInput again(memory_file(copy_fd, copy.data(), copy.size()));
  if (again.header().shape != header.shape || again.header().dtype.descr != header.dtype.descr ||
      !same_bytes(again.data(), copy.data() + copy.size() - again.data_bytes(),
                  again.data_bytes())) {
    std::abort();
  }
  return 0;
}
