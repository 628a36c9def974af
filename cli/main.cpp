// SPDX-License-Identifier: Apache-2.0
// `padnd`: pad .npy files per ONNX / OpenVINO / nGraph / numpy, explain plans, show the demo.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "args.hpp"
#include "demo.hpp"
#include "npy.hpp"
#include "padnd/padnd.hpp"
#include "value_parse.hpp"

namespace padnd::cli {
namespace {

constexpr std::string_view kVersion = "0.1.0";  // keep equal to project(VERSION) in CMakeLists

using Family = SpecChoice::Family;
using Pads = std::vector<std::int64_t>;

/// All-zero bits of one element: nGraph v0 needs an explicit value even when none was given.
std::string zero_element(const ElementType& type) {
  if (type.storage() == Storage::string) return {};
  if (type.packed()) return std::string(1, '\0');
  return std::string(static_cast<std::size_t>(type.item_bytes()), '\0');
}

PadSpec lower_onnx(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  if (dtype.element.dtype == DType::opaque) {  // the adapter would only say "opaqueN"
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
    if (opt.value)
      node.constant_value = ValueTensor::scalar(dtype.element, parse_value(*opt.value, dtype));
    if (opt.axes) node.axes = IntTensor::vector(*opt.axes);
    node.input_count = opt.axes ? 4 : opt.value ? 3 : 2;  // an absent value is an empty name
  }
  return onnx::to_canonical(node, dtype.element, shape);
}

PadSpec lower(const Options& opt, const NpyDtype& dtype, const Pads& shape) {
  const auto half = static_cast<std::ptrdiff_t>(opt.pads.size() / 2);
  const Pads begins(opt.pads.begin(), opt.pads.begin() + half);
  const Pads ends(opt.pads.begin() + half, opt.pads.end());
  std::optional<ValueTensor> value;
  if (opt.value && opt.spec.family != Family::onnx) {
    value = ValueTensor::scalar(dtype.element, parse_value(*opt.value, dtype));
  }
  switch (opt.spec.family) {
    case Family::onnx:
      return lower_onnx(opt, dtype, shape);
    case Family::openvino: {
      openvino::PadOp op;
      op.version = opt.spec.version;
      op.pad_mode = opt.mode.value_or("constant");
      op.pads_begin = IntTensor::vector(begins);
      op.pads_end = IntTensor::vector(ends);
      op.pad_value = value;
      return openvino::to_canonical(op, dtype.element, shape);
    }
    case Family::ngraph:
      if (opt.spec.version == 0) {
        ngraph::PadV0 op;
        op.arg_pad_value =
            value.value_or(ValueTensor::scalar(dtype.element, zero_element(dtype.element)));
        op.padding_below = begins;
        op.padding_above = ends;
        op.padding_interior = opt.interior;
        op.pad_mode = opt.mode.value_or("CONSTANT");
        return ngraph::to_canonical(op, dtype.element, shape);
      } else {
        ngraph::PadV1 op;
        op.pads_begin = IntTensor::vector(begins);
        op.pads_end = IntTensor::vector(ends);
        op.arg_pad_value = value;
        op.pad_mode = opt.mode.value_or("CONSTANT");
        return ngraph::to_canonical(op, dtype.element, shape);
      }
    case Family::numpy: {
      std::vector<std::pair<std::int64_t, std::int64_t>> width;
      for (std::size_t k = 0; k < begins.size(); ++k) width.emplace_back(begins[k], ends[k]);
      return numpy::to_canonical(width, opt.mode.value_or("constant"),
                                 value ? value->elements.front() : std::string(), shape);
    }
  }
  throw Error(Errc::invalid_argument, "unknown spec");
}

std::string hex_bytes(const std::string& bytes) {
  std::ostringstream os;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    os << (i ? " " : "") << std::hex << std::setw(2) << std::setfill('0')
       << static_cast<int>(static_cast<unsigned char>(bytes[i]));
  }
  return os.str();
}

/// The window `--window` selects of the plan's output.
Window output_window(const Options& opt, const Plan& plan) {
  const Pads shape(plan.output_shape().begin(), plan.output_shape().end());
  WindowBounds bounds = resolve_window(*opt.window, shape);
  return Window{std::move(bounds.start), std::move(bounds.shape)};
}

void print_explain(std::ostream& os, const Options& opt, const NpyDtype& dtype, const Pads& shape,
                   bool fortran, const PadSpec& spec, const Plan& plan) {
  os << "spec         " << opt.spec.name() << '\n';
  os << "input        " << dtype.element.name();
  if (!dtype.descr.empty()) os << " ('" << dtype.descr << "')";
  os << ", shape " << python_tuple(shape) << (fortran ? ", Fortran order" : ", C order") << '\n';
  os << "mode         " << mode_name(spec.mode) << "; negative pads: "
     << (spec.negative_order == NegativeOrder::crop_then_pad ? "crop, then pad"
                                                             : "map on the original input")
     << "; negative size: " << (spec.negative_size == NegativeSize::error ? "error" : "clamp to 0")
     << '\n';
  os << "value        ";
  if (spec.value.empty()) {
    os << "default (all-zero bits)";
  } else if (dtype.element.storage() == Storage::string) {
    os << '"' << spec.value << '"';
  } else {
    os << "bytes " << hex_bytes(spec.value);
  }
  if (spec.mode != Mode::constant) os << " (unused in " << mode_name(spec.mode) << " mode)";
  os << "\ncanonical spec per axis:\n  axis   input   begin     end  interior  output\n";
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    const AxisPad& a = spec.axes[k];
    os << std::setw(6) << k << std::setw(8) << shape[k] << std::setw(8) << a.begin << std::setw(8)
       << a.end << std::setw(10) << a.interior << std::setw(8) << plan.output_shape()[k] << '\n';
  }
  os << "output shape " << python_tuple(plan.output_shape()) << "\n\nplan:\n";
  std::istringstream lines(opt.window ? describe_window(plan, output_window(opt, plan))
                                      : plan.describe());
  for (std::string line; std::getline(lines, line);) os << "  " << line << '\n';
}

