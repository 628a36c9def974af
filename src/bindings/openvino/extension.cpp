// SPDX-License-Identifier: Apache-2.0
// libpadnd_openvino: what ov::Core::add_extension(path) loads (docs/runtimes.md): the PadndPad
// operation and the ONNX frontend's Pad conversion onto it.
#include <openvino/core/extension.hpp>
#include <openvino/core/op_extension.hpp>
#include <openvino/frontend/onnx/extension/conversion.hpp>

#include "bindings/openvino/onnx_pad.hpp"
#include "bindings/openvino/pad_op.hpp"

OPENVINO_CREATE_EXTENSIONS(std::vector<ov::Extension::Ptr>(
    {std::make_shared<ov::OpExtension<padnd::openvino_extension::PadndPad>>(),
     std::make_shared<ov::frontend::onnx::ConversionExtension>(
         "Pad", padnd::openvino_extension::convert_onnx_pad)}));
