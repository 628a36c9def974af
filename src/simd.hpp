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
