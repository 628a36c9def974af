// SPDX-License-Identifier: Apache-2.0
// .npy I/O: header checks, descr mapping, strided (Fortran) views, atomic writes.
#include "npy.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "padnd/error.hpp"
#include "py_literal.hpp"

namespace padnd::cli {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::int64_t kAlignBytes = 64;  // numpy aligns the data start to 64 bytes

[[noreturn]] void fail_io(const std::string& path, const std::string& what) {
  throw Error(Errc::io, path + ": " + what);
}

[[noreturn]] void fail_format(const std::string& path, const std::string& what) {
  throw Error(Errc::invalid_argument, path + ": " + what);
}

std::string errno_text() { return std::strerror(errno); }

bool host_is_big_endian() { return std::endian::native == std::endian::big; }

/// The padnd type of numpy's numeric dtype `kind``size` (the core's table); the CLI moves
/// numpy's own types (times, long double) as opaque bytes, so those are not numeric here.
std::optional<DType> numeric_dtype(char kind, std::int64_t size) {
  if (std::strchr("biufc", kind) == nullptr) return std::nullopt;
  const std::optional<ElementType> type = from_numpy(kind, size);
  if (!type || numpy_only(*type)) return std::nullopt;
  return type->dtype;
}

/// Sizes numpy has besides the padnd numeric ones: long double (x87 80-bit in 12 or 16 bytes).
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

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw Error(Errc::overflow, what + " overflows int64");
  return r;
}

std::string read_exact(std::FILE* f, std::size_t n, const std::string& path, const char* what) {
  std::string buf(n, '\0');
  if (n > 0 && std::fread(buf.data(), 1, n, f) != n) {
    if (std::ferror(f)) fail_io(path, "read error: " + errno_text());
    fail_format(path, std::string("truncated file (") + what + ")");
  }
  return buf;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

FilePtr open_for_reading(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail_io(path, "is a directory");
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) fail_io(path, "cannot open: " + errno_text());
  return f;
}

NpyHeader parse_header_dict(const std::string& path, std::string_view text) {
  PyValue dict;
  try {
    dict = parse_py_literal(text);
  } catch (const Error& e) {
    fail_format(path, e.what());
  }
  if (dict.kind != PyValue::Kind::dict) fail_format(path, "the .npy header is not a dict");
  const PyValue* descr = nullptr;
  const PyValue* fortran = nullptr;
  const PyValue* shape = nullptr;
  for (std::size_t i = 0; i < dict.keys.size(); ++i) {
    const std::string& k = dict.keys[i];
    const PyValue* v = &dict.items[i];
    if (k == "descr") {
      descr = v;
    } else if (k == "fortran_order") {
      fortran = v;
    } else if (k == "shape") {
      shape = v;
    } else {
      fail_format(path, "unexpected key '" + k + "' in the .npy header");
    }
  }
  if (!descr || !fortran || !shape) {
    fail_format(path, "the .npy header needs the keys 'descr', 'fortran_order' and 'shape'");
  }
  NpyHeader h;
  if (descr->kind == PyValue::Kind::list) {
    fail_format(path, "structured dtypes (a list descr) are not supported");
  }
  if (descr->kind != PyValue::Kind::string) fail_format(path, "'descr' is not a string");
  try {
    h.dtype = parse_descr(descr->text);
  } catch (const Error& e) {
    fail_format(path, e.what());
  }
  if (fortran->kind != PyValue::Kind::boolean) {
    fail_format(path, "'fortran_order' is not True or False");
  }
  h.fortran_order = fortran->flag;
  if (shape->kind != PyValue::Kind::tuple && shape->kind != PyValue::Kind::list) {
    fail_format(path, "'shape' is not a tuple");
  }
  for (const PyValue& d : shape->items) {
    if (d.kind != PyValue::Kind::integer || d.number < 0) {
      fail_format(path, "'shape' must hold non-negative integers");
    }
    h.shape.push_back(d.number);
  }
  return h;
}

