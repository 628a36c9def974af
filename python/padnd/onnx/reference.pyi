from typing import Any

from onnx.reference.op_run import OpRun

__all__ = ["ReferencePad"]

class Pad(OpRun):
    op_domain: str
    def _run(
        self,
        data: Any,
        pads: Any = ...,
        constant_value: Any = ...,
        axes: Any = ...,
        *,
        mode: str | None = ...,
        paddings: Any = ...,
        value: Any = ...,
    ) -> tuple[Any]: ...

ReferencePad = Pad
