// SPDX-License-Identifier: Apache-2.0
// padnd.pad's fast path: the common numpy.pad calls (an ndarray of a native numeric dtype, an
// int or int pairs for pad_width, an index mode, no constant or obvious constants: a scalar, a
// (before, after) pair or one pair per axis) are handled here in one call, with the plan cached
// per thread, so a small pad costs about a microsecond instead of tens. An `out=` array that
// passes _check_out's checks is written in place. Anything else returns None and takes the
// general Python path, which owns numpy.pad's full argument handling and error messages
// (out= included: a rejected `out` is reported there).
#include "fast_path.hpp"

#include <Python.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "padnd/padnd.hpp"

namespace nb = nanobind;

namespace padnd::python {
namespace {

using Ints = std::vector<std::int64_t>;

/// A native numeric dtype by numpy's one-letter kind and its size.
std::optional<ElementType> native_numeric(char kind, std::int64_t itemsize) {
  switch (kind) {
    case 'b': return itemsize == 1 ? std::optional(ElementType{DType::boolean}) : std::nullopt;
    case 'i':
      switch (itemsize) {
        case 1: return ElementType{DType::int8};
        case 2: return ElementType{DType::int16};
        case 4: return ElementType{DType::int32};
        case 8: return ElementType{DType::int64};
      }
      return std::nullopt;
    case 'u':
      switch (itemsize) {
        case 1: return ElementType{DType::uint8};
        case 2: return ElementType{DType::uint16};
        case 4: return ElementType{DType::uint32};
        case 8: return ElementType{DType::uint64};
      }
      return std::nullopt;
    case 'f':
      switch (itemsize) {
        case 2: return ElementType{DType::float16};
        case 4: return ElementType{DType::float32};
        case 8: return ElementType{DType::float64};
      }
      return std::nullopt;
    case 'c':
      if (itemsize == 8) return ElementType{DType::complex64};
      if (itemsize == 16) return ElementType{DType::complex128};
      return std::nullopt;
  }
  return std::nullopt;
}

/// An exact Python int (not bool, not a numpy scalar), or nullopt.
std::optional<std::int64_t> exact_int(PyObject* o) {
  if (!PyLong_CheckExact(o)) return std::nullopt;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return std::nullopt;
  }
  return v;
}

/// pad_width as an int, (n,), (before, after) or one (before, after) per axis, all
/// non-negative; false for any other form (the general path broadcasts or rejects it).
bool parse_pad_width(PyObject* pw, std::size_t ndim, Ints& begins, Ints& ends) {
  begins.assign(ndim, 0);
  ends.assign(ndim, 0);
  if (auto n = exact_int(pw)) {
    if (*n < 0) return false;
    begins.assign(ndim, *n);
    ends.assign(ndim, *n);
    return true;
  }
  if (!PyTuple_CheckExact(pw) && !PyList_CheckExact(pw)) return false;
  const Py_ssize_t len = PySequence_Fast_GET_SIZE(pw);
  if (len == 0) return false;  // numpy: "`pad_width` must be of integral type."
  PyObject** items = PySequence_Fast_ITEMS(pw);
  if (len == 1 || len == 2) {  // (n,) or (before, after) for every axis
    const auto b = exact_int(items[0]);
    const auto e = exact_int(items[len - 1]);
    if (b && e) {
      if (*b < 0 || *e < 0) return false;
      begins.assign(ndim, *b);
      ends.assign(ndim, *e);
      return true;
    }
  }
  if (static_cast<std::size_t>(len) != ndim) return false;
  for (std::size_t k = 0; k < ndim; ++k) {
    PyObject* pair = items[k];
    if (!PyTuple_CheckExact(pair) && !PyList_CheckExact(pair)) return false;
    if (PySequence_Fast_GET_SIZE(pair) != 2) return false;
    const auto b = exact_int(PySequence_Fast_ITEMS(pair)[0]);
    const auto e = exact_int(PySequence_Fast_ITEMS(pair)[1]);
    if (!b || !e || *b < 0 || *e < 0) return false;
    begins[k] = *b;
    ends[k] = *e;
  }
  return true;
}

/// The mode, or nullopt; "empty" takes no constant (numpy rejects one: the general path says so).
std::optional<Mode> index_mode(PyObject* mode, bool has_constant) {
  if (!PyUnicode_CheckExact(mode)) return std::nullopt;
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(mode, &n);
  if (s == nullptr) {
    PyErr_Clear();
    return std::nullopt;
  }
  const std::string_view name(s, static_cast<std::size_t>(n));
  if (name == "constant") return Mode::constant;
  if (name == "empty") return has_constant ? std::nullopt : std::optional(Mode::constant);
  if (name == "edge") return Mode::edge;
  if (name == "reflect") return Mode::reflect;
  if (name == "symmetric") return Mode::symmetric;
  if (name == "wrap") return Mode::wrap;
  return std::nullopt;
}

template <typename T>
std::string bytes_of(T v) {
  std::string b(sizeof v, '\0');
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

/// The constant's bytes when numpy's cast of it is obvious (None = not given / 0 -> zero bits, a Python float
/// into float32/float64, an in-range Python int into an integer type); nullopt otherwise.
/// `alone`: the value is the whole constant_values (numpy makes a uint64 array of a lone int from
/// 2^63 on, but a float64 array of such an int in a pair).
std::optional<std::string> constant_bytes(PyObject* value, const ElementType& type, bool alone) {
  if (value == Py_None) return std::string();
  if (auto i = exact_int(value)) {
    if (*i == 0) return std::string();
    switch (type.dtype) {
      case DType::int8: if (*i >= INT8_MIN && *i <= INT8_MAX) return bytes_of(static_cast<std::int8_t>(*i)); break;
      case DType::int16: if (*i >= INT16_MIN && *i <= INT16_MAX) return bytes_of(static_cast<std::int16_t>(*i)); break;
      case DType::int32: if (*i >= INT32_MIN && *i <= INT32_MAX) return bytes_of(static_cast<std::int32_t>(*i)); break;
      case DType::int64: return bytes_of(*i);
      case DType::uint8: if (*i >= 0 && *i <= UINT8_MAX) return bytes_of(static_cast<std::uint8_t>(*i)); break;
      case DType::uint16: if (*i >= 0 && *i <= UINT16_MAX) return bytes_of(static_cast<std::uint16_t>(*i)); break;
      case DType::uint32: if (*i >= 0 && *i <= UINT32_MAX) return bytes_of(static_cast<std::uint32_t>(*i)); break;
      case DType::uint64: if (*i >= 0) return bytes_of(static_cast<std::uint64_t>(*i)); break;
      default: break;
    }
    return std::nullopt;
  }
  if (alone && type.dtype == DType::uint64 && PyLong_CheckExact(value)) {  // 2^63 and more
    const unsigned long long u = PyLong_AsUnsignedLongLong(value);
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();  // negative or too large: numpy's OverflowError, on the general path
      return std::nullopt;
    }
    return bytes_of(static_cast<std::uint64_t>(u));
  }
  if (PyFloat_CheckExact(value)) {
    const double d = PyFloat_AS_DOUBLE(value);
    if (type.dtype == DType::float64) return bytes_of(d);
    if (type.dtype == DType::float32) return bytes_of(static_cast<float>(d));
  }
  return std::nullopt;
}

/// One (before, after) pair of constant bytes per axis.
using ValuePairs = std::vector<std::pair<std::string, std::string>>;

/// constant_values as numpy broadcasts it, when that is obvious: none (empty: the default
/// value), a scalar (one pair), a (before, after) pair, or one such pair per axis, each value an
/// obvious cast (constant_bytes); nullopt otherwise. Values are spelled out (zero as zero
/// bytes), so that pairs compare by value.
std::optional<ValuePairs> constant_pairs(PyObject* values, const ElementType& type,
                                         std::size_t ndim) {
  const auto one = [&](PyObject* v, bool alone) -> std::optional<std::string> {
    std::optional<std::string> b = constant_bytes(v, type, alone);
    if (b && b->empty()) b = std::string(static_cast<std::size_t>(type.item_bytes()), '\0');
    return b;
  };
  const auto pair_of = [&](PyObject* p) -> std::optional<std::pair<std::string, std::string>> {
    if ((!PyTuple_CheckExact(p) && !PyList_CheckExact(p)) || PySequence_Fast_GET_SIZE(p) != 2) {
      return std::nullopt;
    }
    auto before = one(PySequence_Fast_ITEMS(p)[0], false);
    auto after = one(PySequence_Fast_ITEMS(p)[1], false);
    if (!before || !after) return std::nullopt;
    return std::pair(std::move(*before), std::move(*after));
  };
  if (values == Py_None) return ValuePairs{};  // numpy's 0: the spec's default value
  if (auto both = one(values, true)) return ValuePairs(1, {*both, *both});  // every side
  if (auto pair = pair_of(values)) return ValuePairs(ndim, *pair);  // (before, after)
  if (ndim == 0 || (!PyTuple_CheckExact(values) && !PyList_CheckExact(values)) ||
      static_cast<std::size_t>(PySequence_Fast_GET_SIZE(values)) != ndim) {
    return std::nullopt;
  }
  ValuePairs per_axis;
  for (std::size_t k = 0; k < ndim; ++k) {
    auto pair = pair_of(PySequence_Fast_ITEMS(values)[k]);
    if (!pair) return std::nullopt;
    per_axis.push_back(std::move(*pair));
  }
  return per_axis;
}

/// The last plan this thread made, reused while the request is the same.
struct CachedPlan {
  ElementType type;
  Ints shape, strides, begins, ends;
  Mode mode = Mode::constant;
  ValuePairs values;
  std::optional<Plan> plan;

