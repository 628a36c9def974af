// SPDX-License-Identifier: Apache-2.0
#include "fuzz_support.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "support/random_cases.hpp"
#include "support/reference.hpp"

namespace padnd::fuzz {
namespace {

constexpr std::int64_t kMaxElements = 4096;  // larger outputs are planned, not executed
constexpr std::int64_t kMaxReferencePad = std::int64_t{1} << 20;
constexpr unsigned char kCanary = 0xA5;
constexpr std::size_t kGuardBytes = 64;

[[noreturn]] void fail(const char* what, const std::string& request = "") {
  std::fprintf(stderr, "padnd fuzz: %s\n%s\n", what, request.c_str());
  std::abort();
}

std::string request_text(const ElementType& type, const std::vector<std::int64_t>& shape,
                         const PadSpec& spec) {
  std::string text = type.name() + " shape [";
  for (const std::int64_t len : shape) text += std::to_string(len) + " ";
  text += "] mode " + std::string(mode_name(spec.mode)) + " order " +
          std::to_string(static_cast<int>(spec.negative_order)) + " size " +
          std::to_string(static_cast<int>(spec.negative_size)) + " value bytes " +
          std::to_string(spec.value.size()) + " axis modes " +
          std::to_string(spec.axis_modes.size()) + "\n";
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    const AxisPad& p = spec.axes[k];
    text += "  " + std::to_string(p.begin) + " " + std::to_string(p.end) + " " +
            std::to_string(p.interior);
    if (!spec.axis_modes.empty()) {
      const AxisMode& m = spec.axis_modes[k];
      text += " " + std::string(mode_name(m.mode)) + (m.odd ? " odd" : "") + " stat " +
              std::to_string(m.begin_stat_elems) + " " + std::to_string(m.end_stat_elems);
    }
    text += "\n";
  }
  return text;
}

/// Whether `value` is a pad value of `type` (docs/spec.md §2.1): empty (the default), any text
/// for strings, one byte holding a code for packed types, exactly one element otherwise.
bool value_fits(const std::string& value, const ElementType& type) {
  if (value.empty() || type.storage() == Storage::string) return true;
  if (type.packed()) {
    return value.size() == 1 && static_cast<unsigned char>(value[0]) < (1U << type.bits());
  }
  return static_cast<std::int64_t>(value.size()) == type.item_bytes();
}

/// Whether an output of `shape` fits: numpy's rule on its element count (the lengths other
/// than 0 multiply within int64) and its bytes (docs/design.md, "Sizes"), exactly in 128 bits.
bool output_fits(const std::vector<std::int64_t>& shape, const ElementType& type) {
  constexpr __int128 kMax = std::numeric_limits<std::int64_t>::max();
  __int128 count = 1;
  bool empty = false;
  for (const std::int64_t len : shape) {
    empty = empty || len == 0;
    count *= std::max<std::int64_t>(len, 1);
    if (count > kMax) return false;
  }
  return empty || type.packed() || count * type.item_bytes() <= kMax;
}

/// One element of a dense tensor of `type` at flat index `i`, as bytes (packed: its code).
std::string element_at(const ElementType& type, const void* data, std::int64_t i) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  switch (type.storage()) {
    case Storage::string:
      return static_cast<const std::string*>(data)[i];
    case Storage::nibble:
      return std::string(1, static_cast<char>((bytes[i / 2] >> (i % 2 * 4)) & 0xF));
    case Storage::crumb:
      return std::string(1, static_cast<char>((bytes[i / 4] >> (i % 4 * 2)) & 0x3));
    case Storage::bytes:
      break;
  }
  const std::int64_t item = type.item_bytes();
  return {reinterpret_cast<const char*>(bytes + i * item), static_cast<std::size_t>(item)};
}

/// A buffer for `elements` elements of `type` between two guards, every byte (or string) set
/// to a canary first: check_guards() finds a write past either end.
class Guarded {
 public:
  Guarded(const ElementType& type, std::int64_t elements) : type_(type) {
    if (type.storage() == Storage::string) {
      strings_.assign(static_cast<std::size_t>(elements) + 2, std::string("canary"));
      return;
    }
    bytes_ = storage_bytes(type, elements);
    buffer_.assign(static_cast<std::size_t>(bytes_) + 2 * kGuardBytes, kCanary);
  }
  void* data() {
    return type_.storage() == Storage::string ? static_cast<void*>(strings_.data() + 1)
                                              : buffer_.data() + kGuardBytes;
  }
  [[nodiscard]] std::int64_t bytes() const {
    return type_.storage() == Storage::string
               ? static_cast<std::int64_t>((strings_.size() - 2) * sizeof(std::string))
               : bytes_;
  }
  void check_guards() const {
    if (type_.storage() == Storage::string) {
      if (strings_.front() != "canary" || strings_.back() != "canary") fail("string guard");
      return;
    }
    for (std::size_t i = 0; i < kGuardBytes; ++i) {
      if (buffer_[i] != kCanary || buffer_[buffer_.size() - 1 - i] != kCanary) fail("guard");
    }
  }

