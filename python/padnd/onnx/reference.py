# SPDX-License-Identifier: Apache-2.0
"""ONNX ``Pad`` for the ONNX reference evaluator, computed by padnd.

``onnx.reference.ReferenceEvaluator(model, new_ops=[padnd.onnx.ReferencePad])`` runs every Pad
node of `model` through :func:`padnd.onnx.pad` at the model's opset: negative pads (crops), wrap,
reflect wider than the axis, rank 0, strings and every ONNX type, with ONNX's errors, where the
released evaluator pads through ``numpy.pad`` (docs/conformance.md). Needs the onnx package.
"""
from __future__ import annotations

from onnx.reference.op_run import OpRun

from . import pad

__all__ = ["ReferencePad"]


class Pad(OpRun):
    """The Pad operator of every version (Pad-1 to Pad-25) for ``new_ops``; the evaluator matches
    it to Pad nodes by its class name."""

    op_domain = ""

    def _run(self, data, pads=None, constant_value=None, axes=None, *, mode=None, paddings=None,
             value=None):
        opset = int(self.run_params["opsets"].get("", 25))
        mode = "constant" if mode is None else mode
        if opset <= 10:  # Pad-1 `paddings` / Pad-2 `pads` and `value` are attributes
            return (pad(data, list(paddings if opset == 1 else pads), value, None, mode, opset),)
        return (pad(data, pads, constant_value, axes, mode, opset),)


#: The op class to pass in ``new_ops`` (its ``__name__`` is ``"Pad"``, as the evaluator needs).
ReferencePad = Pad
