// SPDX-License-Identifier: Apache-2.0
#include "random_cases.hpp"

#include <algorithm>
#include <numeric>

namespace padnd::testing {

RandomInput make_input(std::mt19937_64& rng, const ElementType& type,
                       const std::vector<std::int64_t>& shape) {
  RandomInput in;
  in.view.type = type;
  in.view.shape = shape;
  const std::size_t rank = shape.size();
  const std::int64_t count = element_count(shape);
  if (type.packed()) {  // packed types are dense
    in.bytes.resize(static_cast<std::size_t>(storage_bytes(type, count)) + 1);
    for (auto& b : in.bytes) b = static_cast<std::byte>(rng());
    in.view.data = in.bytes.data();
    return in;
  }
  const bool strings = type.storage() == Storage::string;
  const std::int64_t item = strings ? sizeof(std::string) : type.item_bytes();
  // Physical extents (with gaps) in a random axis order; some axes flipped or broadcast.
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::int64_t> strides(rank);
  std::int64_t extent = 1;
  for (std::size_t i = rank; i-- > 0;) {
    const std::size_t k = order[i];
    strides[k] = extent * item;
    extent *= shape[k] + static_cast<std::int64_t>(rng() % 3);
  }
  std::int64_t origin = 0;  // in units of items
  for (std::size_t k = 0; k < rank; ++k) {
    if (rng() % 8 == 0 && shape[k] > 1) {
      strides[k] = 0;  // broadcast view
    } else if (rng() % 3 == 0 && shape[k] > 0) {
      origin += (shape[k] - 1) * strides[k] / item;
      strides[k] = -strides[k];
    }
  }
  const bool dense_default = rng() % 4 == 0;
  if (strings) {
    in.strings.resize(static_cast<std::size_t>(std::max<std::int64_t>(extent, 1)));
    for (auto& s : in.strings) s = std::string(rng() % 20, static_cast<char>('a' + rng() % 26));
    in.view.data = in.strings.data() + origin;
  } else {
    in.bytes.resize(static_cast<std::size_t>(std::max<std::int64_t>(extent, 1) * item));
    for (auto& b : in.bytes) b = static_cast<std::byte>(rng());
    in.view.data = in.bytes.data() + origin * item;
  }
  in.view.byte_strides = strides;
  if (dense_default) {  // also exercise the "empty strides = C-contiguous" form
    in.view.byte_strides.clear();
    in.view.data = strings ? static_cast<const void*>(in.strings.data())
                           : static_cast<const void*>(in.bytes.data());
  }
  return in;
}

PadSpec random_spec(std::mt19937_64& rng, const std::vector<std::int64_t>& shape,
                    const ElementType& type) {
  PadSpec spec;
  spec.mode = static_cast<Mode>(rng() % 5);
  spec.negative_order = rng() % 2 ? NegativeOrder::crop_then_pad : NegativeOrder::map_on_original;
  spec.negative_size = rng() % 4 == 0 ? NegativeSize::clamp_to_zero : NegativeSize::error;
  const auto pick = [&](std::int64_t d) -> std::int64_t {
    switch (rng() % 5) {
      case 0:
        return 0;
      case 1:
        return static_cast<std::int64_t>(rng() % 3);
      case 2:
        return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(3 * d + 4));
      case 3:  // many periods wide: borders fold onto their tabulated period
        return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(9 * d + 9));
      default:
        return -static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(d + 3));
    }
  };
  for (std::int64_t d : shape) {
    AxisPad p{pick(d), pick(d), 0};
    if (spec.mode == Mode::constant && rng() % 4 == 0) p.interior = rng() % 3;
    spec.axes.push_back(p);
  }
  if (rng() % 4 != 0) {  // otherwise the default value
    switch (type.storage()) {
      case Storage::string:
        spec.value = std::string(rng() % 5, 'v');
        break;
      case Storage::nibble:
        spec.value = std::string(1, static_cast<char>(rng() % 16));
        break;
      case Storage::crumb:
        spec.value = std::string(1, static_cast<char>(rng() % 4));
        break;
      case Storage::bytes:
        for (std::int64_t i = 0; i < type.item_bytes(); ++i) {
          spec.value += static_cast<char>(rng());
        }
        break;
    }
  }
  return spec;
}

}  // namespace padnd::testing
