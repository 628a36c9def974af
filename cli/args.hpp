// SPDX-License-Identifier: Apache-2.0
// Command-line parsing for `padnd`: commands, options, --spec names, integer lists.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace padnd::cli {

/// A mistake in the command line itself (exit status 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Command { pad, explain, demo, help, version };

/// Which published spec interprets the pads (`--spec`).
struct SpecChoice {
  enum class Family { onnx, openvino, ngraph, numpy };
  Family family = Family::onnx;
  int version = 25;  ///< onnx: opset 1..25; openvino: 1 or 12; ngraph: 0 or 1; numpy: unused

  /// Canonical spelling: "onnx:25", "openvino:12", "ngraph:v0", "numpy".
  [[nodiscard]] std::string name() const;
};

/// Parses "onnx", "onnx:N", "openvino[:1|:12]", "ngraph[:v0|:v1]", "numpy".
SpecChoice parse_spec(std::string_view text);

/// Parses "1,-2,3" (spaces allowed, "" is the empty list); `option` names the flag in errors.
std::vector<std::int64_t> parse_int_list(std::string_view option, std::string_view text);

/// One axis of `--window`: start:stop, either omitted, negative counting from the end.
struct WindowRange {
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> stop;
};

/// Parses "0:256,100:,:-3" (one start:stop per axis; "" is no range).
std::vector<WindowRange> parse_window(std::string_view text);

/// Starts and lengths of `ranges` on an output of `shape`, bounds clipped as numpy's slices are;
/// axes without a range are whole. Throws UsageError for more ranges than axes.
struct WindowBounds {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> shape;
};
WindowBounds resolve_window(const std::vector<WindowRange>& ranges,
                            const std::vector<std::int64_t>& shape);

struct Options {
  Command command = Command::pad;
  std::string input_path;  ///< empty for `explain --shape`
  std::string output_path;
  std::vector<std::int64_t> pads;  ///< ONNX layout: all begins, then all ends
  std::optional<std::vector<std::int64_t>> axes;
  std::optional<std::vector<std::int64_t>> interior;
  std::optional<std::string> mode;
  std::optional<std::string> value;
  SpecChoice spec;
  std::optional<std::vector<std::int64_t>> shape;  ///< `explain` without a file
  std::optional<std::string> dtype;
  std::optional<std::vector<WindowRange>> window;  ///< write (or explain) only this window
  /// numpy's keywords: one value per side in the ONNX layout, or one for every side.
  std::optional<std::vector<std::int64_t>> stat_length;
  std::optional<std::string> end_values;    ///< comma-separated numbers, layout as stat_length
  std::optional<std::string> reflect_type;  ///< "even" or "odd"
  bool fsync = true;  ///< `pad`: make the output durable (--no-fsync turns it off)
  std::optional<std::int64_t> memory_bytes;  ///< `pad`: --memory (parse_memory_size)
  std::optional<bool> progress;  ///< `pad`: --progress (true), --quiet (false); none: automatic
};

/// Parses argv (without argv[0]) and checks option combinations. Throws UsageError.
Options parse_args(const std::vector<std::string>& args);

/// The `--help` text.
std::string usage_text();

}  // namespace padnd::cli
