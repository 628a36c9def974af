# SPDX-License-Identifier: Apache-2.0
# padnd.onnx.pad against onnx.reference.ReferenceEvaluator, random cases, every ONNX type.
"""Differential tests: padnd.onnx.pad vs the ONNX reference evaluator (onnx/reference/ops/op_pad.py).

The reference pads with numpy.pad, which is right wherever numpy's semantics are the spec's:
non-negative pads of any size, every element type including ml_dtypes' bfloat16 / float8 / int4 /
uint4 / float4e2m1 / int2 / uint2 (padnd packs the 4-/2-bit ones). docs/spec.md §8 lists where it is
not; those regions are REF_DIFFERENCES below, each asserted in an expected-difference test.
"""
import numpy as np
import pytest
from hypothesis import event, given, settings
from onnx.reference import ReferenceEvaluator

from pad_models import PadCase, assert_same_bits, outcome, pad_cases


def run_reference(case: PadCase) -> np.ndarray:
    model, feeds = case.model_and_feeds()
    return ReferenceEvaluator(model).run(None, feeds)[0]


def reference_difference(case: PadCase) -> str | None:
    """The documented region `case` falls in, or None."""
    if case.x.ndim == 0:
        return "ref-rejects: rank-0"
    if any(p < 0 for p in case.pads):
        return "ref-rejects: negative pads"
    if case.mode == "wrap" and case.opset < 19:
        return "ref-accepts: wrap before opset 19"
    if (case.x.dtype.name == "float8_e8m0fnu" and case.mode == "constant"
            and case.constant_value is None):
        return "ref-fills: float8e8m0 default value"
    if case.x.dtype.kind == "O" and case.mode == "constant" and case.constant_value is None:
        return "ref-fills: string default value"
    return None


@settings(max_examples=500, deadline=None)
@given(pad_cases())
def test_padnd_matches_reference_evaluator(case):
    got, padnd_error = outcome(case.padnd, (ValueError, TypeError))
    expected, ref_error = outcome(lambda: run_reference(case))
    region = reference_difference(case)
    event(region or ("both reject" if padnd_error is not None else "compared"))
    if region is not None and region.startswith("ref-rejects") and padnd_error is None:
        assert ref_error is not None, f"the reference no longer rejects ({region}): update docs"
        return
    if region is not None and region.startswith("ref-accepts") and padnd_error is not None:
        assert ref_error is None, f"the reference changed ({region}): update the docs"
        return
    if padnd_error is not None:
        assert ref_error is not None, f"padnd rejects ({padnd_error}) but the reference pads"
        return
    assert ref_error is None, f"the reference rejects ({ref_error}) what padnd pads: {case}"
    if region == "ref-fills: string default value":
        # numpy's 0 (an int) where the spec's default is the empty string; the data holds str.
        expected = np.where([not isinstance(v, str) for v in expected.reshape(-1)], "",
                            expected.reshape(-1)).astype(object).reshape(expected.shape)
    elif region is not None and region.startswith("ref-fills"):
        # numpy's 0 converted to E8M0 is 0xFF (NaN); the spec's default is the 0x00 pattern.
        # The data never holds 0xFF (small_values draws powers of two).
        expected = np.where(expected.view(np.uint8) == 0xFF, np.uint8(0),
                            expected.view(np.uint8)).view(expected.dtype)
    assert_same_bits(got, expected)


# ---- expected differences (each asserts what the reference does and what padnd does) --------

def test_expected_difference_negative_pads():
    """Negative pads crop (ONNX text "remove", onnx/onnx#962; crop-then-pad for non-constant modes,
    docs/spec.md §2.5, as ORT and the proposed reference change onnx/onnx PR #8199 do). The released
    reference hands them to numpy.pad, which refuses negative widths."""
    case = PadCase(np.arange(1, 7, dtype=np.int64), [-4, 3], None, None, "reflect", 19)
    with pytest.raises(ValueError, match="negative"):
        run_reference(case)
    np.testing.assert_array_equal(case.padnd(), [5, 6, 5, 6, 5])


def test_expected_difference_rank_0():
    """Rank-0 data with empty pads is the identity (docs/spec.md §8, §9 ex. 34); the reference
    passes an empty pad list to numpy.pad, which fails."""
    case = PadCase(np.array(5.0, np.float32), [], None, None, "constant", 25)
    with pytest.raises(Exception):  # noqa: B017 - numpy's error type varies by version
        run_reference(case)
    assert case.padnd() == np.float32(5.0)


