// SPDX-License-Identifier: Apache-2.0
// The ONNX frontend's Pad as padnd's PadndPad: every Pad version (1, 2, 11 ... 25) with ONNX's
// semantics and errors (padnd's ONNX adapter, docs/spec.md §4).
#pragma once

#include <openvino/frontend/node_context.hpp>

namespace padnd::openvino_extension {

/// The conversion of one ONNX Pad node (ov::frontend::onnx::ConversionExtension "Pad").
ov::OutputVector convert_onnx_pad(const ov::frontend::NodeContext& context);

}  // namespace padnd::openvino_extension
