// SPDX-License-Identifier: Apache-2.0
// The C ABI (include/padnd/padnd.h): translates C descriptions into padnd's C++ types, runs
// the C++ API, and turns every exception into a status and a thread-local message.
#include <algorithm>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/c_api/c_api_internal.hpp"
#include "core/checked.hpp"
#include "padnd/adapters/ngraph.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/adapters/openvino.hpp"
#include "padnd/padnd.h"
#include "padnd/padnd.hpp"
#include "plan/plan_access.hpp"
#include "plan/plan_internal.hpp"

void padnd::c_api::require(const void* pointer, const char* argument) {
  if (pointer == nullptr) {
    throw Error(Errc::invalid_argument, std::string(argument) + ": null pointer");
  }
}

namespace padnd::c_api {
/// Copies of a string plan's pad values: the text its padnd_string constants point at (stable
/// storage, not std::string, whose short texts move with it), owned for the plan's lifetime.
/// One copy per distinct text, so that equal values are equal elements (the planner compares
/// pad values byte by byte).
using Texts = std::map<std::string, std::unique_ptr<char[]>, std::less<>>;
}  // namespace padnd::c_api

struct padnd_plan {
  padnd::Plan plan;  ///< a string tensor's plan moves its padnd_string elements as opaque bytes
  bool strings = false;
  padnd::c_api::Texts texts;
};

struct padnd_prepared {
  const padnd_plan* plan;
  const void* in;  ///< the input its windows read
  padnd::PreparedWindows windows;
};

// padnd.h numbers its enums as the C++ ones (element_type and enum_value cast them).
static_assert(PADND_STRING == static_cast<int>(padnd::DType::string) &&
              PADND_UINT2 == static_cast<int>(padnd::DType::uint2) &&
              PADND_CLONGDOUBLE == static_cast<int>(padnd::DType::clongdouble) &&
              PADND_OPAQUE == static_cast<int>(padnd::DType::opaque));
static_assert(PADND_WRAP == static_cast<int>(padnd::Mode::wrap) &&
              PADND_CROP_THEN_PAD == static_cast<int>(padnd::NegativeOrder::crop_then_pad) &&
              PADND_NEGATIVE_SIZE_CLAMP_TO_ZERO ==
                  static_cast<int>(padnd::NegativeSize::clamp_to_zero));

