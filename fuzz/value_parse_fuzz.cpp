// SPDX-License-Identifier: Apache-2.0
// `--value` parsing on arbitrary text for every kind of dtype: one element of exactly the
// item size, or padnd::Error; and the Pad-1/2 float attribute parser.
#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdlib>
#include <string>

#include "cli/npy.hpp"
#include "cli/value_parse.hpp"
#include "padnd/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr std::array<const char*, 22> kDescrs = {
      "|b1", "|i1", "<i2",  ">i4", "<i8", "|u1", "<u2", "<u4",     ">u8",    "<f2", "<f4",
      ">f8", "<c8", "<c16", "|S1", "|S5", "<U1", ">U3", "<M8[ns]", "<m8[s]", "|V4", "<f16"};
  FuzzedDataProvider in(data, size);
  const padnd::cli::NpyDtype dtype = padnd::cli::parse_descr(in.PickValueInArray(kDescrs));
  const auto padding =
      in.ConsumeBool() ? padnd::cli::TextPadding::item : padnd::cli::TextPadding::none;
  const std::string text = in.ConsumeRemainingBytesAsString();
  (void)padnd::cli::printable(text);  // every text, invalid UTF-8 included (error messages)
  try {
    const std::string element = padnd::cli::parse_value(text, dtype, padding);
    const bool text_kind = dtype.kind == 'S' || dtype.kind == 'U';
    if ((padding == padnd::cli::TextPadding::item || !text_kind) &&
        static_cast<std::int64_t>(element.size()) != dtype.itemsize) {
      std::abort();  // one element is exactly the item size
    }
  } catch (const padnd::Error&) {
  }
  try {
    (void)padnd::cli::parse_float_attribute(text);
  } catch (const padnd::Error&) {
  }
  return 0;
}
