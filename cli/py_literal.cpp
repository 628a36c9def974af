// SPDX-License-Identifier: Apache-2.0
// A recursive-descent reader for the Python literals of a .npy header dict.
#include "py_literal.hpp"

#include <charconv>

#include "padnd/error.hpp"

namespace padnd::cli {
namespace {

/// Deepest nesting accepted. numpy writes depth 2 (the dict and its shape tuple); without a
/// limit, a 64 KiB header of '[' overflows the stack of this recursive-descent parser.
constexpr int kMaxDepth = 64;

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : text_(text) {}

  PyValue parse_all() {
    PyValue v = value();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the dict");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(Errc::invalid_argument,
                "malformed .npy header (" + what + " at offset " + std::to_string(pos_) + ")");
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool take_word(std::string_view word) {
    skip_space();
    if (text_.substr(pos_).starts_with(word)) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  PyValue value() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '\'' || c == '"') return string_value();
    if (c == '{' || c == '(' || c == '[') {
      if (depth_ == kMaxDepth) {
        fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      }
      ++depth_;
      PyValue v = c == '{' ? dict_value() : sequence_value();
      --depth_;
      return v;
    }
    return scalar_value();
  }

  PyValue scalar_value() {
    PyValue v;
    if (take_word("True")) {
      v.kind = PyValue::Kind::boolean;
      v.flag = true;
      return v;
    }
    if (take_word("False")) {
      v.kind = PyValue::Kind::boolean;
      return v;
    }
    if (take_word("None")) return v;
    return integer_value();
  }

  PyValue string_value() {
    const char quote = text_[pos_++];
    PyValue v;
    v.kind = PyValue::Kind::string;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') ++pos_;  // an escaped character stands for itself
      if (pos_ < text_.size()) v.text += text_[pos_++];
    }
    if (pos_ >= text_.size()) fail("unterminated string");
    ++pos_;
    return v;
  }

  PyValue integer_value() {
    const char* first = text_.data() + pos_;
    const char* last = text_.data() + text_.size();
    PyValue v;
    v.kind = PyValue::Kind::integer;
    auto [ptr, ec] = std::from_chars(first, last, v.number);
    if (ec == std::errc::result_out_of_range) fail("integer out of range");
    if (ec != std::errc() || ptr == first) fail("unexpected character");
    pos_ += static_cast<std::size_t>(ptr - first);
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 long suffix
    return v;
  }

  PyValue sequence_value() {
    const char close = text_[pos_] == '(' ? ')' : ']';
    PyValue v;
    v.kind = close == ')' ? PyValue::Kind::tuple : PyValue::Kind::list;
    ++pos_;
    bool comma = false;
    while (!take(close)) {
      v.items.push_back(value());
      comma = take(',');
      if (!comma) {
        if (!take(close)) fail("expected ',' or '" + std::string(1, close) + "'");
        break;
      }
    }
    // As in Python, "(6)" is 6 in parentheses; a tuple of one needs its comma: "(6,)".
    if (v.kind == PyValue::Kind::tuple && v.items.size() == 1 && !comma) return v.items[0];
    return v;
  }

  PyValue dict_value() {
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::dict;
    while (!take('}')) {
      skip_space();
      const PyValue key = value();
      if (key.kind != PyValue::Kind::string) fail("dict keys must be strings");
      if (!take(':')) fail("expected ':'");
      v.keys.push_back(key.text);
      v.items.push_back(value());
      if (!take(',')) {
        if (!take('}')) fail("expected ',' or '}'");
        break;
      }
    }
    return v;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;  ///< containers open around the current position
};

}  // namespace

PyValue parse_py_literal(std::string_view text) { return LiteralParser(text).parse_all(); }

}  // namespace padnd::cli
