// SPDX-License-Identifier: Apache-2.0
// The shared workloads (bench/workloads.py, generated into workloads.inc): the CPU benchmark suite
// and the CUDA device benchmark quote every figure on them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "padnd/padnd.hpp"

namespace padnd::bench {

struct Workload {
  const char* name;
  const char* size_class;
  padnd::DType dtype;
  std::vector<std::int64_t> shape, begins, ends, interior;
  padnd::Mode mode;
};

inline const std::vector<Workload> kWorkloads = {
#include "workloads.inc"
};

inline padnd::PadSpec spec_of(const Workload& w) {
  padnd::PadSpec spec;
  for (std::size_t k = 0; k < w.shape.size(); ++k) {
    spec.axes.push_back({w.begins[k], w.ends[k], w.interior[k]});
  }
  spec.mode = w.mode;
  return spec;
}

/// Bytes a pad must read: the input left after crops (every workload reads all of it).
inline std::int64_t read_bytes(const Workload& w) {
  std::int64_t elems = 1;
  for (std::size_t k = 0; k < w.shape.size(); ++k) {
    elems *= std::max<std::int64_t>(0, w.shape[k] - std::max<std::int64_t>(0, -w.begins[k]) -
                                           std::max<std::int64_t>(0, -w.ends[k]));
  }
  return padnd::storage_bytes(padnd::ElementType{w.dtype}, elems);
}

/// Bytes a pad writes: its output.
inline std::int64_t write_bytes(const Workload& w) {
  return padnd::storage_bytes(padnd::ElementType{w.dtype},
                              padnd::element_count(padnd::infer_shape(w.shape, spec_of(w))));
}

/// The bound for the same traffic: copying half the bytes reads and writes them all.
inline std::int64_t bound_copy_bytes(const Workload& w) {
  return (read_bytes(w) + write_bytes(w)) / 2;
}

}  // namespace padnd::bench
