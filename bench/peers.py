# SPDX-License-Identifier: Apache-2.0
"""The libraries bench/compare.py runs on every workload, padnd first, behind one interface.

PEERS maps a library name to prepare(x, w): it returns a function of no arguments that pads
the input array `x` as workload `w` asks and returns the result (allocating it the way the
library's usual call does), or raises NotExpressible with the reason the library cannot
express the workload. A library whose call raises (a pad wider than it allows, a type it has
no kernel for) is reported n/a with its message. Everything a peer can set up once (a model, a compiled network, a
reshaped view) is done in prepare, outside the timed call.

How each peer is called (the fastest ordinary way we know; see README, Performance):
  padnd        padnd.pad(x, pad_width, mode[, negative=, interior=]) in a loop: its output
               cache hands each call a freed result's memory (the steady state)
  padnd cold   the same with the calls' outputs bypassing the cache: numpy's fresh memory, whose
               pages the pad faults (a first call)
  padnd out=   the same with out= a preallocated array (compared with openvino)
  numpy        numpy.pad on a view of x; crops are expressed by slicing that view
  torch        torch.nn.functional.pad on torch.from_numpy(x) (shared memory), .numpy() of
               the result (shared); non-constant modes pad the last 1-3 axes of an N+1-D view
  cv2          cv2.copyMakeBorder per image of a (rows, cols[, channels]) view, written into one
               numpy.empty output (dst=); crops by slicing
  onnxruntime  an InferenceSession (CPU EP) of a one-node Pad-19 model, session.run
  openvino     a compiled one-node Pad-12 model (CPU), infer request with shared input and
               shared output (the plugin's own output buffer, reused: its fastest path)
  openvino+padnd  onnxruntime's Pad-19 model read by padnd.openvino.read_model (its Pad is
               padnd's extension op), run as openvino's
"""
from __future__ import annotations

import math

import numpy as np
from workloads import out_shape


class NotExpressible(Exception):
    """The library has no way to express this workload (the message says why)."""


def _pads_without_crops(w):
    """(view slices that apply the workload's crops, remaining non-negative pads)."""
    slices = tuple(slice(max(0, -b), d - max(0, -e)) for d, (b, e) in zip(w.shape, w.pads))
    return slices, [(max(0, b), max(0, e)) for b, e in w.pads]


def _no_interior(w):
    if w.interior and any(w.interior):
        raise NotExpressible("no interior padding")


def _padnd_kwargs(w) -> dict:
    kwargs = {}
    if w.interior and any(w.interior):
        kwargs["interior"] = list(w.interior)
    if any(b < 0 or e < 0 for b, e in w.pads):
        kwargs["negative"] = "crop_then_pad"  # the same as slicing first, as numpy and cv2 do
    return kwargs


def _padnd(x, w):
    import padnd

    kwargs = _padnd_kwargs(w)
    return lambda: padnd.pad(x, w.pads, w.mode, **kwargs)


def _padnd_cold(x, w):
    """padnd.pad into fresh memory: this thread's outputs bypass the output cache (numpy's
    allocation) during the call, and the cache the "padnd" calls use stays as it is."""
    import padnd

    kwargs = _padnd_kwargs(w)

    def call():
        padnd._padnd.bypass_output_cache(True)
        try:
            return padnd.pad(x, w.pads, w.mode, **kwargs)
        finally:
            padnd._padnd.bypass_output_cache(False)
    return call


def _padnd_out(x, w):
    """padnd.pad into a preallocated (and already written) output array."""
    import padnd

    kwargs = _padnd_kwargs(w)
    out = padnd.pad(x, w.pads, w.mode, **kwargs)
    out.view(np.uint8).fill(0xA5)  # stale bytes: the output check must see out= write them all
    return lambda: padnd.pad(x, w.pads, w.mode, out=out, **kwargs)


def _numpy(x, w):
    _no_interior(w)
    slices, pads = _pads_without_crops(w)
    view = x[slices]
    return lambda: np.pad(view, pads, w.mode)


_TORCH_MODES = {"constant": "constant", "edge": "replicate", "reflect": "reflect",
                "wrap": "circular"}


def _torch(x, w):
    import torch
    import torch.nn.functional as F

    _no_interior(w)
    if w.mode not in _TORCH_MODES:
        raise NotExpressible(f"no {w.mode} mode")
    padded = [k for k, (b, e) in enumerate(w.pads) if b or e]
    first = padded[0] if padded else x.ndim
    flat = [p for pair in reversed(w.pads[first:]) for p in pair]  # last axis first
    tensor = torch.from_numpy(x)
    if w.mode == "constant":
        return lambda: F.pad(tensor, flat, "constant", 0.0).numpy()
    if x.ndim - first > 3:
        raise NotExpressible(f"{w.mode} pads only the last 3 axes")
    if any(p < 0 for p in flat):
        raise NotExpressible(f"no crops in {w.mode} mode")
    batch = tensor.reshape((math.prod(x.shape[:first]),) + x.shape[first:])  # a view
    shape = out_shape(x.shape, w.pads)
    return lambda: F.pad(batch, flat, _TORCH_MODES[w.mode]).reshape(shape).numpy()


_CV2_CHANNELS_MAX = 512  # CV_CN_MAX


