// SPDX-License-Identifier: Apache-2.0
// padnd._padnd: the canonical engine for Python (plans and executes on raw numpy buffers).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <climits>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fast_path.hpp"
#include "numpy_args.hpp"
#include "openmp_host.hpp"
#include "padnd/adapters/inputs.hpp"
#include "padnd/adapters/ngraph.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/adapters/openvino.hpp"
#include "padnd/padnd.hpp"
#include "padnd/version.h"

namespace nb = nanobind;

void bind_cuda(nb::module_& m);    // cuda.cpp
void bind_dlpack(nb::module_& m);  // dlpack.cpp
void bind_files(nb::module_& m);   // files.cpp
namespace padnd::python {
void bind_prepared(nb::module_& m);      // prepared.cpp
void bind_output_cache(nb::module_& m);  // numpy_allocator.cpp
}  // namespace padnd::python
#ifdef PADND_XLA_FFI
namespace padnd::python {
void bind_xla_ffi(nb::module_& m);  // xla_ffi.cpp: only when built with jaxlib's FFI headers
}  // namespace padnd::python
#endif

namespace {

using Ints = std::vector<std::int64_t>;
using padnd::python::BytePairs;
using padnd::python::parse_type;

/// Where execute_spec writes: the whole output, or a window of it (dense, or with byte strides).
struct Target {
  std::uintptr_t address;
  std::int64_t bytes;  ///< dense forms: bytes available
  std::optional<Ints> window_start;
  std::optional<Ints> window_shape;
  std::optional<Ints> byte_strides;  ///< strided window form
  /// The box of the input the input address holds (execute_window's input_box), if not all.
  std::optional<padnd::Window> input_box;
};

// Pointers come from numpy's __array_interface__: the caller keeps both arrays alive, and byte
// strides pass straight through, so the input is never copied whatever its layout.
void run_spec(const padnd::PadSpec& spec, std::uintptr_t in_address, const std::string& type_name,
              const Ints& shape, const Ints& byte_strides, const Target& target, int threads,
              bool fresh_output) {
  const padnd::Plan plan = padnd::make_plan(parse_type(type_name), shape, byte_strides, spec);
  padnd::ExecOptions options;
  options.threads = threads;
  if (fresh_output) options = padnd::fresh_output_options(options);
  const auto* in = reinterpret_cast<const void*>(in_address);
  auto* out = reinterpret_cast<void*>(target.address);
  if (!target.window_start) {
    // Planning needs no GIL either, but it is cheap; only the data movement runs without it.
    const padnd::python::CtrlCStops stops(plan.output_bytes());
    {
      nb::gil_scoped_release release;
      padnd::execute(plan, in, out, target.bytes, options);
    }
    stops.raise_if_stopped();
    return;
  }
  const padnd::Window window{*target.window_start, target.window_shape.value_or(Ints{})};
  nb::gil_scoped_release release;
  if (target.input_box) {
    padnd::execute_window(plan, in, *target.input_box, window, out, target.byte_strides.value(),
                          options);
  } else if (target.byte_strides) {
    padnd::execute_window(plan, in, window, out, *target.byte_strides, options);
  } else {
    padnd::execute_window(plan, in, window, out, target.bytes, options);
  }
}

// Spec adapters: each turns one framework operator (as the Python layer describes it) into the
// canonical PadSpec, with the adapter's own validation and error messages.
// padnd.pad: numpy.pad's arguments, already broadcast to one pair per axis by the Python layer.
padnd::PadSpec numpy_spec(std::vector<std::pair<std::int64_t, std::int64_t>> pad_width,
                          std::vector<std::string> modes, const BytePairs& constant_values,
                          const BytePairs& end_values, const std::string& ramp_type,
                          padnd::python::StatPairs stat_length, std::string reflect_type,
                          std::optional<std::string> negative, Ints interior, const Ints& shape) {
  return padnd::numpy::to_canonical(
      padnd::python::numpy_args(std::move(pad_width), std::move(modes), constant_values, end_values,
                                ramp_type, std::move(stat_length), std::move(reflect_type),
                                negative, std::move(interior)),
      shape);
}

/// A Python int for an adapter's int field `argument` (an opset, a version). One that does not
/// fit is refused here, naming it: nanobind's caster would call the whole call's arguments
/// incompatible. The adapter refuses the other values it does not know.
int adapter_int(const nb::int_& value, const char* argument) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || v < INT_MIN || v > INT_MAX) {
    throw padnd::Error(padnd::Errc::invalid_argument,
                       std::string(argument) + ": " + nb::str(value).c_str() +
                           " is out of range (no version is that large or small)");
  }
  return static_cast<int>(v);
}

