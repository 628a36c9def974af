# SPDX-License-Identifier: Apache-2.0
# padnd.onnx.pad against ONNX Runtime's CPU Pad kernel (InferenceSession), random cases.
"""Differential tests: padnd.onnx.pad vs onnxruntime (CPUExecutionProvider).

Every random case must give bit-identical results, or both must reject it, except in the
regions ORT_DIFFERENCES names; there ORT rejects a case the ONNX spec defines and padnd pads it
(asserted, so a change in either shows up). Coverage limits that are not disagreements: ORT
registers no Pad-1 kernel (opset 1 is not drawn) and has Pad kernels only for ORT_TYPES.
"""
import numpy as np
import onnxruntime as ort
import pytest
from hypothesis import event, given, settings

from pad_models import PadCase, assert_same_bits, outcome, pad_cases

ort.set_default_logger_severity(3)  # rejected cases are expected; keep ORT's log quiet

ORT_TYPES = ["uint8", "uint32", "uint64", "int8", "int32", "int64", "float16", "float32",
             "float64", "bool"]
ORT_OPSETS = (2, 11, 13, 18, 19, 21, 23, 24, 25)


def run_ort(case: PadCase) -> np.ndarray:
    model, feeds = case.model_and_feeds()
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    return session.run(None, feeds)[0]


def ort_difference(case: PadCase) -> str | None:
    """The documented ORT disagreement region `case` falls in, or None. Regions starting with
    "ort-rejects" are cases ORT refuses although the spec defines them (padnd pads them); those
    starting with "ort-accepts" are cases the spec rejects (padnd raises) that ORT runs."""
    if case.x.ndim == 0:
        return "ort-rejects: rank-0"
    if case.opset < 11 and case.x.dtype == np.float16:
        return "ort-rejects: float16 Pad-2"
    pads = case.axis_pads()
    if case.mode == "wrap" and case.x.size == 0:
        return "ort-rejects: wrap on empty input"
    if case.mode == "constant" or any(d + b + e < 0 or (d == 0 and d + b + e > 0)
                                      for d, (b, e) in zip(case.x.shape, pads)):
        return None  # constant mode, or rejected by both (negative size, extending a 0 axis)
    for d, (b, e) in zip(case.x.shape, pads):
        kept = d - max(0, -b) - max(0, -e)  # axis length after ORT's slicing
        if case.x.size == 0 and (kept < 0 or (d > 0 and kept == 0 and max(b, e) > 0)):
            return "ort-accepts: empty input, axis over-cropped or cropped away and extended"
        if case.x.size > 0 and d > 0 and kept == 0 and b <= 0 and e <= 0:
            return "ort-rejects: non-constant crop to empty"
        if case.mode == "reflect" and case.x.size > 0 and max(b, e) > kept - 1 >= 0:
            return "ort-rejects: reflect pad >= axis"
    return None


@settings(max_examples=500, deadline=None)
@given(pad_cases(opsets=ORT_OPSETS, dtypes=ORT_TYPES))
def test_padnd_matches_onnxruntime(case):
    got, padnd_error = outcome(case.padnd, (ValueError, TypeError))
    expected, ort_error = outcome(lambda: run_ort(case))
    region = ort_difference(case)
    event(region or ("both reject" if padnd_error is not None else "compared"))
    if region is not None and region.startswith("ort-rejects") and padnd_error is None:
        assert ort_error is not None, f"ORT no longer rejects ({region}): update the docs"
        return
    if region is not None and region.startswith("ort-accepts") and padnd_error is not None:
        assert ort_error is None and expected.size == 0, f"ORT changed ({region}): update docs"
        return
    if padnd_error is not None:
        assert ort_error is not None, f"padnd rejects ({padnd_error}) but ORT pads: {case}"
        return
    assert ort_error is None, f"ORT rejects ({ort_error}) what padnd pads: {case}"
    assert_same_bits(got, expected)


# ---- expected differences (each asserts what ORT does and what padnd does) ------------------

def _case(x, pads, mode, opset=19):
    return PadCase(np.asarray(x), pads, None, None, mode, opset)


def test_expected_difference_reflect_pad_not_smaller_than_axis():
    """Reflect with a pad >= the (cropped) axis length: ONNX defines it (doc example 2 pads 2 on
    a length-2 axis; the reference evaluator follows numpy's periodic reflection, docs/spec.md §8),
    padnd reflects periodically. ORT >= 1.2x rejects it ("pre-pad (3) exceeds maximum allowed
    (2)"); older ORT returned wrong values.
    https://github.com/microsoft/onnxruntime/issues/20801, #16401, #8265."""
    case = _case(np.array([1, 2, 3], np.float32), [3, 4], "reflect")
    with pytest.raises(Exception, match="exceeds maximum allowed"):
        run_ort(case)
    np.testing.assert_array_equal(case.padnd(), [2, 3, 2, 1, 2, 3, 2, 1, 2, 3])


