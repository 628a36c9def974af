// SPDX-License-Identifier: Apache-2.0
// Writing .npy files in pieces: atomic replacement of regular files (temporary file, fsync,
// rename), write-through for FIFOs and devices, standard output, and the signal thread that
// removes temporary files on SIGINT, SIGTERM and SIGHUP.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

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

// The temporary files being written (several when Python pads files from several threads),
// for the signal thread (start_signal_cleanup). The mutex makes creating and registering one,
// and renaming or removing and unregistering it, one step each as the signal thread sees them.
std::mutex g_temp_mutex;
std::vector<std::string> g_temp_names;  // guarded by g_temp_mutex
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

/// The signal thread: waits for a cleanup signal, removes the temporary files, and re-raises
/// the signal with its default action, so that padnd ends as the signal asked (status 130 for
/// Ctrl-C). It keeps the mutex, so no new temporary file can appear meanwhile.
void wait_and_clean_up(sigset_t set) {
  int sig = 0;
  while (::sigwait(&set, &sig) != 0) {
  }
  g_temp_mutex.lock();
  for (const std::string& name : g_temp_names) ::unlink(name.c_str());
  ::signal(sig, SIG_DFL);
  sigset_t one;
  ::sigemptyset(&one);
  ::sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);  // delivered to this thread, the only one that does not block it
}

/// Removes `name` from g_temp_names (the caller holds g_temp_mutex).
void unregister_temp(const std::string& name) {
  g_temp_names.erase(std::find(g_temp_names.begin(), g_temp_names.end(), name));
}

/// A temporary file beside the output, removed unless committed (renamed over the output),
/// whether padnd fails, returns or is stopped by SIGINT, SIGTERM or SIGHUP.
class TempFile {
 public:
  explicit TempFile(const std::string& dir, const std::string& output) : output_(output) {
    // A short name: the output's name may already be 255 bytes, the most a name may have.
    name_ = dir + "/.padnd-XXXXXX";
    const std::lock_guard lock(g_temp_mutex);
    fd_ = ::mkstemp(name_.data());
    if (fd_ < 0) {
      fail_io(output, "cannot create a temporary file in '" + dir + "': " + errno_text());
    }
    g_temp_names.push_back(name_);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    const std::lock_guard lock(g_temp_mutex);
    if (committed_) return;
    ::unlink(name_.c_str());
    unregister_temp(name_);
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
    if (std::rename(name_.c_str(), target.c_str()) != 0) {
      fail_io(output_, "cannot replace the output file: " + errno_text());
    }
    unregister_temp(name_);
    committed_ = true;
  }

 private:
  std::string output_;
  std::string name_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Where `-o` writes: one of padnd's open descriptors ("-" is standard output; /dev/stdout,
/// /dev/fd/N and /proc/self/fd/N name theirs), a special file written in place (FIFO, device,
/// socket), or a regular file (new or existing) replaced atomically. Symbolic links are
/// followed, so the link stays and its target gets the output.
struct OutputTarget {
  enum class Kind { descriptor, special, regular };
  Kind kind = Kind::regular;
  std::string path;  ///< after following symbolic links
  int descriptor = -1;  ///< Kind::descriptor: written as it is, never closed
  bool exists = false;
  mode_t mode = 0;  ///< permission bits of an existing regular file
};

/// The descriptor of padnd's own that `path` names (/dev/stdin, /dev/stdout, /dev/stderr,
/// /dev/fd/N, /proc/self/fd/N, /proc/<padnd's pid>/fd/N), or -1. Such a path is a link that the
/// kernel resolves to the open file itself (a pipe's has no name), so it is written through the
/// descriptor: its file offset and O_APPEND hold, as for `-`.
int own_descriptor(const std::string& path) {
  constexpr std::string_view kStreams[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
  for (int fd = 0; fd < 3; ++fd) {
    if (path == kStreams[fd]) return fd;
  }
  const std::string pid_dir = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string_view dir :
       {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
        std::string_view(pid_dir)}) {
    if (!path.starts_with(dir)) continue;
    const std::string_view digits = std::string_view(path).substr(dir.size());
    int fd = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty()) return fd;
  }
  return -1;
}

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

/// The target for padnd's descriptor `fd`, which must be open for writing.
OutputTarget descriptor_target(const std::string& path, int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags == -1) fail_io(path, "descriptor " + std::to_string(fd) + " is not open");
  if ((flags & O_ACCMODE) == O_RDONLY) {
    fail_io(path, "descriptor " + std::to_string(fd) + " is open for reading only");
  }
  OutputTarget t;
  t.kind = OutputTarget::Kind::descriptor;
  t.path = path;
  t.descriptor = fd;
  return t;
}

