// SPDX-License-Identifier: Apache-2.0
// Every worked example of docs/spec.md §9, the seed-text examples, the nGraph backend tests and the
// ONNX node tests, each run through the adapter it names and checked element by element.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "padnd/adapters/ngraph.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/adapters/openvino.hpp"
#include "padnd/plan.hpp"
#include "spec/helpers.hpp"
#include "support/reference.hpp"

namespace padnd {
namespace {

using Shape = std::vector<std::int64_t>;
using SpecFn = std::function<PadSpec(const ElementType&, const Shape&)>;

// --- table types ------------------------------------------------------------------------------

/// A tensor literal: numbers for numeric types, strings for DType::string, raw storage bytes for
/// packed and float8 types.
struct Data {
  ElementType type = DType::float32;
  Shape shape;
  std::vector<double> numbers;
  std::vector<std::string> strings;
  std::vector<std::uint8_t> bytes;
};

Data nums(ElementType type, Shape shape, std::vector<double> values) {
  return Data{type, std::move(shape), std::move(values), {}, {}};
}
Data strs(Shape shape, std::vector<std::string> values) {
  return Data{DType::string, std::move(shape), {}, std::move(values), {}};
}
Data raw(ElementType type, Shape shape, std::vector<std::uint8_t> bytes) {
  return Data{type, std::move(shape), {}, {}, std::move(bytes)};
}

bool stored_as_bytes(const ElementType& t) {
  return t.packed() || (t.dtype >= DType::float8e4m3fn && t.dtype <= DType::float8e8m0);
}

Tensor make_tensor(const Data& d) {
  if (d.type.dtype == DType::string) return test::string_tensor(d.shape, d.strings);
  if (stored_as_bytes(d.type)) return test::bytes_tensor(d.type, d.shape, d.bytes);
  return test::numeric_tensor(d.type, d.shape, d.numbers);
}

/// What an example produces: a tensor (same element type as the input) or an error.
struct Outcome {
  bool error = false;
  Errc code = Errc::invalid_argument;
  std::vector<std::string> parts;  ///< substrings the error message must contain
  Shape shape;
  std::vector<double> numbers;
  std::vector<std::string> strings;
  std::vector<std::uint8_t> bytes;
};

Outcome yields(Shape shape, std::vector<double> values) {
  Outcome o;
  o.shape = std::move(shape);
  o.numbers = std::move(values);
  return o;
}
Outcome yields_strings(Shape shape, std::vector<std::string> values) {
  Outcome o;
  o.shape = std::move(shape);
  o.strings = std::move(values);
  return o;
}
Outcome yields_bytes(Shape shape, std::vector<std::uint8_t> bytes) {
  Outcome o;
  o.shape = std::move(shape);
  o.bytes = std::move(bytes);
  return o;
}
Outcome fails(Errc code, std::vector<std::string> parts) {
  Outcome o;
  o.error = true;
  o.code = code;
  o.parts = std::move(parts);
  return o;
}

struct Example {
  std::string name;  ///< test name suffix
  Data input;
  SpecFn spec;
  Outcome expected;
};

void PrintTo(const Example& e, std::ostream* os) { *os << e.name; }

// --- adapter calls ----------------------------------------------------------------------------

struct OnnxCall {
  int opset = onnx::kLatestOpset;
  Shape pads;
  const char* mode = nullptr;
  std::optional<double> value;           ///< constant_value, or the Pad-1/2 `value` attribute
  std::optional<std::string> raw_value;  ///< constant_value as element bytes (packed, string)
  std::optional<Shape> axes;
  int input_count = 0;  ///< 0: derived from what is present
};

SpecFn onnx_call(OnnxCall c) {
  return [c](const ElementType& type, const Shape& shape) {
    onnx::PadNode n;
    n.opset = c.opset;
    const int version = onnx::pad_version(c.opset);
    if (c.mode) n.mode = c.mode;
    if (version <= 2) {
      (version == 1 ? n.paddings : n.pads_attr) = c.pads;
      if (c.value) n.value = static_cast<float>(*c.value);
      n.input_count = 1;
    } else {
      n.pads = IntTensor::vector(c.pads);
      if (c.value) n.constant_value = test::scalar_value(type, *c.value);
      if (c.raw_value) n.constant_value = ValueTensor::scalar(type, *c.raw_value);
      if (c.axes) n.axes = IntTensor::vector(*c.axes);
      n.input_count = n.axes ? 4 : (n.constant_value ? 3 : 2);
    }
    if (c.input_count != 0) n.input_count = c.input_count;
    return onnx::to_canonical(n, type, shape);
  };
}

SpecFn openvino_call(int version, const char* mode, Shape begin, Shape end,
                     std::optional<double> value = {}) {
  return [=](const ElementType& type, const Shape& shape) {
    openvino::PadOp op;
    op.version = version;
    op.pad_mode = mode;
    op.pads_begin = IntTensor::vector(begin);
    op.pads_end = IntTensor::vector(end);
    if (value) op.pad_value = test::scalar_value(type, *value);
    return openvino::to_canonical(op, type, shape);
  };
}

struct NgraphCall {
  Shape below;
  Shape above;
  std::optional<Shape> interior;
  const char* mode = "CONSTANT";
  double value = 0;
};

SpecFn ngraph_call(NgraphCall c) {
  return [c](const ElementType& type, const Shape& shape) {
    ngraph::PadV0 op;
    op.arg_pad_value = test::scalar_value(type, c.value);
    op.padding_below = c.below;
    op.padding_above = c.above;
    op.padding_interior = c.interior;
    op.pad_mode = c.mode;
    return ngraph::to_canonical(op, type, shape);
  };
}

struct CanonicalCall {
  std::vector<AxisPad> axes;
  Mode mode = Mode::constant;
  std::optional<double> value;
  NegativeOrder order = NegativeOrder::map_on_original;
  NegativeSize size = NegativeSize::error;
};

SpecFn canonical_call(CanonicalCall c) {
  return [c](const ElementType& type, const Shape&) {
    PadSpec spec;
    spec.axes = c.axes;
    spec.mode = c.mode;
    if (c.value) spec.value = test::element_bytes(type, *c.value);
    spec.negative_order = c.order;
    spec.negative_size = c.size;
    return spec;
  };
}

// --- an independent element-wise model (non-negative pads only) -------------------------------


/// Pads `values` (row-major, `shape`) by `begin`/`end` per axis in `mode`.
std::vector<double> stepwise_pad(const Shape& shape, const std::vector<double>& values,
                                 const Shape& begin, const Shape& end, Mode mode, double value,
                                 Shape* out_shape) {
  const std::size_t rank = shape.size();
  Shape out(rank);
  std::int64_t count = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    out[k] = begin[k] + shape[k] + end[k];
    count *= out[k];
  }
  *out_shape = out;
  std::vector<double> result;
  Shape index(rank, 0);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t flat = 0;
    bool is_pad = false;
    for (std::size_t k = 0; k < rank; ++k) {
      // The while-loop oracle of tests/support, not the library's closed forms.
      const std::int64_t s = testing::naive_source(mode, NegativeOrder::map_on_original, shape[k],
                                                   AxisPad{begin[k], end[k], 0}, index[k]);
      if (s < 0) is_pad = true;
      flat = flat * shape[k] + std::max<std::int64_t>(s, 0);
    }
    result.push_back(is_pad ? value : values[static_cast<std::size_t>(flat)]);
    for (std::size_t k = rank; k-- > 0;) {  // next multi-index, row-major
      if (++index[k] < out[k]) break;
      index[k] = 0;
    }
  }
  return result;
}

