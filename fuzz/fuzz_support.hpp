// SPDX-License-Identifier: Apache-2.0
// What the fuzz targets share: requests drawn from the fuzzer's bytes, and the check of a
// request's plan and execution against the slow reference (docs/fuzzing.md).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "padnd/padnd.hpp"

namespace padnd::fuzz {

/// A pad width or index: mostly small, sometimes one of int64's extremes.
std::int64_t draw_pad(FuzzedDataProvider& in);

/// `count` values of draw_pad (count drawn up to `max_count`).
std::vector<std::int64_t> draw_pads(FuzzedDataProvider& in, std::size_t max_count);

/// A shape of rank up to `max_rank`, lengths 0..6.
std::vector<std::int64_t> draw_shape(FuzzedDataProvider& in, std::size_t max_rank);

/// One of the element types that cover every kernel width and storage kind.
ElementType draw_type(FuzzedDataProvider& in);

/// The bytes of one element of `type` (strings: short text; packed types: one code byte),
/// or, now and then, bytes of the wrong size.
std::string draw_element(FuzzedDataProvider& in, const ElementType& type);

/// Plans `spec` for an input of `type` and `shape`. Where the planner accepts it and the output
/// is small: executes it whole and as a window (dense and inside a larger strided buffer) into
/// canary-filled buffers with guards, on 1 or 2 threads, and aborts if any element differs from
/// the slow reference (index modes), or if a byte outside the output changed. The planner and
/// the reference's own reading of the canonical rules must agree on which requests are valid.
void check_request(FuzzedDataProvider& in, const ElementType& type,
                   const std::vector<std::int64_t>& shape, const PadSpec& spec);

/// A request target's body: draws an element type and a shape of rank 0-4, asks
/// `make_spec(in, type, shape)` for a request (a padnd::Error from it is a rejected request,
/// whose message was built without a crash), and checks it with check_request.
template <class MakeSpec>
int fuzz_requests(const std::uint8_t* data, std::size_t size, const MakeSpec& make_spec) {
  FuzzedDataProvider in(data, size);
  const ElementType type = draw_type(in);
  const std::vector<std::int64_t> shape = draw_shape(in, 4);
  PadSpec spec;
  try {
    spec = make_spec(in, type, shape);
  } catch (const Error&) {
    return 0;
  }
  check_request(in, type, shape, spec);
  return 0;
}

}  // namespace padnd::fuzz
