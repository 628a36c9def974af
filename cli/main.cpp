// SPDX-License-Identifier: Apache-2.0
// `padnd`: pad .npy files per ONNX / OpenVINO / nGraph / numpy, explain plans, show the demo.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "demo.hpp"
#include "npy.hpp"
#include "numpy_keywords.hpp"
#include "out_of_core.hpp"
#include "padnd/padnd.hpp"
#include "padnd/version.h"
#include "value_parse.hpp"

namespace padnd::cli {
namespace {

using Family = SpecChoice::Family;
using Pads = std::vector<std::int64_t>;

/// How many values of a long list a message shows.
constexpr std::size_t kShownValues = 8;

/// The first values of a list and how many there are: "0, 1, 2, ... (30000 values)".
std::string values_excerpt(const Pads& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size() && i < kShownValues; ++i) {
    s += (i ? ", " : "") + std::to_string(values[i]);
  }
  if (values.size() > kShownValues) s += ", ...";
  return s + " (" + std::to_string(values.size()) + " values)";
}

/// --pads has the ONNX layout, whatever the spec: 2 x rank values, or 2 x len(--axes); --spec
/// numpy also takes numpy's broadcast pad_width, one value or one (before, after) pair.
/// Checked here so that a wrong count is reported briefly, before any spec echoes the list.
void check_pad_count(const Options& opt, const Pads& shape) {
  const std::size_t axes = opt.axes ? opt.axes->size() : shape.size();
  const bool numpy = opt.spec.family == Family::numpy;
  if (opt.pads.size() == 2 * axes || (numpy && opt.pads.size() <= 2)) return;
  const std::string per =
      opt.axes ? std::to_string(axes) + " axes in --axes"
               : "rank " + std::to_string(shape.size()) + " of shape " + shape_text(shape);
  throw Error(Errc::shape_mismatch,
              "--pads: expected " + std::to_string(2 * axes) +
                  " values (all begins, then all ends: 2 x " + per + ")" +
                  (numpy ? ", or numpy's 1 value or 1 (before, after) pair" : "") + ", got " +
                  values_excerpt(opt.pads));
}

/// S and U values are parsed without their NUL padding (TextPadding::none); this adds it once
/// the output is known to hold elements, so an empty output never builds a 2 GiB element.
void complete_text_value(PadSpec& spec, const NpyDtype& dtype) {
  if (dtype.kind != 'S' && dtype.kind != 'U') return;
  const auto item = static_cast<std::size_t>(dtype.itemsize);
  const auto complete = [item](std::string& v) {
    if (!v.empty()) v.resize(item, '\0');
  };
  complete(spec.value);
  for (AxisMode& m : spec.axis_modes) {
    complete(m.begin_value);
    complete(m.end_value);
  }
}

PadSpec lower_onnx(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  if (dtype.element.dtype == DType::opaque || numpy_only(dtype.element)) {  // "opaqueN" ...
    throw Error(Errc::unsupported_type, "dtype '" + dtype.descr +
                                            "' has no ONNX element type; --spec numpy, openvino " +
                                            "or ngraph pad it byte for byte");
  }
  onnx::PadNode node;
  node.opset = opt.spec.version;
  node.mode = opt.mode;
  const int version = onnx::pad_version(node.opset);
  if (version < 11) {  // Pad-1/2: pads and value are attributes
    node.input_count = 1;
    (version == 1 ? node.paddings : node.pads_attr) = opt.pads;
    if (opt.value) node.value = parse_float_attribute(*opt.value);
  } else {
    node.pads = IntTensor::vector(opt.pads);
    if (opt.value) {
      node.constant_value = ValueTensor::scalar(dtype.element, parse_value(*opt.value, dtype));
    }
    if (opt.axes) node.axes = IntTensor::vector(*opt.axes);
    node.input_count = opt.axes ? 4 : opt.value ? 3 : 2;  // an absent value is an empty name
  }
  return onnx::to_canonical(node, dtype.element, shape);
}

/// --pads split into the begins and the ends, and --value in the input's dtype (S and U text
/// without its NUL padding: complete_text_value adds it), for the specs other than ONNX.
struct PadArgs {
  Pads begins;
  Pads ends;
  std::optional<ValueTensor> value;
};

/// The element type the framework specs (OpenVINO, nGraph) are given: numpy's own types
/// (datetime64, timedelta64, long double), which they lack, as opaque bytes that their index
/// modes move, as padnd.openvino.pad and padnd.ngraph.pad give them.
ElementType framework_element(const ElementType& type) {
  return numpy_only(type) ? ElementType::opaque(type.item_bytes()) : type;
}

PadArgs pad_args(const Options& opt, const NpyDtype& dtype) {
  const auto half = static_cast<std::ptrdiff_t>(opt.pads.size() / 2);
  PadArgs a{Pads(opt.pads.begin(), opt.pads.begin() + half),
            Pads(opt.pads.begin() + half, opt.pads.end()), std::nullopt};
  if (opt.value) {  // parsed as the data's numbers, then held as the framework's bytes
    a.value = ValueTensor::scalar(framework_element(dtype.element),
                                  parse_value(*opt.value, dtype, TextPadding::none));
  }
  return a;
}

PadSpec lower_openvino(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  PadArgs a = pad_args(opt, dtype);
  openvino::PadOp op;
  op.version = opt.spec.version;
  op.pad_mode = opt.mode.value_or("constant");
  op.pads_begin = IntTensor::vector(a.begins);
  op.pads_end = IntTensor::vector(a.ends);
  op.pad_value = std::move(a.value);
  return openvino::to_canonical(op, framework_element(dtype.element), shape);
}

PadSpec lower_ngraph(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  PadArgs a = pad_args(opt, dtype);
  const ElementType element = framework_element(dtype.element);
  if (opt.spec.version == 0) {
    ngraph::PadV0 op;
    // nGraph v0 needs a value tensor: empty bytes are the canonical default (all-zero bits),
    // and build no element of a type whose items may be 2 GiB.
    op.arg_pad_value = a.value.value_or(ValueTensor::scalar(element, {}));
    op.padding_below = a.begins;
    op.padding_above = a.ends;
    op.padding_interior = opt.interior;
    op.pad_mode = opt.mode.value_or("CONSTANT");
    return ngraph::to_canonical(op, element, shape);
  }
  ngraph::PadV1 op;
  op.pads_begin = IntTensor::vector(a.begins);
  op.pads_end = IntTensor::vector(a.ends);
  op.arg_pad_value = std::move(a.value);
  op.pad_mode = opt.mode.value_or("CONSTANT");
  return ngraph::to_canonical(op, element, shape);
}

PadSpec lower_numpy(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  const PadArgs a = pad_args(opt, dtype);
  numpy::PadArgs args;
  args.pad_width = side_pairs("--pads", opt.pads, shape.size());
  args.modes = {opt.mode.value_or("constant")};
  std::string value = a.value ? a.value->elements.front() : std::string();
  if (!a.value && args.modes.front() == "constant" && (dtype.kind == 'S' || dtype.kind == 'U')) {
    // numpy.pad's default constant is the number 0, which numpy casts to the text "0" (zero
    // bytes elsewhere: 0, False, the epoch). `empty` keeps zero bits (docs/spec.md §7.1).
    value = parse_value("0", dtype, TextPadding::none);
  }
  args.constant_values.assign(shape.size(), {value, value});
  set_numpy_keywords(opt, dtype, shape.size(), args);
  return numpy::to_canonical(args, shape);
}

PadSpec lower_spec(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  switch (opt.spec.family) {
    case Family::onnx:
      return lower_onnx(opt, dtype, shape);
    case Family::openvino:
      return lower_openvino(opt, dtype, shape);
    case Family::ngraph:
      return lower_ngraph(opt, dtype, shape);
    case Family::numpy:
      return lower_numpy(opt, dtype, shape);
  }
  throw Error(Errc::invalid_argument, "unknown spec");
}

/// A request as padnd runs it: the canonical spec, the output shape, and the window written
/// (the whole output without --window).
struct Request {
  PadSpec spec;
  Pads out_shape;
  Window window;
  [[nodiscard]] bool empty() const { return element_count(window.shape) == 0; }
};

Request make_request(const Options& opt, const NpyHeader& header) {
  check_pad_count(opt, header.shape);
  Request r{lower_spec(opt, header.dtype, header.shape), {}, {}};
  r.out_shape = infer_shape(header.shape, r.spec);
  if (opt.window) {
    WindowBounds bounds = resolve_window(*opt.window, r.out_shape);
    r.window = Window{std::move(bounds.start), std::move(bounds.shape)};
  } else {
    r.window = Window{Pads(r.out_shape.size(), 0), r.out_shape};
  }
  npy_data_bytes(header.dtype.itemsize, r.window.shape);  // a file numpy can load
  if (!r.empty()) complete_text_value(r.spec, header.dtype);
  return r;
}

std::string hex_bytes(const std::string& bytes) {
  std::ostringstream os;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    os << (i ? " " : "") << std::hex << std::setw(2) << std::setfill('0')
       << static_cast<int>(static_cast<unsigned char>(bytes[i]));
  }
  return os.str();
}

