# SPDX-License-Identifier: Apache-2.0
# padnd.torch.pad's CUDA code (python/padnd/_torch_device.py) run on CPU tensors: its backward is
# torch's operators only, so the CPU runs the same code a GPU runs. Oracles: the numpy fold of
# the CPU backward (written differently: reduceat over sorted positions) and F.pad's autograd.
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import padnd.torch as padnd_torch  # noqa: E402
from padnd import _pad_adjoint, _torch_device  # noqa: E402

_MODES = ("constant", "reflect", "replicate", "circular", "symmetric")


def _random_request(rng):
    """(input shape, F.pad's flat pads, mode) that padnd.torch.pad takes: pads up to 3 times
    an axis (periodic), crops in each mode's order."""
    while True:
        shape = [int(n) for n in rng.integers(1, 6, int(rng.integers(1, 4)))]
        mode = str(rng.choice(_MODES))
        pads = [int(p) for p in rng.integers(-2, 3 * max(shape) + 1, 2 * int(
            rng.integers(1, len(shape) + 1)))]
        try:
            padnd_torch.pad(torch.zeros(shape), pads, mode)
        except ValueError:  # crops beyond an axis, reflect of one element
            continue
        return shape, pads, mode


def _numpy_backward(grad, shape, pads, mode):
    """The CPU backward's region folds (the small-output gather path turned off)."""
    saved = padnd_torch._GATHER_ELEMENTS
    padnd_torch._GATHER_ELEMENTS = -1
    try:
        return padnd_torch._backward_arrays(grad.numpy(), shape, pads, mode)
    finally:
        padnd_torch._GATHER_ELEMENTS = saved


def _check_against_numpy(rng, cases: int):
    for _ in range(cases):
        shape, pads, mode = _random_request(rng)
        out_shape = padnd_torch.pad(torch.zeros(shape), pads, mode).shape
        grad = torch.from_numpy(rng.standard_normal(tuple(out_shape)))
        expected_input, expected_value = _numpy_backward(grad, shape, pads, mode)
        grad_input, grad_value = _torch_device.backward(grad, shape, pads, mode)
        np.testing.assert_allclose(grad_input.numpy(), expected_input, rtol=1e-12, atol=1e-12,
                                   err_msg=f"{shape} {pads} {mode}")
        np.testing.assert_allclose(grad_value.numpy(), expected_value, rtol=1e-12, atol=1e-12)


def test_fold_equals_the_numpy_fold_on_random_requests():
    _check_against_numpy(np.random.default_rng(11), 400)


def test_fold_equals_f_pads_autograd():
    rng = np.random.default_rng(12)
    for mode, limit in (("constant", 6), ("reflect", 0), ("replicate", 6), ("circular", 1)):
        for _ in range(40):
            shape = [int(n) for n in rng.integers(2, 7, 3)]
            # Pads F.pad takes in each mode: reflect below the axis, circular up to it.
            pads = [int(rng.integers(0, s + limit)) for s in (shape[2], shape[2], shape[1],
                                                              shape[1])]
            x = torch.from_numpy(rng.standard_normal(shape)).requires_grad_()
            grad = torch.from_numpy(rng.standard_normal(tuple(F.pad(x, pads, mode).shape)))
            (expected,) = torch.autograd.grad(F.pad(x, pads, mode), x, grad)
            grad_input, _ = _torch_device.backward(grad, shape, pads, mode)
            torch.testing.assert_close(grad_input, expected, rtol=1e-12, atol=1e-12)


def test_fold_is_the_same_bits_every_run():
    grad = torch.from_numpy(np.random.default_rng(13).standard_normal((7, 40))).float()
    runs = [_torch_device.backward(grad, [5, 6], [17, 11, 1, 1], "reflect")[0]
            for _ in range(3)]
    assert all(torch.equal(runs[0], run) for run in runs[1:])


def test_a_dropped_rank_is_caught(monkeypatch):
    """The planted bug: a fold that forgets each source's last reading position."""
    real = _pad_adjoint._ranks
    monkeypatch.setattr(_pad_adjoint, "_ranks", lambda order, counts: real(order, counts)[:-1])
    _pad_adjoint._geometry.cache_clear()
    try:
        with pytest.raises(AssertionError):
            _check_against_numpy(np.random.default_rng(11), 400)
    finally:
        _pad_adjoint._geometry.cache_clear()


@pytest.mark.parametrize("mode", _MODES)
def test_forward_writes_padnds_result_into_torchs_tensor(mode):
    rng = np.random.default_rng(14)
    for _ in range(30):
        shape, pads, _ = _random_request(rng)
        if mode == "reflect" and min(shape) < 2:
            continue
        x = torch.from_numpy(rng.standard_normal(shape)).float()
        try:
            expected = padnd_torch.pad(x, pads, mode)
        except ValueError:
            continue
        result = _torch_device.forward(x, pads, mode, 0.5 if mode == "constant" else 0)
        if mode == "constant":
            expected = padnd_torch.pad(x, pads, mode, 0.5)
        assert result.is_contiguous() and result.dtype == x.dtype
        torch.testing.assert_close(result, expected, rtol=0, atol=0)
