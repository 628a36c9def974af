# SPDX-License-Identifier: Apache-2.0
# padnd.onnx.backend: an onnx.backend.base.Backend for models made of Pad nodes.
"""An ONNX backend (``onnx.backend.base.Backend``) that runs models whose nodes are all ``Pad``.

Use it like any ONNX backend::

    import padnd.onnx.backend as backend
    rep = backend.prepare(model)            # validates the graph, loads initializers
    (y,) = rep.run([x])                     # or backend.run_model(model, [x])
    (y,) = backend.run_node(node, [x, pads], opset_version=18)

Each node runs as the Pad version active at the model's opset for the default domain
(``""`` / ``"ai.onnx"``, opsets 1..28), with its attributes and inputs exactly as the model gives
them: Pad-1 ``paddings``/``value`` and Pad-2 ``pads``/``value`` attributes, ``pads`` /
``constant_value`` / ``axes`` inputs from graph inputs, initializers or earlier nodes, optional
inputs skipped with an empty name. Every node goes through :mod:`padnd.onnx`'s C++ adapter, so
the validation and semantics are those of :func:`padnd.onnx.pad` (docs/spec.md §4): ValueError /
TypeError with the adapter's message for anything the spec rejects. Any other operator, domain or
a graph that reads a value nothing produces raises NotImplementedError / ValueError naming it.

Only the CPU device exists. Needs the ``onnx`` package (not a dependency of padnd itself:
``pip install '.[onnx]'`` in padnd's checkout).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._optional import import_optional

onnx = import_optional("onnx", extra="onnx", needed_by="padnd.onnx.backend")
from onnx import ModelProto, NodeProto, numpy_helper  # noqa: E402 (after the checked import)
from onnx.backend.base import (  # noqa: E402
    Backend, BackendRep, Device, DeviceType, namedtupledict)

from . import _pad_node  # noqa: E402

__all__ = ["PadndBackend", "PadndBackendRep", "is_compatible", "prepare", "run_model",
           "run_node", "supports_device"]

_DEFAULT_DOMAINS = ("", "ai.onnx")


def _opset_of(model: ModelProto) -> int:
    for entry in model.opset_import:
        if entry.domain in _DEFAULT_DOMAINS:
            return int(entry.version)
    raise ValueError("model: no opset_import for the default ONNX domain ('' / 'ai.onnx'); "
                     "padnd needs it to pick the Pad version")


def _check_node(node: NodeProto) -> None:
    if node.domain not in _DEFAULT_DOMAINS or node.op_type != "Pad":
        op = f"{node.domain}::{node.op_type}" if node.domain else node.op_type
        raise NotImplementedError(
            f"padnd.onnx.backend runs only ONNX Pad nodes; node {node.name or '(unnamed)'!r} is "
            f"{op!r}")
    if len(node.output) != 1:
        raise ValueError(f"Pad node {node.name or '(unnamed)'!r}: expected 1 output, got "
                         f"{len(node.output)}")


def _attributes(node: NodeProto) -> dict[str, Any]:
    known = {"mode", "paddings", "pads", "value"}
    attrs = {}
    for a in node.attribute:
        if a.name not in known:
            raise ValueError(f"Pad node {node.name or '(unnamed)'!r}: unknown attribute "
                             f"{a.name!r}")
        attrs[a.name] = onnx.helper.get_attribute_value(a)
    if isinstance(attrs.get("mode"), bytes):
        attrs["mode"] = attrs["mode"].decode("utf-8")
    return attrs


def _run_pad(node: NodeProto, values: Mapping[str, Any], opset: int) -> np.ndarray:
    """Runs one Pad node on the named `values` at `opset`."""
    def fetch(position: int):
        if position >= len(node.input) or node.input[position] == "":
            return None  # absent, or skipped with an empty name (docs/IR.md)
        name = node.input[position]
        if name not in values:
            raise ValueError(f"Pad node {node.name or '(unnamed)'!r}: input {position} "
                             f"{name!r} has no value (not a graph input, initializer or output "
                             f"of an earlier node)")
        return values[name]

    if not node.input or node.input[0] == "":
        raise ValueError(f"Pad node {node.name or '(unnamed)'!r}: input 0 (data) is required")
    attrs = _attributes(node)
    value = attrs.get("value")
    return _pad_node(
        fetch(0), opset=opset, input_count=len(node.input), mode=attrs.get("mode", "constant"),
        paddings=None if "paddings" not in attrs else [int(v) for v in attrs["paddings"]],
        pads_attr=None if "pads" not in attrs else [int(v) for v in attrs["pads"]],
        value=None if value is None else float(value),
        pads=fetch(1), constant_value=fetch(2), axes=fetch(3))


def _as_array(value: Any) -> Any:
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    return np.asarray(value) if not isinstance(value, np.ndarray) else value


class PadndBackendRep(BackendRep):
    """A prepared Pad-only model: run it with :meth:`run` as often as needed."""

    def __init__(self, model: ModelProto) -> None:
        self._opset = _opset_of(model)
        graph = model.graph
        for node in graph.node:
            _check_node(node)
        self._nodes = list(graph.node)
        self._initializers = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
        # Before IR 4 initializers were also listed as graph inputs; those are not fed by callers.
        self._input_names = [i.name for i in graph.input if i.name not in self._initializers]
        self._output_names = [o.name for o in graph.output]

    @property
    def opset(self) -> int:
        """The default-domain opset the model imports (selects the Pad version)."""
        return self._opset

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:  # noqa: ARG002
        """Runs the model. `inputs`: a sequence in graph-input order, a mapping by name, or a
        single array for a one-input model. Returns a namedtuple of the graph outputs."""
        values: dict[str, Any] = dict(self._initializers)
        if isinstance(inputs, Mapping):
            unknown = sorted(set(inputs) - set(self._input_names) - set(self._initializers))
            if unknown:
                raise ValueError(f"inputs: not inputs of the graph: {unknown}")
            values.update({k: _as_array(v) for k, v in inputs.items()})
        else:
            if isinstance(inputs, (np.ndarray, onnx.TensorProto)):
                inputs = [inputs]
            inputs = list(inputs)
            if len(inputs) > len(self._input_names):
                raise ValueError(f"inputs: the graph has {len(self._input_names)} input(s) "
                                 f"{self._input_names}, got {len(inputs)} values")
            values.update({n: _as_array(v) for n, v in zip(self._input_names, inputs)})
        for node in self._nodes:
            values[node.output[0]] = _run_pad(node, values, self._opset)
        missing = [n for n in self._output_names if n not in values]
        if missing:
            raise ValueError(f"outputs {missing} are produced by no node and are no graph input")
        return namedtupledict("Outputs", self._output_names)(
            *[values[n] for n in self._output_names])


class PadndBackend(Backend):
    """padnd as an ONNX backend for Pad-only models (CPU)."""

    @classmethod
    def is_compatible(cls, model: ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        return cls.supports_device(device) and all(
            n.op_type == "Pad" and n.domain in _DEFAULT_DOMAINS for n in model.graph.node)

    @classmethod
    def prepare(cls, model: ModelProto, device: str = "CPU", **kwargs: Any) -> PadndBackendRep:
        if not cls.supports_device(device):
            raise ValueError(f"device: padnd runs on CPU only, got {device!r}")
        super().prepare(model, device, **kwargs)  # onnx.checker.check_model
        return PadndBackendRep(model)

    @classmethod
    def run_model(cls, model: ModelProto, inputs: Any, device: str = "CPU",
                  **kwargs: Any) -> tuple[Any, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node: NodeProto, inputs: Any, device: str = "CPU",
                 outputs_info: Sequence[tuple[np.dtype, tuple[int, ...]]] | None = None,
                 **kwargs: Any) -> tuple[Any, ...]:
        """Runs one Pad node. `inputs` are the node's inputs in order (skipped empty names
        included as None, or left out) or a mapping by input name. The opset is
        ``opset_version=`` (default: the newest, 25)."""
        if not cls.supports_device(device):
            raise ValueError(f"device: padnd runs on CPU only, got {device!r}")
        super().run_node(node, inputs, device=device, outputs_info=outputs_info, **kwargs)
        _check_node(node)
        opset = int(kwargs.get("opset_version", onnx.defs.onnx_opset_version()))
        if isinstance(inputs, Mapping):
            values = {k: _as_array(v) for k, v in inputs.items()}
        else:
            values = {name: _as_array(v) for name, v in zip(node.input, inputs)
                      if name and v is not None}
        result = _run_pad(node, values, opset)
        return namedtupledict("Outputs", list(node.output))(result)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        try:
            return Device(device).type == DeviceType.CPU
        except (AttributeError, ValueError):
            return False


prepare = PadndBackend.prepare
run_model = PadndBackend.run_model
run_node = PadndBackend.run_node
supports_device = PadndBackend.supports_device
is_compatible = PadndBackend.is_compatible
