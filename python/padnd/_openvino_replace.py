# SPDX-License-Identifier: Apache-2.0
# padnd.openvino.read_model(..., replace_pad=True): OpenVINO's Pad-1 / Pad-12 nodes as PadndPad.
"""Each Pad-1 or Pad-12 node whose pads are constants and whose data has a static shape is
lowered by padnd's OpenVINO adapter (its validation and errors: docs/spec.md §5) onto PadndPad,
created through OpenVINO's NodeFactory from libpadnd_openvino, and takes the node's place. The
pad value input, if any, is kept as it is (a constant or computed). Other Pad nodes are left."""
from __future__ import annotations

import numpy as np

from . import _padnd, _spec
from ._openvino_runtime import extension_path
from ._optional import import_optional

_VERSIONS = {"opset1": 1, "opset12": 12}
# OpenVINO's element type names -> padnd's (src/bindings/openvino/element_types.cpp's table).
_TYPES = {"boolean": "bool", "bf16": "bfloat16", "f16": "float16", "f32": "float32",
          "f64": "float64", "i4": "int4", "i8": "int8", "i16": "int16", "i32": "int32",
          "i64": "int64", "u2": "uint2", "u4": "uint4", "nf4": "uint4", "u8": "uint8",
          "u16": "uint16", "u32": "uint32", "u64": "uint64", "string": "string",
          "f4e2m1": "float4e2m1", "f8e4m3": "float8e4m3fn", "f8e5m2": "float8e5m2",
          "f8e8m0": "float8e8m0"}


def _constant(output) -> np.ndarray | None:
    node = output.get_node()
    return node.get_data() if node.get_type_name() == "Constant" else None


def _lowering(node):
    """(PadndPad's attributes, its inputs) for a replaceable Pad node, else None."""
    version = _VERSIONS.get(node.get_type_info().version_id)
    if node.get_type_name() != "Pad" or version is None:
        return None
    data = node.input_value(0)
    type_name = _TYPES.get(data.get_element_type().get_type_name())
    if type_name is None or not data.get_partial_shape().is_static:
        return None
    begins, ends = _constant(node.input_value(1)), _constant(node.input_value(2))
    if begins is None or ends is None:
        return None
    mode = node.get_attributes()["pad_mode"]
    spec = _padnd.openvino_spec(version, mode, _spec.int_tensor("pads_begin", begins),
                                _spec.int_tensor("pads_end", ends), None, type_name,
                                [int(d) for d in data.get_shape()])
    attributes = _padnd.spec_attributes(spec)
    del attributes["value"]  # the value stays the node's input
    inputs = [data]
    if mode == "constant" and node.get_input_size() == 4:
        inputs.append(node.input_value(3))
    return attributes, inputs


def replace_pads(model) -> int:
    """Replaces ``model``'s Pad-1 and Pad-12 nodes by PadndPad in place; returns how many."""
    import_optional("openvino", extra="openvino", needed_by="padnd.openvino.read_model")
    from openvino.utils.node_factory import NodeFactory  # type: ignore[import-untyped]

    factory = NodeFactory("opset12")
    factory.add_extension(extension_path())
    replaced = 0
    for node in model.get_ordered_ops():
        lowering = _lowering(node)
        if lowering is None:
            continue
        attributes, inputs = lowering
        padnd_pad = factory.create("PadndPad", inputs, attributes)
        padnd_pad.set_friendly_name(node.get_friendly_name())
        node.output(0).replace(padnd_pad.output(0))
        replaced += 1
    model.validate_nodes_and_infer_types()
    return replaced
