// SPDX-License-Identifier: Apache-2.0
// DLPack in and out for python/padnd/_dlpack.py: any object with __dlpack__ (torch, JAX, CuPy,
// array-api-strict) is read where it lies, and a result goes back to the caller's framework as a
// DLPack producer it imports without a copy.
//
// Why nanobind's nb::ndarray and not the C API's consumer (padnd_tensor_from_dlpack): nb::ndarray
// does the Python half of the protocol, which that consumer does not (calling __dlpack__ with
// max_version, versioned and unversioned capsules, the read-only flag, the producer's deleter),
// keeps the capsule alive as a Python object, and exports as well; it carries any DLPack type
// code, so bfloat16 and the float8 types pass through (padnd moves their bits).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "padnd/error.hpp"
#include "src/core/checked.hpp"

namespace nb = nanobind;

namespace {

using Ints = std::vector<std::int64_t>;

/// (owner, address, (type code, bits, lanes), shape, byte strides, (device type, device id)):
/// the owner keeps the producer's memory alive for as long as Python holds it. Errors name
/// `name` (the argument).
template <class Array>
nb::tuple describe(const Array& tensor, const std::string& name) {
  const std::int64_t item_bytes = (tensor.dtype().bits + 7) / 8;
  Ints shape, byte_strides;
  for (std::size_t axis = 0; axis < tensor.ndim(); ++axis) {
    shape.push_back(tensor.shape(axis));
    const std::optional<std::int64_t> bytes =
        padnd::detail::checked_mul(tensor.stride(axis), item_bytes);
    if (!bytes) {
      throw padnd::Error(padnd::Errc::overflow,
                         name + ": axis " + std::to_string(axis) + ": DLPack stride " +
                             std::to_string(tensor.stride(axis)) + " of " +
                             std::to_string(item_bytes) + "-byte elements overflows int64 bytes");
    }
    byte_strides.push_back(*bytes);
  }
  const nb::dlpack::dtype type = tensor.dtype();
  // The C ABI's check of the first element's address (padnd_tensor_from_dlpack).
  const std::optional<const char*> data =
      padnd::detail::checked_offset(tensor.data_handle(), tensor.byte_offset());
  if (!data) {
    throw padnd::Error(padnd::Errc::overflow,
                       name + ": DLPack byte_offset " + std::to_string(tensor.byte_offset()) +
                           " past data address " +
                           std::to_string(reinterpret_cast<std::uintptr_t>(tensor.data_handle())) +
                           " leaves the address space or int64");
  }
  // The owner holds the imported managed tensor (a capsule source gives nanobind no owner).
  return nb::make_tuple(nb::cast(tensor, nb::rv_policy::reference),
                        reinterpret_cast<std::uintptr_t>(*data),
                        nb::make_tuple(type.code, type.bits, type.lanes), shape, byte_strides,
                        nb::make_tuple(tensor.device_type(), tensor.device_id()));
}

/// A DLPack producer for the array at `address` (shape, byte strides) that `owner` keeps alive,
/// typed as DLPack's (code, bits), on DLPack device (device_type, device_id). A CUDA producer's
/// __dlpack__ (nanobind's) ignores a stream: python/padnd/_cuda.py orders the consumer's first.
nb::object export_tensor(nb::handle owner, std::uintptr_t address, std::uint8_t code,
                         std::uint8_t bits, const Ints& shape, const Ints& byte_strides,
                         int device_type, int device_id) {
  const std::int64_t item_bytes = (bits + 7) / 8;
  std::vector<std::size_t> dims;
  Ints strides;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    dims.push_back(static_cast<std::size_t>(shape[axis]));
    strides.push_back(byte_strides[axis] / item_bytes);
  }
  // array_api: a nanobind.nb_ndarray object (with __dlpack__), not a bare capsule.
  const nb::ndarray<nb::array_api> tensor(reinterpret_cast<void*>(address), dims.size(),
                                          dims.data(), owner, strides.data(),
                                          nb::dlpack::dtype{code, bits, 1}, device_type, device_id);
  return nb::cast(tensor);
}

/// The head of DLPack 1.0's DLManagedTensorVersioned (dlpack.h), up to its flags.
struct ManagedTensorVersionedHead {
  std::uint32_t major, minor;
  void* manager_ctx;
  void (*deleter)(void*);
  std::uint64_t flags;
};
constexpr std::uint64_t kReadOnlyFlag = 1;  // dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY

/// Whether `tensor`'s producer states that its memory may be written: a versioned (DLPack 1.0)
/// capsule without the read-only flag. An unversioned capsule cannot say so (JAX 0.10 exports
/// its immutable arrays that way), so padnd does not write into one.
bool states_writable(nb::handle tensor) {
  nb::object capsule;
  try {
    capsule = tensor.attr("__dlpack__")(nb::arg("max_version") = nb::make_tuple(1, 0));
  } catch (const nb::python_error&) {
    return false;  // producers before DLPack 1.0 take no max_version
  }
  if (PyCapsule_IsValid(capsule.ptr(), "dltensor_versioned") == 0) return false;
  const auto* head = static_cast<const ManagedTensorVersionedHead*>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor_versioned"));
  return (head->flags & kReadOnlyFlag) == 0;  // the capsule's destructor returns the tensor
}

