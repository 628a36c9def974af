// SPDX-License-Identifier: Apache-2.0
// numpy.pad's keywords on the command line (--spec numpy): --stat-length, --end-values and
// --reflect-type, checked and converted into the numpy adapter's arguments.
#pragma once

#include <cstddef>

#include "args.hpp"
#include "npy.hpp"
#include "padnd/adapters/numpy.hpp"

namespace padnd::cli {

/// Sets args' stat_length, end_values (and ramp_type) and reflect_type from the options, for
/// data of `dtype` and `rank` axes. Throws padnd::Error for a keyword the mode does not take,
/// a list of the wrong length or an end value that is not a number.
void set_numpy_keywords(const Options& opt, const NpyDtype& dtype, std::size_t rank,
                        numpy::PadArgs& args);

}  // namespace padnd::cli