padnd::PadSpec onnx_spec(const nb::int_& opset, int input_count, const std::string& mode,
                         std::optional<Ints> paddings, std::optional<Ints> pads_attr,
                         std::optional<float> value, std::optional<padnd::IntTensor> pads,
                         std::optional<padnd::ValueTensor> constant_value,
                         std::optional<padnd::IntTensor> axes, const std::string& type_name,
                         const Ints& shape) {
  padnd::onnx::PadNode node;
  node.opset = adapter_int(opset, "opset");
  node.input_count = input_count;
  node.mode = mode;
  node.paddings = std::move(paddings);
  node.pads_attr = std::move(pads_attr);
  node.value = value;
  node.pads = std::move(pads);
  node.constant_value = std::move(constant_value);
  node.axes = std::move(axes);
  return padnd::onnx::to_canonical(node, parse_type(type_name), shape);
}

padnd::PadSpec openvino_spec(const nb::int_& version, const std::string& pad_mode,
                             padnd::IntTensor pads_begin, padnd::IntTensor pads_end,
                             std::optional<padnd::ValueTensor> pad_value,
                             const std::string& type_name, const Ints& shape) {
  padnd::openvino::PadOp op;
  op.version = adapter_int(version, "version");
  op.pad_mode = pad_mode;
  op.pads_begin = std::move(pads_begin);
  op.pads_end = std::move(pads_end);
  op.pad_value = std::move(pad_value);
  return padnd::openvino::to_canonical(op, parse_type(type_name), shape);
}

padnd::PadSpec ngraph_v0_spec(padnd::ValueTensor pad_value, Ints padding_below, Ints padding_above,
                              std::optional<Ints> padding_interior, const std::string& mode,
                              const std::string& type_name, const Ints& shape) {
  padnd::ngraph::PadV0 op;
  op.arg_pad_value = std::move(pad_value);
  op.padding_below = std::move(padding_below);
  op.padding_above = std::move(padding_above);
  op.padding_interior = std::move(padding_interior);
  op.pad_mode = mode;
  return padnd::ngraph::to_canonical(op, parse_type(type_name), shape);
}

padnd::PadSpec ngraph_v1_spec(padnd::IntTensor pads_begin, padnd::IntTensor pads_end,
                              std::optional<padnd::ValueTensor> pad_value, const std::string& mode,
                              const std::string& type_name, const Ints& shape) {
  padnd::ngraph::PadV1 op;
  op.pads_begin = std::move(pads_begin);
  op.pads_end = std::move(pads_end);
  op.arg_pad_value = std::move(pad_value);
  op.pad_mode = mode;
  return padnd::ngraph::to_canonical(op, parse_type(type_name), shape);
}

/// TypeError for element types a spec refuses, MemoryError for an allocation that fails
/// (padnd's own errors name the bytes and what they are for), ValueError for everything else.
void register_errors() {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const padnd::Error& e) {
      PyObject* type = PyExc_ValueError;
      if (e.code() == padnd::Errc::unsupported_type) type = PyExc_TypeError;
      if (e.code() == padnd::Errc::out_of_memory) type = PyExc_MemoryError;
      PyErr_SetString(type, e.what());
    } catch (const std::bad_alloc&) {  // sized allocations say their bytes (padnd::Error)
      PyErr_SetString(PyExc_MemoryError, "padnd ran out of memory (std::bad_alloc)");
    }
  });
}