 private:
  ElementType type_;
  std::int64_t bytes_ = 0;
  std::vector<unsigned char> buffer_;
  std::vector<std::string> strings_;
};

std::vector<std::int64_t> dense_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = s;
    s *= std::max<std::int64_t>(shape[k], 1);
  }
  return strides;
}

/// Calls f(window flat index, whole-output flat index) for every element of the window.
template <class F>
void for_each_in_window(const Window& window, const std::vector<std::int64_t>& out_shape, F&& f) {
  const std::int64_t count = element_count(window.shape);
  if (count == 0) return;  // the output may be empty with huge other lengths
  const std::vector<std::int64_t> out_strides = dense_strides(out_shape);
  const std::vector<std::int64_t> win_strides = dense_strides(window.shape);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t at = 0;
    for (std::size_t k = 0; k < window.shape.size(); ++k) {
      at += (window.start[k] + i / win_strides[k] % window.shape[k]) * out_strides[k];
    }
    f(i, at);
  }
}

Window draw_window(FuzzedDataProvider& in, std::span<const std::int64_t> out_shape) {
  Window w;
  for (const std::int64_t len : out_shape) {
    const std::int64_t start = in.ConsumeIntegralInRange<std::int64_t>(0, len);
    w.start.push_back(start);
    w.shape.push_back(in.ConsumeIntegralInRange<std::int64_t>(0, len - start));
  }
  return w;
}

/// Writes `window` into a larger dense buffer (its "parent", 0-2 more positions per axis) through
/// the parent's strides, and checks that the window's elements are right and no other byte
/// of the parent changed.
template <class Compare>
void check_window_in_parent(FuzzedDataProvider& in, const Plan& plan,
                            const testing::RandomInput& input, const Window& window,
                            const Compare& compare) {
  // An empty window writes nothing (and its other lengths may be huge).
  if (element_count(window.shape) == 0) return;
  const ElementType& type = plan.type();
  const std::int64_t item = type.item_bytes();
  std::vector<std::int64_t> parent_shape = window.shape;
  std::vector<std::int64_t> offset(window.shape.size());
  for (std::size_t k = 0; k < parent_shape.size(); ++k) {
    offset[k] = in.ConsumeIntegralInRange<std::int64_t>(0, 1);
    parent_shape[k] += offset[k] + in.ConsumeIntegralInRange<std::int64_t>(0, 1);
  }
  const std::int64_t parent_elements = element_count(parent_shape);
  if (parent_elements > kMaxElements) return;
  Guarded parent(type, parent_elements);
  std::vector<std::int64_t> strides = dense_strides(parent_shape);
  std::int64_t base = 0;
  for (std::size_t k = 0; k < strides.size(); ++k) {
    base += offset[k] * strides[k];
    strides[k] *= item;
  }
  auto* origin = static_cast<unsigned char*>(parent.data()) + base * item;
  execute_window(plan, input.view.data, window, origin, strides);
  parent.check_guards();
  // The window's elements, gathered from the parent, then every other element untouched.
  std::vector<unsigned char> gathered(static_cast<std::size_t>(element_count(window.shape) * item));
  std::vector<bool> inside(static_cast<std::size_t>(parent_elements));
  const Window in_parent{offset, window.shape};
  for_each_in_window(in_parent, parent_shape, [&](std::int64_t i, std::int64_t at) {
    std::memcpy(gathered.data() + i * item, static_cast<unsigned char*>(parent.data()) + at * item,
                static_cast<std::size_t>(item));
    inside[static_cast<std::size_t>(at)] = true;
  });
  compare(gathered.data(), window);
  const std::string canary(static_cast<std::size_t>(item), static_cast<char>(kCanary));
  for (std::int64_t at = 0; at < parent_elements; ++at) {
    if (!inside[static_cast<std::size_t>(at)] && element_at(type, parent.data(), at) != canary) {
      fail("a write outside the window");
    }
  }
}

}  // namespace

std::int64_t draw_pad(FuzzedDataProvider& in) {
  static constexpr std::array<std::int64_t, 8> kExtremes = {
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::int64_t{1} << 62,
      -(std::int64_t{1} << 62),
      std::int64_t{1} << 31,
      -1,
      0,
      1};
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.PickValueInArray(kExtremes);
  return in.ConsumeIntegralInRange<std::int64_t>(-12, 12);
}

std::vector<std::int64_t> draw_pads(FuzzedDataProvider& in, std::size_t max_count) {
  std::vector<std::int64_t> pads(in.ConsumeIntegralInRange<std::size_t>(0, max_count));
  for (std::int64_t& p : pads) p = draw_pad(in);
  return pads;
}