int run_explain(const Options& opt) {
  NpyHeader header;
  if (opt.input_path.empty()) {
    header.dtype = dtype_from_name(*opt.dtype);
    header.shape = *opt.shape;
    element_count(header.shape);  // rejects negative lengths and overflow
  } else {
    header = read_npy_header(opt.input_path);
  }
  const PadSpec spec = lower(opt, header.dtype, header.shape);
  const Pads strides =
      header.fortran_order ? fortran_byte_strides(header.shape, header.dtype.itemsize) : Pads{};
  const Plan plan = make_plan(header.dtype.element, header.shape, strides, spec);
  print_explain(std::cout, opt, header.dtype, header.shape, header.fortran_order, spec, plan);
  return 0;
}

int run_pad(const Options& opt) {
  const NpyArray input = read_npy(opt.input_path);
  const PadSpec spec = lower(opt, input.header.dtype, input.header.shape);
  const TensorView view = input.view();
  const Plan plan = make_plan(view.type, view.shape, view.byte_strides, spec);
  const Window window = opt.window
                            ? output_window(opt, plan)
                            : Window{Pads(plan.output_shape().size(), 0),
                                     Pads(plan.output_shape().begin(), plan.output_shape().end())};
  const std::int64_t bytes = storage_bytes(view.type, element_count(window.shape));
  std::vector<std::byte> output;
  try {
    output.resize(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw Error(Errc::overflow, "cannot allocate " + std::to_string(bytes) +
                                    " bytes for the output " + python_tuple(window.shape));
  }
  if (opt.window) {
    execute_window(plan, view.data, window, output.data(), bytes);
  } else {
    execute(plan, view.data, output.data(), bytes);
  }
  write_npy(opt.output_path, input.header.dtype.descr, window.shape, output.data(), bytes);
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
      std::cout << "padnd " << kVersion << '\n';
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

}  // namespace
}  // namespace padnd::cli

int main(int argc, char** argv) {
  using padnd::cli::UsageError;
  try {
    return padnd::cli::run(padnd::cli::parse_args(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const UsageError& e) {
    std::cerr << "padnd: error: " << e.what() << "\n(run 'padnd --help' for usage)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "padnd: error: " << e.what() << '\n';
    return 1;
  }
}