/// The adapters' input types and their result, padnd::PadSpec (opaque to Python).
void bind_inputs(nb::module_& m) {
  nb::class_<padnd::IntTensor>(m, "IntTensor",
                               "An integer input (pads, axes): element type, shape, values.")
      .def("__init__", [](padnd::IntTensor* t, const std::string& type_name, Ints shape,
                          Ints values) {
        new (t) padnd::IntTensor{parse_type(type_name), std::move(shape), std::move(values)};
      }, nb::arg("type_name"), nb::arg("shape"), nb::arg("values"));
  nb::class_<padnd::ValueTensor>(m, "ValueTensor",
                                 "A pad-value input: element type, shape, bytes per element.")
      .def("__init__", [](padnd::ValueTensor* t, const std::string& type_name, Ints shape,
                          const std::vector<nb::bytes>& elements) {
        std::vector<std::string> bytes;
        bytes.reserve(elements.size());
        for (const nb::bytes& e : elements) bytes.emplace_back(e.c_str(), e.size());
        new (t) padnd::ValueTensor{parse_type(type_name), std::move(shape), std::move(bytes)};
      }, nb::arg("type_name"), nb::arg("shape"), nb::arg("elements"));
  nb::class_<padnd::PadSpec>(m, "PadSpec", "A validated canonical pad (from a spec adapter).");
}

/// The canonical description's fields as PadndPad's attributes (src/bindings/openvino): one
/// pad, interior and mode per axis, the negative rules, and the pad value's bytes.
nb::dict spec_attributes(const padnd::PadSpec& spec) {
  Ints begins, ends, interiors;
  std::vector<std::string> modes;
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    begins.push_back(spec.axes[axis].begin);
    ends.push_back(spec.axes[axis].end);
    interiors.push_back(spec.axes[axis].interior);
    const padnd::Mode mode = spec.axis_modes.empty() ? spec.mode : spec.axis_modes[axis].mode;
    modes.emplace_back(padnd::mode_name(mode));
  }
  nb::dict attributes;
  attributes["pads_begin"] = begins;
  attributes["pads_end"] = ends;
  attributes["interior"] = interiors;
  attributes["modes"] = modes;
  attributes["negative_order"] = spec.negative_order == padnd::NegativeOrder::crop_then_pad
                                     ? "crop_then_pad"
                                     : "map_on_original";
  attributes["negative_size"] =
      spec.negative_size == padnd::NegativeSize::error ? "error" : "clamp_to_zero";
  attributes["value"] = nb::bytes(spec.value.data(), spec.value.size());
  return attributes;
}

void bind_execution(nb::module_& m) {
  m.def("spec_attributes", &spec_attributes, nb::arg("spec"),
        "The canonical description's fields (per-axis pads_begin, pads_end, interior, modes; "
        "negative_order, negative_size; value bytes), as PadndPad takes them.");
  m.def("spec_shape", [](const padnd::PadSpec& spec, const Ints& shape) {
          return padnd::infer_shape(shape, spec);
        }, nb::arg("spec"), nb::arg("shape"), "Output shape of `spec` applied to `shape`.");
  m.def(
      "execute_spec",
      [](const padnd::PadSpec& spec, std::uintptr_t in_address, const std::string& type_name,
         const Ints& shape, const Ints& byte_strides, std::uintptr_t out_address,
         std::int64_t out_bytes, int threads, bool fresh_output, std::optional<Ints> window_start,
         std::optional<Ints> window_shape, std::optional<Ints> out_strides,
         std::optional<Ints> input_box_start, std::optional<Ints> input_box_shape) {
        std::optional<padnd::Window> box;
        if (input_box_start) box = padnd::Window{*input_box_start, input_box_shape.value()};
        run_spec(spec, in_address, type_name, shape, byte_strides,
                 Target{out_address, out_bytes, std::move(window_start), std::move(window_shape),
                        std::move(out_strides), std::move(box)},
                 threads, fresh_output);
      },
      nb::arg("spec"), nb::arg("in_address"), nb::arg("type_name"), nb::arg("shape"),
      nb::arg("byte_strides"), nb::arg("out_address"), nb::arg("out_bytes"), nb::arg("threads") = 0,
      nb::arg("fresh_output") = false, nb::arg("window_start").none() = nb::none(),
      nb::arg("window_shape").none() = nb::none(), nb::arg("out_strides").none() = nb::none(),
      nb::arg("input_box_start").none() = nb::none(),
      nb::arg("input_box_shape").none() = nb::none(),
      "Pads the tensor at in_address by `spec` (from an adapter) into the dense buffer at "
      "out_address (GIL released; threads: 0 = one per core, 1 = serial; fresh_output: the "
      "buffer was just allocated and never written, so stores stay cached). With window_start "
      "and window_shape, writes only that window of the output: dense (out_bytes available), "
      "or at out_strides (bytes; out_address is the window's element [0, ..., 0]). With "
      "input_box_start and input_box_shape (and out_strides), in_address holds only that box of "
      "an input of `shape`, laid out with byte_strides.");
  m.def(
      "input_window",
      [](const padnd::PadSpec& spec, const std::string& type_name, const Ints& shape,
         const Ints& window_start, const Ints& window_shape) {
        const padnd::Plan plan = padnd::make_plan(parse_type(type_name), shape, {}, spec);
        const padnd::Window reads = padnd::input_window(plan, {window_start, window_shape});
        return std::make_pair(reads.start, reads.shape);
      },
      nb::arg("spec"), nb::arg("type_name"), nb::arg("shape"), nb::arg("window_start"),
      nb::arg("window_shape"),
      "(starts, lengths) of the part of an input of `shape` that writing the window reads "
      "(all lengths 0: none).");
}

