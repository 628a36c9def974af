// SPDX-License-Identifier: Apache-2.0
// padnd._padnd: the canonical engine for Python (plans and executes on raw numpy buffers).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "padnd/adapters/inputs.hpp"
#include "padnd/adapters/ngraph.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/adapters/openvino.hpp"
#include "padnd/padnd.hpp"
#include "fast_path.hpp"

namespace nb = nanobind;

namespace {

using Ints = std::vector<std::int64_t>;

padnd::Mode parse_mode(const std::string& name) {
  if (name == "constant") return padnd::Mode::constant;
  if (name == "edge") return padnd::Mode::edge;
  if (name == "reflect") return padnd::Mode::reflect;
  if (name == "symmetric") return padnd::Mode::symmetric;
  if (name == "wrap") return padnd::Mode::wrap;
  throw padnd::Error(padnd::Errc::invalid_argument, "mode: unknown canonical mode '" + name + "'");
}

padnd::ElementType parse_type(const std::string& name) {
  auto t = padnd::parse_element_type(name);
  if (!t) throw padnd::Error(padnd::Errc::unsupported_type, "unknown element type '" + name + "'");
  return *t;
}

// The Python layer has already broadcast everything to one entry per axis.
padnd::PadSpec make_spec(const Ints& begins, const Ints& ends, const Ints& interiors,
                         const std::string& mode, nb::bytes value, bool crop_then_pad) {
  if (begins.size() != ends.size() || begins.size() != interiors.size()) {
    throw padnd::Error(padnd::Errc::shape_mismatch, "begins/ends/interiors lengths differ");
  }
  padnd::PadSpec spec;
  spec.axes.resize(begins.size());
  for (std::size_t k = 0; k < begins.size(); ++k) {
    spec.axes[k] = {begins[k], ends[k], interiors[k]};
  }
  spec.mode = parse_mode(mode);
  spec.value.assign(value.c_str(), value.size());
  spec.negative_order = crop_then_pad ? padnd::NegativeOrder::crop_then_pad
                                      : padnd::NegativeOrder::map_on_original;
  return spec;
}

Ints infer_shape(const Ints& shape, const Ints& begins, const Ints& ends, const Ints& interiors,
                 const std::string& mode, bool crop_then_pad) {
  return padnd::infer_shape(shape, make_spec(begins, ends, interiors, mode, nb::bytes(""),
                                             crop_then_pad));
}

// Pointers come from numpy's __array_interface__: the caller keeps both arrays alive, and byte
// strides pass straight through, so the input is never copied whatever its layout.
void run_spec(const padnd::PadSpec& spec, std::uintptr_t in_address, const std::string& type_name,
              const Ints& shape, const Ints& byte_strides, std::uintptr_t out_address,
              std::int64_t out_bytes, int threads) {
  const padnd::Plan plan = padnd::make_plan(parse_type(type_name), shape, byte_strides, spec);
  // Planning needs no GIL either, but it is cheap; only the data movement runs without it.
  nb::gil_scoped_release release;
  padnd::ExecOptions options;
  options.threads = threads;
  padnd::execute(plan, reinterpret_cast<const void*>(in_address),
                 reinterpret_cast<void*>(out_address), out_bytes, options);
}

void execute(std::uintptr_t in_address, const std::string& type_name, const Ints& shape,
             const Ints& byte_strides, const Ints& begins, const Ints& ends,
             const Ints& interiors, const std::string& mode, nb::bytes value, bool crop_then_pad,
             std::uintptr_t out_address, std::int64_t out_bytes, int threads) {
  run_spec(make_spec(begins, ends, interiors, mode, value, crop_then_pad), in_address, type_name,
           shape, byte_strides, out_address, out_bytes, threads);
}

// Spec adapters: each turns one framework operator (as the Python layer describes it) into the
// canonical PadSpec, with the adapter's own validation and error messages.
padnd::PadSpec onnx_spec(int opset, int input_count, const std::string& mode,
                         std::optional<Ints> paddings, std::optional<Ints> pads_attr,
                         std::optional<float> value, std::optional<padnd::IntTensor> pads,
                         std::optional<padnd::ValueTensor> constant_value,
                         std::optional<padnd::IntTensor> axes, const std::string& type_name,
                         const Ints& shape) {
  padnd::onnx::PadNode node;
  node.opset = opset;
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

padnd::PadSpec openvino_spec(int version, const std::string& pad_mode, padnd::IntTensor pads_begin,
                             padnd::IntTensor pads_end,
                             std::optional<padnd::ValueTensor> pad_value,
                             const std::string& type_name, const Ints& shape) {
  padnd::openvino::PadOp op;
  op.version = version;
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

}  // namespace

NB_MODULE(_padnd, m) {
  m.doc() = "padnd's C++ engine. Internal: use the functions of the `padnd` package.";
  // Type errors for element types a spec refuses, ValueError for everything else.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const padnd::Error& e) {
      PyErr_SetString(e.code() == padnd::Errc::unsupported_type ? PyExc_TypeError
                                                                 : PyExc_ValueError,
                      e.what());
    }
  });
  padnd::python::bind_fast_path(m);
  m.def("infer_shape", &infer_shape, nb::arg("shape"), nb::arg("begins"), nb::arg("ends"),
        nb::arg("interiors"), nb::arg("mode"), nb::arg("crop_then_pad"),
        "Output shape of a canonical pad (validates the request; needs no data).");
  m.def("execute", &execute, nb::arg("in_address"), nb::arg("type_name"), nb::arg("shape"),
        nb::arg("byte_strides"), nb::arg("begins"), nb::arg("ends"), nb::arg("interiors"),
        nb::arg("mode"), nb::arg("value"), nb::arg("crop_then_pad"), nb::arg("out_address"),
        nb::arg("out_bytes"), nb::arg("threads") = 0,
        "Pads the tensor at in_address into the dense buffer at out_address (GIL released; "
        "threads: 0 = one per core, 1 = serial).");

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
  m.def("spec_shape", [](const padnd::PadSpec& spec, const Ints& shape) {
          return padnd::infer_shape(shape, spec);
        }, nb::arg("spec"), nb::arg("shape"), "Output shape of `spec` applied to `shape`.");
  m.def("execute_spec", &run_spec, nb::arg("spec"), nb::arg("in_address"), nb::arg("type_name"),
        nb::arg("shape"), nb::arg("byte_strides"), nb::arg("out_address"), nb::arg("out_bytes"),
        nb::arg("threads") = 0, "Like execute, for a PadSpec made by a spec adapter (GIL released).");
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