def test_expected_difference_wrap_before_opset_19():
    """`wrap` exists from Pad-19 (docs/spec.md §4.1); padnd rejects it earlier. The reference passes
    the mode string straight to numpy and pads."""
    case = PadCase(np.array([1, 2, 3], np.float32), [1, 1], None, None, "wrap", 18)
    np.testing.assert_array_equal(run_reference(case), [3, 1, 2, 3, 1])
    with pytest.raises(ValueError, match="wrap"):
        case.padnd()


def test_expected_difference_float8e8m0_default_value():
    """float8e8m0 has no zero; the default pad value is the all-zero bit pattern 0x00 (= 2^-127,
    docs/spec.md §2.8, §9 ex. 45), which padnd writes. The reference converts numpy's 0 to E8M0 and
    writes 0xFF (NaN)."""
    import ml_dtypes  # noqa: PLC0415
    x = np.array([0x7F, 0x80], np.uint8).view(ml_dtypes.float8_e8m0fnu)
    case = PadCase(x, [1, 0], None, None, "constant", 24)
    assert run_reference(case).view(np.uint8).tolist() == [0xFF, 0x7F, 0x80]
    assert case.padnd().view(np.uint8).tolist() == [0x00, 0x7F, 0x80]


def test_expected_difference_string_default_value():
    """String data with no constant_value: ONNX-13+ says the default is the empty string
    (docs/spec.md §2.8, §9 ex. 14); the reference inserts numpy's 0 instead."""
    import onnx  # noqa: PLC0415
    from onnx import TensorProto, helper  # noqa: PLC0415
    node = helper.make_node("Pad", ["x", "pads"], ["y"])
    graph = helper.make_graph([node], "g", [
        helper.make_tensor_value_info("x", TensorProto.STRING, [2]),
        helper.make_tensor_value_info("pads", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    x = np.array(["a", "bc"], dtype=object)
    got = ReferenceEvaluator(model).run(None, {"x": x, "pads": np.array([1, 1])})[0]
    assert got[1:3].tolist() == ["a", "bc"]
    assert got[0] != "" and got[-1] != ""  # not the spec's empty string
    assert __import__("padnd").onnx.pad(x, [1, 1], opset=13).tolist() == ["", "a", "bc", ""]
    assert onnx.__version__


# ---- padnd.onnx.ReferencePad: the reference evaluator with padnd's Pad ----------------------

def run_with_padnd(case: PadCase) -> np.ndarray:
    model, feeds = case.model_and_feeds()
    return ReferenceEvaluator(model, new_ops=[__import__("padnd").onnx.ReferencePad]).run(
        None, feeds)[0]


@settings(max_examples=300, deadline=None)
@given(pad_cases())
def test_reference_pad_runs_every_case_as_padnd_onnx_pad(case):
    """Through the evaluator, every opset, mode and type (negative pads, rank 0 and wrap too):
    the same bits or the same refusal as padnd.onnx.pad, and the stock evaluator's result
    wherever it runs the case outside the documented differences."""
    got, error = outcome(lambda: run_with_padnd(case))
    expected, padnd_error = outcome(case.padnd, (ValueError, TypeError))
    assert (error is None) == (padnd_error is None), (error, padnd_error)
    if error is not None:
        return
    assert_same_bits(got, expected)
    stock, stock_error = outcome(lambda: run_reference(case))
    if stock_error is None and reference_difference(case) is None:
        assert_same_bits(got, stock)


def test_reference_pad_takes_negative_pads_between_other_nodes():
    """A Relu -> Pad (crop and reflect) -> Relu model: the stock evaluator refuses the negative
    pad; with ReferencePad it runs end to end."""
    from onnx import TensorProto, helper  # noqa: PLC0415
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Pad", ["r", "pads"], ["p"], mode="reflect"),
             helper.make_node("Neg", ["p"], ["y"])]
    graph = helper.make_graph(nodes, "g", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5]),
        helper.make_tensor_value_info("pads", TensorProto.INT64, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    x = np.arange(-3, 7, dtype=np.float32).reshape(2, 5)
    feeds = {"x": x, "pads": np.array([0, -1, 1, 7], np.int64)}
    with pytest.raises(ValueError, match="negative"):
        ReferenceEvaluator(model).run(None, feeds)
    got = ReferenceEvaluator(model, new_ops=[__import__("padnd").onnx.ReferencePad]).run(
        None, feeds)[0]
    expected = -__import__("padnd").onnx.pad(np.maximum(x, 0), [0, -1, 1, 7], mode="reflect",
                                           opset=19)
    np.testing.assert_array_equal(got, expected)
    assert got.shape == (3, 11)