/// A string tensor (`elements`: row-major, UTF-8) padded by `spec`: the
/// output, or its window, as a flat list. Python's str has no fixed-size storage that the engine
/// could read in place, so the elements travel as std::string both ways.
std::vector<std::string> pad_strings(const padnd::PadSpec& spec,
                                     const std::vector<nb::bytes>& elements, const Ints& shape,
                                     std::optional<Ints> window_start,
                                     std::optional<Ints> window_shape) {
  std::vector<std::string> values;
  values.reserve(elements.size());
  for (const nb::bytes& e : elements) values.emplace_back(e.c_str(), e.size());
  const padnd::Plan plan = padnd::make_plan(parse_type("string"), shape, {}, spec);
  const std::int64_t in_count = padnd::element_count(shape);  // planning checked it
  if (static_cast<std::int64_t>(values.size()) != in_count) {
    throw padnd::Error(padnd::Errc::shape_mismatch, "data: " + std::to_string(values.size()) +
                                                        " strings for a shape of " +
                                                        std::to_string(in_count));
  }
  const Ints out_shape =
      window_shape.value_or(Ints(plan.output_shape().begin(), plan.output_shape().end()));
  // The window is checked before its strings are allocated (execute_window checks it again).
  if (window_start) (void)padnd::input_window(plan, {*window_start, out_shape});
  const auto count = static_cast<std::size_t>(padnd::element_count(out_shape));
  // Planning checked that the output's count * sizeof(std::string) fits in int64.
  const std::int64_t out_bytes = static_cast<std::int64_t>(count * sizeof(std::string));
  std::vector<std::string> out;
  try {
    out.resize(count);
  } catch (const std::bad_alloc&) {
    throw padnd::Error(padnd::Errc::out_of_memory, "cannot allocate " + std::to_string(out_bytes) +
                                                       " bytes for " + std::to_string(count) +
                                                       " strings of the output");
  }
  if (window_start) {
    padnd::execute_window(plan, values.data(), padnd::Window{*window_start, out_shape}, out.data(),
                          out_bytes);
  } else {
    padnd::execute(plan, values.data(), out.data(), out_bytes);
  }
  return out;
}