/// An example whose expectation comes from the stepwise model.
Example modelled(std::string name, Data input, SpecFn spec, const Shape& begin, const Shape& end,
                 Mode mode, double value) {
  Shape out_shape;
  std::vector<double> expected =
      stepwise_pad(input.shape, input.numbers, begin, end, mode, value, &out_shape);
  return Example{std::move(name), std::move(input), std::move(spec),
                 yields(out_shape, std::move(expected))};
}

// --- shared inputs ----------------------------------------------------------------------------

Data doc_3x2() { return nums(DType::float32, {3, 2}, {1.0, 1.2, 2.3, 3.4, 4.5, 5.7}); }
Data m23() { return nums(DType::int32, {2, 3}, {1, 2, 3, 4, 5, 6}); }
Data m34() { return nums(DType::int32, {3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }
Data m22() { return nums(DType::int32, {2, 2}, {1, 2, 4, 5}); }
Data v16(ElementType t = DType::int32) { return nums(t, {6}, {1, 2, 3, 4, 5, 6}); }
Data v13(ElementType t = DType::int32) { return nums(t, {3}, {1, 2, 3}); }
Data empty(ElementType t, Shape shape) { return nums(t, std::move(shape), {}); }
std::vector<double> filled(std::size_t n, double v) { return std::vector<double>(n, v); }

AxisPad ax(std::int64_t b, std::int64_t e, std::int64_t interior = 0) { return {b, e, interior}; }

// Example 1-4 results (ONNX doc examples).
const std::vector<double> kDocConstant{0, 0, 1.0, 1.2, 0, 0, 2.3, 3.4, 0, 0, 4.5, 5.7};
const std::vector<double> kDocReflect{1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7};
const std::vector<double> kDocEdge{1.0, 1.0, 1.0, 1.2, 2.3, 2.3, 2.3, 3.4, 4.5, 4.5, 4.5, 5.7};
const std::vector<double> kDocWrap{3.4, 2.3, 3.4, 2.3, 5.7, 4.5, 5.7, 4.5, 1.2, 1.0, 1.2, 1.0,
                                   3.4, 2.3, 3.4, 2.3, 5.7, 4.5, 5.7, 4.5, 1.2, 1.0, 1.2, 1.0};
// Examples 46-49 (OpenVINO Pad-1 spec example, 3x4 -> 5x8).
const std::vector<double> kOvConstant{0,  1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0, 9, 10, 11,
                                      12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0};
const std::vector<double> kOvEdge{1,  1,  2,  3,  4,  4,  4,  4,  5,  5,  6,  7, 8,  8,
                                  8,  8,  9,  9,  10, 11, 12, 12, 12, 12, 9,  9, 10, 11,
                                  12, 12, 12, 12, 9,  9,  10, 11, 12, 12, 12, 12};
const std::vector<double> kOvReflect{2, 1, 2,  3, 4,  3,  2,  1,  6,  5, 6, 7, 8, 7,
                                     6, 5, 10, 9, 10, 11, 12, 11, 10, 9, 6, 5, 6, 7,
                                     8, 7, 6,  5, 2,  1,  2,  3,  4,  3, 2, 1};
const std::vector<double> kOvSymmetric{1,  1,  2,  3,  4,  4,  3,  2,  5,  5,  6, 7, 8,  8,
                                       7,  6,  9,  9,  10, 11, 12, 12, 11, 10, 9, 9, 10, 11,
                                       12, 12, 11, 10, 5,  5,  6,  7,  8,  8,  7, 6};

// --- docs/spec.md §9 --------------------------------------------------------------------------------

std::vector<Example> section6() {
  using enum Mode;
  const Errc range = Errc::out_of_range;
  std::vector<Example> t;
  const auto add = [&t](std::string name, Data in, SpecFn fn, Outcome out) {
    t.push_back(Example{std::move(name), std::move(in), std::move(fn), std::move(out)});
  };
  add("Ex01_onnx11_constant", doc_3x2(),
      onnx_call({.opset = 11, .pads = {0, 2, 0, 0}, .value = 0.0}), yields({3, 4}, kDocConstant));
  add("Ex02_onnx11_reflect_multi", doc_3x2(),
      onnx_call({.opset = 11, .pads = {0, 2, 0, 0}, .mode = "reflect"}),
      yields({3, 4}, kDocReflect));
  add("Ex03_onnx11_edge", doc_3x2(), onnx_call({.opset = 11, .pads = {0, 2, 0, 0}, .mode = "edge"}),
      yields({3, 4}, kDocEdge));
  add("Ex04_onnx19_wrap", doc_3x2(), onnx_call({.opset = 19, .pads = {2, 1, 1, 1}, .mode = "wrap"}),
      yields({6, 4}, kDocWrap));
  add("Ex05_onnx18_axes_subset", m23(),
      onnx_call({.opset = 18, .pads = {1, 2}, .value = 7, .axes = Shape{1}}),
      yields({2, 6}, {7, 1, 2, 3, 7, 7, 7, 4, 5, 6, 7, 7}));
  add("Ex06_onnx18_axes_unsorted", m23(),
      onnx_call({.opset = 18, .pads = {1, 0, 0, 2}, .value = 0, .axes = Shape{1, 0}}),
      yields({4, 4}, {0, 1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0}));
  add("Ex07_onnx18_negative_axis", m23(),
      onnx_call({.opset = 18, .pads = {1, 2}, .value = 7, .axes = Shape{-1}}),
      yields({2, 6}, {7, 1, 2, 3, 7, 7, 7, 4, 5, 6, 7, 7}));
  add("Ex08_onnx18_repeated_axis", m23(),
      onnx_call({.opset = 18, .pads = {1, 1, 1, 1}, .axes = Shape{1, -1}}),
      fails(Errc::invalid_argument, {"axes", "axis 1", "more than once"}));
  add("Ex09_onnx18_axis_out_of_range", m23(),
      onnx_call({.opset = 18, .pads = {1, 1}, .axes = Shape{2}}),
      fails(range, {"axes", "value 2", "[-2, 1]"}));
  add("Ex10_onnx18_pads_length", m23(),
      onnx_call({.opset = 18, .pads = {1, 1, 1}, .axes = Shape{0, 1}}),
      fails(Errc::shape_mismatch, {"pads", "2 * len(axes)", "got 3"}));
  add("Ex11_onnx18_empty_axes", m23(), onnx_call({.opset = 18, .pads = {}, .axes = Shape{}}),
      yields({2, 3}, {1, 2, 3, 4, 5, 6}));
  add("Ex12_onnx18_skipped_optional_input", m23(),
      onnx_call({.opset = 18, .pads = {1, 0}, .axes = Shape{0}, .input_count = 4}),
      yields({3, 3}, {0, 0, 0, 1, 2, 3, 4, 5, 6}));
  add("Ex13_onnx13_value_ignored_in_edge", v13(),
      onnx_call({.opset = 13, .pads = {1, 1}, .mode = "edge", .value = 9}),
      yields({5}, {1, 1, 2, 3, 3}));
  add("Ex14_onnx13_string_default", strs({2}, {"a", "bc"}),
      onnx_call({.opset = 13, .pads = {1, 1}, .mode = "constant"}),
      yields_strings({4}, {"", "a", "bc", ""}));
  add("Ex15_onnx13_bool_default", nums(DType::boolean, {1}, {1}),
      onnx_call({.opset = 13, .pads = {1, 2}, .mode = "constant"}), yields({4}, {0, 1, 0, 0}));
  add("Ex16_onnx13_string_reflect", strs({3}, {"a", "b", "c"}),
      onnx_call({.opset = 13, .pads = {2, 1}, .mode = "reflect"}),
      yields_strings({6}, {"c", "b", "a", "b", "c", "b"}));
  add("Ex17_onnx_reflect_length1", nums(DType::int32, {1}, {7}),
      onnx_call({.pads = {2, 3}, .mode = "reflect"}), yields({6}, filled(6, 7)));
  add("Ex18_onnx_reflect_empty_axis_padded", empty(DType::float32, {0, 3}),
      onnx_call({.pads = {1, 0, 0, 0}, .mode = "reflect"}),
      fails(range, {"pads", "axis 0", "reflect"}));
  add("Ex19_onnx_reflect_empty_axis_unpadded", empty(DType::float32, {0, 3}),
      onnx_call({.pads = {0, 1, 0, 1}, .mode = "reflect"}), yields({0, 5}, {}));
  add("Ex20_onnx_edge_empty_axis_padded", empty(DType::float32, {0, 2}),
      onnx_call({.pads = {0, 0, 2, 0}, .mode = "edge"}), fails(range, {"pads", "axis 0", "edge"}));
  add("Ex21_onnx_constant_empty_axis", empty(DType::int32, {0, 2}),
      onnx_call({.pads = {1, 0, 1, 0}, .value = 5}), yields({2, 2}, {5, 5, 5, 5}));
  add("Ex22_onnx19_wrap_beyond_axis", v13(),
      onnx_call({.opset = 19, .pads = {4, 5}, .mode = "wrap"}),
      yields({12}, {3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2}));
  add("Ex23_onnx19_wrap_asymmetric", nums(DType::int32, {4}, {0, 1, 2, 3}),
      onnx_call({.opset = 19, .pads = {5, 2}, .mode = "wrap"}),
      yields({11}, {3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1}));
  add("Ex24_onnx_reflect_large_asymmetric", v13(), onnx_call({.pads = {1, 8}, .mode = "reflect"}),
      yields({12}, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}));
  add("Ex25_onnx_constant_crop", v16(), onnx_call({.pads = {-2, -1}}), yields({3}, {3, 4, 5}));
  add("Ex26_onnx_crop_and_pad", v16(), onnx_call({.pads = {-2, 2}, .value = 9}),
      yields({6}, {3, 4, 5, 6, 9, 9}));
  add("Ex27_constant_over_crop", v16(), canonical_call({.axes = {ax(4, -7)}, .value = 9}),
      yields({3}, {9, 9, 9}));
  add("Ex28_onnx_edge_crop_begin", v16(), onnx_call({.pads = {-2, 3}, .mode = "edge"}),
      yields({7}, {3, 4, 5, 6, 6, 6, 6}));
  add("Ex29_onnx_reflect_crop_first", v16(), onnx_call({.pads = {-4, 3}, .mode = "reflect"}),
      yields({5}, {5, 6, 5, 6, 5}));
  add("Ex30_onnx_wrap_crop_first", nums(DType::int32, {4}, {1, 2, 3, 4}),
      onnx_call({.pads = {-1, 1}, .mode = "wrap"}), yields({4}, {2, 3, 4, 2}));
  add("Ex31_onnx_edge_over_crop", v16(), onnx_call({.pads = {2, -7}, .mode = "edge"}),
      fails(range, {"pads", "axis 0", "crops 7"}));
  add("Ex32_full_crop", nums(DType::int32, {2}, {1, 2}), canonical_call({.axes = {ax(-1, -1)}}),
      yields({0}, {}));
  add("Ex33_negative_output_size", nums(DType::int32, {2}, {1, 2}),
      canonical_call({.axes = {ax(-2, -1)}}), fails(range, {"axis 0", "-1", "negative"}));
  add("Ex34_rank0", nums(DType::float32, {}, {5.0}), canonical_call({.axes = {}}),
      yields({}, {5.0}));
  add("Ex35_onnx1_paddings", doc_3x2(), onnx_call({.opset = 1, .pads = {0, 2, 0, 0}}),
      yields({3, 4}, kDocConstant));
  add("Ex36_onnx2_float16_value", nums(DType::float16, {2}, {1, 2}),
      onnx_call({.opset = 2, .pads = {1, 0}, .value = 0.1}),
      yields({3}, {0.0999755859375, 1.0, 2.0}));
  add("Ex37_onnx21_int4_constant", raw(DType::int4, {3}, {0xE1, 0x03}),
      onnx_call({.opset = 21, .pads = {1, 0}, .raw_value = std::string(1, '\0')}),
      yields_bytes({4}, {0x10, 0x3E}));
  add("Ex38_onnx21_int4_reflect", raw(DType::int4, {3}, {0xE1, 0x03}),
      onnx_call({.opset = 21, .pads = {0, 1}, .mode = "reflect"}), yields_bytes({4}, {0xE1, 0xE3}));
  add("Ex39_onnx21_uint4_inner_axis", raw(DType::uint4, {2, 3}, {0x21, 0x43, 0x65}),
      onnx_call({.opset = 21, .pads = {0, 0, 0, 1}, .raw_value = std::string(1, '\x0F')}),
      yields_bytes({2, 4}, {0x21, 0xF3, 0x54, 0xF6}));
  add("Ex40_onnx21_uint4_outer_axis", raw(DType::uint4, {2, 3}, {0x21, 0x43, 0x65}),
      onnx_call({.opset = 21, .pads = {1, 0, 0, 0}, .raw_value = std::string(1, '\x0F')}),
      yields_bytes({3, 3}, {0xFF, 0x1F, 0x32, 0x54, 0x06}));
  add("Ex41_onnx23_float4_edge", raw(DType::float4e2m1, {3}, {0x92, 0x07}),
      onnx_call({.opset = 23, .pads = {1, 0}, .mode = "edge"}), yields_bytes({4}, {0x22, 0x79}));
  add("Ex42_onnx23_float4_default", raw(DType::float4e2m1, {3}, {0x92, 0x07}),
      onnx_call({.opset = 23, .pads = {1, 1}}), yields_bytes({5}, {0x20, 0x79, 0x00}));
  add("Ex43_onnx25_uint2_constant", raw(DType::uint2, {3}, {0x39}),
      onnx_call({.opset = 25, .pads = {1, 0}, .raw_value = std::string(1, '\0')}),
      yields_bytes({4}, {0xE4}));
  add("Ex44_onnx25_int2_reflect", raw(DType::int2, {3}, {0x36}),
      onnx_call({.opset = 25, .pads = {1, 1}, .mode = "reflect"}), yields_bytes({5}, {0xD9, 0x01}));
  add("Ex45_onnx24_float8e8m0_default", raw(DType::float8e8m0, {2}, {0x7F, 0x80}),
      onnx_call({.opset = 24, .pads = {1, 0}}), yields_bytes({3}, {0x00, 0x7F, 0x80}));
  add("Ex46_openvino1_constant", m34(), openvino_call(1, "constant", {0, 1}, {2, 3}),
      yields({5, 8}, kOvConstant));
  add("Ex47_openvino1_edge", m34(), openvino_call(1, "edge", {0, 1}, {2, 3}),
      yields({5, 8}, kOvEdge));
  add("Ex48_openvino1_reflect", m34(), openvino_call(1, "reflect", {0, 1}, {2, 3}),
      yields({5, 8}, kOvReflect));
  add("Ex49_openvino1_symmetric", m34(), openvino_call(1, "symmetric", {0, 1}, {2, 3}),
      yields({5, 8}, kOvSymmetric));
  for (const char* mode : {"constant", "edge", "reflect", "symmetric"}) {
    add(std::string("Ex50_openvino12_all_negative_") + mode, m34(),
        openvino_call(12, mode, {-1, -1}, {-1, -1}), yields({1, 2}, {6, 7}));
  }
  add("Ex51_openvino12_mixed_constant", m34(), openvino_call(12, "constant", {2, -1}, {-1, 3}),
      yields({4, 6}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0}));
  add("Ex52_openvino12_mixed_edge", m34(), openvino_call(12, "edge", {2, -1}, {-1, 3}),
      yields({4, 6}, {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8}));
  add("Ex53_openvino12_mixed_reflect", m34(), openvino_call(12, "reflect", {2, -1}, {-1, 3}),
      yields({4, 6},
             {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5, 2, 3, 4, 3, 2, 1, 6, 7, 8, 7, 6, 5}));
  add("Ex54_openvino12_mixed_symmetric", m34(), openvino_call(12, "symmetric", {2, -1}, {-1, 3}),
      yields({4, 6}, {6, 7, 8, 8, 7, 6, 2, 3, 4, 4, 3, 2, 2, 3, 4, 4, 3, 2, 6, 7, 8, 8, 7, 6}));
  add("Ex55_openvino12_cross_crop_reflect", m34(), openvino_call(12, "reflect", {-4, 3}, {2, -5}),
      yields({1, 2}, {4, 3}));
  add("Ex56_openvino_reflect_limit", m22(), openvino_call(12, "reflect", {0, 2}, {0, 0}),
      fails(range, {"pads_begin", "axis 1", "reflect pad 2"}));
  add("Ex57_openvino_reflect_at_limit", m22(), openvino_call(12, "reflect", {0, 1}, {0, 0}),
      yields({2, 3}, {2, 1, 2, 5, 4, 5}));
  add("Ex58_openvino_symmetric_limit", m22(), openvino_call(12, "symmetric", {0, 3}, {0, 0}),
      fails(range, {"pads_begin", "axis 1", "symmetric pad 3"}));
  add("Ex59_openvino_symmetric_at_limit", m22(), openvino_call(12, "symmetric", {0, 2}, {0, 0}),
      yields({2, 4}, {2, 1, 1, 2, 5, 4, 4, 5}));
  add("Ex60_openvino1_negative_pads", v13(), openvino_call(1, "constant", {-1}, {0}),
      fails(range, {"pads_begin", "axis 0", "-1", "Pad-1"}));
  add("Ex61_openvino12_negative_total", v13(), openvino_call(12, "constant", {-2}, {-2}),
      yields({0}, {}));
  add("Ex62_openvino12_string_edge", strs({2}, {"a", "b"}), openvino_call(12, "edge", {1}, {0}),
      fails(Errc::invalid_argument, {"pad_mode", "string", "constant"}));
  add("Ex63_openvino_edge_empty_axis", empty(DType::float32, {0, 2}),
      openvino_call(12, "edge", {1, 0}, {0, 0}), fails(range, {"pads_begin", "axis 0", "edge"}));
  add("Ex64_openvino_reflect_empty_axis_zero_pads", empty(DType::float32, {0, 2}),
      openvino_call(12, "reflect", {0, 0}, {0, 0}),
      fails(range, {"pads_begin", "axis 0", "reflect pad 0"}));
  add("Ex65_ngraph_interior_doc", nums(DType::float32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
      ngraph_call({.below = {1, 2}, .above = {1, 0}, .interior = Shape{1, 2}, .value = 42}),
      yields({7, 9},
             {42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 1, 42, 42, 2,  42, 42, 3,  42, 42, 42,
              42, 42, 42, 42, 42, 42, 42, 42, 4,  42, 42, 5, 42, 42, 6,  42, 42, 42, 42, 42, 42,
              42, 42, 42, 42, 42, 7,  42, 42, 8,  42, 42, 9, 42, 42, 42, 42, 42, 42, 42, 42, 42}));
  add("Ex66_ngraph_interior_1d", v16(DType::float32),
      ngraph_call({.below = {0}, .above = {0}, .interior = Shape{2}, .value = 2112}),
      yields({16}, {1, 2112, 2112, 2, 2112, 2112, 3, 2112, 2112, 4, 2112, 2112, 5, 2112, 2112, 6}));
  add("Ex67_ngraph_interior_negative_exterior", m23(),
      ngraph_call({.below = {1, -2}, .above = {2, -1}, .interior = Shape{2, 1}, .value = 9}),
      yields({7, 2}, {9, 9, 2, 9, 9, 9, 9, 9, 5, 9, 9, 9, 9, 9}));
  add("Ex68_ngraph_interior_empty_axis", empty(DType::float32, {2, 0, 3, 2}),
      ngraph_call({.below = {1, 0, 0, 0},
                   .above = {0, 2, 0, 0},
                   .interior = Shape{2, 1, 0, 0},
                   .value = 2112}),
      yields({5, 2, 3, 2}, filled(60, 2112)));
  add("Ex69_ngraph_edge_over_crop", v16(),
      ngraph_call({.below = {2}, .above = {-7}, .mode = "EDGE"}), yields({1}, {1}));
  add("Ex70_ngraph_reflect_over_crop", v16(),
      ngraph_call({.below = {-7}, .above = {3}, .mode = "REFLECT"}), yields({2}, {4, 3}));
  add("Ex71_ngraph_multi_reflection", v13(),
      ngraph_call({.below = {10}, .above = {9}, .mode = "REFLECT"}),
      yields({22}, {3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2}));
  add("Ex72_symmetric_end_not_d_minus_1", v13(),
      canonical_call({.axes = {ax(1, 1)}, .mode = symmetric}), yields({5}, {1, 1, 2, 3, 3}));
  add("Ex73_ngraph_negative_result_dim", nums(DType::float32, {5, 4, 2}, filled(40, 0)),
      ngraph_call({.below = {5, 3, 0}, .above = {6, 9, -3}}),
      fails(range, {"axis 2", "negative after padding"}));
  add("Ex74_interior_with_edge", v13(), canonical_call({.axes = {ax(0, 0, 1)}, .mode = edge}),
      fails(Errc::invalid_argument, {"interior", "axis 0", "constant"}));
  add("Ex75_constant_one_axis_out_of_range", nums(DType::int32, {2, 2}, {1, 2, 3, 4}),
      canonical_call({.axes = {ax(1, 0), ax(-1, 1)}, .value = 0}),
      yields({3, 2}, {0, 0, 2, 0, 4, 0}));
  return t;
}

// --- seed texts: ONNX doc examples per version, OpenVINO spec examples ------------------------

std::vector<Example> seed_examples() {
  std::vector<Example> t;
  for (int opset : {2, 11, 13, 18, 19, 21, 23, 24, 25}) {
    const std::string at = "_opset" + std::to_string(opset);
    t.push_back({"OnnxDoc1_constant" + at, doc_3x2(),
                 onnx_call({.opset = opset, .pads = {0, 2, 0, 0}, .value = 0.0}),
                 yields({3, 4}, kDocConstant)});
    t.push_back({"OnnxDoc2_reflect" + at, doc_3x2(),
                 onnx_call({.opset = opset, .pads = {0, 2, 0, 0}, .mode = "reflect"}),
                 yields({3, 4}, kDocReflect)});
    t.push_back({"OnnxDoc3_edge" + at, doc_3x2(),
                 onnx_call({.opset = opset, .pads = {0, 2, 0, 0}, .mode = "edge"}),
                 yields({3, 4}, kDocEdge)});
    if (opset >= 19) {
      t.push_back({"OnnxDoc4_wrap" + at, doc_3x2(),
                   onnx_call({.opset = opset, .pads = {2, 1, 1, 1}, .mode = "wrap"}),
                   yields({6, 4}, kDocWrap)});
    }
  }
  t.push_back({"OnnxDoc1_pad1_layout", doc_3x2(), onnx_call({.opset = 1, .pads = {0, 2, 0, 0}}),
               yields({3, 4}, kDocConstant)});

  const std::pair<const char*, const std::vector<double>*> ov_modes[] = {
      {"constant", &kOvConstant},
      {"edge", &kOvEdge},
      {"reflect", &kOvReflect},
      {"symmetric", &kOvSymmetric}};
  for (int version : {1, 12}) {
    for (auto [mode, expected] : ov_modes) {
      t.push_back({"OpenvinoDoc_v" + std::to_string(version) + "_" + mode, m34(),
                   openvino_call(version, mode, {0, 1}, {2, 3}), yields({5, 8}, *expected)});
    }
  }
  // The XML examples: (1,3,32,40) with pads_begin [0,5,2,1], pads_end [1,0,3,7] -> (2,8,37,48).
  std::vector<double> big(1 * 3 * 32 * 40);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i % 251);
  const Data xml_input = nums(DType::float32, {1, 3, 32, 40}, big);
  const Shape xml_begin{0, 5, 2, 1};
  const Shape xml_end{1, 0, 3, 7};
  t.push_back(modelled("OpenvinoXml_constant_15", xml_input,
                       openvino_call(1, "constant", xml_begin, xml_end, 15.0), xml_begin, xml_end,
                       Mode::constant, 15.0));
  // Edge: axis 1 (length 3) gets 5 leading copies of its first channel.
  t.push_back(modelled("OpenvinoXml_edge", xml_input, openvino_call(1, "edge", xml_begin, xml_end),
                       xml_begin, xml_end, Mode::edge, 0));
  return t;
}

