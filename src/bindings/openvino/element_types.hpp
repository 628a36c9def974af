// SPDX-License-Identifier: Apache-2.0
// OpenVINO's element types as padnd's (docs/runtimes.md): the same bits, so padnd moves them.
#pragma once

#include <openvino/core/type/element_type.hpp>

#include "padnd/element_type.hpp"

namespace padnd::openvino_extension {

/// padnd's type with `type`'s storage; throws ov::Exception naming `argument` for the types
/// padnd does not store (u1, u3, u6: packed in widths it has no kernels for; dynamic).
ElementType padnd_type(const ov::element::Type& type, const char* argument);

}  // namespace padnd::openvino_extension
