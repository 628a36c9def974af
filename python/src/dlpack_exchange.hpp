// SPDX-License-Identifier: Apache-2.0
// DLPack's C exchange API (DLPack 1.3): a framework's tensor type carries a capsule
// `__dlpack_c_exchange_api__` of C functions that view one of its tensors as a DLTensor,
// allocate a new tensor in the framework, and hand a managed tensor back as a Python object,
// without the Python calls and capsules of `__dlpack__`. padnd.torch's one-call forward reads
// its input and makes its result through it where torch offers it (docs/frameworks.md).
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <memory>
#include <span>

namespace padnd::python {

/// The functions of a framework's exchange API, as dlpack.h 1.3 lays them out (a stable ABI).
struct DLPackExchangeApi;

/// A managed tensor of DLPack 1.0 and later (DLManagedTensorVersioned).
struct DLManagedTensorVersioned;

/// The exchange API of tensors of exactly `type` (version 1.3 or a later 1.x, with the view,
/// the allocator and the hand-back), or null where it has none. The last type asked is
/// remembered: a call costs a pointer comparison after the first.
const DLPackExchangeApi* exchange_api(PyTypeObject* type);

/// A view of `tensor`'s memory; dlpack.h promises it until control returns to the producer's
/// caller (padnd uses it within the call that holds `tensor`). False (no Python error set) where
/// the producer refuses it.
bool exchange_view(const DLPackExchangeApi& api, PyObject* tensor,
                   nanobind::dlpack::dltensor& view);

/// A new tensor made by the producer of `api`, owned until it is handed to Python.
class ProducedTensor {
 public:
  /// A new C-contiguous tensor of `shape`, `dtype` and `device` from the producer's allocator;
  /// empty (no Python error set) where the producer refuses or returns another layout.
  ProducedTensor(const DLPackExchangeApi& api, std::span<const std::int64_t> shape,
                 nanobind::dlpack::dtype dtype, nanobind::dlpack::device device);
  [[nodiscard]] bool empty() const { return !managed_; }
  [[nodiscard]] void* data() const;
  /// The producer's Python object for the tensor (ownership passes to it).
  nanobind::object to_python() &&;

 private:
  struct Deleter {
    void operator()(DLManagedTensorVersioned* managed) const;
  };
  const DLPackExchangeApi* api_;
  std::unique_ptr<DLManagedTensorVersioned, Deleter> managed_;
};

}  // namespace padnd::python
