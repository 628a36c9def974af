// SPDX-License-Identifier: Apache-2.0
// padnd.pad's fast path: the common numpy.pad calls (an ndarray of a native dtype that numpy
// and padnd share, an int or int pairs for pad_width, an index mode, no constant or obvious
// constants: a scalar, a (before, after) pair or one pair per axis) are handled here in one
// call, so a small pad costs about a microsecond instead of tens. The request is numpy.pad's
// arguments as the numpy adapter takes them (numpy::PadArgs): the adapter makes the spec, and
// the thread's plan cache (plan_cache.hpp) keeps the plans of recent requests. An `out=` array
// that passes _check_out's checks is written in place. Anything else returns None and takes
// the general Python path, which owns numpy.pad's full argument handling and error messages
// (out= included: a rejected `out` is reported there).
#include "fast_path.hpp"

#include <Python.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dlpack_exchange.hpp"
#include "numpy_allocator.hpp"
#include "openmp_host.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/padnd.h"
#include "padnd/padnd.hpp"
#include "plan_cache.hpp"
#include "src/executors/cpu/parallel/thread_pool.hpp"  // set_stop_flag (a static padnd)

namespace nb = nanobind;

namespace padnd::python {
namespace {

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

using Widths = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// Non-negative (before, after) widths from two Python objects; false for anything else.
bool width_pair(PyObject* before, PyObject* after, std::pair<std::int64_t, std::int64_t>& pair) {
  const auto b = exact_int(before);
  const auto e = exact_int(after);
  if (!b || !e || *b < 0 || *e < 0) return false;
  pair = {*b, *e};
  return true;
}

/// pad_width as an int, (n,), (before, after) or one (before, after) per axis, all
/// non-negative, as one pair per axis; false for any other form (the general path broadcasts
/// or rejects it).
bool parse_pad_width(PyObject* pw, std::size_t ndim, Widths& widths) {
  widths.resize(ndim);
  if (auto n = exact_int(pw)) {
    if (*n < 0) return false;
    std::fill(widths.begin(), widths.end(), std::pair(*n, *n));
    return true;
  }
  if (!PyTuple_CheckExact(pw) && !PyList_CheckExact(pw)) return false;
  const Py_ssize_t len = PySequence_Fast_GET_SIZE(pw);
  if (len == 0) return false;  // numpy: "`pad_width` must be of integral type."
  PyObject** items = PySequence_Fast_ITEMS(pw);
  std::pair<std::int64_t, std::int64_t> all;
  if ((len == 1 || len == 2) && width_pair(items[0], items[len - 1], all)) {
    std::fill(widths.begin(), widths.end(), all);  // (n,) or (before, after) for every axis
    return true;
  }
  if (static_cast<std::size_t>(len) != ndim) return false;
  for (std::size_t k = 0; k < ndim; ++k) {
    PyObject* pair = items[k];
    if (!PyTuple_CheckExact(pair) && !PyList_CheckExact(pair)) return false;
    if (PySequence_Fast_GET_SIZE(pair) != 2) return false;
    if (!width_pair(PySequence_Fast_ITEMS(pair)[0], PySequence_Fast_ITEMS(pair)[1], widths[k])) {
      return false;
    }
  }
  return true;
}

/// F.pad's flat pads (begin and end of the last axis, then of the one before, ...): an even
/// number, at most 2 * ndim, of non-negative exact ints, as one pair per axis; false for any
/// other form (padnd.torch's general path validates it, crops included).
bool parse_flat_pads(PyObject* pads, std::size_t ndim, Widths& widths) {
  if (!PyTuple_CheckExact(pads) && !PyList_CheckExact(pads)) return false;
  const auto len = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(pads));
  if (len % 2 != 0 || len > 2 * ndim) return false;
  widths.assign(ndim, {0, 0});
  PyObject** items = PySequence_Fast_ITEMS(pads);
  for (std::size_t k = 0; k < len / 2; ++k) {
    if (!width_pair(items[2 * k], items[2 * k + 1], widths[ndim - 1 - k])) return false;
  }
  return true;
}

/// numpy.pad's mode `mode` (a str) when the fast path takes it: an index mode (the numpy
/// adapter's table says which), and a given constant_values only with the mode that takes it
/// (numpy rejects it with any other: the general path says so).
const numpy::ModeRule* fast_mode(PyObject* mode, bool has_constant) {
  if (!PyUnicode_CheckExact(mode)) return nullptr;
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(mode, &n);
  if (s == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  const numpy::ModeRule* rule = numpy::find_mode({s, static_cast<std::size_t>(n)});
  if (rule == nullptr || computes_values(rule->mode)) return nullptr;
  if (has_constant && rule->keyword != "constant_values") return nullptr;
  return rule;
}

template <typename T>
void set_bytes(std::string& out, T v) {
  out.resize(sizeof v);
  std::memcpy(out.data(), &v, sizeof v);
}

/// `i` as a T, if it fits (numpy raises OverflowError otherwise: the general path does).
template <typename T>
bool fitting_int_bytes(std::int64_t i, std::string& out) {
  if (!std::in_range<T>(i)) return false;
  set_bytes(out, static_cast<T>(i));
  return true;
}

bool int_constant_bytes(std::int64_t i, DType dtype, std::string& out) {
  switch (dtype) {
    case DType::int8:
      return fitting_int_bytes<std::int8_t>(i, out);
    case DType::int16:
      return fitting_int_bytes<std::int16_t>(i, out);
    case DType::int32:
      return fitting_int_bytes<std::int32_t>(i, out);
    case DType::int64:
      return fitting_int_bytes<std::int64_t>(i, out);
    case DType::uint8:
      return fitting_int_bytes<std::uint8_t>(i, out);
    case DType::uint16:
      return fitting_int_bytes<std::uint16_t>(i, out);
    case DType::uint32:
      return fitting_int_bytes<std::uint32_t>(i, out);
    case DType::uint64:
      return fitting_int_bytes<std::uint64_t>(i, out);
    default:
      return false;
  }
}

/// Sets `out` to the constant's bytes when numpy's cast of it is obvious: 0 gives zero bits, a
/// Python float goes into float32/float64, an in-range Python int into an integer type; false
/// otherwise (None too: numpy casts it as an object). `alone`: the value is the whole
/// constant_values (numpy makes a uint64 array of a lone int from 2^63 on, but a float64 array
/// of such an int in a pair).
bool constant_bytes(PyObject* value, const ElementType& type, bool alone, std::string& out) {
  const std::optional<std::int64_t> i = exact_int(value);
  if (i && *i == 0) {
    out.assign(static_cast<std::size_t>(type.item_bytes()), '\0');
    return true;
  }
  if (i) return int_constant_bytes(*i, type.dtype, out);
  if (alone && type.dtype == DType::uint64 && PyLong_CheckExact(value)) {  // 2^63 and more
    const unsigned long long u = PyLong_AsUnsignedLongLong(value);
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();  // negative or too large: numpy's OverflowError, on the general path
      return false;
    }
    set_bytes(out, static_cast<std::uint64_t>(u));
    return true;
  }
  if (!PyFloat_CheckExact(value)) return false;
  const double d = PyFloat_AS_DOUBLE(value);
  if (type.dtype == DType::float64) set_bytes(out, d);
  if (type.dtype == DType::float32) {
    // numpy warns of a finite value beyond float32's range: the general path's cast does.
    if (std::isfinite(d) && std::fabs(d) > std::numeric_limits<float>::max()) return false;
    set_bytes(out, static_cast<float>(d));
  }
  return type.dtype == DType::float64 || type.dtype == DType::float32;
}

/// One axis's (before, after) constants from a pair of obvious values (constant_bytes).
bool constant_pair(PyObject* p, const ElementType& type,
                   std::pair<std::string, std::string>& pair) {
  if ((!PyTuple_CheckExact(p) && !PyList_CheckExact(p)) || PySequence_Fast_GET_SIZE(p) != 2) {
    return false;
  }
  return constant_bytes(PySequence_Fast_ITEMS(p)[0], type, false, pair.first) &&
         constant_bytes(PySequence_Fast_ITEMS(p)[1], type, false, pair.second);
}

/// constant_values as numpy broadcasts it, when that is obvious: None (no pairs: the default
/// value), a scalar, a (before, after) pair, or one such pair per axis, each value an obvious
/// cast (constant_bytes); false otherwise. `pairs` gets one pair per axis, values spelled out
/// (zero as zero bytes), so that requests compare by value.
bool constant_pairs(PyObject* values, const ElementType& type, std::size_t ndim,
                    numpy::ValuePairs& pairs) {
  pairs.clear();
  if (values == Py_None) return true;  // numpy's 0: the spec's default value
  std::pair<std::string, std::string> all;
  if (constant_bytes(values, type, true, all.first)) {  // every side
    all.second = all.first;
    pairs.assign(ndim, all);
    return true;
  }
  if (constant_pair(values, type, all)) {  // (before, after) on every axis
    pairs.assign(ndim, all);
    return true;
  }
  if (ndim == 0 || (!PyTuple_CheckExact(values) && !PyList_CheckExact(values)) ||
      static_cast<std::size_t>(PySequence_Fast_GET_SIZE(values)) != ndim) {
    return false;
  }
  pairs.resize(ndim);
  for (std::size_t k = 0; k < ndim; ++k) {
    if (!constant_pair(PySequence_Fast_ITEMS(values)[k], type, pairs[k])) return false;
  }
  return true;
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
/// A new C-order output of `shape` and `dtype` (from the output cache where it is on), `dst` its
/// buffer; `fresh`: never written (new pages).
nb::object new_array(std::span<const std::int64_t> shape, const nb::object& dtype, Buffer& dst,
                     bool& fresh) {
  static nb::object c_order = nb::str("C");
  nb::tuple dims = nb::steal<nb::tuple>(PyTuple_New(static_cast<Py_ssize_t>(shape.size())));
  std::int64_t bytes = nb::cast<std::int64_t>(dtype.attr("itemsize"));
  for (std::size_t k = 0; k < shape.size(); ++k) {
    PyTuple_SET_ITEM(dims.ptr(), static_cast<Py_ssize_t>(k), PyLong_FromLongLong(shape[k]));
    bytes *= shape[k];  // fits: the plan's output bytes do
  }
  nb::object out = empty_output(dims, dtype, c_order, bytes, fresh);
  if (!dst.get(out.ptr(), PyBUF_WRITABLE)) throw nb::python_error();
  return out;
}

/// Outputs below this many bytes are written without releasing the GIL (releasing costs more).
constexpr std::int64_t kReleaseGilBytes = std::int64_t{64} << 10;

/// The element type of an ndarray's dtype when the fast path takes it: native byte order, and
/// a type numpy and padnd share (the core's table: bool, integers, floats, complex, times),
/// except long double, whose padding bytes numpy's casts leave as they find them (the general
/// path casts constants as numpy does); nullopt otherwise.
std::optional<ElementType> native_type(const nb::object& dtype, std::int64_t itemsize) {
  if (!nb::cast<bool>(dtype.attr("isnative"))) return std::nullopt;
  nb::object kind = dtype.attr("kind");
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(kind.ptr(), &n);
  if (s == nullptr) throw nb::python_error();
  const std::optional<ElementType> type = n == 1 ? from_numpy(s[0], itemsize) : std::nullopt;
  if (!type || type->dtype == DType::longdouble || type->dtype == DType::clongdouble) {
    return std::nullopt;
  }
  return type;
}

/// The request of the current call. Each thread reuses one, so that a request found in the
/// cache allocates nothing; a nested call on the same thread (a finalizer that pads, run while
/// this call is under way) gets a request of its own.
class RequestSlot {
 public:
  RequestSlot() : request_(busy_ ? own_.emplace() : reusable_), took_reusable_(!busy_) {
    busy_ = true;
  }
  ~RequestSlot() {
    if (took_reusable_) busy_ = false;
  }
  RequestSlot(const RequestSlot&) = delete;
  RequestSlot& operator=(const RequestSlot&) = delete;
  PadRequest& operator*() { return request_; }

 private:
  static thread_local PadRequest reusable_;
  static thread_local bool busy_;
  std::optional<PadRequest> own_;
  PadRequest& request_;
  bool took_reusable_;
};
thread_local PadRequest RequestSlot::reusable_;
thread_local bool RequestSlot::busy_ = false;

/// numpy.pad(array of `in`'s layout and `type`, pad_width, mode, constant_values) as the numpy
/// adapter takes it, in `request`; false when the fast path does not take the arguments.
bool read_request(const Py_buffer& in, const ElementType& type, nb::handle pad_width,
                  bool flat_pads, const numpy::ModeRule& mode, nb::handle constant_values,
                  PadRequest& request) {
  const auto ndim = static_cast<std::size_t>(in.ndim);
  request.type = type;
  request.shape.assign(in.shape, in.shape + ndim);
  request.byte_strides.assign(in.strides, in.strides + ndim);
  request.args.modes.resize(1);
  request.args.modes[0] = mode.name;
  const bool widths_read = flat_pads
                               ? parse_flat_pads(pad_width.ptr(), ndim, request.args.pad_width)
                               : parse_pad_width(pad_width.ptr(), ndim, request.args.pad_width);
  return widths_read &&
         constant_pairs(constant_values.ptr(), type, ndim, request.args.constant_values);
}

/// The plan of `request`: from the thread's cache, or made by the numpy adapter and the planner.
std::shared_ptr<const Plan> plan_for(const PadRequest& request) {
  PlanCache& cache = thread_plan_cache();
  if (std::shared_ptr<const Plan> plan = cache.find(request)) return plan;
  const PadSpec spec = numpy::to_canonical(request.args, request.shape);
  return cache.add(request, make_plan(request.type, request.shape, request.byte_strides, spec));
}

/// Outputs from which Ctrl-C stops a pad between tasks: pads that take tens of milliseconds,
/// for which checking Python's SIGINT handler and swapping it costs nothing that shows.
constexpr std::int64_t kCtrlCStopsBytes = std::int64_t{64} << 20;

std::atomic<bool> g_ctrl_c{false};    ///< set by on_sigint while a CtrlCStops is active
struct sigaction g_python_sigint {};  ///< Python's SIGINT action, which on_sigint chains to

extern "C" void on_sigint(int signum, siginfo_t* info, void* context) {
  g_ctrl_c.store(true, std::memory_order_relaxed);
  if ((g_python_sigint.sa_flags & SA_SIGINFO) != 0) {
    g_python_sigint.sa_sigaction(signum, info, context);
  } else {
    g_python_sigint.sa_handler(signum);
  }
}

/// Whether Ctrl-C raises KeyboardInterrupt in this thread: the main thread, Python's default
/// handler for SIGINT, and its C handler installed (not one set from outside Python).
bool ctrl_c_raises_here() {
  // Leaked references: destructors that ran after the interpreter's finalization would crash.
  static const nb::handle threading = nb::module_::import_("threading").release();
  static const nb::handle signal = nb::module_::import_("signal").release();
  if (!threading.attr("main_thread")().is(threading.attr("current_thread")())) return false;
  if (!signal.attr("getsignal")(SIGINT).is(signal.attr("default_int_handler"))) return false;
  struct sigaction current {};
  return ::sigaction(SIGINT, nullptr, &current) == 0 && current.sa_handler != SIG_DFL &&
         current.sa_handler != SIG_IGN;
}

}  // namespace

CtrlCStops::CtrlCStops(std::int64_t output_bytes) {
  if (output_bytes < kCtrlCStopsBytes || !ctrl_c_raises_here()) return;
  g_ctrl_c.store(false);
  struct sigaction ours {};
  ours.sa_sigaction = on_sigint;
  ours.sa_flags = SA_SIGINFO | SA_RESTART;
  ::sigemptyset(&ours.sa_mask);
  active_ = ::sigaction(SIGINT, &ours, &g_python_sigint) == 0;
  if (active_) padnd::detail::set_stop_flag(&g_ctrl_c);
}

CtrlCStops::~CtrlCStops() {
  if (!active_) return;
  padnd::detail::set_stop_flag(nullptr);
  ::sigaction(SIGINT, &g_python_sigint, nullptr);
}

void CtrlCStops::raise_if_stopped() const {
  if (!active_ || !g_ctrl_c.load()) return;
  if (PyErr_CheckSignals() == 0) PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw nb::python_error();
}

namespace {

/// Executes `plan` from `in` into `out`, without the GIL for outputs of kReleaseGilBytes and more.
void run_plan(const Plan& plan, const void* in, void* out, std::int64_t out_bytes,
              const ExecOptions& options) {
  if (plan.output_bytes() >= kReleaseGilBytes) {
    const CtrlCStops stops(plan.output_bytes());
    {
      nb::gil_scoped_release release;
      execute(plan, in, out, out_bytes, options);
    }
    stops.raise_if_stopped();
  } else {
    execute(plan, in, out, out_bytes, options);
  }
}

/// Pads `in` by `plan` into `out_array` (when _check_out would take it: else None, for the
/// general path to report) or into a new array of `dtype`; returns the output.
nb::object write_output(const Plan& plan, const Buffer& in, const nb::object& dtype,
                        nb::handle out_array, const ExecOptions& exec_options) {
  static nb::object ndarray_type = nb::module_::import_("numpy").attr("ndarray");
  const std::span<const std::int64_t> out_shape = plan.output_shape();
  Buffer dst;
  nb::object out;
  bool fresh = false;
  if (!out_array.is_none()) {
    if (!usable_out(out_array, ndarray_type, out_shape, dtype, in.view, dst)) return nb::none();
    out = nb::borrow(out_array);
  } else {
    out = new_array(out_shape, dtype, dst, fresh);
  }
  const auto out_bytes = static_cast<std::int64_t>(dst.view.len);
  run_plan(plan, in.view.buf, dst.view.buf, out_bytes,
           fresh ? fresh_output_options(exec_options) : exec_options);
  return out;
}

/// Whether a view is Fortran-ordered and not also C-ordered: numpy.pad returns Fortran order
/// for such an input, which the general path does.
bool fortran_only(const Py_buffer& view) {
  return PyBuffer_IsContiguous(&view, 'F') != 0 && PyBuffer_IsContiguous(&view, 'C') == 0;
}

/// The plan that pads `in` (elements of `type`) as the fast path does; null when it does not
/// take the arguments.
std::shared_ptr<const Plan> buffer_plan(const Buffer& in, const ElementType& type,
                                        nb::handle pad_width, bool flat_pads,
                                        const numpy::ModeRule& mode, nb::handle constant_values) {
  RequestSlot request;
  if (!read_request(in.view, type, pad_width, flat_pads, mode, constant_values, *request)) {
    return nullptr;
  }
  return plan_for(*request);
}

/// pad_fast of an ndarray, `pad_width` in numpy.pad's forms.
nb::object fast_pad(nb::handle array, nb::handle pad_width, nb::handle mode_name,
                    nb::handle constant_values, const ExecOptions& options, nb::handle out_array) {
  static nb::object ndarray_type = nb::module_::import_("numpy").attr("ndarray");
  if (array.type().ptr() != ndarray_type.ptr()) return nb::none();
  const numpy::ModeRule* mode = fast_mode(mode_name.ptr(), !constant_values.is_none());
  if (mode == nullptr) return nb::none();
  nb::object dtype = array.attr("dtype");
  Buffer in;
  if (!in.get(array.ptr(), PyBUF_STRIDES)) return nb::none();
  if (fortran_only(in.view) && out_array.is_none()) return nb::none();
  const std::optional<ElementType> type = native_type(dtype, in.view.itemsize);
  if (!type) return nb::none();
  const std::shared_ptr<const Plan> plan =
      buffer_plan(in, *type, pad_width, false, *mode, constant_values);
  return plan ? write_output(*plan, in, dtype, out_array, options) : nb::none();
}

/// An interned str that lives as long as the process (attribute names looked up per call).
PyObject* interned(const char* name) {
  PyObject* key = PyUnicode_InternFromString(name);
  if (key == nullptr) throw nb::python_error();
  return key;
}

/// Attribute `key` of `tensor`, or the result of calling it as a method; null, with the error
/// cleared, if that raises.
nb::object tensor_field(nb::handle tensor, PyObject* key, bool call) {
  PyObject* field =
      call ? PyObject_CallMethodNoArgs(tensor.ptr(), key) : PyObject_GetAttr(tensor.ptr(), key);
  if (field == nullptr) PyErr_Clear();
  return nb::steal(field);
}

/// Whether padnd.torch's one-call forward may use a tensor type's DLPack exchange API (tests
/// turn it off to reach the other route).
bool g_use_exchange = true;

enum : std::int32_t { kDLCPU = 1 };  // dlpack.h's device and type codes
enum : std::uint8_t { kDLComplex = 5 };

/// A CPU tensor's elements as a Py_buffer that no one holds (the caller keeps the tensor alive):
/// through its type's DLPack exchange API where it has one (`exchange` is then set, with the
/// tensor's DLPack dtype and device), else from its data_ptr(), shape and stride(); false for
/// any other tensor (a device's, a sparse one, a lazy conjugate or negative view).
struct TensorBuffer {
  Buffer buffer;
  std::vector<Py_ssize_t> shape;
  std::vector<Py_ssize_t> strides;
  const DLPackExchangeApi* exchange = nullptr;
  nb::dlpack::dtype dtype;
  nb::dlpack::device device;
  std::optional<ElementType> type;  ///< the DLPack dtype's, where the exchange API read it
  /// Reads `tensor`, whose elements have `itemsize` bytes (0: unknown, read from its DLPack
  /// dtype, which only the exchange API gives).
  bool get(nb::handle tensor, Py_ssize_t itemsize);

