// SPDX-License-Identifier: Apache-2.0
// numpy.pad's keywords on the command line (--spec numpy): --stat-length, --end-values and
// --reflect-type, checked and converted into the numpy adapter's arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "npy.hpp"
#include "padnd/adapters/numpy.hpp"

namespace padnd::cli {

/// One (before, after) pair per axis from a list given as numpy broadcasts a pad_width or a
/// keyword: one value for every side, one (before, after) pair for every axis, or the --pads
/// layout (all begins, then all ends). Errors name `option`.
template <class T>
std::vector<std::pair<T, T>> side_pairs(const std::string& option, const std::vector<T>& values,
                                        std::size_t rank);

/// Sets args' stat_length, end_values (and ramp_type) and reflect_type from the options, for
/// data of `dtype` and `rank` axes. Throws padnd::Error for a keyword the mode does not take,
/// a list of the wrong length or an end value that is not a number.
void set_numpy_keywords(const Options& opt, const NpyDtype& dtype, std::size_t rank,
                        numpy::PadArgs& args);

}  // namespace padnd::cli
