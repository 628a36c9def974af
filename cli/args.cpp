// SPDX-License-Identifier: Apache-2.0
// Command-line parsing: option values may start with '-' so that "--pads -1,2" works.
#include "args.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "out_of_core.hpp"
#include "padnd/adapters/onnx.hpp"

namespace padnd::cli {
namespace {

using Family = SpecChoice::Family;

constexpr std::string_view kValueOptions[] = {
    "output", "pads",  "mode",   "value",       "axes",       "interior",     "spec",
    "shape",  "dtype", "window", "stat-length", "end-values", "reflect-type", "memory"};

bool takes_value(std::string_view name) {
  return std::find(std::begin(kValueOptions), std::end(kValueOptions), name) !=
         std::end(kValueOptions);
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::optional<int> parse_small_int(std::string_view s) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

/// The raw options of one command line, before their values are interpreted.
struct RawArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string, std::less<>> values;
  bool help = false;
  bool version = false;
  bool no_fsync = false;
  bool progress = false;
  bool quiet = false;
  /// The first option that only `pad` takes and that has no value ("--no-fsync"), or null.
  [[nodiscard]] const char* pad_flag() const {
    return no_fsync ? "--no-fsync" : progress ? "--progress" : quiet ? "--quiet" : nullptr;
  }
};

/// Options that take no value: where each one's flag is in RawArgs.
bool* flag_of(RawArgs& raw, std::string_view name) {
  if (name == "help") return &raw.help;
  if (name == "version") return &raw.version;
  if (name == "no-fsync") return &raw.no_fsync;
  if (name == "progress") return &raw.progress;
  if (name == "quiet") return &raw.quiet;
  return nullptr;
}

RawArgs split_args(const std::vector<std::string>& args) {
  RawArgs raw;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      raw.positional.insert(raw.positional.end(), args.begin() + static_cast<long>(i) + 1,
                            args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      raw.positional.push_back(a);
      continue;
    }
    std::string name;
    std::optional<std::string> value;
    if (a.starts_with("--")) {
      const std::size_t eq = a.find('=');
      name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) value = a.substr(eq + 1);
    } else {
      const char c = a[1];
      name = c == 'o' ? "output" : c == 'h' ? "help" : "";
      if (a.size() > 2) value = a.substr(2);  // "-oFILE"
    }
    if (bool* flag = flag_of(raw, name)) {
      if (value) throw UsageError("option '" + a + "' takes no value");
      *flag = true;
      continue;
    }
    if (!takes_value(name)) throw UsageError("unknown option '" + a + "'");
    if (!value) {
      // The next argument is the value even when it starts with '-' ("--pads -1,2").
      if (i + 1 >= args.size()) throw UsageError("option --" + name + " needs a value");
      value = args[++i];
    }
    if (!raw.values.emplace(name, *value).second) {
      throw UsageError("option --" + name + " is given more than once");
    }
  }
  return raw;
}

std::optional<std::string> take(RawArgs& raw, std::string_view name) {
  const auto it = raw.values.find(name);
  if (it == raw.values.end()) return std::nullopt;
  std::string v = it->second;
  raw.values.erase(it);
  return v;
}

std::optional<std::vector<std::int64_t>> take_list(RawArgs& raw, std::string_view name) {
  const auto text = take(raw, name);
  if (!text) return std::nullopt;
  return parse_int_list("--" + std::string(name), *text);
}

void reject_leftovers(const RawArgs& raw, std::string_view command) {
  if (!raw.values.empty()) {
    throw UsageError("option --" + raw.values.begin()->first + " does not apply to '" +
                     std::string(command) + "'");
  }
}

/// numpy.pad's keywords for its value modes and reflection (--spec numpy only).
void take_numpy_keywords(RawArgs& raw, Options& opt) {
  opt.stat_length = take_list(raw, "stat-length");
  opt.end_values = take(raw, "end-values");
  opt.reflect_type = take(raw, "reflect-type");
  const bool any = opt.stat_length || opt.end_values || opt.reflect_type;
  if (any && opt.spec.family != Family::numpy) {
    throw UsageError(
        "--stat-length, --end-values and --reflect-type need --spec numpy (got --spec " +
        opt.spec.name() + ")");
  }
  if (opt.reflect_type && *opt.reflect_type != "even" && *opt.reflect_type != "odd") {
    throw UsageError("--reflect-type: expected even or odd, got '" + *opt.reflect_type + "'");
  }
}