 private:
  bool get_exchanged(nb::handle tensor, Py_ssize_t itemsize);
  bool get_fields(nb::handle tensor, Py_ssize_t itemsize);
};

bool is_true(const nb::object& v) { return v.is_valid() && v.ptr() == Py_True; }

bool TensorBuffer::get(nb::handle tensor, Py_ssize_t itemsize) {
  if (g_use_exchange) exchange = exchange_api(Py_TYPE(tensor.ptr()));
  const bool read = exchange != nullptr ? get_exchanged(tensor, itemsize)
                                        : itemsize > 0 && get_fields(tensor, itemsize);
  if (!read) return false;
  Py_buffer& v = buffer.view;
  v.ndim = static_cast<int>(shape.size());
  v.shape = shape.data();
  v.strides = strides.data();
  v.readonly = 1;
  return true;
}

bool TensorBuffer::get_exchanged(nb::handle tensor, Py_ssize_t itemsize) {
  static PyObject* const is_conj = interned("is_conj");
  static PyObject* const is_neg = interned("is_neg");
  nb::dlpack::dltensor t;
  if (!exchange_view(*exchange, tensor.ptr(), t) || t.device.device_type != kDLCPU) return false;
  padnd_tensor described;  // the C API's reading of a DLTensor: type, data, byte strides
  std::vector<std::int64_t> byte_strides(static_cast<std::size_t>(std::max(t.ndim, 1)));
  if (padnd_tensor_from_dlpack(&t, &described, byte_strides.data(), t.ndim) != PADND_OK) {
    return false;
  }
  type = ElementType(static_cast<DType>(described.type.dtype));
  if (itemsize > 0 && type->item_bytes() != itemsize) return false;
  // The view is the memory as it lies: a lazy view's negation or conjugation is not in it.
  if (is_true(tensor_field(tensor, is_neg, true)) ||
      (t.dtype.code == kDLComplex && is_true(tensor_field(tensor, is_conj, true)))) {
    return false;
  }
  dtype = t.dtype;
  device = t.device;
  const auto ndim = static_cast<std::size_t>(t.ndim);
  shape.resize(ndim);
  strides.resize(ndim);
  buffer.view.itemsize = type->item_bytes();
  buffer.view.len = buffer.view.itemsize;
  std::int64_t compact = buffer.view.itemsize;  // null byte strides mean C order
  for (std::size_t k = ndim; k-- > 0; compact *= t.shape[k]) {
    shape[k] = static_cast<Py_ssize_t>(t.shape[k]);
    strides[k] = static_cast<Py_ssize_t>(described.byte_strides ? byte_strides[k] : compact);
    buffer.view.len *= shape[k];  // fits: the tensor's bytes do
  }
  buffer.view.buf = const_cast<void*>(described.data);
  return true;
}

bool TensorBuffer::get_fields(nb::handle tensor, Py_ssize_t itemsize) {
  static PyObject* const is_cpu = interned("is_cpu");
  static PyObject* const is_conj = interned("is_conj");
  static PyObject* const is_neg = interned("is_neg");
  static PyObject* const data_ptr = interned("data_ptr");
  static PyObject* const shape_name = interned("shape");
  static PyObject* const stride = interned("stride");
  if (!is_true(tensor_field(tensor, is_cpu, false)) ||
      is_true(tensor_field(tensor, is_conj, true)) || is_true(tensor_field(tensor, is_neg, true))) {
    return false;
  }
  nb::object ptr = tensor_field(tensor, data_ptr, true);  // raises for sparse tensors
  nb::object sizes = tensor_field(tensor, shape_name, false);
  nb::object steps = tensor_field(tensor, stride, true);
  if (!ptr.is_valid() || !sizes.is_valid() || !steps.is_valid() || !PyTuple_Check(sizes.ptr()) ||
      !PyTuple_Check(steps.ptr()) ||
      PyTuple_GET_SIZE(sizes.ptr()) != PyTuple_GET_SIZE(steps.ptr())) {
    return false;
  }
  const auto ndim = static_cast<std::size_t>(PyTuple_GET_SIZE(sizes.ptr()));
  shape.resize(ndim);
  strides.resize(ndim);
  buffer.view.itemsize = itemsize;
  buffer.view.len = itemsize;  // bytes of the elements (PyBuffer_IsContiguous takes 0 as "empty")
  for (std::size_t k = 0; k < ndim; ++k) {
    const auto at = static_cast<Py_ssize_t>(k);
    const auto len = exact_int(PyTuple_GET_ITEM(sizes.ptr(), at));
    const auto step = exact_int(PyTuple_GET_ITEM(steps.ptr(), at));
    if (!len || !step) return false;
    shape[k] = static_cast<Py_ssize_t>(*len);
    strides[k] = static_cast<Py_ssize_t>(*step * itemsize);
    buffer.view.len *= static_cast<Py_ssize_t>(*len);  // fits: the tensor's bytes do
  }
  buffer.view.buf = PyLong_AsVoidPtr(ptr.ptr());
  if (buffer.view.buf == nullptr && PyErr_Occurred()) PyErr_Clear();
  return true;
}

/// Outputs from this many bytes on are numpy's allocation, not the tensor's framework's: numpy
/// asks for huge pages from 4 MiB on, and a fresh output's page faults then cost more than
/// the exchange saves (docs/perf-torch.md).
constexpr std::int64_t kProducedMaxBytes = std::int64_t{4} << 20;

/// The numpy dtype of an element type numpy has.
nb::object numpy_dtype_of(const ElementType& type) {
  static nb::object make_dtype = nb::module_::import_("numpy").attr("dtype");
  const std::string name = numpy_kind(type) + std::to_string(type.item_bytes());
  return make_dtype(nb::str(name.c_str()));
}

/// padnd.torch.pad's fast path: a tensor read in place (TensorBuffer) whose dtype numpy has
/// (`dtype`, padnd.torch's table; None: read through the DLPack exchange API), F.pad's flat
/// pads; the result is a new tensor of the input's framework where its exchange API makes one
/// (outputs under kProducedMaxBytes), else a new numpy array; None when the general path is
/// needed.
nb::object pad_flat_tensor(nb::handle tensor, nb::handle dtype, nb::handle pads,
                           nb::handle mode_name, nb::handle constant_values) {
  const numpy::ModeRule* mode = fast_mode(mode_name.ptr(), !constant_values.is_none());
  if (mode == nullptr) return nb::none();
  std::optional<ElementType> type;
  Py_ssize_t itemsize = 0;  // unknown until read
  if (!dtype.is_none()) {
    itemsize = nb::cast<Py_ssize_t>(dtype.attr("itemsize"));
    type = native_type(nb::borrow(dtype), itemsize);
    if (!type) return nb::none();
  }
  TensorBuffer in;
  if (!in.get(tensor, itemsize) || fortran_only(in.buffer.view)) return nb::none();
  if (in.type) {  // the tensor's own dtype, one numpy has; a given one must be the same
    if (numpy_kind(*in.type) == '\0' || (type && in.type->dtype != type->dtype)) {
      return nb::none();
    }
    type = in.type;
  }
  const std::shared_ptr<const Plan> plan =
      buffer_plan(in.buffer, *type, pads, true, *mode, constant_values);
  if (!plan) return nb::none();
  const ExecOptions options = on_openmp_runtime({});
  if (in.exchange != nullptr && plan->output_bytes() < kProducedMaxBytes) {
    ProducedTensor out(*in.exchange, plan->output_shape(), in.dtype, in.device);
    if (!out.empty()) {
      run_plan(*plan, in.buffer.view.buf, out.data(), plan->output_bytes(),
               fresh_output_options(options));
      return std::move(out).to_python();
    }
  }
  const nb::object np_dtype = dtype.is_none() ? numpy_dtype_of(*type) : nb::borrow(dtype);
  return write_output(*plan, in.buffer, np_dtype, nb::none(), options);
}

nb::object pad_fast(nb::handle array, nb::handle pad_width, nb::handle mode_name,
                    nb::handle constant_values, int threads, nb::handle out_array) {
  ExecOptions options;
  options.threads = threads;
  return fast_pad(array, pad_width, mode_name, constant_values, options, out_array);
}

/// padnd._padnd._plan_cache_info(): the calling thread's cache, for tests.
nb::dict plan_cache_info() {
  const PlanCacheInfo info = thread_plan_cache().info();
  nb::dict d;
  d["plans"] = nb::cast(info.plan_bytes);
  d["bytes"] = info.bytes;
  d["hits"] = info.hits;
  d["misses"] = info.misses;
  d["max_plans"] = info.limits.max_plans;
  d["max_bytes"] = info.limits.max_bytes;
  d["max_plan_bytes"] = info.limits.max_plan_bytes;
  return d;
}

/// padnd._padnd._plan_cache_reset(...): empties the calling thread's cache and sets its limits
/// (each None: the default), for tests.
void plan_cache_reset(std::optional<std::size_t> max_plans, std::optional<std::int64_t> max_bytes,
                      std::optional<std::int64_t> max_plan_bytes) {
  const PlanCacheLimits defaults;
  thread_plan_cache().reset({max_plans.value_or(defaults.max_plans),
                             max_bytes.value_or(defaults.max_bytes),
                             max_plan_bytes.value_or(defaults.max_plan_bytes)});
}

}  // namespace

void bind_fast_path(nb::module_& m) {
  m.def("pad_fast", &pad_fast, nb::arg("array"), nb::arg("pad_width").none(),
        nb::arg("mode").none(), nb::arg("constant_values").none(), nb::arg("threads"),
        nb::arg("out").none() = nb::none(),
        "numpy.pad for the common cases in one call; None when the general path is needed.");
  m.def("pad_flat_tensor", &pad_flat_tensor, nb::arg("tensor"), nb::arg("dtype").none(),
        nb::arg("pads").none(), nb::arg("mode").none(), nb::arg("constant_values").none(),
        "pad_fast of a CPU tensor read in place (DLPack's exchange API, else data_ptr, shape, "
        "stride), numpy's `dtype`, with F.pad's flat pads (last axis first), all threads (on "
        "the OpenMP runtime _use_openmp_runtime registered, if any); a new tensor of the "
        "input's framework (outputs under 4 MiB, where the exchange API makes one) or numpy "
        "array, or None when the general path is needed.");
  m.def(
      "_use_dlpack_exchange",
      [](bool enabled) {
        const bool was = g_use_exchange;
        g_use_exchange = enabled;
        return was;
      },
      nb::arg("enabled"),
      "Whether pad_flat_tensor may use a tensor type's DLPack exchange API (for tests); returns "
      "the previous setting.");
  m.def("_plan_cache_info", &plan_cache_info,
        "The calling thread's fast-path plan cache: plans (their bytes, most recent first), "
        "bytes, hits, misses and its limits (max_plans, max_bytes, max_plan_bytes).");
  m.def("_plan_cache_reset", &plan_cache_reset, nb::arg("max_plans").none() = nb::none(),
        nb::arg("max_bytes").none() = nb::none(), nb::arg("max_plan_bytes").none() = nb::none(),
        "Empties the calling thread's plan cache and sets its limits (None: the default).");
}

}  // namespace padnd::python
