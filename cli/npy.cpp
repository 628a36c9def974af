// SPDX-License-Identifier: Apache-2.0
// .npy I/O: header checks, descr mapping, strided (Fortran) views, atomic writes.
#include "npy.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>

#include "io_errors.hpp"
#include "padnd/error.hpp"
#include "py_literal.hpp"
#include "value_parse.hpp"  // printable

namespace padnd::cli {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::int64_t kAlignBytes = 64;  // numpy aligns the data start to 64 bytes
/// The longest header padnd reads (format 2.0 and 3.0; 1.0 holds at most 65535 bytes): enough
/// for a shape of rank 100,000 and more, and bounded, so that a length field of 4 GiB is an
/// error, not an allocation. numpy's np.load reads at most 10000 bytes unless told otherwise
/// (max_header_size), and writes at most a few KiB (rank <= 64).
constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{1} << 20;
/// numpy's largest item size (an int): 'V2147483648' is "data type not understood".
constexpr std::int64_t kMaxItemBytes = INT_MAX;
constexpr int kFifoNoticeMs = 1000;  ///< silence on a FIFO input before padnd says it waits

[[noreturn]] void fail_format(const std::string& path, const std::string& what) {
  throw Error(Errc::invalid_argument, path + ": " + what);
}

bool host_is_big_endian() { return std::endian::native == std::endian::big; }

/// The padnd type of numpy's numeric dtype `kind``size` that the framework specs have too (the
/// core's table); long double is numpy's own (times are parsed on their own).
std::optional<DType> numeric_dtype(char kind, std::int64_t size) {
  if (std::strchr("biufc", kind) == nullptr) return std::nullopt;
  const std::optional<ElementType> type = from_numpy(kind, size);
  if (!type || numpy_only(*type)) return std::nullopt;
  return type->dtype;
}

/// Sizes numpy has for long double (x87 80-bit in 12 or 16 bytes): padnd's longdouble and
/// clongdouble where they are this host's, opaque bytes where another host wrote them.
bool is_long_double(char kind, std::int64_t size) {
  return (kind == 'f' && (size == 12 || size == 16)) || (kind == 'c' && (size == 24 || size == 32));
}

/// numpy's kind letter for a padnd type ('O' stands in for padnd's variable-length strings).
char kind_of(const ElementType& type) {
  if (const char kind = numpy_kind(type); kind != '\0') return kind;  // M, m: no unit, no descr
  if (type.dtype == DType::string) return 'O';
  if (type.dtype == DType::opaque) return 'V';
  const std::string name = type.name();
  if (name.starts_with("int")) return 'i';  // int4, int2
  if (name.starts_with("uint")) return 'u';
  return 'f';  // bfloat16, float8 and float4 variants
}

/// An open input: standard input for "-", a regular file (whose size is known), or a stream
/// (pipe, FIFO, character device) read to its end without asking for a size.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    if (fd_ > STDERR_FILENO) ::close(fd_);
  }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] bool regular() const { return regular_; }
  /// Regular files only: the bytes from where reading started (a standard input may start
  /// inside its file) to the end, and that start's file offset.
  [[nodiscard]] std::int64_t size() const { return size_; }
  [[nodiscard]] std::int64_t start() const { return start_; }
  /// Reads up to `n` bytes into `out`; fewer only at the end of the input.
  std::size_t read_some(char* out, std::size_t n);

 private:
  void inspect();
  std::string name_;
  int fd_ = -1;
  bool regular_ = false;
  std::int64_t size_ = 0;
  std::int64_t start_ = 0;
};

/// Opens a FIFO without blocking, so that a FIFO nobody writes to does not hang silently: after
/// kFifoNoticeMs without a writer padnd says what it waits for, then waits (Ctrl-C stops it).
int open_fifo(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail_io(path, "cannot open: " + errno_text());
  pollfd p{fd, POLLIN, 0};
  int rc = ::poll(&p, 1, kFifoNoticeMs);
  if (rc == 0) {
    const std::string note = "padnd: waiting for a writer on FIFO '" + path + "'\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, note.data(), note.size());
  }
  while (rc == 0 || (rc < 0 && errno == EINTR)) rc = ::poll(&p, 1, -1);
  if (rc < 0 || ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    fail_io(path, "cannot read: " + why);
  }
  return fd;
}

InputFile::InputFile(const std::string& path) : name_(path) {
  if (path == "-") {
    name_ = "standard input";
    fd_ = STDIN_FILENO;
  } else {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) fail_io(path, "cannot open: " + errno_text());
    if (S_ISDIR(st.st_mode)) fail_io(path, "is a directory");
    fd_ = S_ISFIFO(st.st_mode) ? open_fifo(path) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail_io(path, "cannot open: " + errno_text());
  }
  inspect();
}

