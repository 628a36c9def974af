// SPDX-License-Identifier: Apache-2.0
// The C ABI against the C++ API it wraps: the same plans and outputs, every failure a status
// and a message naming the argument, never an exception or a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "padnd/padnd.h"
#include "padnd/padnd.hpp"
#include "support/c_spec.hpp"

namespace {

using padnd::testing::c_spec;

// Random requests: the C ABI's output equals padnd::pad's, whole and as windows.
TEST(CApi, MatchesTheCppApiOnRandomRequests) {
  std::mt19937_64 rng(20261125);
  for (int round = 0; round < 200; ++round) {
    const std::vector<std::int64_t> shape{1 + static_cast<std::int64_t>(rng() % 5),
                                          1 + static_cast<std::int64_t>(rng() % 6)};
    std::vector<std::int64_t> begin(2), end(2);
    for (int k = 0; k < 2; ++k) {
      begin[k] = static_cast<std::int64_t>(rng() % 7) - 2;
      end[k] = static_cast<std::int64_t>(rng() % 7) - 2;
    }
    const auto mode = static_cast<padnd_mode>(rng() % 5);
    std::vector<std::int16_t> data(static_cast<std::size_t>(shape[0] * shape[1]));
    for (auto& v : data) v = static_cast<std::int16_t>(rng());
    const padnd_tensor input{data.data(), {PADND_INT16, 0}, 2, shape.data(), nullptr};
    const padnd_pad_spec spec = c_spec(begin, end, mode);
    padnd::PadSpec cpp;
    cpp.axes = {{begin[0], end[0], 0}, {begin[1], end[1], 0}};
    cpp.mode = static_cast<padnd::Mode>(mode);
    padnd_plan* plan = reinterpret_cast<padnd_plan*>(&cpp);  // a failure resets it to NULL
    const padnd_status status = padnd_plan_create(&input, &spec, &plan);
    std::optional<padnd::Tensor> want;
    try {
      want = padnd::pad(padnd::TensorView{data.data(), padnd::DType::int16, shape, {}}, cpp);
    } catch (const padnd::Error& e) {
      EXPECT_NE(status, PADND_OK) << e.what();
      EXPECT_EQ(plan, nullptr);
      EXPECT_STREQ(padnd_last_error(), e.what());
      continue;
    }
    ASSERT_EQ(status, PADND_OK) << padnd_last_error();
    std::vector<std::int16_t> out(static_cast<std::size_t>(want->size()), -1);
    ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), want->byte_size(), nullptr), PADND_OK);
    if (want->byte_size() > 0) {  // memcmp takes no null pointer, even for 0 bytes
      EXPECT_EQ(std::memcmp(out.data(), want->data(), static_cast<std::size_t>(want->byte_size())),
                0);
    }
    // The window of the last row, into a buffer whose rows are 2 elements apart more.
    const std::int64_t cols = want->shape()[1];
    if (want->shape()[0] > 0 && cols > 0) {
      const std::int64_t start[2] = {want->shape()[0] - 1, 0}, len[2] = {1, cols};
      const std::int64_t strides[2] = {(cols + 2) * 2, 2};
      std::vector<std::int16_t> row(static_cast<std::size_t>(cols + 2), 9);
      ASSERT_EQ(
          padnd_execute_window(plan, data.data(), start, len, row.data(), strides, 0, nullptr),
          PADND_OK);
      EXPECT_EQ(std::memcmp(row.data(), out.data() + (want->shape()[0] - 1) * cols,
                            static_cast<std::size_t>(cols) * 2),
                0);
      EXPECT_EQ(row[static_cast<std::size_t>(cols)], 9);
    }
    padnd_plan_destroy(plan);
  }
}

