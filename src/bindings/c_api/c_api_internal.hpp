// SPDX-License-Identifier: Apache-2.0
// What the C ABI's files share (src/bindings/c_api/c_api.cpp holds the entry points).
#pragma once

#include <cstdint>

#include "padnd/padnd.h"

namespace padnd::c_api {

/// Throws Errc::invalid_argument "<argument>: null pointer" for a null pointer.
void require(const void* pointer, const char* argument);

/// padnd_tensor_from_dlpack's work (throws padnd::Error; the entry point catches).
void tensor_from_dlpack(const void* dltensor, padnd_tensor* out, std::int64_t* byte_strides,
                        std::int32_t capacity);

}  // namespace padnd::c_api
