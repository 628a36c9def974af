// SPDX-License-Identifier: Apache-2.0
// Canonical requests drawn from the fuzzer's bytes: planned, executed whole and as windows,
// and compared with the slow reference (fuzz_support.hpp, check_request).
#include "fuzz_support.hpp"

namespace {

using padnd::fuzz::draw_pad;

padnd::Mode draw_index_mode(FuzzedDataProvider& in) {
  return in.PickValueInArray({padnd::Mode::constant, padnd::Mode::edge, padnd::Mode::reflect,
                              padnd::Mode::symmetric, padnd::Mode::wrap});
}

/// Sometimes per-axis modes, including numpy's value modes (checked for safety, not values).
void draw_axis_modes(FuzzedDataProvider& in, padnd::PadSpec& spec) {
  if (in.ConsumeIntegralInRange<int>(0, 3) != 0) return;
  spec.axis_modes.resize(spec.axes.size());
  for (padnd::AxisMode& m : spec.axis_modes) {
    m.mode = static_cast<padnd::Mode>(in.ConsumeIntegralInRange<int>(0, 9));
    m.odd = in.ConsumeBool();
    m.begin_stat_elems = in.ConsumeIntegralInRange<std::int64_t>(-2, 4);
    m.end_stat_elems = in.ConsumeIntegralInRange<std::int64_t>(-2, 4);
  }
}

padnd::PadSpec canonical_spec(FuzzedDataProvider& in, const padnd::ElementType& type,
                              const std::vector<std::int64_t>& shape) {
  padnd::PadSpec spec;
  spec.mode = draw_index_mode(in);
  spec.negative_order = in.ConsumeBool() ? padnd::NegativeOrder::crop_then_pad
                                         : padnd::NegativeOrder::map_on_original;
  spec.negative_size =
      in.ConsumeBool() ? padnd::NegativeSize::clamp_to_zero : padnd::NegativeSize::error;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    padnd::AxisPad p{draw_pad(in), draw_pad(in), 0};
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) p.interior = draw_pad(in);
    spec.axes.push_back(p);
  }
  if (in.ConsumeBool()) spec.value = padnd::fuzz::draw_element(in, type);
  draw_axis_modes(in, spec);
  return spec;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return padnd::fuzz::fuzz_requests(data, size, canonical_spec);
}