void bind_adapters(nb::module_& m) {
  m.def("pad_strings", &pad_strings, nb::arg("spec"), nb::arg("elements"), nb::arg("shape"),
        nb::arg("window_start").none() = nb::none(), nb::arg("window_shape").none() = nb::none(),
        "A string tensor (row-major list of UTF-8 bytes) padded by `spec` (its window, if "
        "given): the output's strings as a row-major list of str.");
  m.def("numpy_spec", &numpy_spec, nb::arg("pad_width"), nb::arg("modes"),
        nb::arg("constant_values"), nb::arg("end_values"), nb::arg("ramp_type"),
        nb::arg("stat_length"), nb::arg("reflect_type"), nb::arg("negative").none(),
        nb::arg("interior"), nb::arg("shape"),
        "padnd::numpy::to_canonical of numpy.pad's arguments.");
  m.def("onnx_spec", &onnx_spec, nb::arg("opset"), nb::arg("input_count"), nb::arg("mode"),
        nb::arg("paddings").none(), nb::arg("pads_attr").none(), nb::arg("value").none(),
        nb::arg("pads").none(), nb::arg("constant_value").none(), nb::arg("axes").none(),
        nb::arg("type_name"), nb::arg("shape"), "padnd::onnx::to_canonical of one Pad node.");
  m.def("openvino_spec", &openvino_spec, nb::arg("version"), nb::arg("pad_mode"),
        nb::arg("pads_begin"), nb::arg("pads_end"), nb::arg("pad_value").none(),
        nb::arg("type_name"), nb::arg("shape"), "padnd::openvino::to_canonical of one Pad op.");
  m.def("ngraph_v0_spec", &ngraph_v0_spec, nb::arg("pad_value"), nb::arg("padding_below"),
        nb::arg("padding_above"), nb::arg("padding_interior").none(), nb::arg("mode"),
        nb::arg("type_name"), nb::arg("shape"), "padnd::ngraph::to_canonical of a v0 Pad.");
  m.def("ngraph_v1_spec", &ngraph_v1_spec, nb::arg("pads_begin"), nb::arg("pads_end"),
        nb::arg("pad_value").none(), nb::arg("mode"), nb::arg("type_name"), nb::arg("shape"),
        "padnd::ngraph::to_canonical of a v1 Pad.");
}

/// The element-type table's numpy dtypes, in DType order: (kind, itemsize, padnd type name,
/// numpy_only).
std::vector<std::tuple<std::string, std::int64_t, std::string, bool>> numpy_dtype_rows() {
  std::vector<std::tuple<std::string, std::int64_t, std::string, bool>> rows;
  for (int d = 0; d < static_cast<int>(padnd::DType::opaque); ++d) {
    const padnd::ElementType type(static_cast<padnd::DType>(d));
    if (const char kind = padnd::numpy_kind(type); kind != '\0') {
      rows.emplace_back(std::string(1, kind), type.item_bytes(), type.name(),
                        padnd::numpy_only(type));
    }
  }
  return rows;
}

/// The numpy adapter's mode table: (name, keyword or "").
std::vector<std::pair<std::string, std::string>> numpy_mode_rows() {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const padnd::numpy::ModeRule& rule : padnd::numpy::modes()) {
    rows.emplace_back(std::string(rule.name), std::string(rule.keyword));
  }
  return rows;
}

/// The core's numpy tables, so that Python reads numpy's rules from the one place they live.
void bind_numpy_tables(nb::module_& m) {
  m.def("numpy_dtypes", &numpy_dtype_rows,
        "The element-type table's numpy dtypes, in DType order: (kind, itemsize, padnd type "
        "name, numpy_only). Where two share a kind and itemsize, the first is the type.");
  m.def("numpy_modes", &numpy_mode_rows,
        "numpy.pad's modes as the numpy adapter knows them: (name, keyword or '').");
}

}  // namespace

NB_MODULE(_padnd, m) {
  m.doc() = "padnd's C++ engine. Internal: use the functions of the `padnd` package.";
  // project(padnd VERSION) in CMakeLists.txt, also the wheel's version: padnd.__version__.
  m.attr("__version__") = PADND_VERSION_STRING;
  register_errors();
  padnd::python::bind_fast_path(m);
  padnd::python::bind_openmp_host(m);
  bind_inputs(m);
  bind_execution(m);
  bind_adapters(m);
  bind_numpy_tables(m);
  bind_dlpack(m);
  bind_cuda(m);
  padnd::python::bind_output_cache(m);
  bind_files(m);
  padnd::python::bind_prepared(m);
#ifdef PADND_XLA_FFI
  padnd::python::bind_xla_ffi(m);
#endif
}