std::vector<std::int64_t> draw_shape(FuzzedDataProvider& in, std::size_t max_rank) {
  std::vector<std::int64_t> shape(in.ConsumeIntegralInRange<std::size_t>(0, max_rank));
  for (std::int64_t& len : shape) len = in.ConsumeIntegralInRange<std::int64_t>(0, 6);
  return shape;
}

ElementType draw_type(FuzzedDataProvider& in) {
  static constexpr std::array<DType, 14> kTypes = {
      DType::boolean, DType::uint8,   DType::int16,        DType::float16,    DType::int32,
      DType::float32, DType::float64, DType::int64,        DType::complex128, DType::string,
      DType::int4,    DType::uint2,   DType::float8e4m3fn, DType::opaque};
  const DType d = in.PickValueInArray(kTypes);
  if (d == DType::opaque) return ElementType::opaque(in.ConsumeIntegralInRange<int>(1, 40));
  return d;
}

std::string draw_element(FuzzedDataProvider& in, const ElementType& type) {
  if (type.storage() == Storage::string) return in.ConsumeRandomLengthString(8);
  std::size_t size = type.packed() ? 1 : static_cast<std::size_t>(type.item_bytes());
  if (in.ConsumeIntegralInRange<int>(0, 31) == 0) size = in.ConsumeIntegralInRange(0, 20);
  std::string element = in.ConsumeBytesAsString(size);
  element.resize(size, '\0');
  return element;
}

void check_request(FuzzedDataProvider& in, const ElementType& type,
                   const std::vector<std::int64_t>& shape, const PadSpec& spec) {
  const bool has_oracle = spec.axis_modes.empty() && !computes_values(spec.mode);
  std::vector<std::int64_t> naive_shape;
  const bool naive_ok = has_oracle && testing::naive_valid(shape, spec, &naive_shape) &&
                        output_fits(naive_shape, type) && value_fits(spec.value, type);
  const std::string request = request_text(type, shape, spec);
  static const bool verbose = std::getenv("PADND_FUZZ_VERBOSE") != nullptr;  // for triage
  if (verbose) std::fprintf(stderr, "%s", request.c_str());
  std::optional<Plan> plan;
  try {
    plan = make_plan(type, shape, {}, spec);
  } catch (const Error& e) {
    if (naive_ok) fail(e.what(), "the planner rejects a request the reference accepts: " + request);
    return;
  }
  if (has_oracle && !naive_ok) fail("the planner accepts a request the reference rejects", request);
  if (has_oracle && !std::equal(naive_shape.begin(), naive_shape.end(),
                                plan->output_shape().begin(), plan->output_shape().end())) {
    fail("output shapes differ", request);
  }
  if (element_count(shape) > kMaxElements || plan->output_elements() > kMaxElements) return;

  std::mt19937_64 rng(in.ConsumeIntegral<std::uint64_t>());
  const testing::RandomInput input = testing::make_input(rng, type, shape);
  const Plan strided = make_plan(type, shape, input.view.byte_strides, spec);
  ExecOptions options;
  options.threads = in.ConsumeIntegralInRange<int>(1, 2);
  const std::vector<std::int64_t> out_shape(plan->output_shape().begin(),
                                            plan->output_shape().end());
  // The reference steps one period at a time: pads of 2**62 are checked for validity and
  // safety only.
  const bool near = std::all_of(spec.axes.begin(), spec.axes.end(), [](const AxisPad& p) {
    const auto near_zero = [](std::int64_t v) {  // no std::abs: v may be INT64_MIN
      return v > -kMaxReferencePad && v < kMaxReferencePad;
    };
    return near_zero(p.begin) && near_zero(p.end);
  });
  std::optional<Tensor> want;
  if (has_oracle && near) want = testing::reference_pad(input.view, spec);
  const auto compare = [&](const void* got, const Window& window) {
    if (!want) return;
    for_each_in_window(window, out_shape, [&](std::int64_t i, std::int64_t at) {
      if (element_at(type, got, i) != element_at(type, want->data(), at)) fail("mismatch");
    });
  };

  Guarded whole(type, plan->output_elements());
  execute(strided, input.view.data, whole.data(), whole.bytes(), options);
  whole.check_guards();
  compare(whole.data(), Window{std::vector<std::int64_t>(out_shape.size(), 0), out_shape});

  const Window window = draw_window(in, out_shape);
  Guarded part(type, element_count(window.shape));
  execute_window(strided, input.view.data, window, part.data(), part.bytes(), options);
  part.check_guards();
  compare(part.data(), window);
  if (type.storage() == Storage::bytes) check_window_in_parent(in, strided, input, window, compare);
}

}  // namespace padnd::fuzz