// --- nGraph backend tests (test/backend/pad.in.cpp and the deleted interior tests) ----------

std::vector<Example> ngraph_backend_tests() {
  const Data a34 = nums(DType::float32, {3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const Data a16 = v16(DType::float32);
  const Data a23 = nums(DType::float32, {2, 3}, {1, 2, 3, 4, 5, 6});
  const double k = 2112;
  std::vector<Example> t{
      {"pad_exterior_1d", a16, ngraph_call({.below = {4}, .above = {5}, .value = k}),
       yields({15}, {k, k, k, k, 1, 2, 3, 4, 5, 6, k, k, k, k, k})},
      {"pad_negative_exterior_1d", a16, ngraph_call({.below = {4}, .above = {-2}, .value = k}),
       yields({8}, {k, k, k, k, 1, 2, 3, 4})},
      {"pad_negative_exterior_1d_check_limits", a16,
       ngraph_call({.below = {4}, .above = {-7}, .value = k}), yields({3}, {k, k, k})},
      {"pad_edge_1d", a16, ngraph_call({.below = {2}, .above = {3}, .mode = "EDGE", .value = k}),
       yields({11}, {1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 6})},
      {"pad_edge_1d_top_neg", a16,
       ngraph_call({.below = {2}, .above = {-3}, .mode = "EDGE", .value = k}),
       yields({5}, {1, 1, 1, 2, 3})},
      {"pad_edge_1d_top_neg_bigger_than_tensor", a16,
       ngraph_call({.below = {2}, .above = {-7}, .mode = "EDGE", .value = k}), yields({1}, {1})},
      {"pad_edge_1d_bottom_neg", a16,
       ngraph_call({.below = {-2}, .above = {3}, .mode = "EDGE", .value = k}),
       yields({7}, {3, 4, 5, 6, 6, 6, 6})},
      {"pad_edge_1d_bottom_neg_bigger_than_tensor", a16,
       ngraph_call({.below = {-7}, .above = {3}, .mode = "EDGE", .value = k}), yields({2}, {6, 6})},
      {"pad_edge_2d", a34,
       ngraph_call({.below = {2, 3}, .above = {1, 2}, .mode = "EDGE", .value = k}),
       yields({6, 9}, {1, 1, 1, 1, 2,  3,  4,  4,  4,  1, 1, 1, 1, 2,  3,  4,  4,  4,
                       1, 1, 1, 1, 2,  3,  4,  4,  4,  5, 5, 5, 5, 6,  7,  8,  8,  8,
                       9, 9, 9, 9, 10, 11, 12, 12, 12, 9, 9, 9, 9, 10, 11, 12, 12, 12})},
      {"pad_edge_2d_with_neg", a34,
       ngraph_call({.below = {2, -1}, .above = {1, 2}, .mode = "EDGE", .value = k}),
       yields({6, 5}, {2, 3, 4, 4, 4, 2,  3,  4,  4,  4,  2,  3,  4,  4,  4,
                       6, 7, 8, 8, 8, 10, 11, 12, 12, 12, 10, 11, 12, 12, 12})},
      {"pad_reflect_1d", a16,
       ngraph_call({.below = {2}, .above = {3}, .mode = "REFLECT", .value = k}),
       yields({11}, {3, 2, 1, 2, 3, 4, 5, 6, 5, 4, 3})},
      {"pad_reflect_1d_top_neg", a16,
       ngraph_call({.below = {2}, .above = {-3}, .mode = "REFLECT", .value = k}),
       yields({5}, {3, 2, 1, 2, 3})},
      {"pad_reflect_1d_top_neg_bigger_than_tensor", a16,
       ngraph_call({.below = {2}, .above = {-7}, .mode = "REFLECT", .value = k}), yields({1}, {3})},
      {"pad_reflect_1d_bottom_neg", a16,
       ngraph_call({.below = {-2}, .above = {3}, .mode = "REFLECT", .value = k}),
       yields({7}, {3, 4, 5, 6, 5, 4, 3})},
      {"pad_reflect_1d_bottom_neg_bigger_than_tensor", a16,
       ngraph_call({.below = {-7}, .above = {3}, .mode = "REFLECT", .value = k}),
       yields({2}, {4, 3})},
      {"pad_reflect_1d_multi_reflect", v13(DType::float32),
       ngraph_call({.below = {10}, .above = {9}, .mode = "REFLECT", .value = k}),
       yields({22}, {3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2})},
      {"pad_reflect_2d", a34,
       ngraph_call({.below = {2, 3}, .above = {1, 2}, .mode = "REFLECT", .value = k}),
       yields({6, 9}, {12, 11, 10, 9, 10, 11, 12, 11, 10, 8, 7, 6, 5, 6, 7, 8, 7, 6,
                       4,  3,  2,  1, 2,  3,  4,  3,  2,  8, 7, 6, 5, 6, 7, 8, 7, 6,
                       12, 11, 10, 9, 10, 11, 12, 11, 10, 8, 7, 6, 5, 6, 7, 8, 7, 6})},
      {"pad_reflect_2d_with_neg", a34,
       ngraph_call({.below = {2, -1}, .above = {1, 2}, .mode = "REFLECT", .value = k}),
       yields({6, 5}, {10, 11, 12, 11, 10, 6,  7,  8,  7,  6,  2, 3, 4, 3, 2,
                       6,  7,  8,  7,  6,  10, 11, 12, 11, 10, 6, 7, 8, 7, 6})},
      {"pad_negative_exterior_2d", a23,
       ngraph_call({.below = {1, -1}, .above = {2, 0}, .value = 9}),
       yields({5, 2}, {9, 9, 2, 3, 5, 6, 9, 9, 9, 9})},
      {"pad_negative_exterior_2d_all_negative",
       nums(DType::float32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
       ngraph_call({.below = {-1, -1}, .above = {-1, -1}, .value = 9}), yields({1, 1}, {5})},
      {"pad_exterior_2d_0x0", empty(DType::float32, {0, 0}),
       ngraph_call({.below = {2, 3}, .above = {3, 2}, .value = k}), yields({5, 5}, filled(25, k))},
      {"pad_exterior_2d_0x3", empty(DType::float32, {0, 3}),
       ngraph_call({.below = {2, 1}, .above = {3, 1}, .value = k}), yields({5, 5}, filled(25, k))},
      {"pad_exterior_2d_3x0", empty(DType::float32, {3, 0}),
       ngraph_call({.below = {1, 3}, .above = {1, 2}, .value = k}), yields({5, 5}, filled(25, k))},
      {"pad_exterior_4d_1x2x2x2", nums(DType::float32, {1, 2, 2, 2}, filled(8, 0)),
       ngraph_call({.below = {0, 0, 1, 1}, .above = {0, 0, 1, 1}, .value = 42}),
       yields({1, 2, 4, 4}, {42, 42, 42, 42, 42, 0, 0, 42, 42, 0, 0, 42, 42, 42, 42, 42,
                             42, 42, 42, 42, 42, 0, 0, 42, 42, 0, 0, 42, 42, 42, 42, 42})},
      {"pad_negative_exterior_4d",
       nums(DType::float32, {1, 3, 2, 2}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}),
       ngraph_call({.below = {0, -1, 1, 1}, .above = {0, -1, 1, 1}, .value = 42}),
       yields({1, 1, 4, 4}, {42, 42, 42, 42, 42, 1, 1, 42, 42, 1, 1, 42, 42, 42, 42, 42})},
      {"pad_symmetric", a23,
       ngraph_call({.below = {1, 2}, .above = {1, 2}, .mode = "SYMMETRIC", .value = k}),
       yields({4, 7}, {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2,
                       5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5})},
      // Deleted interior tests (v0 with padding_interior).
      {"pad_interior_1d", a16,
       ngraph_call({.below = {0}, .above = {0}, .interior = Shape{2}, .value = k}),
       yields({16}, {1, k, k, 2, k, k, 3, k, k, 4, k, k, 5, k, k, 6})},
      {"pad_interior_exterior_1d", a16,
       ngraph_call({.below = {4}, .above = {5}, .interior = Shape{2}, .value = k}),
       yields({25}, {k, k, k, k, 1, k, k, 2, k, k, 3, k, k, 4, k, k, 5, k, k, 6, k, k, k, k, k})},
      {"pad_interior_exterior_2d", a23,
       ngraph_call({.below = {1, 0}, .above = {2, 1}, .interior = Shape{2, 1}, .value = 9}),
       yields({7, 6}, {9, 9, 9, 9, 9, 9, 1, 9, 2, 9, 3, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                       9, 9, 9, 4, 9, 5, 9, 6, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9})},
      {"pad_interior_negative_exterior_2d", a23,
       ngraph_call({.below = {1, -2}, .above = {2, -1}, .interior = Shape{2, 1}, .value = 9}),
       yields({7, 2}, {9, 9, 2, 9, 9, 9, 9, 9, 5, 9, 9, 9, 9, 9})},
      {"pad_interior_exterior_4d_2x0x3x2", empty(DType::float32, {2, 0, 3, 2}),
       ngraph_call({.below = {1, 0, 0, 0},
                    .above = {0, 2, 0, 0},
                    .interior = Shape{2, 1, 0, 0},
                    .value = k}),
       yields({5, 2, 3, 2}, filled(60, k))},
  };
  // The 2-channel 2-image asymmetric test: (2,2,4,4) padded by 2 at the end of both spatial
  // axes with 42 (expectation from the stepwise model; the literal is 144 numbers).
  const std::vector<double> images{0, 1, 0, 2, 0, 3, 2, 0, 2, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 2, 0, 2,
                                   3, 0, 2, 0, 1, 0, 2, 0, 0, 0, 0, 2, 1, 1, 0, 0, 2, 0, 0, 0, 1, 2,
                                   0, 0, 0, 0, 2, 1, 0, 0, 0, 2, 0, 0, 1, 1, 2, 0, 1, 0, 0, 0};
  t.push_back(modelled("pad_2channel_2image_asym", nums(DType::float32, {2, 2, 4, 4}, images),
                       ngraph_call({.below = {0, 0, 0, 0}, .above = {0, 0, 2, 2}, .value = 42}),
                       {0, 0, 0, 0}, {0, 0, 2, 2}, Mode::constant, 42));
  return t;
}

// --- ONNX backend node tests (docs/spec.md §4.6), regenerated with a fixed seed --------------------

std::vector<Example> onnx_node_tests() {
  std::mt19937 rng(20240611);
  std::normal_distribution<float> randn;
  std::vector<double> x_float(1 * 3 * 4 * 5);
  std::vector<double> x_int(x_float.size());
  for (auto& v : x_float) v = randn(rng);
  for (auto& v : x_int) v = static_cast<double>(static_cast<std::int32_t>(randn(rng)));
  const Data data_f = nums(DType::float32, {1, 3, 4, 5}, x_float);
  const Data data_i = nums(DType::int32, {1, 3, 4, 5}, x_int);
  const double value = static_cast<float>(1.2);  // the float32 scalar the test feeds
  std::vector<Example> t;
  t.push_back(
      modelled("test_constant_pad", data_f,
               onnx_call({.pads = {0, 0, 1, 3, 0, 0, 2, 4}, .mode = "constant", .value = 1.2}),
               {0, 0, 1, 3}, {0, 0, 2, 4}, Mode::constant, value));
  t.push_back(modelled(
      "test_constant_pad_axes", data_f,
      onnx_call({.pads = {0, 3, 0, 4}, .mode = "constant", .value = 1.2, .axes = Shape{1, 3}}),
      {0, 0, 0, 3}, {0, 0, 0, 4}, Mode::constant, value));
  t.push_back(modelled(
      "test_constant_pad_negative_axes", data_f,
      onnx_call({.pads = {0, 3, 0, 4}, .mode = "constant", .value = 1.2, .axes = Shape{-3, -1}}),
      {0, 0, 0, 3}, {0, 0, 0, 4}, Mode::constant, value));
  const std::pair<const char*, Mode> modes[] = {
      {"edge", Mode::edge}, {"reflect", Mode::reflect}, {"wrap", Mode::wrap}};
  for (auto [name, mode] : modes) {
    t.push_back(modelled(std::string("test_") + name + "_pad", data_i,
                         onnx_call({.pads = {0, 0, 1, 1, 0, 0, 1, 1}, .mode = name}), {0, 0, 1, 1},
                         {0, 0, 1, 1}, mode, 0));
  }
  return t;
}

// --- the check ----------------------------------------------------------------------------------

class SpecExample : public ::testing::TestWithParam<Example> {};

TEST_P(SpecExample, MatchesExpectation) {
  const Example& ex = GetParam();
  const Tensor in = make_tensor(ex.input);
  const Outcome& want = ex.expected;
  if (want.error) {
    test::expect_error([&] { pad(in.view(), ex.spec(in.type(), in.shape())); }, want.code,
                       want.parts);
    return;
  }
  const Tensor out = pad(in.view(), ex.spec(in.type(), in.shape()));
  ASSERT_EQ(out.shape(), want.shape);
  ASSERT_EQ(out.type(), in.type());
  if (in.type().dtype == DType::string) {
    EXPECT_EQ(test::string_values(out), want.strings);
  } else if (stored_as_bytes(in.type())) {
    EXPECT_EQ(test::raw_bytes(out), want.bytes);
  } else {
    // Compare the stored bits (exact), and report decoded values on mismatch.
    const Tensor expected = test::numeric_tensor(in.type(), want.shape, want.numbers);
    EXPECT_EQ(test::raw_bytes(out), test::raw_bytes(expected))
        << "got:      " << ::testing::PrintToString(test::numeric_values(out))
        << "\nexpected: " << ::testing::PrintToString(test::numeric_values(expected));
  }
}

std::string example_name(const ::testing::TestParamInfo<Example>& info) { return info.param.name; }

// Suite names repeat the executable's name so that `ctest -R "adapters|spec"` selects them.
INSTANTIATE_TEST_SUITE_P(spec_section6, SpecExample, ::testing::ValuesIn(section6()), example_name);
INSTANTIATE_TEST_SUITE_P(spec_seeds, SpecExample, ::testing::ValuesIn(seed_examples()),
                         example_name);
INSTANTIATE_TEST_SUITE_P(spec_ngraph_backend, SpecExample,
                         ::testing::ValuesIn(ngraph_backend_tests()), example_name);
INSTANTIATE_TEST_SUITE_P(spec_onnx_node_tests, SpecExample, ::testing::ValuesIn(onnx_node_tests()),
                         example_name);

/// Every numbered example of docs/spec.md §9 is in the table exactly once (50 is split per mode).
TEST(spec_examples, AllSeventyFiveCovered) {
  std::vector<int> seen(76, 0);
  for (const Example& ex : section6()) {
    const int id = std::stoi(ex.name.substr(2, 2));
    ++seen[static_cast<std::size_t>(id)];
  }
  for (int id = 1; id <= 75; ++id) {
    EXPECT_EQ(seen[static_cast<std::size_t>(id)], id == 50 ? 4 : 1) << "example " << id;
  }
}

}  // namespace
}  // namespace padnd