/// Options shared by `pad` and `explain`: pads, spec and their combinations.
void take_pad_options(RawArgs& raw, Options& opt) {
  if (const auto spec = take(raw, "spec")) opt.spec = parse_spec(*spec);
  const auto pads = take_list(raw, "pads");
  if (!pads) throw UsageError("missing --pads (use --pads= for a rank-0 input)");
  opt.pads = *pads;
  // numpy's pad_width may be one value for every side (--spec numpy).
  if (opt.pads.size() % 2 != 0 && !(opt.spec.family == Family::numpy && opt.pads.size() == 1)) {
    throw UsageError("--pads needs an even number of values (all begins, then all ends); got " +
                     std::to_string(opt.pads.size()));
  }
  opt.axes = take_list(raw, "axes");
  opt.interior = take_list(raw, "interior");
  opt.mode = take(raw, "mode");
  opt.value = take(raw, "value");
  if (const auto window = take(raw, "window")) opt.window = parse_window(*window);
  const SpecChoice& s = opt.spec;
  if (opt.axes && !(s.family == Family::onnx && s.version >= 18)) {
    throw UsageError("--axes needs an ONNX spec with opset 18 or newer (got --spec " + s.name() +
                     ")");
  }
  if (opt.interior && !(s.family == Family::ngraph && s.version == 0)) {
    throw UsageError("--interior is only valid with --spec ngraph:v0 (got --spec " + s.name() +
                     ")");
  }
  take_numpy_keywords(raw, opt);
}

}  // namespace

std::string SpecChoice::name() const {
  switch (family) {
    case Family::onnx:
      return "onnx:" + std::to_string(version);
    case Family::openvino:
      return "openvino:" + std::to_string(version);
    case Family::ngraph:
      return "ngraph:v" + std::to_string(version);
    case Family::numpy:
      return "numpy";
  }
  return "?";
}

SpecChoice parse_spec(std::string_view text) {
  std::string t = trim(text);
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::size_t colon = t.find(':');
  const std::string family = t.substr(0, colon);
  std::string version = colon == std::string::npos ? "" : t.substr(colon + 1);
  if (family != "onnx" && version.starts_with('v')) version.erase(0, 1);  // "ngraph:v0"
  const std::optional<int> number = parse_small_int(version);
  const bool bare = colon == std::string::npos;
  const auto bad = [&] {
    return UsageError("unknown --spec '" + std::string(text) + "' (expected onnx, onnx:1.." +
                      std::to_string(onnx::kNewestKnownOpset) +
                      ", openvino:1, openvino:12, ngraph:v0, ngraph:v1 or numpy)");
  };
  SpecChoice s;
  if (family == "onnx") {
    s.family = Family::onnx;
    s.version = bare ? onnx::kLatestOpset : number.value_or(0);
    if (s.version < 1 || s.version > onnx::kNewestKnownOpset) throw bad();
  } else if (family == "openvino") {
    s.family = Family::openvino;
    s.version = bare ? 12 : number.value_or(0);
    if (s.version != 1 && s.version != 12) throw bad();
  } else if (family == "ngraph") {
    s.family = Family::ngraph;
    s.version = bare ? 1 : number.value_or(-1);
    if (s.version != 0 && s.version != 1) throw bad();
  } else if (family == "numpy" && bare) {
    s.family = Family::numpy;
    s.version = 0;
  } else {
    throw bad();
  }
  return s;
}

namespace {

/// One integer (blanks around it and a leading '+' allowed); the usage error names `what` and
/// says what was `expected`.
std::int64_t parse_int(std::string_view what, std::string_view text, std::string_view expected) {
  std::string item = trim(text);
  if (item.starts_with('+')) item.erase(0, 1);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
  if (ec == std::errc::result_out_of_range) {
    throw UsageError(std::string(what) + ": '" + item + "' does not fit in int64");
  }
  if (ec != std::errc() || ptr != item.data() + item.size() || item.empty()) {
    throw UsageError(std::string(what) + ": '" + item + "' is not an integer (expected " +
                     std::string(expected) + ")");
  }
  return v;
}

}  // namespace

std::vector<std::int64_t> parse_int_list(std::string_view option, std::string_view text) {
  std::vector<std::int64_t> values;
  if (trim(text).empty()) return values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    values.push_back(parse_int(option, text.substr(start, comma - start),
                               "a comma-separated list such as 0,2,-1,0"));
    start = comma + 1;
  }
  return values;
}