void print_spec(std::ostream& os, const Options& opt, const NpyHeader& h, const PadSpec& spec) {
  os << "spec         " << opt.spec.name() << '\n';
  os << "input        " << h.dtype.element.name();
  if (!h.dtype.descr.empty()) os << " ('" << printable(h.dtype.descr) << "')";
  os << ", shape " << python_tuple(h.shape) << (h.fortran_order ? ", Fortran order" : ", C order")
     << '\n';
  os << "mode         " << mode_name(spec.mode) << "; negative pads: "
     << (spec.negative_order == NegativeOrder::crop_then_pad ? "crop, then pad"
                                                             : "map on the original input")
     << "; negative size: " << (spec.negative_size == NegativeSize::error ? "error" : "clamp to 0")
     << '\n';
  os << "value        ";
  if (spec.value.empty()) {
    os << "default (all-zero bits)";
  } else if (h.dtype.element.storage() == Storage::string) {
    os << '"' << printable(spec.value) << '"';
  } else {
    os << "bytes " << hex_bytes(spec.value);
  }
  if (spec.mode != Mode::constant) os << " (unused in " << mode_name(spec.mode) << " mode)";
  os << '\n';
}

/// The canonical spec as a table, a row per axis, each column right-aligned and wide enough for
/// its longest number.
void print_axes_table(std::ostream& os, const NpyHeader& h, const Request& r) {
  constexpr std::size_t kColumns = 6;
  const std::array<std::string_view, kColumns> names{"axis", "input",    "begin",
                                                     "end",  "interior", "output"};
  std::vector<std::array<std::string, kColumns>> rows;
  for (std::size_t k = 0; k < r.spec.axes.size(); ++k) {
    const AxisPad& a = r.spec.axes[k];
    rows.push_back({std::to_string(k), std::to_string(h.shape[k]), std::to_string(a.begin),
                    std::to_string(a.end), std::to_string(a.interior),
                    std::to_string(r.out_shape[k])});
  }
  std::array<std::size_t, kColumns> widths{4, 6, 6, 6, 8, 6};  // the layout of small numbers
  for (std::size_t c = 0; c < kColumns; ++c) {
    for (const auto& row : rows) widths[c] = std::max(widths[c], row[c].size());
  }
  const auto line = [&](const auto& cells) {
    for (std::size_t c = 0; c < kColumns; ++c) {
      os << std::setw(static_cast<int>(widths[c] + 2)) << cells[c];
    }
    os << '\n';
  };
  os << "canonical spec per axis:\n";
  line(names);
  for (const auto& row : rows) line(row);
}