/// `tensor.__dlpack__()`'s capsule, asked for as nanobind asks: unversioned first for a
/// read-only import, versioned (DLPack 1.0) first for a writable one, each falling back to the
/// other where the producer refuses it (BufferError, or TypeError before max_version). A device
/// tensor is asked with `stream` (DLPack's stream protocol: the producer orders its pending work
/// before the consumer's stream); a CPU tensor with none.
nb::object capsule_of(nb::handle tensor, bool versioned_first, std::optional<std::int64_t> stream) {
  const nb::object dlpack = tensor.attr("__dlpack__");
  const auto call = [&](bool versioned) {
    nb::kwargs arguments;
    if (stream) arguments["stream"] = *stream;
    if (versioned) {
      arguments["max_version"] =
          nb::make_tuple(nb::dlpack::major_version, nb::dlpack::minor_version);
    }
    return dlpack(**arguments);
  };
  try {
    return call(versioned_first);
  } catch (const nb::python_error& e) {
    if (!e.matches(PyExc_BufferError) && !e.matches(PyExc_TypeError)) throw;
  }
  return call(!versioned_first);
}

/// Imports `tensor` without copying, through a capsule padnd asks for itself: nanobind then
/// renames it "used_dltensor" as DLPack says, so a producer that hands out the same capsule
/// again is refused (its managed tensor is the first import's), and the capsule's own DLTensor
/// gives the device, whatever __dlpack_device__ said: the CPU, or with `stream` a CUDA device.
/// Errors name `name`.
template <class Array>
nb::tuple import_tensor(nb::handle tensor, const std::string& name, bool writable,
                        std::optional<std::int64_t> stream = std::nullopt) {
  const nb::object capsule = capsule_of(tensor, writable, stream);
  const char* kind = PyCapsule_CheckExact(capsule.ptr()) ? PyCapsule_GetName(capsule.ptr()) : "";
  if (kind != nullptr && std::string_view(kind).starts_with("used_")) {
    throw nb::value_error((name +
                           ": its __dlpack__ returned a capsule that was imported before "
                           "(named '" +
                           kind + "'): a DLPack capsule is imported once")
                              .c_str());
  }
  Array array;
  if (!nb::try_cast(capsule, array, false)) {
    throw nb::type_error((name + ": nanobind cannot import its DLPack capsule").c_str());
  }
  const int expected = stream ? nb::device::cuda::value : nb::device::cpu::value;
  if (array.device_type() != expected) {
    throw nb::value_error((name + ": its DLPack capsule holds a tensor on device type " +
                           std::to_string(array.device_type()) + " (device " +
                           std::to_string(array.device_id()) +
                           "), though its __dlpack_device__ says " + (stream ? "CUDA" : "the CPU"))
                              .c_str());
  }
  return describe(array, name);
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  m.def(
      "dlpack_import",
      [](nb::handle tensor, const std::string& name) {
        return import_tensor<nb::ndarray<nb::ro>>(tensor, name, false);
      },
      nb::arg("tensor"), nb::arg("name"),
      "Imports a DLPack tensor read-only, without copying: (owner, address, (code, bits, "
      "lanes), shape, byte strides, (device type, device id)). Errors name `name`.");
  m.def(
      "dlpack_import_writable",
      [](nb::handle tensor, const std::string& name) {
        return import_tensor<nb::ndarray<>>(tensor, name, true);
      },
      nb::arg("tensor"), nb::arg("name"),
      "dlpack_import of a tensor that must be writable (refused if the producer marks it "
      "read-only).");
  m.def(
      "dlpack_import_cuda",
      [](nb::handle tensor, const std::string& name, bool writable, std::int64_t stream) {
        return writable ? import_tensor<nb::ndarray<>>(tensor, name, true, stream)
                        : import_tensor<nb::ndarray<nb::ro>>(tensor, name, false, stream);
      },
      nb::arg("tensor"), nb::arg("name"), nb::arg("writable"), nb::arg("stream"),
      "dlpack_import of a tensor in CUDA memory, asking its producer to order its work before "
      "`stream` (DLPack's stream protocol: 1 the legacy default stream, else a cudaStream_t).");
  m.def("dlpack_states_writable", &states_writable, nb::arg("tensor"),
        "Whether the DLPack producer states that the tensor may be written (DLPack 1.0, no "
        "read-only flag).");
  m.def("dlpack_export", &export_tensor, nb::arg("owner"), nb::arg("address"), nb::arg("code"),
        nb::arg("bits"), nb::arg("shape"), nb::arg("byte_strides"),
        nb::arg("device_type") = nb::device::cpu::value, nb::arg("device_id") = 0,
        "A DLPack producer (__dlpack__, __dlpack_device__) for the memory at `address` that "
        "`owner` keeps alive, typed as DLPack's (code, bits), on DLPack's (device_type, "
        "device_id): the CPU by default.");
}