void InputFile::inspect() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail_io(name_, "cannot read: " + errno_text());
  if (S_ISDIR(st.st_mode)) fail_io(name_, "is a directory");
  regular_ = S_ISREG(st.st_mode);
  if (!regular_) return;
  const off_t at = ::lseek(fd_, 0, SEEK_CUR);
  if (at < 0) fail_io(name_, "cannot read: " + errno_text());
  start_ = std::min<std::int64_t>(at, st.st_size);
  size_ = static_cast<std::int64_t>(st.st_size) - start_;
}

std::size_t InputFile::read_some(char* out, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd_, out + got, n - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      fail_io(name_, "read error: " + errno_text());
    }
    got += static_cast<std::size_t>(r);
  }
  return got;
}

std::string read_exact(InputFile& in, std::size_t n, const char* what) {
  std::string buf(n, '\0');
  if (in.read_some(buf.data(), n) != n) {
    fail_format(in.name(), std::string("truncated file (") + what + ")");
  }
  return buf;
}

[[noreturn]] void fail_alloc(const std::string& name, std::int64_t bytes, const std::string& what) {
  throw Error(Errc::out_of_memory,
              name + ": cannot allocate " + std::to_string(bytes) + " bytes for " + what);
}

/// Every key once, each of the three numpy writes, nothing else (numpy's own checks).
struct HeaderKeys {
  const PyValue* descr = nullptr;
  const PyValue* fortran = nullptr;
  const PyValue* shape = nullptr;
};

HeaderKeys find_header_keys(const std::string& path, const PyValue& dict) {
  HeaderKeys keys;
  for (std::size_t i = 0; i < dict.keys.size(); ++i) {
    const std::string& k = dict.keys[i];
    const PyValue** slot = k == "descr"           ? &keys.descr
                           : k == "fortran_order" ? &keys.fortran
                           : k == "shape"         ? &keys.shape
                                                  : nullptr;
    if (slot == nullptr) {
      fail_format(path, "unexpected key '" + printable(k) + "' in the .npy header");
    }
    if (*slot != nullptr) fail_format(path, "duplicate key '" + k + "' in the .npy header");
    *slot = &dict.items[i];
  }
  if (!keys.descr || !keys.fortran || !keys.shape) {
    fail_format(path, "the .npy header needs the keys 'descr', 'fortran_order' and 'shape'");
  }
  return keys;
}

NpyDtype header_dtype(const std::string& path, const PyValue& descr) {
  if (descr.kind == PyValue::Kind::list) {
    fail_format(path, "structured dtypes (a list descr) are not supported");
  }
  if (descr.kind != PyValue::Kind::string) fail_format(path, "'descr' is not a string");
  try {
    return parse_descr(descr.text);
  } catch (const Error& e) {
    fail_format(path, e.what());
  }
}

std::vector<std::int64_t> header_shape(const std::string& path, const PyValue& shape) {
  // numpy requires a tuple: "shape is not valid" for a list.
  if (shape.kind != PyValue::Kind::tuple) fail_format(path, "'shape' is not a tuple");
  std::vector<std::int64_t> dims;
  for (const PyValue& d : shape.items) {
    if (d.kind != PyValue::Kind::integer || d.number < 0) {
      fail_format(path, "'shape' must hold non-negative integers");
    }
    dims.push_back(d.number);
  }
  return dims;
}

NpyHeader parse_header_dict(const std::string& path, std::string_view text) {
  PyValue dict;
  try {
    dict = parse_py_literal(text);
  } catch (const Error& e) {
    fail_format(path, e.what());
  }
  if (dict.kind != PyValue::Kind::dict) fail_format(path, "the .npy header is not a dict");
  const HeaderKeys keys = find_header_keys(path, dict);
  NpyHeader h;
  h.dtype = header_dtype(path, *keys.descr);
  if (keys.fortran->kind != PyValue::Kind::boolean) {
    fail_format(path, "'fortran_order' is not True or False");
  }
  h.fortran_order = keys.fortran->flag;
  h.shape = header_shape(path, *keys.shape);
  try {
    npy_data_bytes(h.dtype.itemsize, h.shape);
  } catch (const Error& e) {
    throw Error(e.code(), path + ": " + e.what());
  }
  return h;
}

