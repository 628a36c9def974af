// SPDX-License-Identifier: Apache-2.0
// padnd._padnd: the canonical engine for Python (plans and executes on raw numpy buffers).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "padnd/padnd.hpp"

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
void execute(std::uintptr_t in_address, const std::string& type_name, const Ints& shape,
             const Ints& byte_strides, const Ints& begins, const Ints& ends,
             const Ints& interiors, const std::string& mode, nb::bytes value, bool crop_then_pad,
             std::uintptr_t out_address, std::int64_t out_bytes) {
  const padnd::PadSpec spec = make_spec(begins, ends, interiors, mode, value, crop_then_pad);
  const padnd::Plan plan = padnd::make_plan(parse_type(type_name), shape, byte_strides, spec);
  // Planning needs no GIL either, but it is cheap; only the data movement runs without it.
  nb::gil_scoped_release release;
  padnd::execute(plan, reinterpret_cast<const void*>(in_address),
                 reinterpret_cast<void*>(out_address), out_bytes);
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
  m.def("infer_shape", &infer_shape, nb::arg("shape"), nb::arg("begins"), nb::arg("ends"),
        nb::arg("interiors"), nb::arg("mode"), nb::arg("crop_then_pad"),
        "Output shape of a canonical pad (validates the request; needs no data).");
  m.def("execute", &execute, nb::arg("in_address"), nb::arg("type_name"), nb::arg("shape"),
        nb::arg("byte_strides"), nb::arg("begins"), nb::arg("ends"), nb::arg("interiors"),
        nb::arg("mode"), nb::arg("value"), nb::arg("crop_then_pad"), nb::arg("out_address"),
        nb::arg("out_bytes"),
        "Pads the tensor at in_address into the dense buffer at out_address (GIL released).");
}
