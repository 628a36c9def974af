// SPDX-License-Identifier: Apache-2.0
// padnd's CUDA executor for python/padnd/_cuda.py: plans made as for the CPU, written on a CUDA
// device on the caller's stream; device buffers for results no framework allocates; and the
// stream ordering DLPack's protocol asks of a producer. In a build without CUDA every call but
// cuda_available throws padnd's "built without its CUDA executor" error.
#include "padnd/cuda.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "numpy_args.hpp"
#include "padnd/padnd.hpp"
#include "src/executors/cuda/runtime.hpp"

namespace nb = nanobind;

namespace {

using Ints = std::vector<std::int64_t>;
namespace device_runtime = padnd::detail::cuda;

/// A DLPack stream number as a cudaStream_t: 1 and 2 are the runtime's own handles of the legacy
/// and per-thread default streams (cudaStreamLegacy, cudaStreamPerThread), others are handles.
void* stream_handle(std::int64_t stream) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(stream));
}

/// Pads the device tensor at in_address by `spec` into out_address on `device`, queued on
/// `stream`: the whole output (dense, out_bytes), or a window of it, dense or at out_strides.
void execute_spec(const padnd::PadSpec& spec, std::uintptr_t in_address,
                  const std::string& type_name, const Ints& shape, const Ints& byte_strides,
                  std::uintptr_t out_address, std::int64_t out_bytes, int device,
                  std::int64_t stream, std::optional<Ints> window_start,
                  std::optional<Ints> window_shape, std::optional<Ints> out_strides) {
  const padnd::Plan plan =
      padnd::make_plan(padnd::python::parse_type(type_name), shape, byte_strides, spec);
  const device_runtime::CurrentDevice scope(device);
  const auto* in = reinterpret_cast<const void*>(in_address);
  auto* out = reinterpret_cast<void*>(out_address);
  if (!window_start) {
    padnd::cuda::execute(plan, in, out, out_bytes, stream_handle(stream));
    return;
  }
  const padnd::Window window{*window_start, window_shape.value_or(Ints{})};
  if (out_strides) {
    padnd::cuda::execute_window(plan, in, window, out, *out_strides, stream_handle(stream));
  } else {
    padnd::cuda::execute_window(plan, in, window, out, out_bytes, stream_handle(stream));
  }
}

/// (owner, address) of `bytes` of new memory on `device`; the owner frees it when collected.
nb::tuple device_buffer(int device, std::int64_t bytes) {
  const device_runtime::CurrentDevice scope(device);
  void* memory = device_runtime::allocate(bytes);
  nb::capsule owner(memory, [](void* p) noexcept { device_runtime::release(p); });
  return nb::make_tuple(owner, reinterpret_cast<std::uintptr_t>(memory));
}

void stream_wait(int device, std::int64_t producer, std::int64_t consumer) {
  const device_runtime::CurrentDevice scope(device);
  device_runtime::stream_wait(stream_handle(producer), stream_handle(consumer));
}

}  // namespace

void bind_cuda(nb::module_& m) {
  m.def("cuda_built", &device_runtime::built,
        "Whether this build has the CUDA executor (PADND_CUDA), with a device or not.");
  m.def("cuda_available", &padnd::cuda::available,
        "Whether this build has the CUDA executor and the process sees a CUDA device.");
  m.def("cuda_execute_spec", &execute_spec, nb::arg("spec"), nb::arg("in_address"),
        nb::arg("type_name"), nb::arg("shape"), nb::arg("byte_strides"), nb::arg("out_address"),
        nb::arg("out_bytes"), nb::arg("device"), nb::arg("stream"),
        nb::arg("window_start").none() = nb::none(), nb::arg("window_shape").none() = nb::none(),
        nb::arg("out_strides").none() = nb::none(),
        "execute_spec on CUDA device memory of `device`, queued on DLPack stream `stream` (1: "
        "the legacy default stream, 2: the per-thread one, else a cudaStream_t).");
  m.def("cuda_buffer", &device_buffer, nb::arg("device"), nb::arg("bytes"),
        "(owner, address) of new device memory; collecting the owner frees it (cudaFree).");
  m.def("cuda_stream_wait", &stream_wait, nb::arg("device"), nb::arg("producer"),
        nb::arg("consumer"),
        "Orders later work on DLPack stream `consumer` after the work queued on `producer`.");
}
