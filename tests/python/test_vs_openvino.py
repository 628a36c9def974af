# SPDX-License-Identifier: Apache-2.0
# padnd.openvino.pad against OpenVINO's Pad-1 / Pad-12 compiled for its CPU device.
"""Differential tests: padnd.openvino.pad vs openvino (opset1.pad / opset12.pad, "CPU").

Results must be bit-identical, or both must reject, except in the regions OV_DIFFERENCES names.
One region cannot run in-process: the CPU plugin corrupts its heap (abort / segfault) on a crop
deeper than the axis with a non-empty output (docs/spec.md §5.3 defines it: the reference test
pad_neg_mix_cross_3x4_mode_reflect); the random cases leave exactly that region out and a
subprocess test asserts the crash.
"""
import subprocess
import sys
import textwrap

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset12 as ov12
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import padnd
from pad_models import assert_same_bits, outcome, small_values

OV_TYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
            "float32", "float64", "bool"]
_CORE = ov.Core()


def _pads_constant(values):
    # ov1.constant refuses an empty array (rank-0 data has empty pads)
    return ov.op.Constant(ov.Type.i64, ov.Shape([len(values)]), [int(v) for v in values])


def run_openvino(x, begins, ends, mode, value=None, version=12):
    param = ov1.parameter(list(x.shape), x.dtype)
    pad_value = None if value is None else ov1.constant(np.asarray(value, x.dtype))
    op = (ov12 if version == 12 else ov1).pad(param, _pads_constant(begins), _pads_constant(ends),
                                              mode, pad_value)
    compiled = _CORE.compile_model(ov.Model([op], [param]), "CPU")
    return compiled([x])[0]


def crashes_openvino(shape, begins, ends) -> bool:
    """The CPU plugin's crash region: a crop deeper than its axis, output not empty."""
    out = [d + b + e for d, b, e in zip(shape, begins, ends)]
    return (all(n > 0 for n in out)
            and any(b < -d or e < -d for d, b, e in zip(shape, begins, ends)))


def ov_difference(shape, begins, ends, version) -> str | None:
    if len(shape) == 0:
        return "ov-rejects: rank-0"
    if any(d + b + e < 0 for d, b, e in zip(shape, begins, ends)):
        return "ov-rejects: negative output length" if version == 12 else None
    if version == 1 and any(p < 0 for p in begins + ends):
        return "ov-accepts: Pad-1 negative pads"
    return None


@st.composite
def ov_cases(draw):
    dtype = np.dtype(draw(st.sampled_from(OV_TYPES)))
    rank = draw(st.sampled_from([0, 1, 1, 2, 2, 2, 3, 3, 4]))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=rank, max_size=rank)))
    count = int(np.prod(shape, dtype=np.int64))
    x = small_values(dtype, count, draw(st.lists(st.integers(0, 100), min_size=count,
                                                 max_size=count))).reshape(shape)
    version = draw(st.sampled_from([1, 12]))
    lo = draw(st.sampled_from([0, -1]))  # half the cases have crops
    begins = [draw(st.integers(lo * (d + 2), d + 2)) for d in shape]
    ends = [draw(st.integers(lo * (d + 2), d + 2)) for d in shape]
    mode = draw(st.sampled_from(["constant", "edge", "reflect", "symmetric"]))
    value = small_values(dtype, 1, [draw(st.integers(0, 100))]).reshape(()) \
        if draw(st.booleans()) else None
    return x, begins, ends, mode, value, version