def _cv2(x, w):
    import cv2

    _no_interior(w)
    borders = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE,
               "reflect": cv2.BORDER_REFLECT_101, "symmetric": cv2.BORDER_REFLECT,
               "wrap": cv2.BORDER_WRAP}
    slices, pads = _pads_without_crops(w)
    view = x[slices]
    padded = [k for k, (b, e) in enumerate(pads) if b or e] or [x.ndim - 1]
    a0, a1 = padded[0], padded[-1]
    if a1 - a0 > 1:
        raise NotExpressible("pads 2 adjacent axes at most (rows and columns)")
    shape = view.shape
    if a0 == a1 == x.ndim - 1:  # one padded axis, the last: the columns of one image
        lead, image, (top, bottom), (left, right) = 1, (math.prod(shape[:a0]), shape[a0]), (0, 0), pads[a0]
    elif a0 == a1:  # one padded axis: rows of images whose columns are the later axes
        lead, image, (top, bottom), (left, right) = (math.prod(shape[:a0]),
                                                     (shape[a0], math.prod(shape[a0 + 1:])),
                                                     pads[a0], (0, 0))
    else:
        channels = math.prod(shape[a1 + 1:])
        if channels > _CV2_CHANNELS_MAX:
            raise NotExpressible(f"{channels} channels > CV_CN_MAX")
        lead = math.prod(shape[:a0])
        image = (shape[a0], shape[a1]) + ((channels,) if channels > 1 else ())
        (top, bottom), (left, right) = pads[a0], pads[a1]
    src = view.reshape((lead,) + image)
    out_image = (image[0] + top + bottom, image[1] + left + right) + image[2:]
    result_shape = out_shape(shape, pads)
    border = borders[w.mode]

    def run():
        out = np.empty((lead,) + out_image, x.dtype)
        for i in range(lead):
            cv2.copyMakeBorder(src[i], top, bottom, left, right, border, dst=out[i])
        return out.reshape(result_shape)

    return run


def _onnx_pad_model(x, w):
    """A one-node ONNX Pad-19 model of the workload (pads and value as initializers)."""
    import onnx
    from onnx import helper, numpy_helper

    _no_interior(w)
    if w.mode not in ("constant", "edge", "reflect", "wrap"):
        raise NotExpressible(f"no {w.mode} mode")
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    pads = numpy_helper.from_array(
        np.array([b for b, _ in w.pads] + [e for _, e in w.pads], np.int64), "pads")
    value = numpy_helper.from_array(np.zeros((), x.dtype), "value")
    y_shape = list(out_shape(x.shape, w.pads))
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "pads", "value"], ["y"], mode=w.mode)], "pad",
        [helper.make_tensor_value_info("x", elem, list(x.shape))],
        [helper.make_tensor_value_info("y", elem, y_shape)], [pads, value])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    onnx.checker.check_model(model)
    return model


def _onnxruntime(x, w):
    import onnxruntime as ort

    model = _onnx_pad_model(x, w)
    options = ort.SessionOptions()
    options.log_severity_level = 4  # a rejected request is reported by compare.py, once
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return lambda: session.run(None, {"x": x})[0]


def _openvino(x, w):
    import openvino as ov
    import openvino.opset12 as ops

    _no_interior(w)
    if w.mode not in ("constant", "edge", "reflect", "symmetric"):
        raise NotExpressible(f"no {w.mode} mode")
    if x.dtype == np.float64:  # its output equals the input rounded through float32
        raise NotExpressible("the CPU plugin pads float64 as float32 (not bit-exact)")
    param = ops.parameter(list(x.shape), x.dtype)
    begins = ops.constant(np.array([b for b, _ in w.pads], np.int64))
    ends = ops.constant(np.array([e for _, e in w.pads], np.int64))
    value = ops.constant(np.zeros((), x.dtype)) if w.mode == "constant" else None
    model = ov.Model([ops.pad(param, begins, ends, w.mode, value)], [param])
    request = ov.Core().compile_model(model, "CPU").create_infer_request()
    return lambda: request.infer({0: x}, share_inputs=True, share_outputs=True)[0]


def _openvino_padnd(x, w):
    """The ONNX Pad-19 model of ONNX Runtime's row, read by OpenVINO with padnd's extension
    (its Pad is padnd's PadndPad), infer request as openvino's."""
    import padnd

    if x.dtype == np.float64:
        raise NotExpressible("the CPU plugin runs float64 models as float32")
    import openvino as ov

    core = ov.Core()  # read_model adds the extension to it
    model = padnd.openvino.read_model(_onnx_pad_model(x, w), core)
    request = core.compile_model(model, "CPU").create_infer_request()
    return lambda: request.infer({0: x}, share_inputs=True, share_outputs=True)[0]


PEERS = {"padnd": _padnd, "padnd cold": _padnd_cold, "padnd out=": _padnd_out, "numpy": _numpy,
         "torch": _torch, "cv2": _cv2, "onnxruntime": _onnxruntime, "openvino": _openvino,
         "openvino+padnd": _openvino_padnd}
# Libraries that write into an existing buffer rather than allocating their output.
PREALLOCATED = {"padnd out=", "openvino", "openvino+padnd"}
