# SPDX-License-Identifier: Apache-2.0
# torch's own test inputs for torch.nn.functional.pad run on padnd.torch.pad, as a user switching
# would: the OpInfo entries named "nn.functional.pad" in torch's op_db (the constant, reflect,
# replicate, replicate_negative and circular variants, from the installed torch's
# torch/testing/_internal/common_methods_invocations.py), every sample of every dtype the
# OpInfo declares for the CPU. Each sample is given to padnd.torch.pad and to the OpInfo's op
# (F.pad), and the results must agree:
#   - forward: dtype, shape and values bit for bit (NaN where F.pad has NaN), or the same
#     exception type;
#   - backward (the OpInfo's backward dtypes, samples that require grad): the input's gradient
#     for the same output gradient, bit for bit where an input element has one term (constant
#     mode, the interior), else within the rounding of two sums of its terms (2 n eps
#     sum|terms|), because padnd adds them in a fixed order where F.pad scatter-adds, both in
#     the gradient's dtype (docs/frameworks.md);
#   - forward-mode AD: the tangent, bit for bit (pad is linear: no sums);
#   - gradcheck and gradgradcheck in float64 and complex128 (fast mode), as torch's
#     test_fn_fastgradcheck and test_fn_gradgrad run them (forward AD and batched gradients
#     as the OpInfo declares).
#   - error_inputs, where the OpInfo has them: the same exception type as F.pad.
# scripts/test.sh step 8b runs this file from the installed wheel.
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")  # torch.testing._internal imports it
padnd_torch = pytest.importorskip("padnd.torch")
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

OPS = [op for op in op_db if op.name == "nn.functional.pad"]
# Differences on purpose, as (variant, dtype, sample index) -> reason: none today.
DIFFERENT_ON_PURPOSE: dict = {}


def _cases(dtypes_of, requires_grad: bool) -> list:
    cases = []
    for op in OPS:
        for dtype in sorted(dtypes_of(op), key=str):
            for index, sample in enumerate(op.sample_inputs("cpu", dtype,
                                                            requires_grad=requires_grad)):
                key = (op.variant_test_name, str(dtype).removeprefix("torch."), index)
                reason = DIFFERENT_ON_PURPOSE.get(key)
                marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
                cases.append(pytest.param(op, sample, id="-".join(map(str, key)),
                                          marks=marks))
    return cases


FORWARD = _cases(lambda op: op.supported_dtypes("cpu"), requires_grad=False)
BACKWARD = _cases(lambda op: op.supported_backward_dtypes("cpu"), requires_grad=True)
EXACT_GRADCHECK = [case for case in BACKWARD
                   if case.values[1].input.dtype in (torch.float64, torch.complex128)]
ERRORS = [pytest.param(op, error, id=f"{op.variant_test_name}-{index}")
          for op in OPS if op.error_inputs_func is not None
          for index, error in enumerate(op.error_inputs("cpu"))]


def test_the_opinfo_samples_are_there():
    assert {op.variant_test_name for op in OPS} >= {"constant", "reflect", "replicate",
                                                    "circular"}
    assert len(FORWARD) > 500 and len(BACKWARD) > 200


def _run(function, sample):
    try:
        return function(sample.input, *sample.args, **sample.kwargs), None
    except Exception as e:  # noqa: BLE001  (compared with F.pad's exception below)
        return None, e


def _assert_bitwise(actual, expected):
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    torch.testing.assert_close(actual, expected, rtol=0, atol=0, equal_nan=True)


@pytest.mark.parametrize("op, sample", FORWARD)
def test_forward(op, sample):
    expected, expected_error = _run(op.op, sample)
    actual, actual_error = _run(padnd_torch.pad, sample)
    if expected_error is not None:
        assert isinstance(actual_error, type(expected_error)), (actual_error, expected_error)
        return
    if actual_error is not None:
        raise actual_error
    _assert_bitwise(actual, expected)


@pytest.mark.parametrize("op, sample", BACKWARD)
def test_backward(op, sample):
    expected = sample.output_process_fn_grad(op.op(sample.input, *sample.args, **sample.kwargs))
    actual = sample.output_process_fn_grad(
        padnd_torch.pad(sample.input, *sample.args, **sample.kwargs))
    _assert_bitwise(actual.detach(), expected.detach())
    grad_output = torch.testing.make_tensor(expected.shape, dtype=expected.dtype, device="cpu",
                                            low=-4, high=4)
    (expected_grad,) = torch.autograd.grad(expected, sample.input, grad_output)
    (actual_grad,) = torch.autograd.grad(actual, sample.input, grad_output)
    assert actual_grad.dtype == expected_grad.dtype
    # Each input element's gradient is a sum of the output gradient at the positions that read
    # it. F.pad scatter-adds, padnd adds in a fixed order, both rounding at each step in the
    # gradient's dtype: where an element has one term they agree bit for bit, where it has n
    # they may differ by the rounding of two n-term sums, 2 n eps sum|terms| (float64 sums of
    # F.pad's adjoint here).
    wide = torch.complex128 if expected_grad.is_complex() else torch.float64
    exact = sample.input.detach().to(wide).requires_grad_()
    adjoint = op.op(exact, *sample.args, **sample.kwargs)
    terms = torch.autograd.grad(adjoint, exact, torch.ones_like(adjoint),
                                retain_graph=True)[0].real
    magnitudes = torch.autograd.grad(adjoint, exact, grad_output.abs().to(wide))[0].real
    eps = torch.finfo(expected_grad.dtype).eps
    allowed = torch.where(terms > 1, 2 * terms * eps * magnitudes, 0)
    difference = (actual_grad.to(wide) - expected_grad.to(wide)).abs()
    assert (difference <= allowed).all(), (difference - allowed).max()


@pytest.mark.parametrize("op, sample", BACKWARD)
def test_forward_ad(op, sample):
    import torch.autograd.forward_ad as fwAD

    if not op.supports_forward_ad:
        pytest.skip("the OpInfo declares no forward-mode AD")
    primal = sample.input.detach()
    tangent = torch.testing.make_tensor(primal.shape, dtype=primal.dtype, device="cpu",
                                        low=-4, high=4)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        expected = fwAD.unpack_dual(op.op(dual, *sample.args, **sample.kwargs)).tangent
        actual = fwAD.unpack_dual(padnd_torch.pad(dual, *sample.args, **sample.kwargs)).tangent
    _assert_bitwise(actual, expected)


@pytest.mark.parametrize("op, sample", EXACT_GRADCHECK)
def test_gradcheck_and_gradgradcheck(op, sample):
    def padded(x):
        return padnd_torch.pad(x, *sample.args, **sample.kwargs)

    # fast_mode (torch's test_fn_fastgradcheck): random projections of the Jacobian, so a
    # sample costs a few calls instead of one per input and output element.
    assert torch.autograd.gradcheck(padded, (sample.input,), fast_mode=True,
                                    check_forward_ad=op.supports_forward_ad,
                                    check_batched_grad=op.check_batched_grad)
    assert torch.autograd.gradgradcheck(padded, (sample.input,), fast_mode=True,
                                        check_fwd_over_rev=op.supports_fwgrad_bwgrad,
                                        check_batched_grad=op.check_batched_gradgrad)


if ERRORS:  # torch 2.15's OpInfos for nn.functional.pad have no error_inputs
    @pytest.mark.parametrize("op, error", ERRORS)
    def test_error_inputs(op, error):
        with pytest.raises(error.error_type):
            padnd_torch.pad(error.sample_input.input, *error.sample_input.args,
                            **error.sample_input.kwargs)
