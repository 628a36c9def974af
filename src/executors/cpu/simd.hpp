// SPDX-License-Identifier: Apache-2.0
// Whether the kernels use SSE2 intrinsics: where the compiler targets SSE2, unless the portable
// scalar build (CMake -DPADND_SCALAR=ON) asks for the code every CPU runs, so that CI tests it.
#pragma once

#if defined(__SSE2__) && !defined(PADND_SCALAR)
#define PADND_SSE2 1
#include <emmintrin.h>
#else
#define PADND_SSE2 0
#endif

// Non-temporal stores of a whole 64-byte line on CPUs that have AVX-512F, and the cached copies
// of medium runs in 32-byte moves on CPUs that have AVX2, chosen at run time (x86-64 with GCC or
// Clang, whose target attribute compiles one function for it).
#if PADND_SSE2 && defined(__x86_64__) && defined(__GNUC__)
#define PADND_AVX512_STREAMS 1
#define PADND_AVX2_COPIES 1
#include <immintrin.h>
namespace padnd::detail {
/// Whether the CPU and the OS support AVX-512F (read once).
inline bool avx512_streams() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return supported;
}
/// Whether the CPU and the OS support AVX2 (read once).
inline bool avx2_copies() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return supported;
}
}  // namespace padnd::detail
#else
#define PADND_AVX512_STREAMS 0
#define PADND_AVX2_COPIES 0
#endif