namespace {

/// The command word, if the first positional argument is one (it is then removed).
Command take_command(RawArgs& raw, std::string& command_name) {
  static const std::map<std::string, Command, std::less<>> kCommands = {
      {"pad", Command::pad},
      {"explain", Command::explain},
      {"demo", Command::demo},
      {"help", Command::help},
      {"version", Command::version}};
  command_name = "pad";
  if (raw.positional.empty()) return Command::pad;
  const auto it = kCommands.find(raw.positional.front());
  if (it == kCommands.end()) return Command::pad;
  command_name = it->first;
  raw.positional.erase(raw.positional.begin());
  return it->second;
}

/// `pad`: one input and the output, by -o or as a second file ("padnd pad in.npy out.npy").
void take_pad_files(RawArgs& raw, Options& opt) {
  auto output = take(raw, "output");
  if (raw.positional.size() == 2 && !output) {
    output = raw.positional.back();
    raw.positional.pop_back();
  }
  if (raw.positional.size() != 1) {
    throw UsageError(raw.positional.empty()
                         ? "no input file"
                         : "expected one input file, got '" + raw.positional[1] + "' as well");
  }
  if (!output) throw UsageError("missing -o/--output");
  opt.output_path = *output;
  opt.fsync = !raw.no_fsync;
  if (raw.progress && raw.quiet) throw UsageError("give --progress or --quiet, not both");
  if (raw.progress || raw.quiet) opt.progress = raw.progress;
  if (const auto memory = take(raw, "memory")) {
    try {
      opt.memory_bytes = parse_memory_size("--memory", *memory);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
}

/// `explain`: an input file, or --shape and --dtype.
void take_explain_source(RawArgs& raw, Options& opt) {
  if (take(raw, "output")) throw UsageError("'explain' writes no file; drop -o/--output");
  if (const char* flag = raw.pad_flag()) {
    throw UsageError(std::string("'explain' writes no file; drop ") + flag);
  }
  if (raw.positional.size() > 1) {
    throw UsageError("expected at most one input file, got '" + raw.positional[1] + "'");
  }
  opt.shape = take_list(raw, "shape");
  opt.dtype = take(raw, "dtype");
  const bool from_file = !raw.positional.empty();
  if (from_file && (opt.shape || opt.dtype)) {
    throw UsageError("give either an input file or --shape/--dtype, not both");
  }
  if (!from_file && !(opt.shape && opt.dtype)) {
    throw UsageError("explain needs an input file, or both --shape and --dtype");
  }
}

}  // namespace

Options parse_args(const std::vector<std::string>& args) {
  RawArgs raw = split_args(args);
  Options opt;
  if (raw.help || raw.version) {
    opt.command = raw.help ? Command::help : Command::version;
    return opt;
  }
  std::string command_name;
  opt.command = take_command(raw, command_name);
  if (opt.command == Command::help || opt.command == Command::version ||
      opt.command == Command::demo) {
    if (!raw.positional.empty()) {
      throw UsageError("'" + command_name + "' takes no arguments, got '" + raw.positional.front() +
                       "'");
    }
    if (const char* flag = raw.pad_flag()) {
      throw UsageError("'" + command_name + "' writes no file; drop " + flag);
    }
    reject_leftovers(raw, command_name);
    return opt;
  }
  if (raw.positional.empty() && raw.values.empty() && opt.command == Command::pad) {
    throw UsageError("no input file ('padnd demo' shows examples)");
  }
  if (opt.command == Command::pad) {
    take_pad_files(raw, opt);
  } else {
    take_explain_source(raw, opt);
  }
  if (!raw.positional.empty()) opt.input_path = raw.positional.front();
  take_pad_options(raw, opt);
  reject_leftovers(raw, command_name);
  return opt;
}

std::string usage_text() {
  // The opset numbers come from the ONNX adapter, so the text cannot fall behind what --spec
  // accepts.
  const std::string latest = std::to_string(onnx::kLatestOpset);
  const std::string newest = std::to_string(onnx::kNewestKnownOpset);
  return R"(usage: padnd [pad] IN.npy -o OUT.npy --pads LIST [--memory SIZE] [options]
       padnd explain (IN.npy | --shape LIST --dtype TYPE) --pads LIST [options]
       padnd demo
       padnd help | --help | --version

Pads a .npy array the way one published Pad spec defines it and writes the result
(C order, same dtype). `explain` prints the canonical spec, the output shape and the
execution plan without touching any data; `demo` shows the specs' own examples.

options:
  -o, --output FILE  output .npy; written atomically, left untouched on any error or signal;
                     a symbolic link's target is written, a FIFO or device directly, and
                     "-" is standard output (and "-" as IN.npy is standard input)
  --pads LIST        ONNX layout: all begins, then all ends (2 x rank values), e.g. 0,2,0,0;
                     negative values crop ("--pads=-1,2" and "--pads -1,2" both work);
                     --spec numpy also takes numpy's pad_width 7 or 1,2 (every axis)
  --mode NAME        constant (default), edge, reflect, symmetric, wrap, spelled as the spec
                     does (nGraph's upper-case names may be typed in lower case); numpy also
                     has empty, linear_ramp, maximum, mean, median, minimum
  --value TEXT       pad value in the input's dtype: 1.5, -3, true, 1+2j, abc, NaT, ...
  --axes LIST        ONNX opset >= 18 only: the axes the pads refer to (may be negative)
  --interior LIST    nGraph v0 only: elements inserted between neighbours, one per axis
  --spec NAME        onnx (= onnx:)" +
         latest + R"(, the default), onnx:1..)" + newest +
         R"( (opset), openvino:1,
                     openvino:12, ngraph:v0, ngraph:v1, numpy
  --stat-length LIST numpy only: elements the maximum/mean/median/minimum of each side reads,
                     one value for every side or the ONNX layout (all begins, then all ends)
  --end-values LIST  numpy only: linear_ramp's end values, one or the ONNX layout, e.g. 0,1.5
  --reflect-type T   numpy only: even (default) or odd reflection for reflect and symmetric
  --window RANGES    only this window of the output, one start:stop per axis as numpy
                     slices it (either may be omitted or negative; missing axes whole),
                     e.g. 0:256,100: or :,-8:
  --shape LIST       explain without a file: the input shape, e.g. 2,3,4
  --dtype TYPE       explain without a file: float32, int8, bfloat16, int4, <f4, S5, ...
  --no-fsync         do not wait until the output is on disk (by default a regular output file
                     and its directory are synced before padnd reports success)
  --memory SIZE      the most memory padnd takes for data, e.g. 512M, 2G or 1048576 (bytes;
                     K, M, G, T are powers of 1024); default: 1G, or a quarter of the physical
                     memory when less. The input is memory-mapped and the output written window
                     by window, so both may be larger than memory (docs/out-of-core.md)
  --progress, --quiet  show or hide the progress bar on standard error (default: shown when
                     standard error is a terminal)
  -h, --help         show this text
  --version          show the version

exit status: 0 success, 1 error (unreadable file, pads the spec rejects, ...), 2 usage error
)";
}

std::vector<WindowRange> parse_window(std::string_view text) {
  std::vector<WindowRange> ranges;
  if (text.empty()) return ranges;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, comma - begin);
    if (item.empty() && comma == text.size() && !ranges.empty()) return ranges;  // "0:2,"
    const std::string axis = "--window: axis " + std::to_string(ranges.size());
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      throw UsageError(axis + ": expected start:stop (such as 0:256, 100: or :-1), got '" +
                       std::string(item) + "'");
    }
    if (item.find(':', colon + 1) != std::string_view::npos) {
      throw UsageError(axis + ": expected start:stop, got '" + std::string(item) +
                       "' (steps are not supported)");
    }
    const auto bound = [&](std::string_view part) -> std::optional<std::int64_t> {
      if (trim(part).empty()) return std::nullopt;
      return parse_int(axis, part, "start:stop such as 0:256, 100: or :-1");
    };
    ranges.push_back({bound(item.substr(0, colon)), bound(item.substr(colon + 1))});
    if (comma == text.size()) return ranges;
    begin = comma + 1;
  }
}

WindowBounds resolve_window(const std::vector<WindowRange>& ranges,
                            const std::vector<std::int64_t>& shape) {
  if (ranges.size() > shape.size()) {
    throw UsageError("--window: " + std::to_string(ranges.size()) + " ranges for an output of " +
                     std::to_string(shape.size()) + " axes");
  }
  WindowBounds bounds;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t n = shape[k];
    const auto clip = [n](std::optional<std::int64_t> v, std::int64_t absent) {
      if (!v) return absent;
      const std::int64_t at = *v < 0 ? (*v < -n ? 0 : *v + n) : *v;
      return std::min(at, n);
    };
    const WindowRange r = k < ranges.size() ? ranges[k] : WindowRange{};
    const std::int64_t start = clip(r.start, 0);
    bounds.start.push_back(start);
    bounds.shape.push_back(std::max<std::int64_t>(0, clip(r.stop, n) - start));
  }
  return bounds;
}

}  // namespace padnd::cli
