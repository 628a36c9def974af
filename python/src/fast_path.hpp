// SPDX-License-Identifier: Apache-2.0
// padnd.pad's one-call fast path for the common numpy.pad requests.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>

namespace padnd::python {

/// Adds `pad_fast(array, pad_width, mode, constant_values)` to the module.
void bind_fast_path(nanobind::module_& m);

/// Ctrl-C stops a pad of `output_bytes` between its tasks, from the construction (with the
/// GIL) to the destruction: for large pads from the main thread while Python's SIGINT handler
/// is its default (KeyboardInterrupt), a SIGINT handler that chains to Python's sets a flag
/// that the engine's loops read between tasks. raise_if_stopped() (with the GIL) then raises
/// the KeyboardInterrupt; the output holds the tasks that ran.
class CtrlCStops {
 public:
  explicit CtrlCStops(std::int64_t output_bytes);
  CtrlCStops(const CtrlCStops&) = delete;
  CtrlCStops& operator=(const CtrlCStops&) = delete;
  ~CtrlCStops();
  void raise_if_stopped() const;

 private:
  bool active_ = false;
};

}  // namespace padnd::python