def test_expected_difference_reflect_on_length_one_axis():
    """Reflect on a length-1 axis (after cropping): padnd replicates the element (numpy's
    legacy rule, docs/spec.md §8, §9 ex. 17); ORT requires length >= 2."""
    case = _case(np.array([7], np.int32), [2, 3], "reflect")
    with pytest.raises(Exception, match="axis length >= 2"):
        run_ort(case)
    np.testing.assert_array_equal(case.padnd(), [7] * 6)


def test_expected_difference_repeated_axes():
    """Axes that repeat once negatives are normalised: ONNX shape inference rejects them and
    so does padnd (docs/spec.md §8.9); ORT 1.32 pads, the last of the repeats winning."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    case = PadCase(x, [1, 2, 0, 0], None, np.array([1, -1]), "constant", 18)
    assert run_ort(case).shape == (2, 5)
    with pytest.raises(ValueError, match="axes"):
        case.padnd()


def test_expected_difference_wrap_on_empty_input():
    """Wrap on data with a zero-length axis, even with no padding on it: ONNX defines the
    (empty) result and padnd returns it; ORT fails with "Unexpected mode of 3"."""
    case = _case(np.zeros((0, 2), np.float32), [0, 1, 0, 1], "wrap")
    with pytest.raises(Exception, match="Unexpected mode"):
        run_ort(case)
    assert case.padnd().shape == (0, 4)


@pytest.mark.parametrize("mode", ["edge", "reflect", "wrap"])
def test_expected_difference_non_constant_crop_to_empty(mode):
    """A non-constant mode whose negative pads crop an axis to length 0 with nothing to extend:
    crop-then-pad (docs/spec.md §2.5) gives an empty axis and padnd returns it; ORT rejects any
    non-constant mode "with zero effective input extent"."""
    case = _case(np.array([1, 2], np.float32), [-1, -1], mode)
    with pytest.raises(Exception, match="zero effective input extent"):
        run_ort(case)
    assert case.padnd().shape == (0,)


@pytest.mark.parametrize("mode", ["constant", "edge"])
def test_expected_difference_rank_0(mode):
    """Rank-0 data with empty pads: the identity (docs/spec.md §8, §9 ex. 34), which padnd
    returns; ORT's kernel requires rank > 0 ("Input tensor has no dimensions")."""
    case = _case(np.array(5.0, np.float32), [], mode)
    with pytest.raises(Exception, match="no dimensions"):
        run_ort(case)
    assert case.padnd() == np.float32(5.0)


def test_expected_difference_float16_pad_2():
    """float16 Pad-2 (opsets 2..10; float16 is one of its three types): ORT has no float16 Pad
    kernel there and the Cast it inserts is invalid for that opset (INVALID_GRAPH); padnd pads."""
    case = PadCase(np.array([1, 2], np.float16), [1, 0], 0.5, None, "constant", 2)
    with pytest.raises(Exception, match="INVALID_GRAPH"):
        run_ort(case)
    np.testing.assert_array_equal(case.padnd(), np.array([0.5, 1, 2], np.float16))


def test_expected_difference_empty_input_axis_cropped_away_and_extended():
    """Empty data (another axis has length 0) where an edge/reflect/wrap axis is cropped to
    nothing and still padded: the spec rejects it (nothing to extend, docs/spec.md §4.5 rule 9) and
    so does padnd; ORT skips the mode checks for an empty input and returns an empty tensor."""
    case = _case(np.zeros((0, 1), np.float32), [0, 1, 0, -1], "edge")
    assert run_ort(case).shape == (0, 1)
    with pytest.raises(ValueError, match="cropped to length 0"):
        case.padnd()


def test_expected_difference_empty_input_crop_beyond_zero_length_axis():
    """Empty data whose length-0 axis is cropped by 1 and padded by 1 in edge mode: the output
    length is 0, but the crop exceeds the axis (D' = -1), which docs/spec.md §4.5 rule 9 rejects and
    so does padnd; ORT skips the mode checks for an empty input and returns an empty tensor."""
    case = _case(np.zeros((0, 0), np.float32), [0, 1, 0, -1], "edge")
    assert run_ort(case).shape == (0, 0)
    with pytest.raises(ValueError, match="crops 1 elements"):
        case.padnd()


def test_agreement_non_constant_over_crop_to_length_0():
    """Not a difference: a non-constant mode whose crop exceeds the axis while the other side is
    padded, with output length 0 on that axis (D=2, begin 1, end -3), is an error by docs/spec.md
    §2.5 / §4.5 rule 9 (D' < 0). ORT rejects it ("zero effective input extent") and so does
    padnd."""
    case = _case(np.zeros(2, np.float32), [1, -3], "edge")
    with pytest.raises(Exception, match="zero effective input extent"):
        run_ort(case)
    with pytest.raises(ValueError, match="crops 3 elements"):
        case.padnd()


def test_agreement_edge_on_zero_length_axis():
    """Not a difference any more: docs/spec.md §8 notes that ORT once silently set the output of
    edge on a zero-length padded axis to 0; ORT now rejects it, as padnd does."""
    case = _case(np.zeros((0, 2), np.float32), [1, 0, 0, 0], "edge")
    with pytest.raises(Exception, match="edge"):
        run_ort(case)
    with pytest.raises(ValueError):
        case.padnd()
