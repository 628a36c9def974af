// SPDX-License-Identifier: Apache-2.0
// Parses `--value` in the input's dtype and encodes it bit-exactly in the file's byte order.
#include "value_parse.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "padnd/error.hpp"

namespace padnd::cli {
namespace {

std::string dtype_label(const NpyDtype& t) {
  if (t.element.dtype == DType::opaque) return "'" + t.descr + "'";
  return t.descr.empty() ? t.element.name() : t.element.name() + " ('" + t.descr + "')";
}

[[noreturn]] void fail(Errc code, std::string_view text, const NpyDtype& t,
                       const std::string& why) {
  throw Error(code, "--value '" + std::string(text) + "' for dtype " + dtype_label(t) + ": " + why);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

/// The low `bytes` bytes of `bits`, least significant first unless `big_endian`.
std::string store(std::uint64_t bits, std::int64_t bytes, bool big_endian) {
  std::string out(static_cast<std::size_t>(bytes), '\0');
  for (std::int64_t i = 0; i < bytes; ++i) {
    const auto pos = static_cast<std::size_t>(big_endian ? bytes - 1 - i : i);
    out[pos] = static_cast<char>((bits >> (8 * i)) & 0xFF);
  }
  return out;
}

// --- integers --------------------------------------------------------------------------------

std::uint64_t parse_integer(std::string_view text, const NpyDtype& t) {
  std::string_view s = trim(text);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::uint64_t magnitude = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude);
  if (ptr != s.data() + s.size() || s.empty() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    fail(Errc::invalid_argument, text, t, "not an integer");
  }
  const int bits = t.element.bits();
  const bool is_signed = t.kind == 'i' || t.kind == 'M' || t.kind == 'm';
  const std::uint64_t max_positive =
      is_signed ? (std::uint64_t{1} << (bits - 1)) - 1
                : (bits == 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1);
  const std::uint64_t max_negative = is_signed ? max_positive + 1 : 0;  // magnitude
  if (ec == std::errc::result_out_of_range ||
      magnitude > (negative ? max_negative : max_positive)) {
    const std::string low = is_signed ? "-" + std::to_string(max_negative) : "0";
    fail(Errc::out_of_range, text, t,
         "out of range (allowed " + low + ".." + std::to_string(max_positive) + ")");
  }
  return negative ? std::uint64_t{0} - magnitude : magnitude;  // two's complement
}

std::string encode_integer(std::string_view text, const NpyDtype& t) {
  const std::uint64_t bits = parse_integer(text, t);
  if (t.element.packed()) {  // one byte holding the code in its low bits
    const std::uint64_t mask = (std::uint64_t{1} << t.element.bits()) - 1;
    return std::string(1, static_cast<char>(bits & mask));
  }
  return store(bits, t.itemsize, t.big_endian);
}

// --- floats ----------------------------------------------------------------------------------

double parse_double(std::string_view text, std::string_view whole, const NpyDtype& t) {
  const std::string s(trim(text));
  char* end = nullptr;
  const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size())
    fail(Errc::invalid_argument, whole, t, "not a number");
  if (std::isinf(v) && lower(s).find("inf") == std::string::npos) {
    fail(Errc::out_of_range, whole, t, "out of range");
  }
  return v;
}

/// Rounds `v` to nearest-even in a binary format with `exp_bits` exponent and `man_bits`
/// mantissa bits, directly from float64 (a detour through float32 would round twice).
std::uint64_t round_to_binary(double v, int exp_bits, int man_bits) {
  const std::uint64_t sign = std::signbit(v) ? std::uint64_t{1} << (exp_bits + man_bits) : 0;
  const std::uint64_t exp_all_ones = ((std::uint64_t{1} << exp_bits) - 1) << man_bits;
  if (std::isnan(v)) return sign | exp_all_ones | std::uint64_t{1} << (man_bits - 1);
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | exp_all_ones;
  if (a == 0.0) return sign;
  const int bias = (1 << (exp_bits - 1)) - 1;
  int e = 0;
  std::frexp(a, &e);
  const int unbiased = std::max(e - 1, 1 - bias);  // subnormals share the smallest exponent
  // Scaling by a power of two is exact; nearbyint rounds half to even.
  const auto q = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(a, man_bits - unbiased)));
  // q includes the implicit bit, so a carry out of the mantissa bumps the exponent by itself.
  std::uint64_t bits = q;
  if (e - 1 >= 1 - bias) bits += static_cast<std::uint64_t>(unbiased + bias - 1) << man_bits;
  return sign | std::min(bits, exp_all_ones);  // overflow rounds to infinity
}