TEST(CApi, OnnxNodeWithAxes) {
  const std::vector<float> data{1, 2, 3, 4, 5, 6};
  const std::int64_t shape[2] = {2, 3};
  const padnd_tensor input{data.data(), {PADND_FLOAT32, 0}, 2, shape, nullptr};
  const std::int64_t pads[2] = {1, 2};
  const std::int64_t axes[1] = {-1};
  const padnd_onnx_pad node{18, 4, "edge", pads, 2, nullptr, 0, nullptr, axes, 1};
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create_onnx(&input, &node, &plan), PADND_OK) << padnd_last_error();
  std::vector<float> out(12);
  ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), 48, nullptr), PADND_OK);
  EXPECT_EQ(out, (std::vector<float>{1, 1, 2, 3, 3, 3, 4, 4, 5, 6, 6, 6}));
  padnd_plan_destroy(plan);
  // Pad-1 takes the `paddings` attribute and a FLOAT value; wrap is not a Pad-1 mode.
  const float value = std::numeric_limits<float>::infinity();  // a FLOAT attribute may hold it
  const std::int64_t paddings[4] = {0, 1, 0, 1};
  padnd_onnx_pad pad1{1, 1, "constant", paddings, 4, nullptr, 0, &value, nullptr, 0};
  ASSERT_EQ(padnd_plan_create_onnx(&input, &pad1, &plan), PADND_OK) << padnd_last_error();
  padnd_plan_destroy(plan);
  pad1.mode = "wrap";
  EXPECT_EQ(padnd_plan_create_onnx(&input, &pad1, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("mode: 'wrap' is not supported by ONNX Pad-1"),
            std::string::npos)
      << padnd_last_error();
  padnd_onnx_pad absent_axes = node;  // NULL with count 0 is absent; a negative count an error
  absent_axes.axes_count = -1;
  absent_axes.axes = nullptr;
  EXPECT_EQ(padnd_plan_create_onnx(&input, &absent_axes, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("node.axes: negative count -1"), std::string::npos)
      << padnd_last_error();
}

// Nulls, negative counts, unknown enum values, small buffers: a status and a message
// naming the argument; nothing thrown, nothing written.
TEST(CApi, BadArgumentsAreStatusesWithMessages) {
  const std::vector<std::uint8_t> data(6, 1);
  const std::int64_t shape[2] = {2, 3};
  const padnd_tensor input{data.data(), {PADND_UINT8, 0}, 2, shape, nullptr};
  const std::vector<std::int64_t> one{1, 1};
  padnd_pad_spec spec = c_spec(one, one, PADND_CONSTANT);
  padnd_plan* plan = reinterpret_cast<padnd_plan*>(&spec);  // must be reset to NULL on failure
  const auto expect = [&](padnd_status got, padnd_status want, const char* text) {
    EXPECT_EQ(got, want) << padnd_last_error();
    EXPECT_NE(std::string(padnd_last_error()).find(text), std::string::npos) << padnd_last_error();
  };
  expect(padnd_plan_create(nullptr, &spec, &plan), PADND_INVALID_ARGUMENT, "input: null pointer");
  EXPECT_EQ(plan, nullptr);
  expect(padnd_plan_create(&input, nullptr, &plan), PADND_INVALID_ARGUMENT, "spec: null pointer");
  expect(padnd_plan_create(&input, &spec, nullptr), PADND_INVALID_ARGUMENT, "plan_out");
  spec.mode = 42;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "spec.mode: unknown value 42");
  spec.mode = PADND_CONSTANT;
  spec.negative_order = -1;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "spec.negative_order");
  spec.negative_order = PADND_MAP_ON_ORIGINAL;
  spec.value_bytes = 2;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "spec.value: null");
  spec.value_bytes = 0;
  spec.rank = -3;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "spec.begin: negative count -3");
  spec.rank = 2;
  padnd_tensor unknown = input;
  unknown.type.dtype = 77;
  expect(padnd_plan_create(&unknown, &spec, &plan), PADND_UNSUPPORTED_TYPE,
         "unknown padnd_dtype 77");
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK);
  std::vector<std::uint8_t> out(20, 5);
  expect(padnd_execute(plan, data.data(), out.data(), 19, nullptr), PADND_SHAPE_MISMATCH,
         "19 bytes");
  expect(padnd_execute(nullptr, data.data(), out.data(), 20, nullptr), PADND_INVALID_ARGUMENT,
         "plan");
  expect(padnd_execute(plan, nullptr, out.data(), 20, nullptr), PADND_INVALID_ARGUMENT, "input");
  const std::int64_t start[2] = {0, 3}, len[2] = {4, 3};
  expect(padnd_execute_window(plan, data.data(), start, len, out.data(), nullptr, 20, nullptr),
         PADND_OUT_OF_RANGE, "window: axis 1");
  const padnd_exec_options negative{-1, nullptr, nullptr};
  expect(padnd_execute(plan, data.data(), out.data(), 20, &negative), PADND_INVALID_ARGUMENT,
         "threads");
  EXPECT_EQ(out, std::vector<std::uint8_t>(20, 5));
  std::int64_t small[1];
  expect(padnd_plan_output(plan, nullptr, small, 1, nullptr), PADND_SHAPE_MISMATCH, "room for 1");
  padnd_plan_destroy(plan);
  padnd_plan_destroy(nullptr);
}

/// Executes `plan` on `data` (float32) and checks the output against padnd::pad of `spec`.
void expect_same_as_cpp(padnd_plan* plan, const std::vector<float>& data,
                        const std::vector<std::int64_t>& shape, const padnd::PadSpec& spec) {
  ASSERT_NE(plan, nullptr) << padnd_last_error();
  const padnd::Tensor want =
      padnd::pad(padnd::TensorView{data.data(), padnd::DType::float32, shape, {}}, spec);
  std::int64_t bytes = 0;
  ASSERT_EQ(padnd_plan_output(plan, nullptr, nullptr, 0, &bytes), PADND_OK);
  ASSERT_EQ(bytes, want.byte_size());
  std::vector<float> out(static_cast<std::size_t>(want.size()));
  ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), bytes, nullptr), PADND_OK);
  EXPECT_EQ(std::memcmp(out.data(), want.data(), static_cast<std::size_t>(bytes)), 0);
  padnd_plan_destroy(plan);
}

TEST(CApi, CudaEntryPointsCheckTheRequestAndSayWhatIsMissing) {
  const std::vector<float> data(6, 1.0f);
  const std::int64_t shape[2] = {2, 3};
  const padnd_tensor input{data.data(), {PADND_FLOAT32, 0}, 2, shape, nullptr};
  const std::vector<std::int64_t> one{1, 1};
  const padnd_pad_spec spec = c_spec(one, one, PADND_CONSTANT);
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK);
  std::vector<float> out(20);
  EXPECT_EQ(padnd_cuda_execute(nullptr, data.data(), out.data(), 80, nullptr),
            PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("plan: null pointer"), std::string::npos);
  EXPECT_EQ(padnd_cuda_execute(plan, data.data(), out.data(), 40, nullptr), PADND_SHAPE_MISMATCH);
  EXPECT_NE(std::string(padnd_last_error()).find("80 bytes needed"), std::string::npos);
  std::vector<float> in_place(20, 1.0f);  // the input inside the output: a race on a GPU
  EXPECT_EQ(padnd_cuda_execute(plan, in_place.data() + 4, in_place.data(), 80, nullptr),
            PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("overlap the input"), std::string::npos);
  // Host buffers: a build without CUDA, or a machine without a device, says so ("cuda: ...");
  // with a device, host memory is refused by name.
  const char* missing = padnd_cuda_available() ? "not device memory" : "cuda: ";
  EXPECT_EQ(padnd_cuda_execute(plan, data.data(), out.data(), 80, nullptr), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find(missing), std::string::npos) << padnd_last_error();
  const std::int64_t start[2] = {0, 0}, window[2] = {2, 2};
  EXPECT_EQ(
      padnd_cuda_execute_window(plan, data.data(), start, window, out.data(), nullptr, 16, nullptr),
      PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find(missing), std::string::npos) << padnd_last_error();
  padnd_plan_destroy(plan);
}