namespace {

using padnd::Errc;
using padnd::Error;

thread_local std::string g_last_error;
thread_local const char* g_lost_message = nullptr;  ///< when g_last_error could not be set

padnd_status status_of(Errc code) {
  switch (code) {
    case Errc::invalid_argument:
      return PADND_INVALID_ARGUMENT;
    case Errc::unsupported_type:
      return PADND_UNSUPPORTED_TYPE;
    case Errc::shape_mismatch:
      return PADND_SHAPE_MISMATCH;
    case Errc::out_of_range:
      return PADND_OUT_OF_RANGE;
    case Errc::overflow:
      return PADND_OVERFLOW;
    case Errc::out_of_memory:
      return PADND_OUT_OF_MEMORY;
    case Errc::io:
      break;
  }
  return PADND_INTERNAL;
}

/// Sets the calling thread's message; if even that cannot allocate, a fixed one says so (no
/// exception may leave a C function).
void set_last_error(const char* text, const char* detail = "") noexcept {
  try {
    g_last_error.assign(text).append(detail);
    g_lost_message = nullptr;
  } catch (...) {
    g_lost_message = "padnd ran out of memory while storing an error message";
  }
}

/// Runs `body`; every exception becomes a status and the calling thread's message.
template <class Body>
padnd_status guarded(const Body& body) noexcept {
  try {
    body();
    return PADND_OK;
  } catch (const Error& e) {
    set_last_error(e.what());
    return status_of(e.code());
  } catch (const std::bad_alloc&) {
    set_last_error("padnd ran out of memory (std::bad_alloc)");
    return PADND_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error("padnd: unexpected failure: ", e.what());
  } catch (...) {
    set_last_error("padnd: unexpected failure");
  }
  return PADND_INTERNAL;
}

using padnd::c_api::require;
using padnd::c_api::Texts;

/// copy(), a copy of the caller's `bytes` bytes of `argument`; an allocation that fails (a
/// count no caller holds, most likely) is an out_of_memory error naming them, not an internal one.
template <class Copy>
auto copy_of(const Copy& copy, std::int64_t bytes, const std::string& argument) {
  try {
    return copy();
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  throw Error(Errc::out_of_memory,
              argument + ": cannot allocate " + std::to_string(bytes) + " bytes to copy it");
}

/// Bytes of `count` values of `item_bytes` each, named `argument` where they overflow.
std::int64_t values_bytes(std::int64_t count, std::int64_t item_bytes, const char* argument) {
  const std::optional<std::int64_t> bytes = padnd::detail::checked_mul(count, item_bytes);
  if (!bytes) {
    throw Error(Errc::overflow, std::string(argument) + ": count " + std::to_string(count) +
                                    " of " + std::to_string(item_bytes) +
                                    "-byte values overflows int64 bytes");
  }
  return *bytes;
}

/// `count` values at `values` (which may be null only when count is 0).
std::vector<std::int64_t> ints(const std::int64_t* values, std::int64_t count,
                               const char* argument) {
  if (count < 0) {
    throw Error(Errc::invalid_argument,
                std::string(argument) + ": negative count " + std::to_string(count));
  }
  if (count == 0) return {};
  require(values, argument);
  const std::int64_t bytes =
      values_bytes(count, static_cast<std::int64_t>(sizeof(std::int64_t)), argument);
  return copy_of([&] { return std::vector<std::int64_t>(values, values + count); }, bytes,
                 argument);
}

/// `count` bytes at `data` (null only when count is 0).
std::string bytes_of(const void* data, std::int64_t count, const std::string& argument) {
  if (count < 0) {
    throw Error(Errc::invalid_argument, argument + ": negative length " + std::to_string(count));
  }
  if (count == 0) return {};
  require(data, argument.c_str());
  return copy_of(
      [&] { return std::string(static_cast<const char*>(data), static_cast<std::size_t>(count)); },
      count, argument);
}

constexpr auto kStringBytes = static_cast<std::int64_t>(sizeof(padnd_string));

bool is_string(const padnd::ElementType& type) { return type.dtype == padnd::DType::string; }

/// The type a plan moves: a string tensor's padnd_string elements are opaque bytes.
padnd::ElementType planned_type(const padnd::ElementType& type) {
  return is_string(type) ? padnd::ElementType::opaque(kStringBytes) : type;
}

/// One element's value as the spec adapters take it: its bytes, or for a string (one
/// padnd_string, `bytes` its size; 0 bytes: the default, the empty string) its text.
std::string element_value(const void* value, std::int64_t bytes, const padnd::ElementType& type,
                          const std::string& argument) {
  if (!is_string(type) || bytes == 0) return bytes_of(value, bytes, argument);
  if (bytes != kStringBytes) {
    throw Error(Errc::invalid_argument, argument + ": a string value is one padnd_string (" +
                                            std::to_string(kStringBytes) + " bytes); got " +
                                            std::to_string(bytes) + " bytes");
  }
  require(value, argument.c_str());
  padnd_string text;
  std::memcpy(&text, value, sizeof text);
  if (text.length < 0) {
    throw Error(Errc::invalid_argument,
                argument + ".length: negative length " + std::to_string(text.length));
  }
  return bytes_of(text.data, text.length, argument + ".data");
}

/// Whole padnd_string elements: every byte stride a multiple of sizeof(padnd_string).
void check_string_strides(const std::vector<std::int64_t>& strides, const char* argument) {
  for (std::size_t k = 0; k < strides.size(); ++k) {
    if (strides[k] % kStringBytes != 0) {
      throw Error(Errc::invalid_argument, std::string(argument) + ": axis " + std::to_string(k) +
                                              ": byte stride " + std::to_string(strides[k]) +
                                              " is not a multiple of sizeof(padnd_string) (" +
                                              std::to_string(kStringBytes) + ")");
    }
  }
}

/// The value count of `pairs` (before, after) pairs.
std::int64_t pair_count(std::int64_t pairs, const char* argument) {
  if (pairs < 0 || pairs > INT64_MAX / 2) {
    throw Error(Errc::invalid_argument,
                std::string(argument) + ": bad pair count " + std::to_string(pairs));
  }
  return 2 * pairs;
}

padnd::ElementType element_type(const padnd_type& t) {
  if (t.dtype < 0 || t.dtype > PADND_OPAQUE) {
    throw Error(Errc::unsupported_type, "type: unknown padnd_dtype " + std::to_string(t.dtype));
  }
  if (t.dtype == PADND_OPAQUE) return padnd::ElementType::opaque(t.opaque_bytes);
  return static_cast<padnd::DType>(t.dtype);
}

struct Input {
  padnd::ElementType type;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> byte_strides;
};

Input input_of(const padnd_tensor* t) {
  require(t, "input");
  Input in{element_type(t->type), ints(t->shape, t->rank, "input.shape"), {}};
  if (t->byte_strides != nullptr) in.byte_strides = ints(t->byte_strides, t->rank, "strides");
  if (is_string(in.type)) check_string_strides(in.byte_strides, "strides");
  return in;
}

/// An enum field's value, checked against its last value.
template <class E>
E enum_value(std::int32_t value, std::int32_t last, const char* argument) {
  if (value < 0 || value > last) {
    throw Error(Errc::invalid_argument,
                std::string(argument) + ": unknown value " + std::to_string(value));
  }
  return static_cast<E>(value);
}

/// padnd_infer_shape has no element type: its spec's value is read as plain bytes.
constexpr padnd::ElementType kUntyped{padnd::DType::opaque};

/// The canonical request `s` on elements of `type` (its value: element_value).
padnd::PadSpec spec_of(const padnd_pad_spec* s, const padnd::ElementType& type) {
  require(s, "spec");
  const std::vector<std::int64_t> begin = ints(s->begin, s->rank, "spec.begin");
  const std::vector<std::int64_t> end = ints(s->end, s->rank, "spec.end");
  const std::vector<std::int64_t> interior = s->interior != nullptr
                                                 ? ints(s->interior, s->rank, "spec.interior")
                                                 : std::vector<std::int64_t>(begin.size(), 0);
  padnd::PadSpec spec;
  for (std::size_t k = 0; k < begin.size(); ++k)
    spec.axes.push_back({begin[k], end[k], interior[k]});
  spec.mode = enum_value<padnd::Mode>(s->mode, PADND_WRAP, "spec.mode");
  spec.negative_order = enum_value<padnd::NegativeOrder>(s->negative_order, PADND_CROP_THEN_PAD,
                                                         "spec.negative_order");
  spec.negative_size = enum_value<padnd::NegativeSize>(
      s->negative_size, PADND_NEGATIVE_SIZE_CLAMP_TO_ZERO, "spec.negative_size");
  spec.value = element_value(s->value, s->value_bytes, type, "spec.value");
  return spec;
}

/// `value` as a scalar ValueTensor of `type`, or nullopt when it is absent (null).
std::optional<padnd::ValueTensor> value_tensor(const void* value, std::int64_t bytes,
                                               const padnd::ElementType& type,
                                               const char* argument) {
  if (value == nullptr) return std::nullopt;
  std::string element = element_value(value, bytes, type, argument);
  if (!is_string(type)) padnd::detail::check_value(type, element, argument);
  return padnd::ValueTensor::scalar(type, std::move(element));
}

padnd::onnx::PadNode onnx_node(const padnd_onnx_pad* n, const padnd::ElementType& type) {
  require(n, "node");
  padnd::onnx::PadNode node;
  node.opset = n->opset;
  node.input_count = n->input_count;
  const int version = padnd::onnx::pad_version(n->opset);  // rejects unknown opsets
  if (n->mode != nullptr) node.mode = std::string(n->mode);
  if (n->pads != nullptr || n->pads_count != 0) {
    std::vector<std::int64_t> pads = ints(n->pads, n->pads_count, "node.pads");
    if (version == 1) node.paddings = std::move(pads);
    if (version == 2) node.pads_attr = std::move(pads);
    if (version >= 11) node.pads = padnd::IntTensor::vector(std::move(pads));
  }
  node.constant_value =
      value_tensor(n->constant_value, n->constant_value_bytes, type, "node.constant_value");
  if (n->value != nullptr) node.value = *n->value;
  if (n->axes != nullptr || n->axes_count != 0) {
    node.axes = padnd::IntTensor::vector(ints(n->axes, n->axes_count, "node.axes"));
  }
  return node;
}

/// A required mode name.
std::string text_of(const char* text, const char* argument) {
  require(text, argument);
  return text;
}

padnd::openvino::PadOp openvino_op(const padnd_openvino_pad* o, const padnd::ElementType& type) {
  require(o, "op");
  padnd::openvino::PadOp op;
  op.version = o->version;
  op.pad_mode = text_of(o->pad_mode, "op.pad_mode");
  op.pads_begin =
      padnd::IntTensor::vector(ints(o->pads_begin, o->pads_begin_count, "op.pads_begin"));
  op.pads_end = padnd::IntTensor::vector(ints(o->pads_end, o->pads_end_count, "op.pads_end"));
  op.pad_value = value_tensor(o->pad_value, o->pad_value_bytes, type, "op.pad_value");
  op.allow_negative_pads_v1 = o->allow_negative_pads_v1 != 0;
  return op;
}

padnd::PadSpec ngraph_spec(const padnd_ngraph_pad* o, const Input& in) {
  require(o, "op");
  const std::string mode = text_of(o->pad_mode, "op.pad_mode");
  std::vector<std::int64_t> begin = ints(o->pads_begin, o->pads_begin_count, "op.pads_begin");
  std::vector<std::int64_t> end = ints(o->pads_end, o->pads_end_count, "op.pads_end");
  std::optional<padnd::ValueTensor> value =
      value_tensor(o->pad_value, o->pad_value_bytes, in.type, "op.pad_value");
  if (o->version == 0) {
    padnd::ngraph::PadV0 op;
    require(o->pad_value, "op.pad_value");  // v0's arg_pad_value is a required input
    op.arg_pad_value = std::move(*value);
    op.padding_below = std::move(begin);
    op.padding_above = std::move(end);
    if (o->interior != nullptr || o->interior_count != 0) {
      op.padding_interior = ints(o->interior, o->interior_count, "op.interior");
    }
    op.pad_mode = mode;
    return padnd::ngraph::to_canonical(op, in.type, in.shape);
  }
  if (o->version != 1) {
    throw Error(Errc::invalid_argument,
                "op.version: nGraph Pad has versions 0 and 1, got " + std::to_string(o->version));
  }
  if (o->interior != nullptr || o->interior_count != 0) {
    throw Error(Errc::invalid_argument, "op.interior: nGraph Pad v1 has no interior padding (got " +
                                            std::to_string(o->interior_count) + " values)");
  }
  padnd::ngraph::PadV1 op;
  op.pads_begin = padnd::IntTensor::vector(std::move(begin));
  op.pads_end = padnd::IntTensor::vector(std::move(end));
  op.arg_pad_value = std::move(value);
  op.pad_mode = mode;
  return padnd::ngraph::to_canonical(op, in.type, in.shape);
}

/// `pairs` (before, after) pairs of elements of `type` at `data` (strings: padnd_string), each
/// read by element_value.
padnd::numpy::ValuePairs value_pairs(const void* data, std::int64_t pairs,
                                     const padnd::ElementType& type, const char* argument) {
  const std::int64_t count = pair_count(pairs, argument);
  const std::int64_t item = padnd::storage_bytes(planned_type(type), 1);
  const std::string bytes = bytes_of(data, values_bytes(count, item, argument), argument);
  const auto element = [&](std::int64_t i) {
    return element_value(bytes.data() + i * item, item, type,
                         std::string(argument) + "[" + std::to_string(i) + "]");
  };
  padnd::numpy::ValuePairs out;
  for (std::int64_t i = 0; i < count; i += 2) out.emplace_back(element(i), element(i + 1));
  return out;
}

padnd::numpy::PadArgs numpy_args(const padnd_numpy_pad* a, const padnd::ElementType& type) {
  require(a, "args");
  padnd::numpy::PadArgs args;
  const std::vector<std::int64_t> widths =
      ints(a->pad_width, pair_count(a->pad_width_pairs, "args.pad_width"), "args.pad_width");
  for (std::size_t i = 0; i < widths.size(); i += 2)
    args.pad_width.emplace_back(widths[i], widths[i + 1]);
  if (a->mode_count != 0) {
    if (a->mode_count < 0) {
      throw Error(Errc::invalid_argument,
                  "args.modes: negative count " + std::to_string(a->mode_count));
    }
    require(a->modes, "args.modes");
    args.modes.clear();
    for (std::int64_t i = 0; i < a->mode_count; ++i)
      args.modes.push_back(text_of(a->modes[i], "args.modes"));
  }
  if (a->ramp_type.dtype != 0) args.ramp_type = element_type(a->ramp_type);
  args.constant_values =
      value_pairs(a->constant_values, a->constant_values_pairs, type, "args.constant_values");
  args.end_values =
      value_pairs(a->end_values, a->end_values_pairs, args.ramp_type, "args.end_values");
  const std::vector<std::int64_t> stats = ints(
      a->stat_length, pair_count(a->stat_length_pairs, "args.stat_length"), "args.stat_length");
  const auto stat = [](std::int64_t v) { return v == -1 ? std::nullopt : std::optional(v); };
  for (std::size_t i = 0; i < stats.size(); i += 2)
    args.stat_length.emplace_back(stat(stats[i]), stat(stats[i + 1]));
  if (a->reflect_type != nullptr) args.reflect_type = a->reflect_type;
  if (a->negative != -1) {
    args.negative =
        enum_value<padnd::NegativeOrder>(a->negative, PADND_CROP_THEN_PAD, "args.negative");
  }
  if (a->interior != nullptr || a->interior_count != 0) {
    args.interior = ints(a->interior, a->interior_count, "args.interior");
  }
  return args;
}

padnd::ExecOptions options_of(const padnd_exec_options* o) {
  padnd::ExecOptions options;
  if (o == nullptr) return options;
  options.threads = o->threads;
  options.parallel_for = o->parallel_for;  // the same C function type as padnd_parallel_for_fn
  options.pool = o->pool;
  return options;
}

/// A string value's padnd_string (its text copied into `texts`), as bytes of the opaque
/// element a string plan moves. `explicit_empty`: "" is {NULL, 0} too, not "the default".
std::string padnd_string_bytes(const std::string& text, bool explicit_empty, Texts& texts) {
  if (text.empty() && !explicit_empty) return {};  // zero bits: {NULL, 0}
  padnd_string s;
  std::memset(&s, 0, sizeof s);  // padding bytes too: the planner compares values bytewise
  if (!text.empty()) {
    auto [copy, fresh] = texts.try_emplace(text);
    if (fresh) {
      copy->second = std::make_unique_for_overwrite<char[]>(text.size());
      std::memcpy(copy->second.get(), text.data(), text.size());
    }
    s.data = copy->second.get();
    s.length = static_cast<std::int64_t>(text.size());
  }
  return {reinterpret_cast<const char*>(&s), sizeof s};
}

/// Strings are only copied: a mode of numpy's that computes values is an error naming it.
void require_copying(padnd::Mode mode, bool odd, std::size_t axis) {
  if (padnd::computes_values(mode) || odd) {
    throw Error(Errc::unsupported_type,
                "mode: axis " + std::to_string(axis) + ": " + std::string(padnd::mode_name(mode)) +
                    (odd ? " with reflect_type 'odd'" : "") +
                    " computes values, which needs a numeric element type; got string");
  }
}

/// A string tensor's request, validated with the string type, as a request on its padnd_string
/// elements: no mode may compute values, and each pad value points at a copy `texts` owns.
void to_padnd_strings(padnd::PadSpec& spec, Texts& texts) {
  require_copying(spec.mode, false, 0);
  spec.value = padnd_string_bytes(spec.value, false, texts);
  for (std::size_t k = 0; k < spec.axis_modes.size(); ++k) {
    padnd::AxisMode& m = spec.axis_modes[k];
    require_copying(m.mode, m.odd, k);
    if (m.mode != padnd::Mode::constant) continue;
    m.begin_value = padnd_string_bytes(m.begin_value, true, texts);  // numpy's "" is ""
    m.end_value = padnd_string_bytes(m.end_value, true, texts);
  }
}

/// Bytes [first, last) of a buffer.
struct ByteRange {
  std::uintptr_t first = 0;
  std::uintptr_t last = 0;
};

/// The bytes that `shape` elements of `item_bytes` at `base` span, axis k stepping
/// byte_strides[k]; nullopt where a length is negative or the extent overflows (the call
/// refuses those itself). An empty tensor spans none.
std::optional<ByteRange> byte_range(const void* base, std::span<const std::int64_t> shape,
                                    std::span<const std::int64_t> byte_strides,
                                    std::int64_t item_bytes) {
  const auto first = reinterpret_cast<std::uintptr_t>(base);
  if (std::any_of(shape.begin(), shape.end(), [](std::int64_t n) { return n < 0; })) return {};
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return ByteRange{first, first};
  if (padnd::detail::strided_extent_overflow(shape, byte_strides, item_bytes)) return {};
  std::int64_t low = 0, high = item_bytes;  // the extent fits: so do these
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t reach = (shape[k] - 1) * byte_strides[k];
    (reach < 0 ? low : high) += reach;
  }
  return ByteRange{first - static_cast<std::uintptr_t>(-low),
                   first + static_cast<std::uintptr_t>(high)};
}

/// `bytes` dense bytes at `base`.
std::optional<ByteRange> dense_range(const void* base, std::int64_t bytes) {
  const std::int64_t length[1] = {std::max<std::int64_t>(bytes, 0)}, step[1] = {1};
  return byte_range(base, length, step, 1);
}

/// Refuses an output range `out` (null: not known, the call checks its arguments) that
/// overlaps the bytes `plan`'s input spans at `in`: padnd reads the input while it writes.
void check_no_overlap(const padnd::Plan& plan, const void* in, std::optional<ByteRange> out) {
  const padnd::ElementType& type = plan.type();
  const std::optional<ByteRange> input =
      type.packed() ? dense_range(in, padnd::storage_bytes(
                                          type, padnd::detail::PlanAccess::input_elements(plan)))
                    : byte_range(in, plan.input_shape(),
                                 padnd::detail::PlanAccess::in_strides(plan), type.item_bytes());
  if (!input || !out || input->first == input->last || out->first == out->last ||
      out->last <= input->first || input->last <= out->first) {
    return;
  }
  throw Error(Errc::invalid_argument,
              "out: bytes [" + std::to_string(out->first) + ", " + std::to_string(out->last) +
                  ") overlap the input's bytes [" + std::to_string(input->first) + ", " +
                  std::to_string(input->last) +
                  ") (in); padnd reads the input while it writes: pass separate buffers");
}

/// Reads a window's C arguments for `plan` and calls `write(window, out, out_bytes)` (dense,
/// `out_byte_strides` NULL) or `write(window, out, strides)`.
void write_window(const padnd_plan& plan, const void* in, const int64_t* start,
                  const int64_t* shape, void* out, const int64_t* out_byte_strides,
                  int64_t out_bytes, const auto& write) {
  const auto rank = static_cast<std::int64_t>(plan.plan.output_shape().size());
  const padnd::Window window{ints(start, rank, "start"), ints(shape, rank, "shape")};
  if (out_byte_strides == nullptr) {
    check_no_overlap(plan.plan, in, dense_range(out, out_bytes));
    write(window, out, out_bytes);
    return;
  }
  const std::vector<std::int64_t> strides = ints(out_byte_strides, rank, "out_byte_strides");
  if (plan.strings) check_string_strides(strides, "out_byte_strides");
  check_no_overlap(plan.plan, in,
                   byte_range(out, window.shape, strides, plan.plan.type().item_bytes()));
  write(window, out, std::span<const std::int64_t>(strides));
}

/// Plans the request `spec_for(input)` translates the caller's arguments into, for `input`;
/// *plan_out is NULL unless it succeeds.
padnd_status plan_for(const padnd_tensor* input, padnd_plan** plan_out, const auto& spec_for) {
  if (plan_out != nullptr) *plan_out = nullptr;
  return guarded([&] {
    require(plan_out, "plan_out");
    const Input in = input_of(input);
    padnd::PadSpec spec = spec_for(in);
    auto plan = std::make_unique<padnd_plan>();
    plan->strings = is_string(in.type);
    if (plan->strings) to_padnd_strings(spec, plan->texts);
    plan->plan = padnd::make_plan(planned_type(in.type), in.shape, in.byte_strides, spec);
    *plan_out = plan.release();
  });
}

}  // namespace