  bool matches(const ElementType& t, const Ints& sh, const Ints& st, const Ints& b, const Ints& e,
               Mode m, const ValuePairs& v) const {
    return plan && t.dtype == type.dtype && t.opaque_bytes == type.opaque_bytes && sh == shape &&
           st == strides && b == begins && e == ends && m == mode && v == values;
  }
};

/// The canonical spec of a fast-path request: one value when every side has the same constant,
/// else a constant per axis and side (numpy's corners: later axes own them).
PadSpec fast_spec(const Ints& begins, const Ints& ends, Mode mode, const ValuePairs& values) {
  PadSpec spec;
  for (std::size_t k = 0; k < begins.size(); ++k) spec.axes.push_back({begins[k], ends[k], 0});
  spec.mode = mode;
  if (mode != Mode::constant || values.empty()) return spec;
  spec.value = values[0].first;
  const bool one_value = std::all_of(values.begin(), values.end(), [&](const auto& side) {
    return side.first == spec.value && side.second == spec.value;
  });
  if (one_value) return spec;
  for (const auto& [before, after] : values) {
    AxisMode m;
    m.begin_value = before;
    m.end_value = after;
    spec.axis_modes.push_back(std::move(m));
  }
  return spec;
}

/// Releases a Py_buffer on every path.
struct Buffer {
  Py_buffer view{};
  bool held = false;
  bool get(PyObject* o, int flags) {
    held = PyObject_GetBuffer(o, &view, flags) == 0;
    if (!held) PyErr_Clear();
    return held;
  }
  ~Buffer() {
    if (held) PyBuffer_Release(&view);
  }
};

/// Byte range [first, last) a strided buffer spans; empty for an empty buffer.
std::pair<std::uintptr_t, std::uintptr_t> extent(const Py_buffer& v) {
  auto first = reinterpret_cast<std::uintptr_t>(v.buf);
  auto last = first + static_cast<std::uintptr_t>(v.itemsize);
  for (int k = 0; k < v.ndim; ++k) {
    if (v.shape[k] == 0) return {first, first};
    const Py_ssize_t span = (v.shape[k] - 1) * v.strides[k];
    if (span < 0) first -= static_cast<std::uintptr_t>(-span);
    else last += static_cast<std::uintptr_t>(span);
  }
  return {first, last};
}

/// Whether `out` passes _check_out (_numpy_pad.py): an ndarray of `out_shape` and `dtype`,
/// C-contiguous, writeable, not overlapping `in` (numpy.may_share_memory: memory bounds). On
/// success `dst` holds its buffer.
bool usable_out(nb::handle out, const nb::object& ndarray_type,
                std::span<const std::int64_t> out_shape, const nb::object& dtype,
                const Py_buffer& in, Buffer& dst) {
  if (out.type().ptr() != ndarray_type.ptr()) return false;  // subclasses: the general path
  nb::object out_dtype = out.attr("dtype");
  if (!out_dtype.is(dtype) && !out_dtype.equal(dtype)) return false;
  if (!dst.get(out.ptr(), PyBUF_WRITABLE | PyBUF_STRIDES)) return false;
  const Py_buffer& v = dst.view;
  if (static_cast<std::size_t>(v.ndim) != out_shape.size() ||
      !std::equal(out_shape.begin(), out_shape.end(), v.shape) || !PyBuffer_IsContiguous(&v, 'C')) {
    return false;
  }
  const auto [in_first, in_last] = extent(in);
  const auto [out_first, out_last] = extent(v);
  return in_first == in_last || out_first == out_last || in_last <= out_first ||
         out_last <= in_first;
}

/// A new numpy array of `shape` and `dtype`; `dst` holds its buffer.
nb::object new_array(std::span<const std::int64_t> shape, const nb::object& dtype, Buffer& dst) {
  static nb::object numpy_empty = nb::module_::import_("numpy").attr("empty");
  nb::tuple dims = nb::steal<nb::tuple>(PyTuple_New(static_cast<Py_ssize_t>(shape.size())));
  for (std::size_t k = 0; k < shape.size(); ++k) {
    PyTuple_SET_ITEM(dims.ptr(), static_cast<Py_ssize_t>(k), PyLong_FromLongLong(shape[k]));
  }
  nb::object out = numpy_empty(dims, dtype);
  if (!dst.get(out.ptr(), PyBUF_WRITABLE)) throw nb::python_error();
  return out;
}

/// Outputs below this many bytes are written without releasing the GIL (releasing costs more).
constexpr std::int64_t kReleaseGilBytes = std::int64_t{64} << 10;

nb::object pad_fast(nb::handle array, nb::handle pad_width, nb::handle mode_name,
                    nb::handle constant_values, int threads, nb::handle out_array) {
  static nb::object ndarray_type = nb::module_::import_("numpy").attr("ndarray");
  if (array.type().ptr() != ndarray_type.ptr()) return nb::none();
  const std::optional<Mode> mode = index_mode(mode_name.ptr(), !constant_values.is_none());
  if (!mode) return nb::none();
  if (*mode != Mode::constant && !constant_values.is_none()) return nb::none();

  nb::object dtype = array.attr("dtype");
  if (!nb::cast<bool>(dtype.attr("isnative"))) return nb::none();
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  Buffer in;
  if (kind.size() != 1 || !in.get(array.ptr(), PyBUF_STRIDES)) return nb::none();
  const std::optional<ElementType> type = native_numeric(kind[0], in.view.itemsize);
  if (!type) return nb::none();
  const auto ndim = static_cast<std::size_t>(in.view.ndim);
  Ints shape(in.view.shape, in.view.shape + ndim);
  Ints strides(in.view.strides, in.view.strides + ndim);
  Ints begins, ends;
  if (!parse_pad_width(pad_width.ptr(), ndim, begins, ends)) return nb::none();
  // numpy's own rule for non-constant modes on empty axes: let the general path raise it.
  if (*mode != Mode::constant) {
    for (std::size_t k = 0; k < ndim; ++k) {
      if (shape[k] == 0 && (begins[k] != 0 || ends[k] != 0)) return nb::none();
    }
  }
  const std::optional<ValuePairs> values = constant_pairs(constant_values.ptr(), *type, ndim);
  if (!values) return nb::none();

  thread_local CachedPlan cache;
  if (!cache.matches(*type, shape, strides, begins, ends, *mode, *values)) {
    cache.plan.reset();
    cache.plan.emplace(make_plan(*type, shape, strides, fast_spec(begins, ends, *mode, *values)));
    cache.type = *type;
    cache.shape = std::move(shape);
    cache.strides = std::move(strides);
    cache.begins = std::move(begins);
    cache.ends = std::move(ends);
    cache.mode = *mode;
    cache.values = *values;
  }
  const Plan& plan = *cache.plan;
  const std::span<const std::int64_t> out_shape = plan.output_shape();
  Buffer dst;
  nb::object out;
  if (!out_array.is_none()) {
    if (!usable_out(out_array, ndarray_type, out_shape, dtype, in.view, dst)) return nb::none();
    out = nb::borrow(out_array);
  } else {
    out = new_array(out_shape, dtype, dst);
  }
  const auto out_bytes = static_cast<std::int64_t>(dst.view.len);
  ExecOptions options;
  options.threads = threads;
  if (out_array.is_none()) options = fresh_output_options(options);
  if (plan.output_bytes() >= kReleaseGilBytes) {
    nb::gil_scoped_release release;
    execute(plan, in.view.buf, dst.view.buf, out_bytes, options);
  } else {
    execute(plan, in.view.buf, dst.view.buf, out_bytes, options);
  }
  return out;
}

}  // namespace

void bind_fast_path(nb::module_& m) {
  m.def("pad_fast", &pad_fast, nb::arg("array"), nb::arg("pad_width"), nb::arg("mode"),
        nb::arg("constant_values").none(), nb::arg("threads"), nb::arg("out").none() = nb::none(),
        "numpy.pad for the common cases in one call; None when the general path is needed.");
}

}  // namespace padnd::python
