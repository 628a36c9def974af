// SPDX-License-Identifier: Apache-2.0
// Writing .npy files: atomic replacement of regular files (temporary file, fsync, rename),
// write-through for FIFOs and devices, standard output, and the signal thread that removes a
// temporary file on SIGINT, SIGTERM and SIGHUP.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "io_errors.hpp"
#include "npy.hpp"
#include "padnd/error.hpp"

namespace padnd::cli {
namespace {

constexpr int kMaxLinkHops = 40;  ///< as the kernel's own limit (ELOOP)

void write_all(int fd, const void* data, std::int64_t bytes, const std::string& path) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const std::size_t chunk = static_cast<std::size_t>(std::min<std::int64_t>(bytes, 1 << 30));
    const ssize_t n = ::write(fd, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_io(path, "write error: " + errno_text());
    }
    p += n;
    bytes -= n;
  }
}

// The temporary file being written, for the signal thread (start_signal_cleanup). The mutex
// makes creating and registering it, and renaming or removing and unregistering it, one step
// each as the signal thread sees them.
std::mutex g_temp_mutex;
std::string g_temp_name;  // guarded by g_temp_mutex; empty: no temporary file
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

/// The signal thread: waits for a cleanup signal, removes the temporary file, and re-raises
/// the signal with its default action, so that padnd ends as the signal asked (status 130 for
/// Ctrl-C). It keeps the mutex, so no new temporary file can appear meanwhile.
void wait_and_clean_up(sigset_t set) {
  int sig = 0;
  while (::sigwait(&set, &sig) != 0) {
  }
  g_temp_mutex.lock();
  if (!g_temp_name.empty()) ::unlink(g_temp_name.c_str());
  ::signal(sig, SIG_DFL);
  sigset_t one;
  ::sigemptyset(&one);
  ::sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);  // delivered to this thread, the only one that does not block it
}

/// A temporary file beside the output, removed unless committed (renamed over the output),
/// whether padnd fails, returns or is stopped by SIGINT, SIGTERM or SIGHUP.
class TempFile {
 public:
  explicit TempFile(const std::string& dir, const std::string& output) : output_(output) {
    // A short name: the output's name may already be 255 bytes, the most a name may have.
    std::string name = dir + "/.padnd-XXXXXX";
    const std::lock_guard lock(g_temp_mutex);
    fd_ = ::mkstemp(name.data());
    if (fd_ < 0) {
      fail_io(output, "cannot create a temporary file in '" + dir + "': " + errno_text());
    }
    g_temp_name = std::move(name);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    const std::lock_guard lock(g_temp_mutex);
    if (!g_temp_name.empty()) ::unlink(g_temp_name.c_str());
    g_temp_name.clear();
  }
  [[nodiscard]] int fd() const { return fd_; }
  void close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) fail_io(output_, "close: " + errno_text());
  }
  /// Renames the file over `target`; from here on it is the output.
  void commit(const std::string& target) {
    const std::lock_guard lock(g_temp_mutex);
    if (std::rename(g_temp_name.c_str(), target.c_str()) != 0) {
      fail_io(output_, "cannot replace the output file: " + errno_text());
    }
    g_temp_name.clear();
  }

 private:
  std::string output_;
  int fd_ = -1;
};

/// Where `-o` writes: standard output ("-"), a special file written in place (FIFO, device,
/// socket), or a regular file (new or existing) replaced atomically. Symbolic links are
/// followed, so the link stays and its target gets the output.
struct OutputTarget {
  enum class Kind { standard_output, special, regular };
  Kind kind = Kind::regular;
  std::string path;  ///< after following symbolic links
  bool exists = false;
  mode_t mode = 0;  ///< permission bits of an existing regular file
};

std::string link_target(const std::string& link, const std::string& shown) {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());
  if (n < 0 || static_cast<std::size_t>(n) == buf.size()) {
    fail_io(shown, "cannot read the symbolic link '" + link + "': " + errno_text());
  }
  buf.resize(static_cast<std::size_t>(n));
  if (buf.starts_with('/')) return buf;
  const std::size_t slash = link.rfind('/');
  return slash == std::string::npos ? buf : link.substr(0, slash + 1) + buf;
}