TEST(CApi, OpenVinoNgraphAndNumpyArguments) {
  const std::vector<float> data{1, 2, 3, 4, 5, 6};
  const std::vector<std::int64_t> shape{2, 3};
  const padnd_tensor input{data.data(), {PADND_FLOAT32, 0}, 2, shape.data(), nullptr};
  const std::int64_t begin[2] = {1, -1}, end[2] = {0, 2};
  const float nine = 9;
  padnd_plan* plan = nullptr;

  const padnd_openvino_pad ov{12, "EDGE", begin, 2, end, 2, nullptr, 0, 0};
  ASSERT_EQ(padnd_plan_create_openvino(&input, &ov, &plan), PADND_OK) << padnd_last_error();
  padnd::openvino::PadOp ov_cpp;
  ov_cpp.pad_mode = "EDGE";
  ov_cpp.pads_begin = padnd::IntTensor::vector({1, -1});
  ov_cpp.pads_end = padnd::IntTensor::vector({0, 2});
  expect_same_as_cpp(plan, data, shape,
                     padnd::openvino::to_canonical(ov_cpp, padnd::DType::float32, shape));

  const std::int64_t below[2] = {1, 0}, above[2] = {0, 1}, interior[2] = {1, 2};
  const padnd_ngraph_pad v0{0, "constant", below, 2, above, 2, interior, 2, &nine, 4};
  ASSERT_EQ(padnd_plan_create_ngraph(&input, &v0, &plan), PADND_OK) << padnd_last_error();
  padnd::ngraph::PadV0 v0_cpp;
  v0_cpp.arg_pad_value = padnd::ValueTensor::scalar(
      padnd::DType::float32, std::string(reinterpret_cast<const char*>(&nine), sizeof nine));
  v0_cpp.padding_below = {1, 0};
  v0_cpp.padding_above = {0, 1};
  v0_cpp.padding_interior = std::vector<std::int64_t>{1, 2};
  v0_cpp.pad_mode = "constant";
  expect_same_as_cpp(plan, data, shape,
                     padnd::ngraph::to_canonical(v0_cpp, padnd::DType::float32, shape));
  padnd_ngraph_pad v0_no_value = v0;
  v0_no_value.pad_value = nullptr;
  EXPECT_EQ(padnd_plan_create_ngraph(&input, &v0_no_value, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_EQ(plan, nullptr);

  // numpy: axis 0 linear_ramp to 10 / 20 (float64 end values), axis 1 mean of 2 elements.
  const std::int64_t widths[4] = {2, 1, 1, 2};
  const char* modes[2] = {"linear_ramp", "mean"};
  const double ends[4] = {10, 20, 0, 0};
  const std::int64_t stats[4] = {2, 2, 2, -1};
  const padnd_numpy_pad np_args{widths, 2,     modes, 2,       nullptr, 0,       ends, 2,
                                {0, 0}, stats, 2,     nullptr, -1,      nullptr, 0};
  ASSERT_EQ(padnd_plan_create_numpy(&input, &np_args, &plan), PADND_OK) << padnd_last_error();
  padnd::numpy::PadArgs np_cpp;
  np_cpp.pad_width = {{2, 1}, {1, 2}};
  np_cpp.modes = {"linear_ramp", "mean"};
  const auto f64 = [](double v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  np_cpp.end_values = {{f64(10), f64(20)}, {f64(0), f64(0)}};
  np_cpp.stat_length = {{2, 2}, {2, std::nullopt}};
  expect_same_as_cpp(plan, data, shape, padnd::numpy::to_canonical(np_cpp, shape));
  padnd_numpy_pad bad = np_args;
  bad.modes = nullptr;
  EXPECT_EQ(padnd_plan_create_numpy(&input, &bad, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("args.modes: null pointer"), std::string::npos);
  bad = np_args;
  bad.stat_length_pairs = -1;
  EXPECT_EQ(padnd_plan_create_numpy(&input, &bad, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("args.stat_length: bad pair count -1"),
            std::string::npos);
  bad = np_args;  // every count is checked, the unused ones too
  bad.mode_count = -5;
  EXPECT_EQ(padnd_plan_create_numpy(&input, &bad, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("args.modes: negative count -5"),
            std::string::npos);
  bad = np_args;
  bad.interior_count = -7;
  EXPECT_EQ(padnd_plan_create_numpy(&input, &bad, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("args.interior: negative count -7"),
            std::string::npos);
}

/// The C API's status and message for an unusable request, checked.
void expect_status(padnd_status got, padnd_status want, const char* text) {
  EXPECT_EQ(got, want) << padnd_last_error();
  EXPECT_NE(std::string(padnd_last_error()).find(text), std::string::npos) << padnd_last_error();
}

/// An ONNX Pad-18 node whose `pads` input claims `count` values.
padnd_onnx_pad onnx_pads_of_count(std::int64_t count) {
  static const std::int64_t pads[2] = {1, 1};
  return {18, 2, "constant", pads, count, nullptr, 0, nullptr, nullptr, 0};
}

const std::int64_t kTwo[1] = {2};
const float kTwoFloats[2] = {1, 2};
const padnd_tensor kTwoFloatInput{kTwoFloats, {PADND_FLOAT32, 0}, 1, kTwo, nullptr};

TEST(CApi, CountsWhoseBytesOverflowAreNamed) {
  const padnd_tensor& input = kTwoFloatInput;
  padnd_plan* plan = nullptr;
  const padnd_onnx_pad node = onnx_pads_of_count(INT64_MAX);
  expect_status(padnd_plan_create_onnx(&input, &node, &plan), PADND_OVERFLOW,
                "node.pads: count 9223372036854775807 of 8-byte values overflows int64 bytes");
  const std::int64_t widths[2] = {1, 1};
  const char* constant = "constant";
  const padnd_numpy_pad args{widths, INT64_MAX / 2, &constant, 1,       nullptr,
                             0,      nullptr,       0,         {0, 0},  nullptr,
                             0,      nullptr,       -1,        nullptr, 0};
  expect_status(padnd_plan_create_numpy(&input, &args, &plan), PADND_OVERFLOW,
                "args.pad_width: count");
  EXPECT_EQ(plan, nullptr);
}

// ASan and TSan end the process, rather than throw std::bad_alloc, when operator new is asked
// for more than they can map; those builds leave this test out (the others run it).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST(CApi, CopiesThatCannotBeAllocatedNameTheirBytes) {
  padnd_plan* plan = nullptr;
  const padnd_onnx_pad node = onnx_pads_of_count(std::int64_t{1} << 59);  // 4 EiB of values
  expect_status(padnd_plan_create_onnx(&kTwoFloatInput, &node, &plan), PADND_OUT_OF_MEMORY,
                "node.pads: cannot allocate 4611686018427387904 bytes to copy it");
  const padnd_string text{"x", std::int64_t{1} << 62};
  const std::vector<std::int64_t> one{1}, none{0};
  padnd_pad_spec spec = c_spec(one, none, PADND_CONSTANT);
  spec.value = &text;
  spec.value_bytes = sizeof text;
  const std::vector<padnd_string> strings(2, {"s", 1});
  const padnd_tensor string_input{strings.data(), {PADND_STRING, 0}, 1, kTwo, nullptr};
  expect_status(padnd_plan_create(&string_input, &spec, &plan), PADND_OUT_OF_MEMORY,
                "spec.value.data: cannot allocate 4611686018427387904 bytes to copy it");
  EXPECT_EQ(plan, nullptr);
}
#endif

TEST(CApi, NgraphInteriorOnlyWhereItExists) {
  const std::vector<float> data{1, 2, 3, 4, 5, 6};
  const std::int64_t shape[2] = {2, 3};
  const padnd_tensor input{data.data(), {PADND_FLOAT32, 0}, 2, shape, nullptr};
  const std::int64_t one[2] = {1, 1}, interior[2] = {1, 1};
  padnd_plan* plan = nullptr;
  padnd_ngraph_pad v1{1, "constant", one, 2, one, 2, interior, 2, nullptr, 0};
  EXPECT_EQ(padnd_plan_create_ngraph(&input, &v1, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error())
                .find("op.interior: nGraph Pad v1 has no interior "
                      "padding (got 2 values)"),
            std::string::npos)
      << padnd_last_error();
  const float zero = 0;
  padnd_ngraph_pad v0{0, "constant", one, 2, one, 2, nullptr, 2, &zero, 4};
  EXPECT_EQ(padnd_plan_create_ngraph(&input, &v0, &plan), PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("op.interior: null pointer"), std::string::npos)
      << padnd_last_error();
  EXPECT_EQ(plan, nullptr);
}

TEST(CApi, InferShapeAndOutputWithoutData) {
  const std::int64_t shape[3] = {2, 0, 5};
  const std::vector<std::int64_t> begin{1, 2, -1}, end{0, 0, 3};
  const padnd_pad_spec spec = c_spec(begin, end, PADND_CONSTANT);
  std::int64_t out[3];
  ASSERT_EQ(padnd_infer_shape(3, shape, &spec, out), PADND_OK) << padnd_last_error();
  EXPECT_EQ(std::vector<std::int64_t>(out, out + 3), (std::vector<std::int64_t>{3, 2, 7}));
  const padnd_tensor input{nullptr, {PADND_UINT16, 0}, 3, shape, nullptr};  // planning reads none
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK) << padnd_last_error();
  std::int32_t rank = 0;
  std::int64_t planned[3];
  std::int64_t bytes = 0;
  ASSERT_EQ(padnd_plan_output(plan, &rank, planned, 3, &bytes), PADND_OK);
  EXPECT_EQ(rank, 3);
  EXPECT_EQ(std::vector<std::int64_t>(planned, planned + 3),
            std::vector<std::int64_t>(out, out + 3));
  EXPECT_EQ(bytes, 3 * 2 * 7 * 2);
  padnd_plan_destroy(plan);
}

// Inference refuses what planning refuses: here an output of more elements than int64 counts.
TEST(CApi, InferShapeRefusesWhatPlanningRefuses) {
  const std::int64_t shape[2] = {2, 3};
  const std::vector<std::int64_t> begin{0, std::int64_t{1} << 62}, end{0, 0};
  const padnd_pad_spec spec = c_spec(begin, end, PADND_CONSTANT);
  std::int64_t out[2];
  expect_status(padnd_infer_shape(2, shape, &spec, out), PADND_OVERFLOW, "output shape");
  const padnd_tensor input{nullptr, {PADND_UINT8, 0}, 2, shape, nullptr};
  padnd_plan* plan = nullptr;
  expect_status(padnd_plan_create(&input, &spec, &plan), PADND_OVERFLOW, "output shape");
}

// padnd reads its input while it writes: an output that shares the input's bytes is refused
// (it used to return OK with wrong values), one next to it is not.
TEST(CApi, OutputOverlappingTheInputIsRefused) {
  std::vector<float> buffer(16, 0.0F);
  float* in = buffer.data() + 6;
  std::copy_n(std::vector<float>{1, 2, 3, 4}.begin(), 4, in);
  const std::vector<float> before = buffer;
  const std::int64_t shape[1] = {4};
  const padnd_tensor input{in, {PADND_FLOAT32, 0}, 1, shape, nullptr};
  const std::vector<std::int64_t> begin{1}, end{1};
  const padnd_pad_spec spec = c_spec(begin, end, PADND_EDGE);
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK) << padnd_last_error();
  for (float* out : {in, in + 3, in - 5}) {
    expect_status(padnd_execute(plan, in, out, 24, nullptr), PADND_INVALID_ARGUMENT,
                  "overlap the input's bytes");
  }
  const std::int64_t start[1] = {0}, window[1] = {2}, stride[1] = {-4};
  expect_status(padnd_execute_window(plan, in, start, window, in + 1, nullptr, 8, nullptr),
                PADND_INVALID_ARGUMENT, "out: bytes");
  expect_status(padnd_execute_window(plan, in, start, window, in + 4, stride, 0, nullptr),
                PADND_INVALID_ARGUMENT, "out: bytes");
  padnd_prepared* prepared = nullptr;
  ASSERT_EQ(padnd_prepare_windows(plan, in, nullptr, &prepared), PADND_OK) << padnd_last_error();
  expect_status(padnd_prepared_execute_window(prepared, start, window, in, nullptr, 8),
                PADND_INVALID_ARGUMENT, "out: bytes");
  padnd_prepared_destroy(prepared);
  EXPECT_EQ(buffer, before);
  ASSERT_EQ(padnd_execute(plan, in, in + 4, 24, nullptr), PADND_OK) << padnd_last_error();
  EXPECT_EQ(std::vector<float>(in + 4, in + 10), (std::vector<float>{1, 1, 2, 3, 4, 4}));
  padnd_plan_destroy(plan);
}

// Wrong-size values and value counts whose bytes overflow name their argument.
TEST(CApi, ValueArgumentsAreNamed) {
  padnd_plan* plan = nullptr;
  const double wide = 1;
  const std::int64_t pads[2] = {1, 1};
  const padnd_onnx_pad node{18, 3, "constant", pads, 2, &wide, sizeof wide, nullptr, nullptr, 0};
  expect_status(padnd_plan_create_onnx(&kTwoFloatInput, &node, &plan), PADND_INVALID_ARGUMENT,
                "node.constant_value: a float32 pad value has 4 bytes; got 8");
  padnd_openvino_pad op{12, "constant", pads, 1, pads + 1, 1, &wide, sizeof wide, 0};
  expect_status(padnd_plan_create_openvino(&kTwoFloatInput, &op, &plan), PADND_INVALID_ARGUMENT,
                "op.pad_value: a float32 pad value has 4 bytes; got 8");
  const char* constant = "constant";
  const float value = 0;
  const padnd_numpy_pad args{pads,   1,       &constant, 1,       &value, INT64_MAX / 2, nullptr, 0,
                             {0, 0}, nullptr, 0,         nullptr, -1,     nullptr,       0};
  expect_status(padnd_plan_create_numpy(&kTwoFloatInput, &args, &plan), PADND_OVERFLOW,
                "args.constant_values: count 9223372036854775806 of 4-byte values overflows");
  EXPECT_EQ(plan, nullptr);
}

// A host's parallel-for receives every task once; a failure's message is per thread.
TEST(CApi, HostParallelForAndThreadLocalMessages) {
  std::vector<float> data(512 * 512, 1.0F);
  const std::int64_t shape[2] = {512, 512};
  const padnd_tensor input{data.data(), {PADND_FLOAT32, 0}, 2, shape, nullptr};
  const std::vector<std::int64_t> pad{64, 64};
  const padnd_pad_spec spec = c_spec(pad, pad, PADND_EDGE);
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK);
  struct Pool {
    std::atomic<std::int64_t> calls{0};
  } pool;
  const auto parallel_for = [](void* p, std::int64_t count, padnd_c_task_fn task, void* context) {
    static_cast<Pool*>(p)->calls += count;
    std::vector<std::thread> threads;
    for (std::int64_t t = 0; t < count; ++t) threads.emplace_back(task, context, t);
    for (auto& thread : threads) thread.join();
  };
  const padnd_exec_options options{4, parallel_for, &pool};
  std::vector<float> out(640 * 640, 0.0F);
  ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), 640 * 640 * 4, &options), PADND_OK);
  EXPECT_GT(pool.calls.load(), 1);
  EXPECT_EQ(out, std::vector<float>(640 * 640, 1.0F));
  EXPECT_EQ(padnd_execute(nullptr, data.data(), out.data(), 0, nullptr), PADND_INVALID_ARGUMENT);
  std::thread other([&] {
    EXPECT_STREQ(padnd_last_error(), "");  // a new thread has not failed yet
    EXPECT_EQ(padnd_execute(plan, data.data(), nullptr, 0, nullptr), PADND_SHAPE_MISMATCH);
  });
  other.join();
  EXPECT_EQ(padnd_execute(plan, data.data(), out.data(), 640 * 640 * 4, nullptr), PADND_OK);
  EXPECT_STREQ(padnd_last_error(), "plan: null pointer");  // this thread's own last failure
  padnd_plan_destroy(plan);
}