/// Bits of `v` in the float format of `bytes` (2: float16, 4: float32, 8: float64).
std::uint64_t float_bits(double v, std::int64_t bytes, bool bfloat, std::string_view whole,
                         const NpyDtype& t) {
  std::uint64_t bits = 0;
  bool overflow = false;
  if (bytes == 8) {
    bits = std::bit_cast<std::uint64_t>(v);
  } else if (bytes == 4) {
    const auto f = static_cast<float>(v);
    overflow = std::isinf(f) && !std::isinf(v);
    bits = std::bit_cast<std::uint32_t>(f);
  } else {
    const int exp_bits = bfloat ? 8 : 5;
    const int man_bits = bfloat ? 7 : 10;
    bits = round_to_binary(v, exp_bits, man_bits);
    const std::uint64_t exp_all_ones = ((std::uint64_t{1} << exp_bits) - 1) << man_bits;
    overflow = !std::isinf(v) && !std::isnan(v) && (bits & exp_all_ones) == exp_all_ones;
  }
  if (overflow) fail(Errc::out_of_range, whole, t, "out of range (rounds to infinity)");
  return bits;
}

/// `v` as this host's long double in `bytes` (its size) in the file's byte order, the padding of
/// an x87 value (the last 6 of 16 bytes) zero. Parsed as a double first, as Python parses the
/// constant that numpy.pad then widens.
std::string store_long_double(double v, std::int64_t bytes, bool big_endian) {
  constexpr std::size_t kValueBytes = LDBL_MANT_DIG == 64 ? 10 : sizeof(long double);
  const auto wide = static_cast<long double>(v);
  std::string out(static_cast<std::size_t>(bytes), '\0');
  std::memcpy(out.data(), &wide, std::min(kValueBytes, out.size()));
  if (big_endian != (std::endian::native == std::endian::big)) std::reverse(out.begin(), out.end());
  return out;
}

std::string encode_float(std::string_view text, const NpyDtype& t) {
  const double v = parse_double(text, text, t);
  if (t.element.dtype == DType::longdouble) return store_long_double(v, t.itemsize, t.big_endian);
  const bool bfloat = t.element.dtype == DType::bfloat16;
  return store(float_bits(v, t.itemsize, bfloat, text, t), t.itemsize, t.big_endian);
}

/// "a+bj", "bj", "a", optionally in parentheses; each part is rounded to the component type.
std::string encode_complex(std::string_view text, const NpyDtype& t) {
  std::string_view s = trim(text);
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trim(s.substr(1, s.size() - 2));
  std::string real = "0";
  std::string imag = "0";
  if (!s.empty() && (s.back() == 'j' || s.back() == 'J')) {
    const std::string_view body = s.substr(0, s.size() - 1);
    std::size_t split = std::string_view::npos;
    for (std::size_t k = body.size(); k-- > 1;) {  // the sign that starts the imaginary part
      if ((body[k] == '+' || body[k] == '-') && body[k - 1] != 'e' && body[k - 1] != 'E') {
        split = k;
        break;
      }
    }
    std::string_view im = split == std::string_view::npos ? body : body.substr(split);
    if (split != std::string_view::npos) real = std::string(body.substr(0, split));
    imag = std::string(im);
    if (imag.empty() || imag == "+" || imag == "-") imag += "1";  // "j" alone means 1j
  } else {
    real = std::string(s);
  }
  const std::int64_t part_bytes = t.itemsize / 2;
  std::string out;
  for (const std::string& part : {real, imag}) {
    const double v = parse_double(part, text, t);
    out += t.element.dtype == DType::clongdouble
               ? store_long_double(v, part_bytes, t.big_endian)
               : store(float_bits(v, part_bytes, false, text, t), part_bytes, t.big_endian);
  }
  return out;
}

// --- everything else -------------------------------------------------------------------------

std::string encode_bool(std::string_view text, const NpyDtype& t) {
  const std::string s = lower(trim(text));
  if (s == "true" || s == "1") return std::string(1, '\1');
  if (s == "false" || s == "0") return std::string(1, '\0');
  fail(Errc::invalid_argument, text, t, "expected true, false, 1 or 0");
}

/// UTF-8 -> code points; rejects what numpy cannot store either: malformed sequences,
/// overlong forms, surrogates and code points above U+10FFFF.
std::u32string decode_utf8(std::string_view text, const NpyDtype& t) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Step step = utf8_step(text, i);
    if (step.error != nullptr) {
      fail(Errc::invalid_argument, text, t,
           "not valid UTF-8: " + std::string(step.error) + " at byte " + std::to_string(i));
    }
    out += step.cp;
    i += static_cast<std::size_t>(step.len);
  }
  return out;
}

