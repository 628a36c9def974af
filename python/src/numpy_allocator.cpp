// SPDX-License-Identifier: Apache-2.0
// numpy arrays whose memory is the output cache's (output_cache.hpp): a numpy memory handler
// (NEP 49) installed only while padnd allocates an output. numpy keeps each array's handler and
// frees through it, so an output's buffer returns to the cache when the array is freed, and
// the array is an ordinary one that owns its data.
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#include "numpy_allocator.hpp"

#include <nanobind/nanobind.h>
#include <numpy/arrayobject.h>

#include <cstdlib>
#include <cstring>

#include "output_cache.hpp"

namespace nb = nanobind;

namespace padnd::python {
namespace {

thread_local bool t_reused = false;  ///< whether this thread's last cached allocation reused
thread_local bool t_bypass = false;  ///< this thread's outputs are numpy's (bench: cold outputs)

void* cached_malloc(void*, std::size_t size) {
  if (size < kCachedOutputMinBytes) return std::malloc(size == 0 ? 1 : size);
  return take_output(size, t_reused);
}

void* cached_calloc(void*, std::size_t count, std::size_t item_bytes) {
  if (item_bytes != 0 && count > SIZE_MAX / item_bytes) return nullptr;
  const std::size_t size = count * item_bytes;
  if (size < kCachedOutputMinBytes) return std::calloc(count == 0 ? 1 : count, item_bytes);
  void* memory = take_output(size, t_reused);
  if (memory != nullptr && t_reused) std::memset(memory, 0, size);  // new mappings are zero
  return memory;
}

void* cached_realloc(void* context, void* memory, std::size_t size) {
  const std::size_t held = memory == nullptr ? 0 : output_bytes(memory);
  if (memory != nullptr && held == 0) return std::realloc(memory, size);  // malloc's
  void* moved = cached_malloc(context, size);
  if (moved != nullptr && memory != nullptr) {
    std::memcpy(moved, memory, held < size ? held : size);
    give_output(memory);
  }
  return moved;
}

void cached_free(void*, void* memory, std::size_t) {
  if (memory != nullptr && !give_output(memory)) std::free(memory);
}

PyDataMem_Handler g_handler = {
    "padnd_output_cache", 1, {nullptr, cached_malloc, cached_calloc, cached_realloc, cached_free}};

/// The handler as numpy takes it (a "mem_handler" capsule), and numpy's C API loaded.
PyObject* handler_capsule() {
  static PyObject* capsule = [] {
    if (PyArray_ImportNumPyAPI() < 0) throw nb::python_error();
    PyObject* made = PyCapsule_New(&g_handler, "mem_handler", nullptr);
    if (made == nullptr) throw nb::python_error();
    return made;  // kept for the process's life, as numpy keeps handlers of live arrays
  }();
  return capsule;
}

}  // namespace

nb::object empty_output(nb::handle shape, nb::handle dtype, nb::handle order, std::int64_t bytes,
                        bool& fresh) {
  static nb::object numpy_empty = nb::module_::import_("numpy").attr("empty");
  fresh = true;
  if (t_bypass || bytes < static_cast<std::int64_t>(kCachedOutputMinBytes) ||
      output_cache_info().settings.limit_bytes == 0) {
    return numpy_empty(shape, dtype, order);
  }
  PyObject* handler = handler_capsule();  // first: it loads the API table the call reads
  PyObject* previous = PyDataMem_SetHandler(handler);
  if (previous == nullptr) throw nb::python_error();
  t_reused = false;
  PyObject* array = PyObject_CallFunctionObjArgs(numpy_empty.ptr(), shape.ptr(), dtype.ptr(),
                                                 order.ptr(), nullptr);
  PyObject* ours = PyDataMem_SetHandler(previous);  // back to the caller's policy
  Py_DECREF(previous);
  Py_XDECREF(ours);
  if (array == nullptr) throw nb::python_error();
  fresh = !t_reused;
  return nb::steal(array);
}

void bind_output_cache(nb::module_& m) {
  m.def(
      "empty_output",
      [](nb::handle shape, nb::handle dtype, nb::handle order, std::int64_t bytes) {
        bool fresh = true;
        nb::object array = empty_output(shape, dtype, order, bytes, fresh);
        return nb::make_tuple(array, fresh);
      },
      nb::arg("shape"), nb::arg("dtype"), nb::arg("order"), nb::arg("bytes"),
      "(numpy.empty(shape, dtype, order) of `bytes` bytes, whether its memory is fresh): from "
      "the output cache when it is on and the array large enough.");
  m.def(
      "set_output_cache",
      [](std::int64_t limit_bytes, double idle_seconds) {
        const OutputCacheSettings before = set_output_cache({limit_bytes, idle_seconds});
        return nb::make_tuple(before.limit_bytes, before.idle_seconds);
      },
      nb::arg("limit_bytes"), nb::arg("idle_seconds"),
      "Sets the output cache's byte limit (0: off) and idle time; returns the settings before.");
  m.def(
      "bypass_output_cache", [](bool bypass) { t_bypass = bypass; }, nb::arg("bypass"),
      "Whether the calling thread's outputs skip the cache (numpy's fresh memory): for "
      "bench/peers.py's cold outputs, without emptying the cache other calls use.");
  m.def("output_cache_info", [] {
    const OutputCacheInfo info = output_cache_info();
    nb::dict d;
    d["limit_bytes"] = info.settings.limit_bytes;
    d["idle_seconds"] = info.settings.idle_seconds;
    d["held_bytes"] = info.held_bytes;
    d["held_buffers"] = info.held_buffers;
    d["reused"] = info.reused;
    d["mapped"] = info.mapped;
    return d;
  });
}

}  // namespace padnd::python