void print_explain(std::ostream& os, const Options& opt, const NpyHeader& h, const Request& r,
                   const Plan& plan) {
  print_spec(os, opt, h, r.spec);
  print_axes_table(os, h, r);
  os << "output shape " << python_tuple(r.out_shape) << "\n\nplan:\n";
  std::string text = opt.window ? describe_window(plan, r.window) : plan.describe();
  if (plans_stand_in(h, r.empty())) {  // name the real type, not the stand-in
    const std::string stand_in = ElementType::opaque(1).name();
    if (const std::size_t at = text.find(stand_in); at != std::string::npos) {
      text.replace(at, stand_in.size(), h.dtype.element.name());
    }
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) os << "  " << line << '\n';
}

NpyHeader header_from_options(const Options& opt) {
  if (!opt.input_path.empty()) return read_npy_header(opt.input_path);
  NpyHeader header;
  header.dtype = dtype_from_name(*opt.dtype);
  header.shape = *opt.shape;
  element_count(header.shape);  // rejects negative lengths and overflow
  return header;
}

int run_explain(const Options& opt) {
  const NpyHeader header = header_from_options(opt);
  const Request request = make_request(opt, header);
  const Plan plan = with_memory_context(planning_text(header, request.out_shape), [&] {
    return plan_npy(header, request.spec, request.empty());
  });
  print_explain(std::cout, opt, header, request, plan);
  return 0;
}

