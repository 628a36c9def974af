// SPDX-License-Identifier: Apache-2.0
// Algebraic properties every pad must have (docs/spec.md §10), on random tensors of every storage
// kind: the output shape is begin + L + end; cropping the pads back off returns the input
// whatever the mode; a crop-only request is the same slice in every mode and negative order,
// and equals a copy made through a strided view (a different code path: a view offset, no
// crop in the spec).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "padnd/error.hpp"
#include "padnd/plan.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

constexpr Mode kModes[] = {Mode::constant, Mode::edge, Mode::reflect, Mode::symmetric, Mode::wrap};
constexpr NegativeOrder kOrders[] = {NegativeOrder::map_on_original, NegativeOrder::crop_then_pad};

struct Random {
  std::mt19937_64 rng;
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(rng() % n); }
};

/// A dense random tensor of `type` (bytes or packed codes; random bits are valid codes).
Tensor random_tensor(Random& r, const ElementType& type, const std::vector<std::int64_t>& shape) {
  Tensor t(type, shape);
  auto* bytes = static_cast<unsigned char*>(t.data());
  for (std::int64_t i = 0; i < t.byte_size(); ++i) bytes[i] = static_cast<unsigned char>(r.rng());
  if (type.storage() != Storage::bytes && t.byte_size() > 0) {
    // Unused bits of the last packed byte are 0 in padnd's outputs; keep inputs comparable.
    const std::int64_t bits = element_count(shape) * type.bits();
    if (bits % 8 != 0)
      bytes[t.byte_size() - 1] &= static_cast<unsigned char>((1u << (bits % 8)) - 1);
  }
  return t;
}

std::vector<std::int64_t> random_shape(Random& r) {
  std::vector<std::int64_t> shape(static_cast<std::size_t>(1 + r.below(4)));
  for (auto& d : shape) d = 1 + r.below(9);
  return shape;
}

PadSpec spec_of(std::vector<AxisPad> axes, Mode mode, NegativeOrder order) {
  PadSpec spec;
  spec.axes = std::move(axes);
  spec.mode = mode;
  spec.negative_order = order;
  return spec;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.byte_size() == b.byte_size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.byte_size())) == 0;
}

class Properties : public ::testing::TestWithParam<ElementType> {};

TEST(ShapeProperty, OutputShapeIsBeginPlusLengthPlusEnd) {
  Random r{std::mt19937_64(11)};
  for (int i = 0; i < 500; ++i) {
    const std::vector<std::int64_t> shape = random_shape(r);
    std::vector<AxisPad> axes;
    for (std::int64_t d : shape) axes.push_back({r.below(2 * d + 1) - d, r.below(2 * d + 1) - d});
    PadSpec spec = spec_of(axes, Mode::constant, NegativeOrder::map_on_original);
    bool negative = false;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      negative = negative || axes[k].begin + shape[k] + axes[k].end < 0;
    }
    if (negative) {
      EXPECT_THROW(infer_shape(shape, spec), Error);
    } else {
      const std::vector<std::int64_t> out = infer_shape(shape, spec);
      for (std::size_t k = 0; k < shape.size(); ++k) {
        EXPECT_EQ(out[k], axes[k].begin + shape[k] + axes[k].end) << "axis " << k;
      }
    }
    spec.negative_size = NegativeSize::clamp_to_zero;
    const std::vector<std::int64_t> clamped = infer_shape(shape, spec);
    for (std::size_t k = 0; k < shape.size(); ++k) {
      EXPECT_EQ(clamped[k], std::max<std::int64_t>(0, axes[k].begin + shape[k] + axes[k].end));
    }
  }
}

TEST_P(Properties, CroppingThePadsBackGivesTheInputInEveryMode) {
  const ElementType type = GetParam();
  Random r{std::mt19937_64(23)};
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::int64_t> shape = random_shape(r);
    const Tensor x = random_tensor(r, type, shape);
    std::vector<AxisPad> pads;
    std::vector<AxisPad> crops;
    for (std::int64_t d : shape) {
      pads.push_back({r.below(3 * d + 1), r.below(3 * d + 1)});
      crops.push_back({-pads.back().begin, -pads.back().end});
    }
    // Non-negative pads do not depend on the negative order; the crop back alternates it.
    const NegativeOrder crop_order = kOrders[i % 2];
    for (Mode mode : kModes) {
      const Tensor padded = pad(x.view(), spec_of(pads, mode, kOrders[0]));
      const Tensor back = pad(padded.view(), spec_of(crops, kModes[i % 5], crop_order));
      ASSERT_TRUE(same_bytes(back, x)) << "case " << i << " mode " << mode_name(mode);
    }
  }
}

TEST_P(Properties, CropOnlyIsTheSameSliceInEveryModeAndEqualsAStridedView) {
  const ElementType type = GetParam();
  Random r{std::mt19937_64(37)};
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::int64_t> shape = random_shape(r);
    const Tensor x = random_tensor(r, type, shape);
    std::vector<AxisPad> crops;
    std::vector<std::int64_t> kept;
    for (std::int64_t d : shape) {
      const std::int64_t begin = r.below(d + 1);
      const std::int64_t end = r.below(d - begin + 1);
      crops.push_back({-begin, -end});
      kept.push_back(d - begin - end);
    }
    const Tensor first = pad(x.view(), spec_of(crops, Mode::constant, kOrders[0]));
    for (Mode mode : kModes) {
      for (NegativeOrder order : kOrders) {
        ASSERT_TRUE(same_bytes(pad(x.view(), spec_of(crops, mode, order)), first))
            << "case " << i << " mode " << mode_name(mode);
      }
    }
    if (type.storage() != Storage::bytes) continue;  // packed inputs must be dense: no view
    // The same slice as a strided view of x with no crop in the spec.
    std::vector<std::int64_t> strides(shape.size());
    std::int64_t stride = type.item_bytes();
    std::int64_t offset = 0;
    for (std::size_t k = shape.size(); k-- > 0;) {
      strides[k] = stride;
      offset += -crops[k].begin * stride;
      stride *= shape[k];
    }
    const TensorView slice{static_cast<const std::byte*>(x.data()) + offset, type, kept, strides};
    const Tensor copied =
        pad(slice, spec_of(std::vector<AxisPad>(shape.size()), Mode::constant, kOrders[0]));
    ASSERT_TRUE(same_bytes(copied, first)) << "case " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryStorage, Properties,
                         ::testing::Values(ElementType(DType::uint8), ElementType(DType::float32),
                                           ElementType(DType::complex128), ElementType::opaque(3),
                                           ElementType(DType::int4), ElementType(DType::uint2)),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return info.param.name();
                         });

}  // namespace
}  // namespace padnd