/// Reads the length field after magic and version and checks it before anything is allocated:
/// against padnd's limit, and against the file's size when the input is a regular file.
std::size_t read_header_length(InputFile& in, int major) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::string field = read_exact(in, len_bytes, "header length");
  std::uint64_t header_len = 0;
  for (std::size_t i = len_bytes; i-- > 0;) {  // little-endian
    header_len = header_len << 8 | static_cast<unsigned char>(field[i]);
  }
  const std::uint64_t end = kMagic.size() + 2 + len_bytes + header_len;
  if (in.regular() && end > static_cast<std::uint64_t>(in.size())) {
    fail_format(in.name(), "truncated file (header)");
  }
  if (header_len > kMaxHeaderBytes) {
    fail_format(in.name(), "the header announces " + std::to_string(header_len) +
                               " bytes; padnd reads .npy headers of at most " +
                               std::to_string(kMaxHeaderBytes) + " bytes");
  }
  return static_cast<std::size_t>(header_len);
}

/// Reads magic, version and dict; leaves `in` at the first data byte.
NpyHeader read_header(InputFile& in) {
  const std::string prefix = read_exact(in, kMagic.size() + 2, "magic string");
  if (std::string_view(prefix).substr(0, kMagic.size()) != kMagic) {
    fail_format(in.name(), "not a .npy file (bad magic string)");
  }
  const auto major = static_cast<unsigned char>(prefix[6]);
  const auto minor = static_cast<unsigned char>(prefix[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail_format(in.name(), "unsupported .npy format version " + std::to_string(major) + "." +
                               std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  }
  const std::size_t header_len = read_header_length(in, major);
  const std::string dict = read_exact(in, header_len, "header");
  NpyHeader h = parse_header_dict(in.name(), dict);
  h.data_offset = static_cast<std::int64_t>(prefix.size() + (major == 1 ? 2 : 4) + header_len);
  return h;
}

std::int64_t data_bytes_of(const NpyHeader& h) { return npy_data_bytes(h.dtype.itemsize, h.shape); }

[[noreturn]] void fail_data_size(const std::string& name, const NpyHeader& h, bool more,
                                 const std::string& actual) {
  fail_format(name, std::string(more ? "size mismatch: " : "truncated file: ") +
                        "the header announces shape " + shape_text(h.shape) + " of '" +
                        h.dtype.descr + "' (" + std::to_string(data_bytes_of(h)) +
                        " data bytes) but the file holds " + actual);
}

/// A regular file must hold exactly the announced data: fewer bytes is a truncated file, more
/// is a header that does not describe the contents. Checked before the data is allocated.
void check_file_size(const InputFile& in, const NpyHeader& h) {
  const std::int64_t expected = data_bytes_of(h);
  const std::int64_t actual = in.size() - h.data_offset;
  if (actual != expected) fail_data_size(in.name(), h, actual > expected, std::to_string(actual));
}

/// Reads a stream's data in growing steps, so that memory follows the bytes that arrive and
/// not the size a header announces; then checks that the stream ends there.
void read_stream_data(InputFile& in, const NpyHeader& h, std::vector<std::byte>& data) {
  const auto expected = static_cast<std::size_t>(data_bytes_of(h));
  std::size_t have = 0;
  while (have < expected) {
    const std::size_t step = std::min(expected - have, std::max<std::size_t>(have, 1 << 20));
    try {
      data.resize(have + step);
    } catch (const std::bad_alloc&) {
      fail_alloc(in.name(), static_cast<std::int64_t>(have + step), "the input data");
    }
    const std::size_t got = in.read_some(reinterpret_cast<char*>(data.data()) + have, step);
    have += got;
    if (got < step) fail_data_size(in.name(), h, false, std::to_string(have));
  }
  char extra = 0;
  if (in.read_some(&extra, 1) != 0) fail_data_size(in.name(), h, true, "more");
}

/// The whole of a regular file, mapped read-only. Sequential access is announced for C order,
/// the order padding reads it in; a Fortran-order file is read in runs, one per column.
void* map_file(const InputFile& in, const NpyHeader& h, std::size_t bytes) {
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, in.fd(), 0);
  if (map == MAP_FAILED) {
    if (errno == ENOMEM) {
      fail_alloc(in.name(), data_bytes_of(h),
                 "the input data of shape " + shape_text(h.shape) + " (mapping it)");
    }
    fail_io(in.name(), "cannot map the file: " + errno_text());
  }
  if (!h.fortran_order) ::madvise(map, bytes, MADV_SEQUENTIAL);  // a hint: failure is harmless
  return map;
}

/// What is wrong with the part of a datetime64 / timedelta64 descr after 'M' or 'm' (8 bytes,
/// optional [unit]), or null. The unit only matters to numpy, but it is printed back, so it
/// must be a plain word such as "ns" or "10ms".
const char* datetime_error(std::string_view s) {
  if (!s.starts_with('8')) return "datetime types are 8 bytes ('M8' / 'm8')";
  s.remove_prefix(1);
  if (s.empty()) return nullptr;
  if (!(s.front() == '[' && s.back() == ']' && s.size() > 2)) {
    return "expected a unit in brackets, like 'M8[ns]'";
  }
  // numpy's units, each after an optional count of them ('M8[10ms]'); np.save writes no other.
  static constexpr std::string_view kUnits[] = {"Y",  "M",  "W",  "D",  "h",  "m",  "s",
                                                "ms", "us", "ns", "ps", "fs", "as", "generic"};
  std::string_view unit = s.substr(1, s.size() - 2);
  while (!unit.empty() && unit.front() >= '0' && unit.front() <= '9') unit.remove_prefix(1);
  const bool known = std::find(std::begin(kUnits), std::end(kUnits), unit) != std::end(kUnits);
  return known ? nullptr
               : "the unit must be one of numpy's (Y M W D h m s ms us ns ps fs as, "
                 "optionally after a count, like 'M8[10ms]')";
}

/// Sets itemsize and element of a numeric, text or void type from its code and size; returns
/// what is wrong, or null.
const char* set_sized_type(NpyDtype& t, char code, std::int64_t size) {
  switch (code) {
    case 'b':
    case 'i':
    case 'u':
    case 'f':
    case 'c':
      t.itemsize = size;
      if (const auto d = from_numpy(code, size)) {
        t.element = *d;  // either byte order: the value modes compute on a host-order copy
      } else if (is_long_double(code, size)) {
        t.element = ElementType::opaque(size);
      } else {
        return "no such numeric size";
      }
      return nullptr;
    case 'S':
    case 'a':
    case 'V':
    case 'U':
      if (size > (code == 'U' ? kMaxItemBytes / 4 : kMaxItemBytes)) {
        return "item size over numpy's limit of 2147483647 bytes";
      }
      t.itemsize = code == 'U' ? size * 4 : size;
      t.element = ElementType::opaque(t.itemsize);
      return nullptr;
    default:
      return "unknown type code";
  }
}

}  // namespace

