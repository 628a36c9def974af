// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's device side: the __global__ shims over run_thread (kernel_bodies.hpp), the
// device image's upload and the launch. Compiled by nvcc only (PADND_CUDA).
#include <cuda_runtime.h>

#include <algorithm>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "executors/cuda/check_cuda.hpp"
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
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  if (attributes.type == cudaMemoryTypeDevice && attributes.device != device) {
    // The kernel runs on the current device: another device's memory faults it (no peer access).
    throw Error(Errc::invalid_argument, std::string(argument) + ": memory of CUDA device " +
                                            std::to_string(attributes.device) +
                                            ", not of the current device " +
                                            std::to_string(device) + " (cudaSetDevice)");
  }
}

/// The current device's SM count, asked once per device.
int multiprocessors() {
  static std::mutex mutex;
  static std::map<int, int> counts;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto known = counts.find(device); known != counts.end()) return known->second;
  int count = 0;
  check_cuda(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute");
  return counts[device] = count;
}

/// Device copies of flattened plans, keyed by device and image bytes: a plan executed again (a
/// loop of pads, a layer of a model run per batch) is copied once per device. At most
/// kCachedImages entries per device, least recently used first out; evicting waits for the device,
/// so no launch on any stream still reads what is freed.
class ImageCache {
 public:
  static constexpr std::size_t kCachedImages = 64;

  /// Held by the caller from acquire until the kernel that reads the copy is queued: another
  /// thread's eviction would free it in between (its device sync sees no launch yet).
  std::mutex& mutex() { return mutex_; }

  /// The device copy of `bytes` on the current device, ordered before later work on `stream`.
  /// The caller holds mutex().
  const std::byte* acquire(const std::vector<std::byte>& bytes, cudaStream_t stream) {
    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->device == device && it->bytes == bytes) {
        entries_.splice(entries_.begin(), entries_, it);  // most recently used
        check_cuda(cudaStreamWaitEvent(stream, it->ready, 0), "cudaStreamWaitEvent");
        return it->copy;
      }
    }
    const auto on_device = std::count_if(entries_.begin(), entries_.end(),
                                         [&](const Entry& e) { return e.device == device; });
    if (static_cast<std::size_t>(on_device) >= kCachedImages) evict_all(device);
    return upload(device, bytes, stream);
  }

 private:
  struct Entry {
    int device;
    std::vector<std::byte> bytes;
    std::byte* copy;
    cudaEvent_t ready;  ///< recorded after the upload
  };

  const std::byte* upload(int device, const std::vector<std::byte>& bytes, cudaStream_t stream) {
    Entry entry{device, bytes, nullptr, nullptr};
    check_cuda(cudaMalloc(&entry.copy, bytes.size()), "cudaMalloc");
    check_cuda(cudaEventCreateWithFlags(&entry.ready, cudaEventDisableTiming), "cudaEventCreate");
    // From pageable memory: the call returns once the bytes are staged.
    check_cuda(
        cudaMemcpyAsync(entry.copy, bytes.data(), bytes.size(), cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync");
    check_cuda(cudaEventRecord(entry.ready, stream), "cudaEventRecord");
    entries_.push_front(std::move(entry));
    return entries_.front().copy;
  }

  /// Frees every entry of `device` once the device has finished what it was given.
  void evict_all(int device) {
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->device != device) {
        ++it;
        continue;
      }
      cudaFree(it->copy);
      cudaEventDestroy(it->ready);
      it = entries_.erase(it);
    }
  }

  std::mutex mutex_;
  std::list<Entry> entries_;
};

/// The process's cache, never destroyed: the CUDA runtime may be gone at exit.
ImageCache& image_cache() {
  static auto* cache = new ImageCache;
  return *cache;
}

}  // namespace

bool runtime_available() noexcept {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

void launch(const Plan& plan, const void* in, void* out, void* stream_handle) {
  int devices = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&devices);
      status != cudaSuccess || devices == 0) {
    throw Error(Errc::invalid_argument,
                std::string("cuda: no CUDA device is visible to this process (") +
                    (status == cudaSuccess ? "none found" : cudaGetErrorString(status)) + ")");
  }
  if (in != nullptr) check_device_pointer(in, "input");  // null: an empty input (checked)
  check_device_pointer(out, "output");
  const int width = vector_bytes_for(plan, in, out);
  const DeviceImage image = flatten(plan, width);
  if (image.args.items == 0) return;
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  ImageCache& cache = image_cache();
  const std::lock_guard<std::mutex> lock(cache.mutex());
  const std::byte* tables = cache.acquire(image.bytes, stream);
  const KernelArgs args = bind(image, tables, out);
  const auto blocks = static_cast<unsigned>(grid_blocks(args.items, multiprocessors()));
  with_kernel(plan.type().packed() ? 0 : width, [&](auto kernel) {
    pad_kernel<decltype(kernel)::value><<<blocks, kThreadsPerBlock, 0, stream>>>(
        args, static_cast<const std::byte*>(in), static_cast<std::byte*>(out));
  });
  check_cuda(cudaGetLastError(), "kernel launch");
}

}  // namespace padnd::detail::cuda
