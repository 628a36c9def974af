// SPDX-License-Identifier: Apache-2.0
// padnd.jax.pad inside jax.jit: the XLA FFI handler "padnd_pad" (CPU). XLA hands it the input
// and output buffers (dense, row-major) and one attribute, "request": numpy.pad's arguments as
// the numpy adapter takes them (numpy::PadArgs), normalised by padnd._numpy_pad at trace time
// and serialised by xla_ffi_request below, which also plans the request once so that every
// error (pad widths, modes, element types) is raised while tracing, not while running. The
// handler decodes the request, takes the plan from the thread's plan cache (plan_cache.hpp)
// and executes it; leading axes beyond the request's shape are a batch (vmap).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "numpy_args.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/padnd.hpp"
#include "plan_cache.hpp"
#include "xla/ffi/api/ffi.h"

namespace nb = nanobind;
namespace ffi = xla::ffi;

namespace padnd::python {
namespace {

using Ints = std::vector<std::int64_t>;

/// Bumped whenever the encoding changes, so that a request written with another encoding (a
/// program compiled or exported by another padnd build) is refused instead of misread.
constexpr std::int64_t kRequestVersion = 1;

/// A decoded "request" attribute: the plan cache's key, and the thread count to execute with.
struct XlaRequest {
  PadRequest request;
  int threads = 0;
};

/// The request's bytes: int64 values and length-prefixed strings, in native byte order (every
/// platform jaxlib ships for is little-endian).
class Writer {
 public:
  void i64(std::int64_t v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void text(std::string_view s) {
    i64(static_cast<std::int64_t>(s.size()));
    bytes_.append(s);
  }
  [[nodiscard]] const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads what Writer wrote; any read past the end (a malformed attribute) clears ok().
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::int64_t i64() {
    std::int64_t v = 0;
    if (!take(sizeof v)) return 0;
    std::memcpy(&v, bytes_.data() + pos_ - sizeof v, sizeof v);
    return v;
  }
  std::string text() {
    const std::int64_t n = i64();
    if (n < 0 || !take(static_cast<std::size_t>(n))) return {};
    return {reinterpret_cast<const char*>(bytes_.data() + pos_ - n), static_cast<std::size_t>(n)};
  }
  /// A count of entries of at least `entry_bytes` each (bounded by the bytes left).
  std::size_t count(std::size_t entry_bytes) {
    const std::int64_t n = i64();
    if (n < 0 || static_cast<std::uint64_t>(n) > (bytes_.size() - pos_) / entry_bytes) ok_ = false;
    return ok_ ? static_cast<std::size_t>(n) : 0;
  }
  [[nodiscard]] bool done() const { return ok_ && pos_ == bytes_.size(); }

 private:
  bool take(std::size_t n) {
    if (!ok_ || n > bytes_.size() - pos_) ok_ = false;
    if (ok_) pos_ += n;
    return ok_;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

void write_ints(Writer& w, const Ints& values) {
  w.i64(static_cast<std::int64_t>(values.size()));
  for (std::int64_t v : values) w.i64(v);
}

Ints read_ints(Reader& r) {
  Ints values(r.count(8));
  for (std::int64_t& v : values) v = r.i64();
  return values;
}

void write_value_pairs(Writer& w, const numpy::ValuePairs& pairs) {
  w.i64(static_cast<std::int64_t>(pairs.size()));
  for (const auto& [before, after] : pairs) {
    w.text(before);
    w.text(after);
  }
}

numpy::ValuePairs read_value_pairs(Reader& r) {
  numpy::ValuePairs pairs(r.count(16));
  for (auto& [before, after] : pairs) {
    before = r.text();
    after = r.text();
  }
  return pairs;
}

/// Encodes the negative order: 0 none, 1 map_on_original, 2 crop_then_pad.
std::int64_t negative_code(const std::optional<NegativeOrder>& order) {
  if (!order) return 0;
  return *order == NegativeOrder::map_on_original ? 1 : 2;
}

std::string encode(const XlaRequest& x) {
  const numpy::PadArgs& a = x.request.args;
  Writer w;
  w.i64(kRequestVersion);
  w.text(x.request.type.name());
  w.i64(x.threads);
  write_ints(w, x.request.shape);
  w.i64(static_cast<std::int64_t>(a.pad_width.size()));
  for (const auto& [before, after] : a.pad_width) {
    w.i64(before);
    w.i64(after);
  }
  w.i64(static_cast<std::int64_t>(a.modes.size()));
  for (const std::string& mode : a.modes) w.text(mode);
  write_value_pairs(w, a.constant_values);
  write_value_pairs(w, a.end_values);
  w.text(a.ramp_type.name());
  w.i64(static_cast<std::int64_t>(a.stat_length.size()));
  for (const auto& [before, after] : a.stat_length) {
    for (const std::optional<std::int64_t>& side : {before, after}) {
      w.i64(side.has_value() ? 1 : 0);
      w.i64(side.value_or(0));
    }
  }
  w.text(a.reflect_type);
  w.i64(negative_code(a.negative));
  write_ints(w, a.interior);
  return w.bytes();
}

std::optional<std::int64_t> read_optional(Reader& r) {
  const std::int64_t present = r.i64();
  const std::int64_t value = r.i64();
  return present != 0 ? std::optional(value) : std::nullopt;
}

/// The element type named in a request; false for a name this build does not know.
bool read_type(Reader& r, ElementType& type) {
  const std::optional<ElementType> parsed = parse_element_type(r.text());
  if (parsed) type = *parsed;
  return parsed.has_value();
}

/// Decodes `bytes` (from encode); false when they are not a request of this version.
bool decode(std::span<const std::uint8_t> bytes, XlaRequest& x) {
  numpy::PadArgs& a = x.request.args;
  Reader r(bytes);
  if (r.i64() != kRequestVersion || !read_type(r, x.request.type)) return false;
  x.threads = static_cast<int>(r.i64());
  x.request.shape = read_ints(r);
  a.pad_width.resize(r.count(16));
  for (auto& [before, after] : a.pad_width) {
    before = r.i64();
    after = r.i64();
  }
  a.modes.resize(r.count(8));
  for (std::string& mode : a.modes) mode = r.text();
  a.constant_values = read_value_pairs(r);
  a.end_values = read_value_pairs(r);
  if (!read_type(r, a.ramp_type)) return false;
  a.stat_length.resize(r.count(32));
  for (auto& [before, after] : a.stat_length) {
    before = read_optional(r);
    after = read_optional(r);
  }
  a.reflect_type = r.text();
  const std::int64_t negative = r.i64();
  a.negative.reset();
  if (negative != 0) {
    a.negative = negative == 1 ? NegativeOrder::map_on_original : NegativeOrder::crop_then_pad;
  }
  a.interior = read_ints(r);
  return r.done();
}

/// The plan of `request`: from the thread's cache, or made by the numpy adapter and the planner.
std::shared_ptr<const Plan> plan_for(const PadRequest& request) {
  PlanCache& cache = thread_plan_cache();
  if (std::shared_ptr<const Plan> plan = cache.find(request)) return plan;
  const PadSpec spec = numpy::to_canonical(request.args, request.shape);
  return cache.add(request, make_plan(request.type, request.shape, request.byte_strides, spec));
}

/// How many pads a buffer of `dims` holds: its trailing axes must be the request's `shape`;
/// the leading ones (vmap's batch axes) multiply. nullopt when the trailing axes differ.
std::optional<std::int64_t> batch_count(ffi::Span<const std::int64_t> dims, const Ints& shape) {
  if (dims.size() < shape.size()) return std::nullopt;
  const std::size_t lead = dims.size() - shape.size();
  for (std::size_t k = lead; k < dims.size(); ++k) {
    if (dims[k] != shape[k - lead]) return std::nullopt;
  }
  return element_count(std::span<const std::int64_t>(dims.begin(), lead));  // checked
}

std::string dims_text(std::span<const std::int64_t> dims) {
  std::string s = "(";
  for (std::size_t k = 0; k < dims.size(); ++k) s += (k ? ", " : "") + std::to_string(dims[k]);
  return s + ")";
}

/// Pads each of the batch's inputs into its place in `out`, after checking that XLA's buffers
/// are what the request describes (shape, and bytes per element: XLA's type against padnd's).
ffi::Error pad_buffers(const XlaRequest& x, ffi::AnyBuffer in, ffi::AnyBuffer out) {
  const std::shared_ptr<const Plan> plan = plan_for(x.request);
  const std::optional<std::int64_t> in_batch = batch_count(in.dimensions(), x.request.shape);
  const std::optional<std::int64_t> out_batch =
      batch_count(out.dimensions(), Ints(plan->output_shape().begin(), plan->output_shape().end()));
  if (!in_batch || !out_batch || *in_batch != *out_batch) {
    return ffi::Error::InvalidArgument("padnd_pad: buffers " + dims_text(in.dimensions()) + " -> " +
                                       dims_text(out.dimensions()) + " do not match the request " +
                                       dims_text(x.request.shape) + " -> " +
                                       dims_text(plan->output_shape()));
  }
  // padnd's checked size arithmetic: a forged request or buffer cannot overflow it.
  const std::int64_t in_bytes = storage_bytes(x.request.type, element_count(x.request.shape));
  const std::int64_t out_bytes = plan->output_bytes();
  const auto batch_bytes = [](std::int64_t batch, std::int64_t bytes) {
    const std::int64_t factors[] = {batch, bytes};
    return element_count(factors);
  };
  if (static_cast<std::int64_t>(in.size_bytes()) != batch_bytes(*in_batch, in_bytes) ||
      static_cast<std::int64_t>(out.size_bytes()) != batch_bytes(*out_batch, out_bytes)) {
    const std::string type = x.request.type.name();
    return ffi::Error::InvalidArgument("padnd_pad: XLA's element type is not " + type + "'s size");
  }
  if (out_bytes == 0) return ffi::Error::Success();
  ExecOptions options;
  options.threads = x.threads;
  const auto* src = static_cast<const std::byte*>(in.untyped_data());
  auto* dst = static_cast<std::byte*>(out.untyped_data());
  for (std::int64_t b = 0; b < *in_batch; ++b) {
    execute(*plan, in_bytes != 0 ? src + b * in_bytes : nullptr, dst + b * out_bytes, out_bytes,
            options);
  }
  return ffi::Error::Success();
}

ffi::Error pad_handler(ffi::AnyBuffer in, ffi::Result<ffi::AnyBuffer> out,
                       ffi::Span<const std::uint8_t> request) {
  // No exception may cross into XLA: padnd::Error, std::bad_alloc become its error message.
  try {
    XlaRequest x;
    if (!decode({request.begin(), request.end()}, x)) {
      return ffi::Error::InvalidArgument(
          "padnd_pad: the request attribute is not one this padnd build wrote (make it with "
          "padnd.jax.pad)");
    }
    return pad_buffers(x, in, *out);
  } catch (const std::exception& e) {
    return ffi::Error::Internal(std::string("padnd_pad: ") + e.what());
  }
}

XLA_FFI_DEFINE_HANDLER(pad_ffi, pad_handler,
                       ffi::Ffi::Bind()
                           .Arg<ffi::AnyBuffer>()
                           .Ret<ffi::AnyBuffer>()
                           .Attr<ffi::Span<const std::uint8_t>>("request"));

/// (the "request" attribute, the output shape) of a numpy.pad request on a dense input of
/// `shape` and `type_name` (padnd._numpy_pad's _Request, plus the thread count). Plans it, so
/// that everything the handler could refuse is refused now (padnd's errors: ValueError,
/// TypeError).
std::pair<nb::bytes, Ints> xla_ffi_request(
    const std::string& type_name, int threads,
    std::vector<std::pair<std::int64_t, std::int64_t>> pad_width, std::vector<std::string> modes,
    const BytePairs& constant_values, const BytePairs& end_values, const std::string& ramp_type,
    StatPairs stat_length, std::string reflect_type, const std::optional<std::string>& negative,
    Ints interior, Ints shape) {
  XlaRequest x;
  x.request.type = parse_type(type_name);
  x.request.shape = std::move(shape);
  x.threads = threads;
  x.request.args =
      numpy_args(std::move(pad_width), std::move(modes), constant_values, end_values, ramp_type,
                 std::move(stat_length), std::move(reflect_type), negative, std::move(interior));
  const numpy::PadArgs& a = x.request.args;
  const PadSpec spec = numpy::to_canonical(a, x.request.shape);
  const Plan plan = make_plan(x.request.type, x.request.shape, {}, spec);
  const std::string bytes = encode(x);
  return {nb::bytes(bytes.data(), bytes.size()),
          Ints(plan.output_shape().begin(), plan.output_shape().end())};
}

}  // namespace

void bind_xla_ffi(nb::module_& m) {
  m.def(
      "_xla_ffi_pad", [] { return nb::capsule(reinterpret_cast<void*>(pad_ffi)); },
      "The XLA FFI handler padnd.jax.pad registers as the CPU target 'padnd_pad' (a capsule).");
  m.def("_xla_ffi_request", &xla_ffi_request, nb::arg("type_name"), nb::arg("threads"),
        nb::arg("pad_width"), nb::arg("modes"), nb::arg("constant_values"), nb::arg("end_values"),
        nb::arg("ramp_type"), nb::arg("stat_length"), nb::arg("reflect_type"),
        nb::arg("negative").none(), nb::arg("interior"), nb::arg("shape"),
        "(the 'request' attribute of padnd_pad, the output shape) of numpy.pad's normalised "
        "arguments on a dense input; raises padnd's errors for a request it cannot run.");
}

}  // namespace padnd::python