std::string python_tuple(std::span<const std::int64_t> values) {
  std::string s = "(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(values[i]);
  }
  if (values.size() == 1) s += ',';
  return s + ')';
}

std::string shape_text(std::span<const std::int64_t> shape) {
  constexpr std::size_t kShown = 8;
  if (shape.size() <= kShown) return python_tuple(shape);
  std::string s = python_tuple(shape.first(kShown));
  s.insert(s.size() - 1, ", ...");
  return s + " (rank " + std::to_string(shape.size()) + ")";
}

NpyDtype parse_descr(std::string_view descr) {
  const auto bad = [&](const std::string& why) -> Error {
    return Error(Errc::unsupported_type, "dtype '" + printable(descr) + "': " + why);
  };
  NpyDtype t;
  t.descr = std::string(descr);
  std::string_view s = descr;
  char order = '|';
  if (!s.empty() && std::strchr("<>|=", s.front()) != nullptr) {
    order = s.front();
    s.remove_prefix(1);
  }
  if (s.empty()) throw bad("empty type code");
  const char code = s.front();
  s.remove_prefix(1);
  if (code == 'O') throw bad("object arrays hold Python references and cannot be read");
  t.kind = code == 'a' ? 'S' : code;
  t.big_endian = order == '>' || (order == '=' && host_is_big_endian());
  if (code == 'M' || code == 'm') {
    if (const char* why = datetime_error(s)) throw bad(why);
    t.itemsize = 8;  // int64 ticks of any unit (numpy's value modes compute on some)
    t.element = code == 'M' ? DType::datetime64 : DType::timedelta64;
    return t;
  }
  std::int64_t size = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), size);
  if (ec != std::errc() || ptr != s.data() + s.size() || size <= 0) {
    if (std::strchr("biufcSaUV", code) == nullptr) throw bad("unknown type code");
    throw bad("expected a positive item size after the type code");
  }
  if (const char* why = set_sized_type(t, code, size)) throw bad(why);
  return t;
}

