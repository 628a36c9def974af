// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Registers kernel/<kernel>_<width> for every entry of the kernel list.
void register_kernel_benchmarks();