OutputTarget resolve_output(const std::string& path) {
  if (path == "-") return descriptor_target(path, STDOUT_FILENO);
  if (path.empty() || path.ends_with('/')) fail_io(path, "the output path names a directory");
  OutputTarget t;
  t.path = path;
  for (int hops = 0;; ++hops) {
    if (const int fd = own_descriptor(t.path); fd >= 0) return descriptor_target(path, fd);
    struct stat st {};
    if (::lstat(t.path.c_str(), &st) != 0) {
      if (errno == ENOENT) return t;  // a new file (also the target of a dangling link)
      fail_io(path, "cannot inspect '" + t.path + "': " + errno_text());
    }
    if (S_ISLNK(st.st_mode)) {
      if (hops == kMaxLinkHops) fail_io(path, "too many levels of symbolic links");
      struct stat node {};
      // Another process's /proc/<pid>/fd/N: the kernel opens its pipe or socket; its text would
      // not.
      if (::stat(t.path.c_str(), &node) == 0 && !S_ISREG(node.st_mode) && !S_ISDIR(node.st_mode)) {
        t.exists = true;
        t.kind = OutputTarget::Kind::special;
        return t;
      }
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

/// The directory of a path, for its temporary file and the fsync of the rename.
std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

/// The permissions a regular output gets: those of the file it replaces, or those a plain
/// create would have (mkstemp creates 0600).
mode_t output_mode(const OutputTarget& target) {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return target.exists ? target.mode : 0666 & ~mask;
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

bool writes_regular_file(const std::string& path) {
  return resolve_output(path).kind == OutputTarget::Kind::regular;
}

struct NpyWriter::Impl {
  OutputTarget target;
  std::int64_t header_bytes = 0;
  std::int64_t data_bytes = 0;  ///< what the header announces
  std::int64_t written = 0;     ///< data bytes so far
  WriteOptions options;
  std::optional<TempFile> temp;  ///< regular files
  int fd = -1;                   ///< where the data goes
  void* map = nullptr;           ///< map_data's mapping: the whole temporary file
  std::size_t map_bytes = 0;

  ~Impl() {
    if (map != nullptr) ::munmap(map, map_bytes);
    if (target.kind == OutputTarget::Kind::special && fd >= 0) ::close(fd);
  }
  void open() {
    switch (target.kind) {
      case OutputTarget::Kind::descriptor:
        fd = target.descriptor;
        return;
      case OutputTarget::Kind::special:  // written in place: a rename would replace the node
        fd = open_special(target.path);
        if (fd < 0) fail_io(target.path, "cannot open for writing: " + errno_text());
        return;
      case OutputTarget::Kind::regular:
        temp.emplace(directory_of(target.path), target.path);
        fd = temp->fd();
        if (::fchmod(fd, output_mode(target)) != 0) {
          fail_io(target.path, "chmod: " + errno_text());
        }
        reserve(header_bytes + data_bytes);
        return;
    }
  }
  /// Reserves the regular output's blocks before anything is written, so that an output the
  /// file system cannot hold is refused at once, not after filling the disk: first against
  /// the free space statvfs reports (which fallocate could fill before failing), then by
  /// posix_fallocate itself (quotas, other writers).
  void reserve(std::int64_t file_bytes) const {
    struct statvfs fs {};
    if (::fstatvfs(fd, &fs) == 0) {
      const auto free_blocks = ::geteuid() == 0 ? fs.f_bfree : fs.f_bavail;
      const auto free_bytes = static_cast<unsigned long long>(free_blocks) * fs.f_frsize;
      if (static_cast<unsigned long long>(file_bytes) > free_bytes) {
        fail_io(target.path, "the output needs " + std::to_string(file_bytes) +
                                 " bytes, but its file system has " + std::to_string(free_bytes) +
                                 " bytes free");
      }
    }
    if (const int rc = ::posix_fallocate(fd, 0, file_bytes); rc != 0) {
      fail_io(target.path, "cannot reserve " + std::to_string(file_bytes) +
                               " bytes for the output: " + std::strerror(rc));
    }
  }
  void finish_regular() {
    if (options.fsync && ::fsync(fd) != 0) fail_io(target.path, "fsync: " + errno_text());
    temp->close();
    temp->commit(target.path);
    if (options.fsync) sync_directory(directory_of(target.path), target.path);
  }
};

NpyWriter::NpyWriter(const std::string& path, const NpyDtype& dtype,
                     std::span<const std::int64_t> shape, const WriteOptions& options)
    : impl_(std::make_unique<Impl>()) {
  const std::string header = npy_header_bytes(dtype.descr, shape);
  impl_->data_bytes = npy_data_bytes(dtype.itemsize, shape);
  impl_->header_bytes = static_cast<std::int64_t>(header.size());
  impl_->options = options;
  impl_->target = resolve_output(path);
  impl_->open();
  write_all(impl_->fd, header.data(), impl_->header_bytes, path);
}

NpyWriter::~NpyWriter() = default;

void NpyWriter::write(const std::byte* data, std::int64_t bytes) {
  write_all(impl_->fd, data, bytes, impl_->target.path);
  impl_->written += bytes;
}

std::byte* NpyWriter::map_data() {
  Impl& w = *impl_;
  if (!w.temp) fail_io(w.target.path, "only a regular output file can be mapped");
  w.map_bytes = static_cast<std::size_t>(w.header_bytes + w.data_bytes);  // reserved by open()
  void* map = ::mmap(nullptr, w.map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w.fd, 0);
  if (map == MAP_FAILED) fail_io(w.target.path, "cannot map the output: " + errno_text());
  w.map = map;
  w.written = w.data_bytes;
  return static_cast<std::byte*>(map) + w.header_bytes;
}

void NpyWriter::finish() {
  Impl& w = *impl_;
  if (w.written != w.data_bytes) {  // a caller's mistake: never a short file
    throw Error(Errc::io, w.target.path + ": " + std::to_string(w.written) + " of " +
                              std::to_string(w.data_bytes) + " data bytes were written");
  }
  if (w.map != nullptr && ::munmap(w.map, w.map_bytes) != 0) {
    fail_io(w.target.path, "cannot unmap the output: " + errno_text());
  }
  w.map = nullptr;
  if (w.target.kind == OutputTarget::Kind::regular) {
    w.finish_regular();
  } else if (w.target.kind == OutputTarget::Kind::special) {
    const int fd = std::exchange(w.fd, -1);
    if (::close(fd) != 0) fail_io(w.target.path, "close: " + errno_text());
  }
}

}  // namespace padnd::cli
