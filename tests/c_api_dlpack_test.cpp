// SPDX-License-Identifier: Apache-2.0
// padnd_tensor_from_dlpack on tensors declared with DLPack's own header (Debian's
// libdlpack-dev), an independent check of the layout padnd's C ABI declares for itself.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "padnd/padnd.h"
#include "support/c_spec.hpp"

namespace {

using padnd::testing::c_spec;

TEST(CApi, DlpackTensorsWithElementStridesAndOffsets) {
  // A transposed 3x2 view of a 2x3 float32 buffer, one element into the allocation.
  std::vector<float> storage{-1, 1, 2, 3, 4, 5, 6};
  std::int64_t shape[2] = {3, 2};
  std::int64_t strides[2] = {1, 3};  // elements
  DLTensor t{storage.data(), {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, strides, sizeof(float)};
  padnd_tensor input{};
  std::int64_t byte_strides[2];
  ASSERT_EQ(padnd_tensor_from_dlpack(&t, &input, byte_strides, 2), PADND_OK) << padnd_last_error();
  EXPECT_EQ(input.type.dtype, PADND_FLOAT32);
  EXPECT_EQ(byte_strides[0], 4);
  EXPECT_EQ(byte_strides[1], 12);
  const std::vector<std::int64_t> begin{1, 0}, end{0, 0};
  const padnd_pad_spec spec = c_spec(begin, end, PADND_REFLECT);
  padnd_plan* plan = nullptr;
  ASSERT_EQ(padnd_plan_create(&input, &spec, &plan), PADND_OK) << padnd_last_error();
  std::vector<float> out(8);
  ASSERT_EQ(padnd_execute(plan, input.data, out.data(), 32, nullptr), PADND_OK);
  EXPECT_EQ(out, (std::vector<float>{2, 5, 1, 4, 2, 5, 3, 6}));  // rows of the transpose
  padnd_plan_destroy(plan);

  const auto type_of = [&](std::uint8_t code, std::uint8_t bits, std::uint16_t lanes) {
    t.dtype = {code, bits, lanes};
    return padnd_tensor_from_dlpack(&t, &input, byte_strides, 2) == PADND_OK ? input.type.dtype
                                                                             : -1;
  };
  EXPECT_EQ(type_of(6, 8, 1), PADND_BOOL);  // kDLBool: DLPack 0.8+, Debian has 0.6
  EXPECT_EQ(type_of(kDLBfloat, 16, 1), PADND_BFLOAT16);
  EXPECT_EQ(type_of(kDLComplex, 128, 1), PADND_COMPLEX128);
  EXPECT_EQ(type_of(kDLUInt, 16, 1), PADND_UINT16);
  EXPECT_EQ(type_of(kDLFloat, 32, 4), -1);  // vector lanes
  EXPECT_NE(std::string(padnd_last_error()).find("lanes 4"), std::string::npos);
  EXPECT_EQ(type_of(kDLFloat, 8, 1), -1);
  t.dtype = {kDLFloat, 32, 1};
  t.device = {kDLCUDA, 1};
  EXPECT_EQ(padnd_tensor_from_dlpack(&t, &input, byte_strides, 2), PADND_UNSUPPORTED_TYPE);
  EXPECT_NE(std::string(padnd_last_error()).find("device type 2 (device 1)"), std::string::npos)
      << padnd_last_error();
  t.device = {kDLCPU, 0};
  EXPECT_EQ(padnd_tensor_from_dlpack(&t, &input, byte_strides, 1), PADND_SHAPE_MISMATCH);
  strides[0] = std::int64_t{1} << 62;
  EXPECT_EQ(padnd_tensor_from_dlpack(&t, &input, byte_strides, 2), PADND_OVERFLOW);
  EXPECT_EQ(padnd_tensor_from_dlpack(nullptr, &input, byte_strides, 2), PADND_INVALID_ARGUMENT);
  strides[0] = 1;
  // An offset that no address holds (past int64, or past the address space) is no pointer.
  for (const std::uint64_t offset : {std::uint64_t{1} << 63, ~std::uint64_t{3}}) {
    t.byte_offset = offset;
    EXPECT_EQ(padnd_tensor_from_dlpack(&t, &input, byte_strides, 2), PADND_OVERFLOW);
    EXPECT_NE(
        std::string(padnd_last_error()).find("dltensor.byte_offset: " + std::to_string(offset)),
        std::string::npos)
        << padnd_last_error();
  }

  // A 0-d tensor with (empty) strides, as torch exports one, needs no room for strides.
  float scalar = 7;
  DLTensor zero_d{&scalar, {kDLCPU, 0}, 0, {kDLFloat, 32, 1}, nullptr, strides, 0};
  ASSERT_EQ(padnd_tensor_from_dlpack(&zero_d, &input, nullptr, 0), PADND_OK) << padnd_last_error();
  EXPECT_EQ(input.rank, 0);
  EXPECT_EQ(input.data, &scalar);
}

}  // namespace