// ---- Strings: arrays of padnd_string, padded by copying elements --------------------------

/// A string tensor for the C ABI: `texts` own the bytes (the C++ API's own input), `elements`
/// are the padnd_string array pointing into them, in the same order.
struct StringTensor {
  std::vector<std::string> texts;
  std::vector<padnd_string> elements;
};

/// `count` distinct random strings ("in<i>:" and 0..39 bytes, NULs included: some longer than
/// std::string's inline buffer), so that each output element names the input it came from.
StringTensor random_strings(std::mt19937_64& rng, std::int64_t count) {
  StringTensor t;
  for (std::int64_t i = 0; i < count; ++i) {
    std::string text = "in" + std::to_string(i) + ":";
    const std::uint64_t extra = rng() % 40;
    for (std::uint64_t c = 0; c < extra; ++c) {
      text += rng() % 8 == 0 ? '\0' : static_cast<char>('a' + rng() % 26);
    }
    t.texts.push_back(std::move(text));
  }
  for (const std::string& text : t.texts) {
    t.elements.push_back({text.data(), static_cast<std::int64_t>(text.size())});
  }
  return t;
}

std::string text_of(const padnd_string& s) {
  return s.length == 0 ? std::string() : std::string(s.data, static_cast<std::size_t>(s.length));
}

