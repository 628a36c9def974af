# SPDX-License-Identifier: Apache-2.0
# Shared helpers of the differential tests: one ONNX Pad as a model + feeds, random cases
# (hypothesis), and the facts about a case that the expected-difference regions are stated in.
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
import onnx
import onnx.numpy_helper
from hypothesis import strategies as st
from onnx import TensorProto, helper

import padnd

# Pad versions, by the opset that introduced them, and the numpy dtypes each accepts
# (docs/spec.md §4.2; "string": object arrays of str, as ONNX's numpy helpers hold them).
ONNX_OPSETS = (1, 2, 11, 13, 18, 19, 21, 23, 24, 25)
_F = ["float16", "float32", "float64"]
_NUMERIC = _F + ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]
_IR4 = _NUMERIC + ["bool", "complex64", "complex128", "bfloat16", "string"]
_IR10 = _IR4 + ["float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "int4",
                "uint4"]
_IR11 = _IR10 + ["float4_e2m1fn"]
_IR12 = _IR11 + ["float8_e8m0fnu"]
_IR13 = _IR12 + ["int2", "uint2"]
ONNX_TYPES = {1: _F, 2: _F, 11: _NUMERIC, 13: _IR4, 18: _IR4, 19: _IR4, 21: _IR10, 23: _IR11,
              24: _IR12, 25: _IR13}


def np_dtype(name: str) -> np.dtype:
    if name == "string":
        return np.dtype(object)
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


# Strings of 0-3 characters, the empty one, non-ASCII and longer than std::string's inline buffer.
_TEXTS = ["", "a", "bc", "déf", "ü", "漢字", "x" * 40, " ", "0"]


def small_values(dtype: np.dtype, count: int, rng_values) -> np.ndarray:
    """`count` values of `dtype` from small integers (exact in every type, incl. float4/int2)."""
    ints = np.asarray(rng_values[:count], dtype=np.int64)
    name = dtype.name
    if dtype.kind == "O":
        strings = np.empty(count, dtype=object)
        strings[:] = [_TEXTS[v % len(_TEXTS)] for v in ints.tolist()]
        return strings
    if dtype.kind == "b":
        return (ints % 2).astype(bool)
    if name in ("int2",):
        return (ints % 4 - 2).astype(dtype)
    if name in ("uint2",):
        return (ints % 4).astype(dtype)
    if name in ("float8_e8m0fnu",):  # powers of two only
        return np.exp2(ints % 8).astype(np.float32).astype(dtype)
    if name.startswith("u") or name in ("float4_e2m1fn", "int4"):
        return (ints % 7).astype(np.float32 if dtype.kind == "V" else np.int64).astype(dtype)
    return (ints % 13 - 4).astype(np.float32 if dtype.kind in "Vc" else np.int64).astype(dtype)


@dataclass
class PadCase:
    """One ONNX Pad: data, the node's pads / constant_value / axes as a model would hold them."""
    x: np.ndarray
    pads: list[int]
    constant_value: np.ndarray | None
    axes: np.ndarray | None
    mode: str
    opset: int

    def axis_pads(self) -> list[tuple[int, int]]:
        """(begin, end) per data axis after scattering `pads` over `axes`."""
        rank = self.x.ndim
        axes = list(range(rank)) if self.axes is None else [int(a) % max(rank, 1)
                                                               for a in self.axes]
        k = len(axes)
        out = [(0, 0)] * rank
        for i, a in enumerate(axes):
            out[a] = (self.pads[i], self.pads[i + k])
        return out

    def padnd(self) -> np.ndarray:
        return padnd.onnx.pad(self.x, self.pads, self.constant_value, self.axes, self.mode,
                              self.opset)

    def model_and_feeds(self, constants: bool = False) -> tuple[onnx.ModelProto,
                                                                 dict[str, np.ndarray]]:
        """A one-node model and its feeds; with ``constants`` the pads, value and axes are
        initializers (as exported models hold them) and only ``x`` is fed."""
        model, feeds = self._model_and_feeds()
        if constants:
            graph = model.graph
            for name in [n for n in feeds if n != "x"]:
                graph.initializer.append(onnx.numpy_helper.from_array(feeds.pop(name), name))
                kept = [i for i in graph.input if i.name != name]
                del graph.input[:]
                graph.input.extend(kept)
        return model, feeds

    def _model_and_feeds(self) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        elem = helper.np_dtype_to_tensor_dtype(self.x.dtype)
        rank = self.x.ndim
        inputs = [helper.make_tensor_value_info("x", elem, [None] * rank)]
        feeds = {"x": self.x}
        if self.opset <= 10:  # Pad-1 `paddings` / Pad-2 `pads` and `value` are attributes
            node = helper.make_node("Pad", ["x"], ["y"], mode=self.mode)
            # make_attribute cannot infer the type of an empty list (rank-0 data)
            node.attribute.append(helper.make_attribute(
                "paddings" if self.opset == 1 else "pads", list(self.pads),
                attr_type=onnx.AttributeProto.INTS))
            if self.constant_value is not None:
                node.attribute.append(helper.make_attribute("value",
                                                            float(self.constant_value)))
        else:
            names = ["x", "pads"]
            inputs.append(helper.make_tensor_value_info("pads", TensorProto.INT64,
                                                        [len(self.pads)]))
            feeds["pads"] = np.array(self.pads, dtype=np.int64)
            if self.constant_value is not None:
                names.append("value")
                inputs.append(helper.make_tensor_value_info("value", elem, []))
                feeds["value"] = np.asarray(self.constant_value, dtype=self.x.dtype).reshape(())
            if self.axes is not None:
                if self.constant_value is None:
                    names.append("")  # skipped optional input
                names.append("axes")
                inputs.append(helper.make_tensor_value_info(
                    "axes", helper.np_dtype_to_tensor_dtype(self.axes.dtype), [len(self.axes)]))
                feeds["axes"] = self.axes
            node = helper.make_node("Pad", names, ["y"], mode=self.mode)
        graph = helper.make_graph([node], "pad", inputs,
                                  [helper.make_tensor_value_info("y", elem, [None] * rank)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)],
                                  ir_version=10 if self.opset <= 21 else 11)
        return model, feeds


