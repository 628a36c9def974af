// SPDX-License-Identifier: Apache-2.0
// padnd._padnd.PreparedPad: padnd::PreparedWindows for padnd.prepare_windows, holding its plan
// and the numpy array it reads.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "numpy_args.hpp"
#include "padnd/padnd.hpp"

namespace nb = nanobind;

namespace padnd::python {
namespace {

using Ints = std::vector<std::int64_t>;

/// A plan, the array its input lives in (kept alive), and the windows prepared over them. The
/// plan lives on the heap: the prepared windows point at it.
class PreparedPad {
 public:
  PreparedPad(const PadSpec& spec, nb::object array, std::uintptr_t in_address,
              const std::string& type_name, const Ints& shape, const Ints& byte_strides,
              int threads)
      : array_(std::move(array)),
        plan_(std::make_unique<const Plan>(
            make_plan(parse_type(type_name), shape, byte_strides, spec))),
        windows_(prepare(*plan_, reinterpret_cast<const void*>(in_address), threads)) {}

  /// Writes the window (starts, lengths) at out_address: dense (out_bytes available) or, with
  /// out_strides, at those byte strides.
  void window(const Ints& start, const Ints& shape, std::uintptr_t out_address,
              std::int64_t out_bytes, const std::optional<Ints>& out_strides) const {
    const Window window{start, shape};
    auto* out = reinterpret_cast<void*>(out_address);
    nb::gil_scoped_release release;
    if (out_strides) {
      windows_->execute_window(window, out, *out_strides);
    } else {
      windows_->execute_window(window, out, out_bytes);
    }
  }

  [[nodiscard]] std::int64_t prepared_bytes() const { return windows_->prepared_bytes(); }
  [[nodiscard]] Ints output_shape() const {
    return {plan_->output_shape().begin(), plan_->output_shape().end()};
  }

 private:
  static std::unique_ptr<const PreparedWindows> prepare(const Plan& plan, const void* in,
                                                        int threads) {
    ExecOptions options;
    options.threads = threads;
    nb::gil_scoped_release release;
    return std::make_unique<const PreparedWindows>(plan, in, options);
  }

  nb::object array_;
  std::unique_ptr<const Plan> plan_;
  std::unique_ptr<const PreparedWindows> windows_;
};

}  // namespace

void bind_prepared(nb::module_& m) {
  nb::class_<PreparedPad>(m, "PreparedPad",
                          "padnd::PreparedWindows over a numpy array (padnd.prepare_windows).")
      .def(nb::init<const PadSpec&, nb::object, std::uintptr_t, const std::string&, const Ints&,
                    const Ints&, int>(),
           nb::arg("spec"), nb::arg("array"), nb::arg("in_address"), nb::arg("type_name"),
           nb::arg("shape"), nb::arg("byte_strides"), nb::arg("threads"))
      .def("window", &PreparedPad::window, nb::arg("start"), nb::arg("shape"),
           nb::arg("out_address"), nb::arg("out_bytes"), nb::arg("out_strides").none(),
           "Writes a window (GIL released): dense, or at out_strides (bytes).")
      .def_prop_ro("prepared_bytes", &PreparedPad::prepared_bytes)
      .def_prop_ro("shape", &PreparedPad::output_shape);
}

}  // namespace padnd::python