bool points_into(const char* p, const std::string& buffer) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const auto first = reinterpret_cast<std::uintptr_t>(buffer.data());
  return at >= first && at < first + buffer.size();
}

/// A pad value: its text, and the caller's buffer the C ABI gets it from (which the test
/// overwrites after planning: the plan must have copied it).
struct StringValue {
  std::string text;
  std::string caller;
  padnd_string c;
  explicit StringValue(std::string t)
      : text(t), caller(std::move(t)), c{caller.data(), static_cast<std::int64_t>(caller.size())} {}
  void overwrite() { std::fill(caller.begin(), caller.end(), '#'); }
};

/// `out` (the C ABI's) against `want` (padnd::pad's std::string output): the same text
/// everywhere; each element is an input's own padnd_string (the same pointer) or the constant,
/// pointing at one copy of the plan's (never the caller's buffer; {NULL, 0} when empty).
void expect_strings(const std::vector<padnd_string>& out, const padnd::Tensor& want,
                    const StringTensor& in, const StringValue& value) {
  ASSERT_EQ(static_cast<std::int64_t>(out.size()), want.size());
  const auto* want_text = static_cast<const std::string*>(want.data());
  std::map<std::string, const char*> source;
  for (const padnd_string& e : in.elements) source[text_of(e)] = e.data;
  const char* constant = nullptr;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string got = text_of(out[i]);
    ASSERT_EQ(got, want_text[i]) << "element " << i;
    const auto from = source.find(got);
    if (from != source.end()) {
      EXPECT_EQ(out[i].data, from->second) << "element " << i << " is not the input's string";
      continue;
    }
    ASSERT_EQ(got, value.text) << "element " << i;
    if (value.text.empty()) {
      EXPECT_EQ(out[i].data, nullptr) << "element " << i;
      continue;
    }
    if (constant == nullptr) constant = out[i].data;
    EXPECT_EQ(out[i].data, constant) << "element " << i << ": the plan holds one copy";
    EXPECT_FALSE(points_into(out[i].data, value.caller)) << "element " << i;
  }
}