int run_pad(const Options& opt) {
  PadFileOptions options;
  if (opt.memory_bytes) options.memory_bytes = *opt.memory_bytes;
  if (opt.progress) options.progress = *opt.progress ? ProgressBar::always : ProgressBar::never;
  options.fsync = opt.fsync;
  pad_npy_file(
      opt.input_path, opt.output_path,
      [&](const NpyHeader& header) {
        Request r = make_request(opt, header);
        return FileRequest{std::move(r.spec), std::move(r.window)};
      },
      options);
  return 0;
}

bool stdout_wants_color() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr &&
         !(term != nullptr && std::string_view(term) == "dumb");
}

int run(const Options& opt) {
  switch (opt.command) {
    case Command::help:
      std::cout << usage_text();
      return 0;
    case Command::version:
      std::cout << "padnd " << PADND_VERSION_STRING << '\n';
      return 0;
    case Command::demo:
      run_demo(std::cout, stdout_wants_color());
      return 0;
    case Command::explain:
      return run_explain(opt);
    case Command::pad:
      return run_pad(opt);
  }
  return 1;
}

/// Opens a standard stream that the caller closed on /dev/null: otherwise the first file padnd
/// opens, the temporary output, would take its descriptor, and messages would be written into
/// it. Ignores SIGXFSZ: past a file-size limit (ulimit -f) a write then fails with EFBIG and is
/// reported and cleaned up like any write error, where the signal would end padnd and leave the
/// partial temporary file. False if a closed stream cannot be opened.
bool guard_process() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) != fd) return false;
  }
  ::signal(SIGXFSZ, SIG_IGN);
  return true;
}

}  // namespace
}  // namespace padnd::cli

int main(int argc, char** argv) {
  using padnd::cli::UsageError;
  if (!padnd::cli::guard_process()) return 1;
  padnd::cli::start_signal_cleanup();
  try {
    return padnd::cli::run(padnd::cli::parse_args(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const UsageError& e) {
    std::cerr << "padnd: error: " << padnd::cli::printable(e.what())
              << "\n(run 'padnd --help' for usage)\n";
    return 2;
  } catch (const std::bad_alloc&) {  // the steps that allocate much say what; this is a rest
    std::cerr << "padnd: error: out of memory (std::bad_alloc)\n";
    return 1;
  } catch (const std::exception& e) {
    // Messages quote headers and arguments: no control byte reaches the terminal.
    std::cerr << "padnd: error: " << padnd::cli::printable(e.what()) << '\n';
    return 1;
  }
}
