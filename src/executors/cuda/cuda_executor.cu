// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's device side: the __global__ shims over run_thread (kernel_bodies.hpp), the
// device image's upload and the launch. Compiled by nvcc only (PADND_CUDA).
#include <cuda_runtime.h>

#include <string>

#include "executors/cuda/device_program.hpp"
#include "executors/cuda/kernel_bodies.hpp"
#include "executors/cuda/launch.hpp"
#include "padnd/error.hpp"

namespace padnd::detail::cuda {
namespace {

/// Global memory through naturally aligned V-byte accesses (the host chose V to make them so).
struct DeviceMemory {
  const std::byte* in;
  std::byte* out;
  template <int V>
  PADND_HD Bits<V> load(std::int64_t offset) const {
    return *reinterpret_cast<const Bits<V>*>(in + offset);
  }
  template <int V>
  PADND_HD void store(std::int64_t offset, Bits<V> bits) const {
    *reinterpret_cast<Bits<V>*>(out + offset) = bits;
  }
};

template <int V>
__global__ void __launch_bounds__(kThreadsPerBlock)
    pad_kernel(KernelArgs args, const std::byte* in, std::byte* out) {
  run_thread<V>(args, DeviceMemory{in, out}, blockIdx.x, threadIdx.x, gridDim.x, blockDim.x);
}

void check_cuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  throw Error(status == cudaErrorMemoryAllocation ? Errc::out_of_memory : Errc::invalid_argument,
              std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

/// Throws unless `pointer` is device (or managed) memory, naming `argument`.
void check_device_pointer(const void* pointer, const char* argument) {
  cudaPointerAttributes attributes{};
  check_cuda(cudaPointerGetAttributes(&attributes, pointer), argument);
  if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged) {
    throw Error(Errc::invalid_argument,
                std::string(argument) +
                    ": not device memory; the CUDA executor reads and writes device memory "
                    "(padnd::execute pads host memory)");
  }
}

int multiprocessors() {
  int device = 0;
  int count = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute");
  return count;
}

}  // namespace

bool runtime_available() noexcept {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

void launch(const Plan& plan, const void* in, void* out, void* stream_handle) {
  if (in != nullptr) check_device_pointer(in, "input");  // null: an empty input (checked)
  check_device_pointer(out, "output");
  const int width = vector_bytes_for(plan, in, out);
  const DeviceImage image = flatten(plan, width);
  if (image.args.items == 0) return;
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  void* tables = nullptr;
  check_cuda(cudaMallocAsync(&tables, image.bytes.size(), stream), "cudaMallocAsync");
  // From pageable memory: the call returns once the bytes are staged, so `image` may go.
  check_cuda(cudaMemcpyAsync(tables, image.bytes.data(), image.bytes.size(), cudaMemcpyHostToDevice,
                             stream),
             "cudaMemcpyAsync");
  const KernelArgs args = bind(image, static_cast<const std::byte*>(tables), out);
  const auto blocks = static_cast<unsigned>(grid_blocks(args.items, multiprocessors()));
  with_kernel(plan.type().packed() ? 0 : width, [&](auto kernel) {
    pad_kernel<decltype(kernel)::value><<<blocks, kThreadsPerBlock, 0, stream>>>(
        args, static_cast<const std::byte*>(in), static_cast<std::byte*>(out));
  });
  check_cuda(cudaGetLastError(), "kernel launch");
  check_cuda(cudaFreeAsync(tables, stream), "cudaFreeAsync");
}

}  // namespace padnd::detail::cuda