OutputTarget resolve_output(const std::string& path) {
  OutputTarget t;
  if (path == "-") {
    t.kind = OutputTarget::Kind::standard_output;
    return t;
  }
  if (path.empty() || path.ends_with('/')) fail_io(path, "the output path names a directory");
  t.path = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(t.path.c_str(), &st) != 0) {
      if (errno == ENOENT) return t;  // a new file (also the target of a dangling link)
      fail_io(path, "cannot inspect '" + t.path + "': " + errno_text());
    }
    if (S_ISLNK(st.st_mode)) {
      if (hops == kMaxLinkHops) fail_io(path, "too many levels of symbolic links");
      t.path = link_target(t.path, path);
      continue;
    }
    if (S_ISDIR(st.st_mode)) fail_io(path, "is a directory");
    t.exists = true;
    t.kind = S_ISREG(st.st_mode) ? OutputTarget::Kind::regular : OutputTarget::Kind::special;
    t.mode = st.st_mode & 07777;
    return t;
  }
}

/// Opens a FIFO for writing; when nobody reads it yet, says so and waits for a reader.
int open_special(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENXIO) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) {
      const std::string note = "padnd: waiting for a reader on FIFO '" + path + "'\n";
      [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, note.data(), note.size());
      fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    }
  }
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/// FIFOs and devices are written in place: renaming a file over them would replace the node.
void write_special(const OutputTarget& target, const std::string& header, const std::byte* data,
                   std::int64_t data_bytes) {
  const int fd = open_special(target.path);
  if (fd < 0) fail_io(target.path, "cannot open for writing: " + errno_text());
  try {
    write_all(fd, header.data(), static_cast<std::int64_t>(header.size()), target.path);
    write_all(fd, data, data_bytes, target.path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail_io(target.path, "close: " + errno_text());
}

/// fsync of a directory makes a rename in it durable; file systems that cannot (EINVAL) are
/// taken as they are.
void sync_directory(const std::string& dir, const std::string& path) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_io(path, "cannot open the directory '" + dir + "' to sync it: " + errno_text());
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) {
    fail_io(path, "the output was written, but syncing its directory failed: " +
                      std::string(std::strerror(err)));
  }
}

/// A regular file: written to a temporary file in the same directory and renamed over the
/// target only when complete (and, unless options.fsync is off, on disk).
void write_replacing(const OutputTarget& target, const std::string& header, const std::byte* data,
                     std::int64_t data_bytes, const WriteOptions& options) {
  const std::size_t slash = target.path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : target.path.substr(0, slash);
  TempFile temp(dir, target.path);
  // mkstemp creates 0600: give the result the permissions of the file it replaces, or those a
  // plain create would have.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const mode_t mode = target.exists ? target.mode : 0666 & ~mask;
  if (::fchmod(temp.fd(), mode) != 0) fail_io(target.path, "chmod: " + errno_text());
  write_all(temp.fd(), header.data(), static_cast<std::int64_t>(header.size()), target.path);
  write_all(temp.fd(), data, data_bytes, target.path);
  if (options.fsync && ::fsync(temp.fd()) != 0) fail_io(target.path, "fsync: " + errno_text());
  temp.close();
  temp.commit(target.path);
  if (options.fsync) sync_directory(dir, target.path);
}

}  // namespace

void start_signal_cleanup() {
  sigset_t set;
  ::sigemptyset(&set);
  for (const int sig : kCleanupSignals) {
    struct sigaction old {};
    // A signal the caller ignores (nohup) stays ignored.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) ::sigaddset(&set, sig);
  }
  // Blocked here, in the first thread, so every thread started later (the padding engine's
  // pool too) blocks them: only the signal thread receives them, never a thread that is midway
  // through creating or renaming the temporary file.
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(wait_and_clean_up, set).detach();
}

void write_npy(const std::string& path, const std::string& descr,
               std::span<const std::int64_t> shape, const std::byte* data, std::int64_t data_bytes,
               const WriteOptions& options) {
  const std::string header = npy_header_bytes(descr, shape);
  const OutputTarget target = resolve_output(path);
  switch (target.kind) {
    case OutputTarget::Kind::standard_output:
      write_all(STDOUT_FILENO, header.data(), static_cast<std::int64_t>(header.size()), path);
      write_all(STDOUT_FILENO, data, data_bytes, path);
      return;
    case OutputTarget::Kind::special:
      write_special(target, header, data, data_bytes);
      return;
    case OutputTarget::Kind::regular:
      write_replacing(target, header, data, data_bytes, options);
      return;
  }
}

}  // namespace padnd::cli