NpyDtype dtype_from_name(std::string_view name) {
  const std::optional<ElementType> type = parse_element_type(name);
  if (!type) return parse_descr(name);
  NpyDtype t;
  t.element = *type;
  t.itemsize = type->item_bytes();
  t.kind = kind_of(*type);
  if (type->dtype == DType::opaque) {
    t.descr = "|V" + std::to_string(t.itemsize);
  } else if (numeric_dtype(t.kind, t.itemsize) == type->dtype) {
    t.descr = std::string(t.itemsize == 1 ? "|" : "<") + t.kind + std::to_string(t.itemsize);
  }  // else: bfloat16, float8, packed and string types have no .npy descr
  return t;
}

std::int64_t npy_data_bytes(std::int64_t itemsize, std::span<const std::int64_t> shape) {
  // numpy's rule: the item size times the lengths other than 0 fits in int64, even when a length
  // is 0 (numpy cannot load such an empty array). padnd's checked arithmetic does the sums.
  std::vector<std::int64_t> nonzero;
  std::copy_if(shape.begin(), shape.end(), std::back_inserter(nonzero),
               [](std::int64_t len) { return len != 0; });
  try {
    const std::int64_t bytes = storage_bytes(ElementType::opaque(itemsize), element_count(nonzero));
    return nonzero.size() == shape.size() ? bytes : 0;
  } catch (const Error& e) {
    if (e.code() != Errc::overflow) throw;
    throw Error(Errc::overflow, "shape " + shape_text(shape) + " of " + std::to_string(itemsize) +
                                    "-byte elements: its bytes (the lengths other than 0 times "
                                    "the item size) do not fit in int64, as numpy requires");
  }
}

std::vector<std::int64_t> fortran_byte_strides(const std::vector<std::int64_t>& shape,
                                               std::int64_t itemsize) {
  // An empty array reads nothing; its C-order default avoids products past int64.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return {};
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = itemsize;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    strides[k] = s;
    s *= std::max<std::int64_t>(shape[k], 1);  // fits: the file holds the whole array
  }
  return strides;
}

TensorView NpyArray::view() const {
  return TensorView{data.data(), header.dtype.element, header.shape, byte_strides()};
}

std::vector<std::int64_t> NpyArray::byte_strides() const {
  if (!header.fortran_order) return {};
  return fortran_byte_strides(header.shape, header.dtype.itemsize);
}

NpyHeader read_npy_header(const std::string& path) {
  InputFile in(path);
  return read_header(in);
}

NpyInput::NpyInput(const std::string& path) : name_(path) {
  InputFile in(path);
  array_.header = read_header(in);
  if (!in.regular()) {
    read_stream_data(in, array_.header, array_.data);
    data_ = array_.data.data();
    return;
  }
  check_file_size(in, array_.header);
  if (data_bytes() == 0) return;  // nothing to map (mmap takes no empty range)
  map_bytes_ = static_cast<std::size_t>(in.start() + in.size());
  map_ = map_file(in, array_.header, map_bytes_);
  data_ = static_cast<const std::byte*>(map_) + in.start() + array_.header.data_offset;
}

NpyInput::~NpyInput() {
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
}

std::int64_t NpyInput::data_bytes() const { return data_bytes_of(array_.header); }

NpyArray& NpyInput::in_memory() {
  if (map_ == nullptr) return array_;
  const auto bytes = static_cast<std::size_t>(data_bytes());
  try {
    array_.data.assign(data_, data_ + bytes);
  } catch (const std::bad_alloc&) {
    fail_alloc(
        name_, data_bytes(),
        "a copy of the input data of shape " + shape_text(array_.header.shape) + " in memory");
  }
  ::munmap(map_, map_bytes_);
  map_ = nullptr;
  data_ = array_.data.data();
  return array_;
}

std::string npy_header_bytes(const std::string& descr, std::span<const std::int64_t> shape) {
  const std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + python_tuple(shape) + ", }";
  // Version 1.0 stores the header length in 16 bits; longer headers need 2.0 (32 bits).
  for (const int major : {1, 2}) {
    const std::size_t prefix = kMagic.size() + 2 + (major == 1 ? 2 : 4);
    const std::size_t unpadded = prefix + dict.size() + 1;  // + '\n'
    const std::size_t total = (unpadded + kAlignBytes - 1) / kAlignBytes * kAlignBytes;
    const std::size_t header_len = total - prefix;
    if (major == 1 && header_len > 0xFFFF) continue;
    std::string out(kMagic);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < prefix - kMagic.size() - 2; ++i) {
      out += static_cast<char>((header_len >> (8 * i)) & 0xFF);
    }
    out += dict;
    out.append(total - unpadded, ' ');
    out += '\n';
    return out;
  }
  throw Error(Errc::overflow, "the .npy header is too long");
}

}  // namespace padnd::cli
