# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.onnx.backend.
from typing import Any, Sequence

import numpy as np
from onnx import ModelProto, NodeProto
from onnx.backend.base import Backend, BackendRep

__all__ = ["PadndBackend", "PadndBackendRep", "is_compatible", "prepare", "run_model", "run_node",
           "supports_device"]

class PadndBackendRep(BackendRep):
    def __init__(self, model: ModelProto) -> None: ...
    @property
    def opset(self) -> int: ...
    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]: ...

class PadndBackend(Backend):
    @classmethod
    def is_compatible(cls, model: ModelProto, device: str = "CPU", **kwargs: Any) -> bool: ...
    @classmethod
    def prepare(cls, model: ModelProto, device: str = "CPU", **kwargs: Any) -> PadndBackendRep: ...
    @classmethod
    def run_model(
        cls, model: ModelProto, inputs: Any, device: str = "CPU", **kwargs: Any
    ) -> tuple[Any, ...]: ...
    @classmethod
    def run_node(
        cls,
        node: NodeProto,
        inputs: Any,
        device: str = "CPU",
        outputs_info: Sequence[tuple[np.dtype, tuple[int, ...]]] | None = None,
        **kwargs: Any,
    ) -> tuple[Any, ...]: ...
    @classmethod
    def supports_device(cls, device: str) -> bool: ...

def is_compatible(model: ModelProto, device: str = "CPU", **kwargs: Any) -> bool: ...
def prepare(model: ModelProto, device: str = "CPU", **kwargs: Any) -> PadndBackendRep: ...
def run_model(
    model: ModelProto, inputs: Any, device: str = "CPU", **kwargs: Any
) -> tuple[Any, ...]: ...
def run_node(
    node: NodeProto,
    inputs: Any,
    device: str = "CPU",
    outputs_info: Sequence[tuple[np.dtype, tuple[int, ...]]] | None = None,
    **kwargs: Any,
) -> tuple[Any, ...]: ...
def supports_device(device: str) -> bool: ...