/// Reads magic, version and dict; leaves `f` at the first data byte.
NpyHeader read_header(std::FILE* f, const std::string& path) {
  const std::string prefix = read_exact(f, kMagic.size() + 2, path, "magic string");
  if (std::string_view(prefix).substr(0, kMagic.size()) != kMagic) {
    fail_format(path, "not a .npy file (bad magic string)");
  }
  const auto major = static_cast<unsigned char>(prefix[6]);
  const auto minor = static_cast<unsigned char>(prefix[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail_format(path, "unsupported .npy format version " + std::to_string(major) + "." +
                          std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  }
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::string len_field = read_exact(f, len_bytes, path, "header length");
  std::uint64_t header_len = 0;
  for (std::size_t i = len_bytes; i-- > 0;) {  // little-endian
    header_len = header_len << 8 | static_cast<unsigned char>(len_field[i]);
  }
  // Check the announced length against the file before allocating it (up to 4 GiB in 2.0).
  std::error_code ec;
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (!ec && prefix.size() + len_bytes + header_len > file_bytes) {
    fail_format(path, "truncated file (header)");
  }
  const std::string dict = read_exact(f, header_len, path, "header");
  NpyHeader h = parse_header_dict(path, dict);
  h.data_offset = static_cast<std::int64_t>(prefix.size() + len_bytes + header_len);
  return h;
}

std::int64_t data_bytes_of(const NpyHeader& h) {
  return checked_mul(element_count(h.shape), h.dtype.itemsize, "array size in bytes");
}

/// The file must hold exactly the announced data: fewer bytes is a truncated file, more is a
/// header that does not describe the contents.
void check_file_size(const std::string& path, const NpyHeader& h) {
  const std::int64_t expected = data_bytes_of(h);
  std::error_code ec;
  const auto file_bytes = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  if (ec) fail_io(path, "cannot get the file size: " + ec.message());
  const std::int64_t actual = file_bytes - h.data_offset;
  if (actual != expected) {
    fail_format(path, std::string(actual < expected ? "truncated file: " : "size mismatch: ") +
                          "the header announces shape " + python_tuple(h.shape) + " of '" +
                          h.dtype.descr + "' (" + std::to_string(expected) +
                          " data bytes) but the file holds " + std::to_string(actual));
  }
}

/// Closes and removes a temporary file unless commit() was called.
class TempFile {
 public:
  TempFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }
  void commit() { committed_ = true; }

 private:
  std::string path_;
  int fd_;
  bool committed_ = false;
};

void write_all(int fd, const void* data, std::int64_t bytes, const std::string& path) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, static_cast<std::size_t>(bytes));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_io(path, "write error: " + errno_text());
    }
    p += n;
    bytes -= n;
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

NpyDtype parse_descr(std::string_view descr) {
  const auto bad = [&](const std::string& why) -> Error {
    return Error(Errc::unsupported_type, "dtype '" + std::string(descr) + "': " + why);
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
    // datetime64 / timedelta64: 8 bytes, optional [unit]; the unit only matters to numpy.
    if (!s.starts_with('8')) throw bad("datetime types are 8 bytes ('M8' / 'm8')");
    s.remove_prefix(1);
    if (!s.empty() && !(s.front() == '[' && s.back() == ']' && s.size() > 2)) {
      throw bad("expected a unit in brackets, like 'M8[ns]'");
    }
    t.itemsize = 8;
    t.element = ElementType::opaque(8);
    return t;
  }
  std::int64_t size = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), size);
  if (ec != std::errc() || ptr != s.data() + s.size() || size <= 0) {
    if (std::strchr("biufcSaUV", code) == nullptr) throw bad("unknown type code");
    throw bad("expected a positive item size after the type code");
  }
  switch (code) {
    case 'b':
    case 'i':
    case 'u':
    case 'f':
    case 'c': {
      t.itemsize = size;
      if (const auto d = numeric_dtype(code, size)) {
        t.element = *d;  // either byte order: padding moves bytes, never does arithmetic
      } else if (is_long_double(code, size)) {
        t.element = ElementType::opaque(size);
      } else {
        throw bad("no such numeric size");
      }
      return t;
    }
    case 'S':
    case 'a':
    case 'V':
      t.itemsize = size;
      break;
    case 'U':
      t.itemsize = checked_mul(size, 4, "unicode item size");
      break;
    default:
      throw bad("unknown type code");
  }
  t.element = ElementType::opaque(t.itemsize);
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

std::vector<std::int64_t> fortran_byte_strides(const std::vector<std::int64_t>& shape,
                                               std::int64_t itemsize) {
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
  FilePtr f = open_for_reading(path);
  return read_header(f.get(), path);
}

NpyArray read_npy(const std::string& path) {
  FilePtr f = open_for_reading(path);
  NpyArray a;
  a.header = read_header(f.get(), path);
  check_file_size(path, a.header);
  a.data.resize(static_cast<std::size_t>(data_bytes_of(a.header)));
  if (!a.data.empty() && std::fread(a.data.data(), 1, a.data.size(), f.get()) != a.data.size()) {
    fail_io(path, "read error: " + errno_text());
  }
  return a;
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

void write_npy(const std::string& path, const std::string& descr,
               std::span<const std::int64_t> shape, const std::byte* data,
               std::int64_t data_bytes) {
  const std::string header = npy_header_bytes(descr, shape);
  const std::filesystem::path target(path);
  if (!target.has_filename()) fail_io(path, "the output path names a directory");
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string temp_name = (dir / ("." + target.filename().string() + ".padnd-XXXXXX")).string();
  const int fd = ::mkstemp(temp_name.data());
  if (fd < 0) {
    fail_io(path, "cannot create a temporary file in '" + dir.string() + "': " + errno_text());
  }
  TempFile temp(temp_name, fd);
  // mkstemp creates 0600; give the result the permissions a plain create would have.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(temp.fd(), 0666 & ~mask) != 0) fail_io(path, "chmod: " + errno_text());
  write_all(temp.fd(), header.data(), static_cast<std::int64_t>(header.size()), path);
  write_all(temp.fd(), data, data_bytes, path);
  if (temp.close() != 0) fail_io(path, "close: " + errno_text());
  if (std::rename(temp.path().c_str(), path.c_str()) != 0) {
    fail_io(path, "cannot replace the output file: " + errno_text());
  }
  temp.commit();
}

}  // namespace padnd::cli
