// SPDX-License-Identifier: Apache-2.0
// `padnd demo`: the specs' own examples, computed through the adapters and drawn as grids.
#pragma once

#include <ostream>

namespace padnd::cli {

/// Prints every example; `color` marks input cells bold and pad cells dim (ANSI) instead of
/// bracketing the input cells.
void run_demo(std::ostream& out, bool color);

}  // namespace padnd::cli