@st.composite
def pad_cases(draw, *, opsets=ONNX_OPSETS, dtypes=None, ranks=(0, 1, 1, 2, 2, 2, 3, 3, 4),
              max_dim=4,
              negative=True, max_pad_factor=3):
    """Random ONNX Pad cases within the spec's valid inputs and beyond them (pads larger than
    the axis, crops, zero-length axes); `dtypes` limits the element types (names)."""
    opset = draw(st.sampled_from(opsets))
    allowed = ONNX_TYPES[max(v for v in ONNX_OPSETS if v <= opset)]
    names = [t for t in allowed if dtypes is None or t in dtypes]
    dtype = np_dtype(draw(st.sampled_from(names)))
    rank = draw(st.sampled_from(ranks))
    shape = tuple(draw(st.lists(st.integers(0, max_dim), min_size=rank, max_size=rank)))
    count = int(np.prod(shape, dtype=np.int64))
    x = small_values(dtype, count, draw(st.lists(st.integers(0, 100), min_size=count,
                                                 max_size=count))).reshape(shape)
    modes = ["constant", "edge", "reflect"] + (["wrap"] if opset >= 19 else [])
    mode = draw(st.sampled_from(modes))
    axes = None
    padded_axes = list(range(rank))
    if opset >= 18 and rank > 0 and draw(st.booleans()):
        padded_axes = draw(st.permutations(range(rank)).flatmap(
            lambda p: st.integers(0, len(p)).map(lambda k: list(p[:k]))))
        signed = [a - rank if draw(st.booleans()) else a for a in padded_axes]
        axes = np.array(signed, dtype=draw(st.sampled_from([np.int32, np.int64])))
    begins, ends = [], []
    for a in padded_axes:
        d = shape[a]
        lo = -(d + 1) if negative else 0
        hi = max_pad_factor * max(d, 1) + 1
        begins.append(draw(st.integers(lo, hi)))
        ends.append(draw(st.integers(lo, hi)))
    value = None
    if draw(st.booleans()):
        value = small_values(dtype, 1, [draw(st.integers(0, 100))]).reshape(())
        if opset <= 10:
            value = value.astype(dtype)
    return PadCase(x, begins + ends, value, axes, mode, opset)


def assert_same_bits(got: np.ndarray, expected: np.ndarray) -> None:
    """Same shape, same dtype and identical element bits (padding moves values, never rounds)."""
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind == "O":  # strings: their values (and types: str)
        assert [(type(v), v) for v in got.reshape(-1).tolist()] == \
            [(type(v), v) for v in expected.reshape(-1).tolist()]
    elif got.dtype.kind == "b":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                      np.ascontiguousarray(expected).view(np.uint8))


def outcome(run, errors=(Exception,)):
    """(run(), None), or (None, the exception) when run() raises one of `errors`. padnd may only
    raise ValueError/TypeError; a peer raises whatever its bindings raise."""
    try:
        return run(), None
    except errors as e:
        return None, e