/// Executes the string plan `plan` on `in`, whole and its last row as a window, and checks the
/// output against `want` (expect_strings). Destroys the plan.
void run_strings(padnd_plan* plan, const StringTensor& in, const padnd::Tensor& want,
                 const StringValue& value) {
  std::int64_t bytes = 0;
  ASSERT_EQ(padnd_plan_output(plan, nullptr, nullptr, 0, &bytes), PADND_OK);
  EXPECT_EQ(bytes, want.size() * static_cast<std::int64_t>(sizeof(padnd_string)));
  std::vector<padnd_string> out(static_cast<std::size_t>(want.size()), {"?", 1});
  ASSERT_EQ(padnd_execute(plan, in.elements.data(), out.data(), bytes, nullptr), PADND_OK);
  expect_strings(out, want, in, value);
  std::vector<std::int64_t> start(want.shape().size(), 0), len = want.shape();
  if (want.size() > 0) {  // the last row, as a window: the same elements
    start[0] = len[0] - 1;
    len[0] = 1;
    std::vector<padnd_string> row(static_cast<std::size_t>(len.back()));
    ASSERT_EQ(padnd_execute_window(
                  plan, in.elements.data(), start.data(), len.data(), row.data(), nullptr,
                  static_cast<std::int64_t>(row.size() * sizeof(padnd_string)), nullptr),
              PADND_OK);
    for (std::size_t i = 0; i < row.size(); ++i) {
      EXPECT_EQ(row[i].data, out[out.size() - row.size() + i].data);
    }
  }
  padnd_plan_destroy(plan);
}

/// Runs the C plan (`status`, `plan`) on `in` (C strides `strides`, bytes) and compares it with
/// padnd::pad of `cpp` on the std::string tensor (strides scaled to sizeof(std::string)); a
/// request one rejects the other must reject with the same message. Destroys the plan; returns
/// whether the request was planned.
bool expect_same_strings(padnd_status status, padnd_plan* plan, const StringTensor& in,
                         const std::vector<std::int64_t>& shape,
                         const std::vector<std::int64_t>& strides, const auto& cpp,
                         const StringValue& value) {
  std::vector<std::int64_t> cpp_strides;
  for (std::int64_t s : strides) {
    cpp_strides.push_back(s / static_cast<std::int64_t>(sizeof(padnd_string)) *
                          static_cast<std::int64_t>(sizeof(std::string)));
  }
  std::optional<padnd::Tensor> want;
  try {
    want = padnd::pad(padnd::TensorView{in.texts.data(), padnd::DType::string, shape, cpp_strides},
                      cpp());
  } catch (const padnd::Error& e) {
    EXPECT_NE(status, PADND_OK) << e.what();
    EXPECT_EQ(plan, nullptr);
    EXPECT_STREQ(padnd_last_error(), e.what());
    return false;
  }
  EXPECT_EQ(status, PADND_OK) << padnd_last_error();
  if (status == PADND_OK) run_strings(plan, in, *want, value);
  return true;
}

/// A random input of rank 2 (`strided`: a transposed view of its elements) and its C tensor.
struct StringCase {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // bytes of padnd_string; empty: C order
  StringTensor in;
  StringCase(std::mt19937_64& rng, bool strided)
      : shape{1 + static_cast<std::int64_t>(rng() % 4), 1 + static_cast<std::int64_t>(rng() % 5)},
        in(random_strings(rng, shape[0] * shape[1])) {
    if (strided) strides = {16, 16 * shape[0]};
  }
  padnd_tensor tensor() const {
    return {in.elements.data(),
            {PADND_STRING, 0},
            2,
            shape.data(),
            strides.empty() ? nullptr : strides.data()};
  }
};

std::int64_t random_pad(std::mt19937_64& rng) { return static_cast<std::int64_t>(rng() % 7) - 2; }