extern "C" {

const char* padnd_version(void) { return PADND_VERSION_STRING; }

const char* padnd_last_error(void) {
  return g_lost_message != nullptr ? g_lost_message : g_last_error.c_str();
}

padnd_status padnd_plan_create(const padnd_tensor* input, const padnd_pad_spec* spec,
                               padnd_plan** plan_out) {
  return plan_for(input, plan_out, [&](const Input& in) { return spec_of(spec, in.type); });
}

padnd_status padnd_plan_create_onnx(const padnd_tensor* input, const padnd_onnx_pad* node,
                                    padnd_plan** plan_out) {
  return plan_for(input, plan_out, [&](const Input& in) {
    return padnd::onnx::to_canonical(onnx_node(node, in.type), in.type, in.shape);
  });
}

padnd_status padnd_plan_create_openvino(const padnd_tensor* input, const padnd_openvino_pad* op,
                                        padnd_plan** plan_out) {
  return plan_for(input, plan_out, [&](const Input& in) {
    return padnd::openvino::to_canonical(openvino_op(op, in.type), in.type, in.shape);
  });
}

padnd_status padnd_plan_create_ngraph(const padnd_tensor* input, const padnd_ngraph_pad* op,
                                      padnd_plan** plan_out) {
  return plan_for(input, plan_out, [&](const Input& in) { return ngraph_spec(op, in); });
}

padnd_status padnd_plan_create_numpy(const padnd_tensor* input, const padnd_numpy_pad* args,
                                     padnd_plan** plan_out) {
  return plan_for(input, plan_out, [&](const Input& in) {
    return padnd::numpy::to_canonical(numpy_args(args, in.type), in.shape);
  });
}

padnd_status padnd_tensor_from_dlpack(const void* dltensor, padnd_tensor* tensor_out,
                                      int64_t* byte_strides_out, int32_t byte_strides_capacity) {
  return guarded([&] {
    padnd::c_api::tensor_from_dlpack(dltensor, tensor_out, byte_strides_out, byte_strides_capacity);
  });
}

void padnd_plan_destroy(padnd_plan* plan) { delete plan; }

padnd_status padnd_plan_output(const padnd_plan* plan, int32_t* rank_out, int64_t* shape_out,
                               int32_t shape_capacity, int64_t* bytes_out) {
  return guarded([&] {
    require(plan, "plan");
    const auto shape = plan->plan.output_shape();
    const auto rank = static_cast<std::int32_t>(shape.size());
    if (shape_out != nullptr && shape_capacity < rank) {
      throw Error(Errc::shape_mismatch, "shape_out: room for " + std::to_string(shape_capacity) +
                                            " lengths, the output has " + std::to_string(rank));
    }
    if (rank_out != nullptr) *rank_out = rank;
    if (shape_out != nullptr) std::copy(shape.begin(), shape.end(), shape_out);
    if (bytes_out != nullptr) *bytes_out = plan->plan.output_bytes();
  });
}

padnd_status padnd_infer_shape(int32_t rank, const int64_t* shape, const padnd_pad_spec* spec,
                               int64_t* shape_out) {
  return guarded([&] {
    const std::vector<std::int64_t> out =
        padnd::infer_shape(ints(shape, rank, "shape"), spec_of(spec, kUntyped));
    if (!out.empty()) require(shape_out, "shape_out");
    std::copy(out.begin(), out.end(), shape_out);
  });
}

padnd_status padnd_execute(const padnd_plan* plan, const void* in, void* out, int64_t out_bytes,
                           const padnd_exec_options* options) {
  return guarded([&] {
    require(plan, "plan");
    check_no_overlap(plan->plan, in, dense_range(out, plan->plan.output_bytes()));
    padnd::execute(plan->plan, in, out, out_bytes, options_of(options));
  });
}

padnd_status padnd_execute_window(const padnd_plan* plan, const void* in, const int64_t* start,
                                  const int64_t* shape, void* out, const int64_t* out_byte_strides,
                                  int64_t out_bytes, const padnd_exec_options* options) {
  return guarded([&] {
    require(plan, "plan");
    write_window(*plan, in, start, shape, out, out_byte_strides, out_bytes,
                 [&](const auto&... args) {
                   padnd::execute_window(plan->plan, in, args..., options_of(options));
                 });
  });
}

padnd_status padnd_cuda_execute(const padnd_plan* plan, const void* in, void* out,
                                int64_t out_bytes, void* stream) {
  return guarded([&] {
    require(plan, "plan");
    check_no_overlap(plan->plan, in, dense_range(out, plan->plan.output_bytes()));
    padnd::cuda::execute(plan->plan, in, out, out_bytes, stream);
  });
}

padnd_status padnd_cuda_execute_window(const padnd_plan* plan, const void* in, const int64_t* start,
                                       const int64_t* shape, void* out,
                                       const int64_t* out_byte_strides, int64_t out_bytes,
                                       void* stream) {
  return guarded([&] {
    require(plan, "plan");
    write_window(
        *plan, in, start, shape, out, out_byte_strides, out_bytes,
        [&](const auto&... args) { padnd::cuda::execute_window(plan->plan, in, args..., stream); });
  });
}

int padnd_cuda_available(void) { return padnd::cuda::available() ? 1 : 0; }

padnd_status padnd_prepare_windows(const padnd_plan* plan, const void* in,
                                   const padnd_exec_options* options,
                                   padnd_prepared** prepared_out) {
  if (prepared_out != nullptr) *prepared_out = nullptr;
  return guarded([&] {
    require(prepared_out, "prepared_out");
    require(plan, "plan");
    *prepared_out =
        new padnd_prepared{plan, in, padnd::PreparedWindows(plan->plan, in, options_of(options))};
  });
}

padnd_status padnd_prepared_execute_window(const padnd_prepared* prepared, const int64_t* start,
                                           const int64_t* shape, void* out,
                                           const int64_t* out_byte_strides, int64_t out_bytes) {
  return guarded([&] {
    require(prepared, "prepared");
    write_window(*prepared->plan, prepared->in, start, shape, out, out_byte_strides, out_bytes,
                 [&](const auto&... args) { prepared->windows.execute_window(args...); });
  });
}

padnd_status padnd_prepared_bytes(const padnd_prepared* prepared, int64_t* bytes_out) {
  return guarded([&] {
    require(prepared, "prepared");
    require(bytes_out, "bytes_out");
    *bytes_out = prepared->windows.prepared_bytes();
  });
}

void padnd_prepared_destroy(padnd_prepared* prepared) { delete prepared; }

}  // extern "C"
