# The CUDA executor (docs/gpu.md). PADND_CUDA: ON (nvcc required), OFF, or AUTO (on when CMake
# finds nvcc). Without it, src/executors/cuda/no_cuda.cpp stands in for the device side and
# padnd::cuda's calls throw. Sets PADND_CUDA_ENABLED and appends the executor's sources.
set(PADND_CUDA AUTO CACHE STRING "Build the CUDA executor: ON, OFF or AUTO (when nvcc is found)")
set_property(CACHE PADND_CUDA PROPERTY STRINGS AUTO ON OFF)
set(PADND_CUDA_ENABLED OFF)
if(PADND_CUDA STREQUAL "ON" OR PADND_CUDA STREQUAL "AUTO")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(PADND_CUDA_ENABLED ON)
  elseif(PADND_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PADND_CUDA=ON: no CUDA compiler found (set CMAKE_CUDA_COMPILER to nvcc)")
  endif()
endif()

if(PADND_CUDA_ENABLED)
  # sm_90 (H100, H200): SASS for it and PTX that newer GPUs compile at load.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # cudart is linked statically into every binary (CMake's default): they run on a GPU machine
  # that has the driver and nothing else.
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  list(APPEND PADND_SOURCES src/executors/cuda/cuda_executor.cu
    src/executors/cuda/device_runtime.cpp)
  # -Xptxas -v: registers, stack and spills of every kernel, which scripts/check_ptxas.py reads.
  # C++20 by flag: CMake 3.25 knows no CUDA20 dialect for nvcc 13.
  set(PADND_CUDA_FLAGS -std=c++20 --expt-relaxed-constexpr -Xptxas -v)
else()
  list(APPEND PADND_SOURCES src/executors/cuda/no_cuda.cpp)
endif()