// The canonical spec in every index mode, dense and strided inputs, crops included.
TEST(CApiStrings, CanonicalSpecMatchesTheCppApiInEveryIndexMode) {
  std::mt19937_64 rng(20260101);
  int planned = 0;
  for (int round = 0; round < 400; ++round) {
    const StringCase c(rng, round % 3 == 0);
    const std::vector<std::int64_t> begin{random_pad(rng), random_pad(rng)};
    const std::vector<std::int64_t> end{random_pad(rng), random_pad(rng)};
    const auto mode = static_cast<padnd_mode>(round % 5);
    StringValue value(round % 4 == 0 ? "" : "PAD-" + std::to_string(round) + std::string(30, 'v'));
    padnd_pad_spec spec = c_spec(begin, end, mode);
    spec.value = &value.c;
    spec.value_bytes = sizeof value.c;
    const padnd_tensor input = c.tensor();
    padnd_plan* plan = reinterpret_cast<padnd_plan*>(&spec);  // a failure resets it to NULL
    const padnd_status status = padnd_plan_create(&input, &spec, &plan);
    value.overwrite();
    const auto cpp = [&] {
      padnd::PadSpec s;
      s.axes = {{begin[0], end[0], 0}, {begin[1], end[1], 0}};
      s.mode = static_cast<padnd::Mode>(mode);
      s.value = value.text;
      return s;
    };
    planned += expect_same_strings(status, plan, c.in, c.shape, c.strides, cpp, value);
  }
  EXPECT_GT(planned, 200);  // most requests are valid: the outputs were compared
}

// ONNX Pad-21 (strings from Pad-13, wrap from Pad-19) with a string constant_value.
TEST(CApiStrings, OnnxPadMatchesTheCppApi) {
  std::mt19937_64 rng(20260102);
  const char* const modes[4] = {"constant", "edge", "reflect", "wrap"};
  int planned = 0;
  for (int round = 0; round < 200; ++round) {
    const StringCase c(rng, round % 2 == 0);
    const std::vector<std::int64_t> pads{random_pad(rng), random_pad(rng), random_pad(rng),
                                         random_pad(rng)};
    StringValue value("onnx-" + std::to_string(round));
    const char* mode = modes[round % 4];
    const padnd_onnx_pad node{21,      3,       mode, pads.data(), 4, &value.c, sizeof value.c,
                              nullptr, nullptr, 0};
    const padnd_tensor input = c.tensor();
    padnd_plan* plan = reinterpret_cast<padnd_plan*>(&value);  // a failure resets it to NULL
    const padnd_status status = padnd_plan_create_onnx(&input, &node, &plan);
    value.overwrite();
    const auto cpp = [&] {
      padnd::onnx::PadNode n;
      n.opset = 21;
      n.input_count = 3;
      n.mode = mode;
      n.pads = padnd::IntTensor::vector(pads);
      n.constant_value = padnd::ValueTensor::scalar(padnd::DType::string, value.text);
      return padnd::onnx::to_canonical(n, padnd::DType::string, c.shape);
    };
    planned += expect_same_strings(status, plan, c.in, c.shape, c.strides, cpp, value);
  }
  EXPECT_GT(planned, 100);  // most requests are valid: the outputs were compared
}

// nGraph Pad v0 with interior padding: the pad value between and around the strings.
TEST(CApiStrings, NgraphV0InteriorMatchesTheCppApi) {
  std::mt19937_64 rng(20260103);
  int planned = 0;
  for (int round = 0; round < 100; ++round) {
    const StringCase c(rng, round % 2 == 1);
    const std::vector<std::int64_t> below{random_pad(rng), random_pad(rng)};
    const std::vector<std::int64_t> above{random_pad(rng), random_pad(rng)};
    const std::vector<std::int64_t> interior{static_cast<std::int64_t>(rng() % 3),
                                             static_cast<std::int64_t>(rng() % 3)};
    StringValue value(round % 5 == 0 ? "" : "ngraph value " + std::to_string(round));
    const padnd_ngraph_pad op{0, "CONSTANT", below.data(),  2, above.data(), 2, interior.data(),
                              2, &value.c,   sizeof value.c};
    const padnd_tensor input = c.tensor();
    padnd_plan* plan = reinterpret_cast<padnd_plan*>(&value);  // a failure resets it to NULL
    const padnd_status status = padnd_plan_create_ngraph(&input, &op, &plan);
    value.overwrite();
    const auto cpp = [&] {
      padnd::ngraph::PadV0 v0;
      v0.arg_pad_value = padnd::ValueTensor::scalar(padnd::DType::string, value.text);
      v0.padding_below = below;
      v0.padding_above = above;
      v0.padding_interior = interior;
      return padnd::ngraph::to_canonical(v0, padnd::DType::string, c.shape);
    };
    planned += expect_same_strings(status, plan, c.in, c.shape, c.strides, cpp, value);
  }
  EXPECT_GT(planned, 50);  // most requests are valid: the outputs were compared
}

// numpy's per-axis constants, by hand: axis 0 first, then axis 1 (which owns the corners);
// an explicit "" is the empty string {NULL, 0}, not "the first constant".
TEST(CApiStrings, NumpyPerAxisConstants) {
  const std::vector<std::string> texts{"a", "b", "c", "d"};
  std::vector<padnd_string> data;
  for (const std::string& t : texts) data.push_back({t.data(), 1});
  const std::int64_t shape[2] = {2, 2};
  const padnd_tensor input{data.data(), {PADND_STRING, 0}, 2, shape, nullptr};
  const std::int64_t widths[4] = {1, 0, 0, 1};
  const char* mode = "constant";
  std::string x = "X";
  const padnd_string values[4] = {{x.data(), 1}, {x.data(), 1}, {nullptr, 0}, {nullptr, 0}};
  const padnd_numpy_pad args{widths, 2,       &mode, 1,       values, 2,       nullptr, 0,
                             {0, 0}, nullptr, 0,     nullptr, -1,     nullptr, 0};
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create_numpy(&input, &args, &plan), PADND_OK) << padnd_last_error();
  x = "#";
  std::vector<padnd_string> out(9);
  ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), 9 * 16, nullptr), PADND_OK);
  std::vector<std::string> got;
  for (const padnd_string& s : out) got.push_back(text_of(s));
  EXPECT_EQ(got, (std::vector<std::string>{"X", "X", "", "a", "b", "", "c", "d", ""}));
  EXPECT_EQ(out[2].data, nullptr);
  EXPECT_EQ(out[3].data, data[0].data);
  EXPECT_EQ(out[0].data, out[1].data);  // the plan's one copy of "X"
  padnd_plan_destroy(plan);
}

