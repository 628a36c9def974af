// SPDX-License-Identifier: Apache-2.0
// New numpy arrays for outputs, from the output cache where it is on (numpy_allocator.cpp).
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>

namespace padnd::python {

/// numpy.empty(shape, dtype, order) of `bytes` bytes: from the output cache when it is on and
/// the output large enough. `fresh`: its memory was never written (new pages, not an idle
/// buffer's).
nanobind::object empty_output(nanobind::handle shape, nanobind::handle dtype,
                              nanobind::handle order, std::int64_t bytes, bool& fresh);

/// _padnd's empty_output, set_output_cache and output_cache_info.
void bind_output_cache(nanobind::module_& m);

}  // namespace padnd::python
