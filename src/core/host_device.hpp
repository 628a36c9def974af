// SPDX-License-Identifier: Apache-2.0
// Functions that both executors run: compiled for the host everywhere, and for the device too
// when nvcc compiles the CUDA executor (src/executors/cuda).
#pragma once

#ifdef __CUDACC__
#define PADND_HD __host__ __device__
#else
#define PADND_HD
#endif
