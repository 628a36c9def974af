// SPDX-License-Identifier: Apache-2.0
// padnd.torch's loops on the OpenMP runtime torch already runs (see openmp_host.cpp).
#pragma once

#include <nanobind/nanobind.h>

#include "padnd/parallel.hpp"

namespace padnd::python {

/// `options` with their parallel-for on the registered OpenMP runtime; unchanged when none is
/// registered or they ask for one thread.
ExecOptions on_openmp_runtime(ExecOptions options);

/// Adds `_use_openmp_runtime(path)` and `_openmp_runtime()` to the module.
void bind_openmp_host(nanobind::module_& m);

}  // namespace padnd::python
