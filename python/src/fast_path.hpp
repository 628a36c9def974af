// SPDX-License-Identifier: Apache-2.0
// padnd.pad's one-call fast path for the common numpy.pad requests.
#pragma once

#include <nanobind/nanobind.h>

namespace padnd::python {

/// Adds `pad_fast(array, pad_width, mode, constant_values)` to the module.
void bind_fast_path(nanobind::module_& m);

}  // namespace padnd::python