std::string encode_text(std::string_view text, const NpyDtype& t, TextPadding padding) {
  std::string out;
  if (t.kind == 'S') {
    out = std::string(text);
  } else {
    for (const char32_t cp : decode_utf8(text, t)) out += store(cp, 4, t.big_endian);
  }
  if (static_cast<std::int64_t>(out.size()) > t.itemsize) {
    const std::int64_t unit = t.kind == 'S' ? 1 : 4;
    fail(Errc::out_of_range, text, t,
         "too long: " + std::to_string(out.size() / static_cast<std::size_t>(unit)) +
             (unit == 1 ? " bytes" : " characters") + ", the dtype holds at most " +
             std::to_string(t.itemsize / unit));
  }
  if (padding == TextPadding::item) out.resize(static_cast<std::size_t>(t.itemsize), '\0');
  return out;
}

std::string encode_datetime(std::string_view text, const NpyDtype& t) {
  if (lower(trim(text)) == "nat") {
    return store(static_cast<std::uint64_t>(INT64_MIN), 8, t.big_endian);
  }
  return store(parse_integer(text, t), 8, t.big_endian);
}

std::string encode_opaque(std::string_view text, const NpyDtype& t, TextPadding padding) {
  switch (t.kind) {
    case 'S':
    case 'U':
      return encode_text(text, t, padding);
    case 'V':
      fail(Errc::unsupported_type, text, t,
           "void elements take no --value; constant mode pads them with zero bytes");
    default:
      fail(Errc::unsupported_type, text, t, "--value is not supported for this dtype");
  }
}

}  // namespace

Utf8Step utf8_step(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80) return {1, b0, nullptr};
  const int len = (b0 >> 5) == 6 ? 2 : (b0 >> 4) == 14 ? 3 : (b0 >> 3) == 30 ? 4 : 0;
  if (len == 0) return {1, 0, "a byte that starts no UTF-8 sequence"};
  char32_t cp = b0 & (0x7F >> len);
  for (int k = 1; k < len; ++k) {
    const std::size_t at = i + static_cast<std::size_t>(k);
    if (at >= text.size() || (static_cast<unsigned char>(text[at]) >> 6) != 2) {
      return {1, 0, "a truncated sequence"};
    }
    cp = cp << 6 | (static_cast<unsigned char>(text[at]) & 0x3F);
  }
  constexpr char32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};  // by length
  if (cp < kShortest[len]) return {1, 0, "an overlong encoding"};
  if (cp >= 0xD800 && cp <= 0xDFFF) return {1, 0, "a surrogate (U+D800..U+DFFF)"};
  if (cp > 0x10FFFF) return {1, 0, "a code point above U+10FFFF"};
  return {len, cp, nullptr};
}

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Step step = utf8_step(text, i);
    const bool control = step.error == nullptr && (step.cp < 0x20 || step.cp == 0x7F);
    if (step.error != nullptr || control) {
      const auto byte = static_cast<unsigned char>(text[i]);
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out.append(text.substr(i, static_cast<std::size_t>(step.len)));
    }
    i += static_cast<std::size_t>(step.len);
  }
  return out;
}

std::string parse_value(std::string_view text, const NpyDtype& dtype, TextPadding padding) {
  if (is_integer(dtype.element)) return encode_integer(text, dtype);
  switch (dtype.element.dtype) {
    case DType::boolean:
      return encode_bool(text, dtype);
    case DType::float16:
    case DType::bfloat16:
    case DType::float32:
    case DType::float64:
    case DType::longdouble:
      return encode_float(text, dtype);
    case DType::complex64:
    case DType::complex128:
    case DType::clongdouble:
      return encode_complex(text, dtype);
    case DType::string:
      return std::string(text);
    case DType::datetime64:
    case DType::timedelta64:
      return encode_datetime(text, dtype);
    case DType::opaque:
      return encode_opaque(text, dtype, padding);
    default:
      fail(Errc::unsupported_type, text, dtype, "--value is not supported for this type");
  }
}

float parse_float_attribute(std::string_view text) {
  NpyDtype f32;
  f32.kind = 'f';
  f32.itemsize = 4;
  f32.element = DType::float32;
  const double v = parse_double(text, text, f32);
  return std::bit_cast<float>(static_cast<std::uint32_t>(float_bits(v, 4, false, text, f32)));
}

}  // namespace padnd::cli