@settings(max_examples=250, deadline=None)
@given(ov_cases())
def test_padnd_matches_openvino(case):
    x, begins, ends, mode, value, version = case
    assume(not crashes_openvino(x.shape, begins, ends))
    got, padnd_error = outcome(lambda: padnd.openvino.pad(x, begins, ends, mode, value, version),
                               (ValueError, TypeError))
    expected, ov_error = outcome(lambda: run_openvino(x, begins, ends, mode, value, version))
    region = ov_difference(x.shape, begins, ends, version)
    event(region or ("both reject" if padnd_error is not None else "compared"))
    if region == "ov-rejects: negative output length" and padnd_error is None:
        assert ov_error is not None and got.size == 0
        return
    if region == "ov-rejects: rank-0" and padnd_error is None:
        assert ov_error is not None, "the CPU plugin now runs rank-0 Pad: update the docs"
        assert_same_bits(got, x)
        return
    if region == "ov-accepts: Pad-1 negative pads" and padnd_error is not None:
        # OpenVINO's core runs Pad-1 like Pad-12 (PR #17796); padnd's Pad-12 gives its result.
        pad12 = padnd.openvino.pad(x, begins, ends, mode, value, 12) if ov_error is None else None
        if ov_error is None:
            assert_same_bits(pad12, expected)
        return
    if padnd_error is not None:
        assert ov_error is not None, f"padnd rejects ({padnd_error}) but OpenVINO pads: {case}"
        return
    assert ov_error is None, f"OpenVINO rejects ({ov_error}) what padnd pads: {case}"
    assert_same_bits(got, expected.astype(got.dtype, copy=False) if got.dtype == bool
                     else expected)


# ---- expected differences --------------------------------------------------------------------

M34 = np.arange(1, 13, dtype=np.float32).reshape(3, 4)


def test_expected_difference_pad1_negative_pads():
    """Pad-1's spec allows only non-negative pads (docs/spec.md §5.2) and padnd's Pad-1 rejects them;
    OpenVINO's core implementation accepts them and crops like Pad-12 (PR #17796)."""
    got = run_openvino(np.array([1, 2, 3], np.float32), [-1], [0], "constant", version=1)
    np.testing.assert_array_equal(got, [2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        padnd.openvino.pad(np.array([1, 2, 3], np.float32), [-1], [0], "constant", version=1)


def test_expected_difference_pad12_negative_output_length():
    """Pad-12 defines the output length as max(b + D + e, 0) (docs/spec.md §5.1, §9 ex. 61) and padnd
    clamps; OpenVINO's shape inference turns it into an undefined bound and compilation fails."""
    with pytest.raises(Exception):  # noqa: B017 - OpenVINO's own exception type
        run_openvino(np.array([1, 2, 3], np.float32), [-2], [-2], "constant")
    assert padnd.openvino.pad(np.array([1, 2, 3], np.float32), [-2], [-2], "constant").shape \
        == (0,)


def test_expected_difference_rank_0():
    """Pad takes data of any shape (docs/spec.md §5.1); rank 0 with empty pads is the identity, which
    padnd returns. The CPU plugin refuses it ("incorrect number of input/output dimensions")."""
    x = np.array(4.5, np.float32)
    with pytest.raises(Exception, match="dimensions"):
        run_openvino(x, [], [], "constant")
    assert padnd.openvino.pad(x, [], [], "constant") == x


@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_expected_difference_crop_deeper_than_axis_crashes_cpu_plugin(mode):
    """A crop deeper than its axis with padding on the other side (docs/spec.md §5.3 / §9 ex. 55:
    begin [-4, 3], end [2, -5] on 3x4 reflect -> [[4, 3]], OpenVINO's own reference test
    pad_neg_mix_cross_3x4_mode_reflect). padnd returns the spec's result; the CPU plugin corrupts
    its heap and the process dies (checked in a subprocess)."""
    expected = {"constant": [[0, 0]], "reflect": [[4, 3]]}[mode]
    np.testing.assert_array_equal(padnd.openvino.pad(M34, [-4, 3], [2, -5], mode), expected)
    code = textwrap.dedent(f"""
        import numpy as np, openvino as ov, openvino.opset1 as o1, openvino.opset12 as o12
        x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
        p = o1.parameter([3, 4], np.float32)
        op = o12.pad(p, o1.constant(np.array([-4, 3])), o1.constant(np.array([2, -5])), "{mode}")
        for _ in range(3):
            print(ov.Core().compile_model(ov.Model([op], [p]), "CPU")([x])[0].tolist(), flush=True)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode != 0 or str(expected) not in result.stdout, result.stdout