// A string value is one padnd_string whose length and data are checked; strides are whole
// padnd_strings; modes that compute values and specs that forbid strings are errors.
// Equal pad values are one element (the planner compares values bytewise): mixed modes with
// interior padding plan as they do for numbers, and every "X" is the plan's one copy.
TEST(CApiStrings, EqualValuesAreOneCopyWithMixedModesAndInterior) {
  const std::vector<std::string> texts{"a", "b", "c", "d"};
  std::vector<padnd_string> data;
  for (const std::string& t : texts) data.push_back({t.data(), 1});
  const std::int64_t shape[2] = {2, 2};
  const padnd_tensor input{data.data(), {PADND_STRING, 0}, 2, shape, nullptr};
  const std::int64_t widths[4] = {1, 1, 1, 0}, interior[2] = {1, 0};
  const char* modes[2] = {"constant", "edge"};
  const std::string x = "X";
  const padnd_string values[4] = {{x.data(), 1}, {x.data(), 1}, {x.data(), 1}, {x.data(), 1}};
  const padnd_numpy_pad args{widths, 2,       modes, 2,       values, 2,        nullptr, 0,
                             {0, 0}, nullptr, 0,     nullptr, -1,     interior, 2};
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create_numpy(&input, &args, &plan), PADND_OK) << padnd_last_error();
  std::vector<padnd_string> out(15);
  ASSERT_EQ(padnd_execute(plan, data.data(), out.data(), 15 * sizeof(padnd_string), nullptr),
            PADND_OK);
  std::vector<std::string> got;
  for (const padnd_string& s : out) got.push_back(text_of(s));
  EXPECT_EQ(got, (std::vector<std::string>{"X", "X", "X", "a", "a", "b", "X", "X", "X", "c", "c",
                                           "d", "X", "X", "X"}));
  for (const std::size_t i : {0, 1, 2, 6, 7, 8, 12, 13, 14}) EXPECT_EQ(out[i].data, out[0].data);
  padnd_plan_destroy(plan);
}

TEST(CApiStrings, BadStringArgumentsAreNamed) {
  std::vector<padnd_string> data(4, {"s", 1});
  const std::int64_t shape[2] = {2, 2};
  padnd_tensor input{data.data(), {PADND_STRING, 0}, 2, shape, nullptr};
  const std::vector<std::int64_t> one{1, 1};
  padnd_pad_spec spec = c_spec(one, one, PADND_CONSTANT);
  padnd_string value{"v", -1};
  spec.value = &value;
  spec.value_bytes = sizeof value;
  const auto sentinel = reinterpret_cast<padnd_plan*>(&spec);  // a failure resets it to NULL
  padnd_plan* plan = sentinel;
  const auto expect = [&](padnd_status got, padnd_status want, const char* text) {
    EXPECT_EQ(got, want) << padnd_last_error();
    EXPECT_EQ(plan, nullptr);
    EXPECT_NE(std::string(padnd_last_error()).find(text), std::string::npos) << padnd_last_error();
    plan = sentinel;
  };
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "spec.value.length: negative length -1");
  value = {nullptr, 3};
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "spec.value.data: null pointer");
  spec.value_bytes = 8;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "spec.value: a string value is one padnd_string (16 bytes); got 8 bytes");
  spec.value_bytes = 0;  // the default: the empty string
  const std::int64_t strides[2] = {24, 8};
  input.byte_strides = strides;
  expect(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
         "strides: axis 0: byte stride 24 is not a multiple of sizeof(padnd_string) (16)");
  input.byte_strides = nullptr;
  const padnd_openvino_pad ov{12, "edge", one.data(), 2, one.data(), 2, nullptr, 0, 0};
  expect(padnd_plan_create_openvino(&input, &ov, &plan), PADND_INVALID_ARGUMENT,
         "pad_mode: 'edge' is not allowed for string data");
  const std::int64_t widths[4] = {1, 1, 0, 0};
  const char* mean = "mean";
  const padnd_numpy_pad np{widths, 2,       &mean, 1,       nullptr, 0,       nullptr, 0,
                           {0, 0}, nullptr, 0,     nullptr, -1,      nullptr, 0};
  expect(padnd_plan_create_numpy(&input, &np, &plan), PADND_UNSUPPORTED_TYPE,
         "mode: axis 0: mean computes values, which needs a numeric element type; got string");
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK) << padnd_last_error();
  std::vector<padnd_string> out(16, {"?", 1});
  const std::int64_t start[2] = {0, 0}, len[2] = {2, 2}, out_strides[2] = {64, 8};
  EXPECT_EQ(
      padnd_execute_window(plan, data.data(), start, len, out.data(), out_strides, 0, nullptr),
      PADND_INVALID_ARGUMENT);
  EXPECT_NE(std::string(padnd_last_error()).find("out_byte_strides: axis 1: byte stride 8"),
            std::string::npos)
      << padnd_last_error();
  for (const padnd_string& e : out) EXPECT_EQ(text_of(e), "?");  // nothing written
  padnd_plan_destroy(plan);
}

}  // namespace
