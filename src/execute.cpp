// SPDX-License-Identifier: Apache-2.0
// Execution: walk the output rows in order; each row is either filled or built from segments.
#include <cstddef>
#include <string>

#include "index_map.hpp"
#include "kernels/bytes_rows.hpp"
#include "kernels/packed_rows.hpp"
#include "kernels/string_rows.hpp"
#include "padnd/error.hpp"
#include "padnd/plan.hpp"

namespace padnd {
namespace {

using detail::RowContext;

/// Where a row reads from: nothing (some outer axis is at a pad position), or an input offset
/// (bytes, or elements for packed types; negative with negative strides).
struct RowSource {
  bool pad;
  std::int64_t offset;
};

/// Visits the outer (non-row) axes in row-major order.
class OuterWalker {
 public:
  OuterWalker(const std::vector<PlanAxis>& axes, std::int64_t view_offset)
      : axes_(axes), outer_(axes.size() - 1), index_(outer_, 0), base_(view_offset) {}

  [[nodiscard]] std::int64_t rows() const {
    std::int64_t n = 1;
    for (std::size_t k = 0; k < outer_; ++k) n *= axes_[k].out_len;  // fits: divides the output
    return n;
  }

  [[nodiscard]] RowSource source() const {
    std::int64_t off = base_;
    for (std::size_t k = 0; k < outer_; ++k) {
      const PlanAxis& a = axes_[k];
      const std::int64_t o = index_[k];
      const std::int64_t s = a.plain ? o : a.src[static_cast<std::size_t>(o)];
      if (s == detail::kPadIndex) return {true, 0};
      off += s * a.in_stride;
    }
    return {false, off};
  }

  void next() {
    for (std::size_t k = outer_; k-- > 0;) {
      if (++index_[k] < axes_[k].out_len) return;
      index_[k] = 0;
    }
  }

 private:
  const std::vector<PlanAxis>& axes_;
  std::size_t outer_;
  std::vector<std::int64_t> index_;
  std::int64_t base_;
};

template <std::int64_t W>
void run_bytes(const Plan& plan, const RowContext& ctx, const std::byte* in, std::byte* out) {
  OuterWalker walker(plan.axes(), plan.view_offset());
  const std::int64_t rows = walker.rows();
  const std::int64_t row_bytes = ctx.row_len * ctx.unit_bytes;
  for (std::int64_t r = 0; r < rows; ++r, walker.next()) {
    std::byte* dst = out + r * row_bytes;
    const RowSource src = walker.source();
    if (src.pad) {
      detail::fill_bytes(dst, row_bytes, *ctx.fill);
    } else {
      detail::bytes_row<W>(ctx, dst, in + src.offset);
    }
  }
}

void run_strings(const Plan& plan, const RowContext& ctx, const std::byte* in, std::string* out) {
  OuterWalker walker(plan.axes(), plan.view_offset());
  const std::int64_t rows = walker.rows();
  for (std::int64_t r = 0; r < rows; ++r, walker.next()) {
    std::string* dst = out + r * ctx.row_len;
    const RowSource src = walker.source();
    if (src.pad) {
      detail::string_fill(dst, ctx.row_len, *ctx.fill);
    } else {
      detail::string_row(ctx, dst, in + src.offset);
    }
  }
}

template <int BITS>
void run_packed(const Plan& plan, const RowContext& ctx, const std::uint8_t* in,
                std::uint8_t* out) {
  OuterWalker walker(plan.axes(), plan.view_offset());
  const std::int64_t rows = walker.rows();
  detail::PackedWriter<BITS> writer(out);
  const auto fill = static_cast<std::uint8_t>((*ctx.fill)[0]);
  for (std::int64_t r = 0; r < rows; ++r, walker.next()) {
    const RowSource src = walker.source();
    if (src.pad) {
      for (std::int64_t i = 0; i < ctx.row_len; ++i) writer.put(fill);
    } else {
      detail::packed_row<BITS>(ctx, writer, in, src.offset);
    }
  }
  writer.flush();
}

}  // namespace

void execute(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
             const ExecOptions& /*options*/) {
  if (out_bytes < plan.out_bytes_) {
    throw Error(Errc::shape_mismatch, "output: buffer of " + std::to_string(out_bytes) +
                                          " bytes is smaller than the " +
                                          std::to_string(plan.out_bytes_) + " bytes needed");
  }
  if (plan.out_elems_ == 0) return;
  if (out == nullptr) throw Error(Errc::invalid_argument, "output: null buffer");
  const PlanAxis& row = plan.axes_.back();
  if (in == nullptr && plan.in_elems_ > 0) {
    throw Error(Errc::invalid_argument, "input: null data pointer for a non-empty tensor");
  }
  const RowContext ctx{&plan.row_,       row.plain ? nullptr : row.src.data(),
                       row.out_len,      row.in_stride,
                       plan.unit_bytes_, &plan.fill_};
  const auto* in_bytes = static_cast<const std::byte*>(in);
  switch (plan.type_.storage()) {
    case Storage::string:
      run_strings(plan, ctx, in_bytes, static_cast<std::string*>(out));
      return;
    case Storage::nibble:
      run_packed<4>(plan, ctx, static_cast<const std::uint8_t*>(in),
                    static_cast<std::uint8_t*>(out));
      return;
    case Storage::crumb:
      run_packed<2>(plan, ctx, static_cast<const std::uint8_t*>(in),
                    static_cast<std::uint8_t*>(out));
      return;
    case Storage::bytes:
      break;
  }
  auto* out_bytes_ptr = static_cast<std::byte*>(out);
  switch (plan.unit_bytes_) {
    case 1: run_bytes<1>(plan, ctx, in_bytes, out_bytes_ptr); return;
    case 2: run_bytes<2>(plan, ctx, in_bytes, out_bytes_ptr); return;
    case 4: run_bytes<4>(plan, ctx, in_bytes, out_bytes_ptr); return;
    case 8: run_bytes<8>(plan, ctx, in_bytes, out_bytes_ptr); return;
    case 16: run_bytes<16>(plan, ctx, in_bytes, out_bytes_ptr); return;
    default: run_bytes<0>(plan, ctx, in_bytes, out_bytes_ptr); return;
  }
}

Tensor pad(const TensorView& input, const PadSpec& spec, const ExecOptions& options) {
  const Plan plan = make_plan(input.type, input.shape, input.byte_strides, spec);
  Tensor out = Tensor::uninitialized(input.type, plan.output_shape());
  execute(plan, input.data, out.data(), out.byte_size(), options);
  return out;
}

void pad_into(const TensorView& input, const PadSpec& spec, void* out, std::int64_t out_bytes,
              const ExecOptions& options) {
  const Plan plan = make_plan(input.type, input.shape, input.byte_strides, spec);
  execute(plan, input.data, out, out_bytes, options);
}

}  // namespace padnd
