// SPDX-License-Identifier: Apache-2.0
// DLPack's C exchange API (see dlpack_exchange.hpp).
#include "dlpack_exchange.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace nb = nanobind;

namespace padnd::python {

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  nb::dlpack::dltensor dl_tensor;
};

struct DLPackExchangeApi {
  struct Header {
    DLPackVersion version;
    Header* prev_api;  // an older version's table, or null
  } header;
  int (*managed_tensor_allocator)(nb::dlpack::dltensor* prototype, DLManagedTensorVersioned** out,
                                  void* error_context,
                                  void (*set_error)(void* error_context, const char* kind,
                                                    const char* message));
  int (*managed_tensor_from_py_object_no_sync)(void* py_object, DLManagedTensorVersioned** out);
  int (*managed_tensor_to_py_object_no_sync)(DLManagedTensorVersioned* tensor,
                                             void** out_py_object);
  int (*dltensor_from_py_object_no_sync)(void* py_object, nb::dlpack::dltensor* out);
  int (*current_work_stream)(std::int32_t device_type, std::int32_t device_id, void** out_stream);
};

// dlpack.h's layout on LP64.
static_assert(sizeof(void*) != 8 || (sizeof(nb::dlpack::dltensor) == 48 &&
                                     offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
                                     offsetof(DLPackExchangeApi, current_work_stream) == 48));

const DLPackExchangeApi* exchange_api(PyTypeObject* type) {
  static PyTypeObject* asked = nullptr;  // the type last asked (alive: its tensor is)
  static const DLPackExchangeApi* api = nullptr;
  if (type == asked) return api;
  const DLPackExchangeApi* found = nullptr;
  PyObject* capsule =
      PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__dlpack_c_exchange_api__");
  if (capsule != nullptr) {
    found =
        static_cast<const DLPackExchangeApi*>(PyCapsule_GetPointer(capsule, "dlpack_exchange_api"));
    Py_DECREF(capsule);  // the table is static in the producer's library, not the capsule's
  }
  PyErr_Clear();
  // The table's layout is DLPack 1.3's, the first with it; a later 1.x only appends. padnd
  // uses its view, allocator and hand-back (dlpack.h lets a producer leave the view out).
  if (found != nullptr && (found->header.version.major != 1 || found->header.version.minor < 3 ||
                           found->dltensor_from_py_object_no_sync == nullptr ||
                           found->managed_tensor_allocator == nullptr ||
                           found->managed_tensor_to_py_object_no_sync == nullptr)) {
    found = nullptr;
  }
  // A type that is freed could give its address to another: keep the one remembered alive.
  Py_INCREF(type);
  if (asked != nullptr) Py_DECREF(asked);
  asked = type;
  api = found;
  return api;
}

bool exchange_view(const DLPackExchangeApi& api, PyObject* tensor, nb::dlpack::dltensor& view) {
  if (api.dltensor_from_py_object_no_sync(tensor, &view) == 0) return true;
  PyErr_Clear();
  return false;
}

namespace {

/// The allocator's error callback: the message becomes the caller's Python error.
void set_allocation_error(void* /*error_context*/, const char* kind, const char* message) {
  PyObject* type = PyExc_RuntimeError;
  if (kind != nullptr && std::string_view(kind) == "MemoryError") type = PyExc_MemoryError;
  PyErr_SetString(type, message);
}

/// Whether a tensor of `shape` with element `strides` (null: compact) is C-contiguous (an empty
/// one always is: its strides address nothing).
bool c_contiguous(std::span<const std::int64_t> shape, const std::int64_t* strides) {
  if (strides == nullptr || std::find(shape.begin(), shape.end(), 0) != shape.end()) return true;
  std::int64_t expected = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] != 1 && strides[k] != expected) return false;
    expected *= shape[k];
  }
  return true;
}

}  // namespace

ProducedTensor::ProducedTensor(const DLPackExchangeApi& api, std::span<const std::int64_t> shape,
                               nb::dlpack::dtype dtype, nb::dlpack::device device)
    : api_(&api) {
  std::vector<std::int64_t> dims(shape.begin(), shape.end());
  nb::dlpack::dltensor prototype;
  prototype.device = device;
  prototype.ndim = static_cast<std::int32_t>(dims.size());
  prototype.dtype = dtype;
  prototype.shape = dims.data();
  DLManagedTensorVersioned* managed = nullptr;
  if (api.managed_tensor_allocator(&prototype, &managed, nullptr, set_allocation_error) != 0) {
    throw nb::python_error();  // the allocator failed: its error is set
  }
  managed_.reset(managed);
  const nb::dlpack::dltensor& t = managed->dl_tensor;
  if (t.ndim != prototype.ndim || t.byte_offset != 0 || !(t.dtype == dtype) ||
      !c_contiguous(shape, t.strides) || !std::equal(shape.begin(), shape.end(), t.shape)) {
    managed_.reset();
  }
}

void* ProducedTensor::data() const { return managed_->dl_tensor.data; }

nb::object ProducedTensor::to_python() && {
  void* object = nullptr;
  // The producer takes ownership of the managed tensor (dlpack.h: it is stolen).
  if (api_->managed_tensor_to_py_object_no_sync(managed_.release(), &object) != 0) {
    throw nb::python_error();
  }
  return nb::steal(static_cast<PyObject*>(object));
}

void ProducedTensor::Deleter::operator()(DLManagedTensorVersioned* managed) const {
  if (managed->deleter != nullptr) managed->deleter(managed);
}

}  // namespace padnd::python
