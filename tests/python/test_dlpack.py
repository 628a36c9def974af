# SPDX-License-Identifier: Apache-2.0
# DLPack in and out: padnd.pad, pad_window and the spec functions on torch, JAX and
# array-api-strict arrays, checked against numpy.pad on the same bits.
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import padnd

torch = pytest.importorskip("torch")

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
TORCH_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.uint16, torch.int32,
                torch.uint32, torch.int64, torch.uint64, torch.float16, torch.bfloat16,
                torch.float32, torch.float64, torch.complex64, torch.complex128,
                torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz,
                torch.float8_e5m2fnuz]


def torch_tensor(dtype, shape, seed: int):
    """A contiguous tensor of random bits (padnd moves bits, so every pattern is a case)."""
    rng = np.random.default_rng(seed)
    if dtype is torch.bool:
        return torch.from_numpy(rng.integers(0, 2, shape).astype(bool))
    raw = rng.integers(0, 256, (*shape, dtype.itemsize), dtype=np.uint8)
    return torch.from_numpy(raw).view(dtype).reshape(shape)


def bits_of(tensor) -> np.ndarray:
    """A contiguous tensor's bytes, one more axis for the bytes of an element."""
    return tensor.contiguous().view(torch.uint8).reshape(*tensor.shape, -1).numpy()


def np_pad_bits(tensor, widths, mode) -> np.ndarray:
    """numpy.pad of a tensor's elements, on their bytes (constant: zero bits)."""
    pairs = [widths] * tensor.dim() if isinstance(widths, int) else list(widths)
    return np.pad(bits_of(tensor), [*pairs, (0, 0)], mode)


pad_cases = st.tuples(
    st.sampled_from(TORCH_DTYPES),
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
    st.sampled_from(INDEX_MODES),
    st.integers(0, 2**32 - 1),
)


@given(pad_cases, st.data())
def test_torch_round_trip_every_dtype(case, data):
    dtype, shape, mode, seed = case
    tensor = torch_tensor(dtype, shape, seed)
    widths = [(data.draw(st.integers(0, 6)), data.draw(st.integers(0, 6))) for _ in shape]
    result = padnd.pad(tensor, widths, mode)
    assert isinstance(result, torch.Tensor) and result.dtype == dtype
    np.testing.assert_array_equal(bits_of(result), np_pad_bits(tensor, widths, mode))


@given(st.lists(st.integers(1, 6), min_size=2, max_size=4), st.sampled_from(INDEX_MODES),
       st.integers(0, 2**32 - 1), st.data())
def test_torch_non_contiguous_views(shape, mode, seed, data):
    base = torch_tensor(torch.float32, shape, seed)
    view = data.draw(st.sampled_from(["transpose", "step", "flip"]))
    tensor = {"transpose": lambda t: t.transpose(0, -1), "step": lambda t: t[::2],
              "flip": lambda t: t.flip(0)}[view](base)
    widths = data.draw(st.integers(0, 4))
    expected = np.pad(tensor.numpy(), widths, mode)
    np.testing.assert_array_equal(padnd.pad(tensor, widths, mode).numpy(), expected)


def test_input_is_not_copied():
    from padnd import _dlpack
    tensor = torch.arange(24.0).reshape(4, 6)[:, 1:]
    view = _dlpack.as_numpy(tensor, "array")
    assert view.__array_interface__["data"][0] == tensor.data_ptr()
    assert view.strides == tuple(s * 4 for s in tensor.stride())
    assert not view.flags.writeable  # padnd never writes its input


def test_result_memory_is_shared_with_the_returned_tensor():
    from padnd import _dlpack
    result = np.arange(6, dtype=np.float32)
    tensor = _dlpack.like(result, torch.empty(0))
    assert tensor.data_ptr() == result.__array_interface__["data"][0]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.bool])
def test_torch_out(dtype):
    tensor = torch_tensor(dtype, (3, 4), 7)
    out = torch.empty((5, 8), dtype=dtype)
    assert padnd.pad(tensor, ((1, 1), (2, 2)), "reflect", out=out) is out
    np.testing.assert_array_equal(bits_of(out), np_pad_bits(tensor, ((1, 1), (2, 2)), "reflect"))


def test_torch_out_for_a_numpy_input_and_a_window_into_a_tile():
    array = np.arange(12, dtype=np.float64).reshape(3, 4)
    canvas = torch.zeros((6, 10), dtype=torch.float64)
    tile = canvas[1:4, 2:7]  # a non-contiguous view: pad_window writes it in place
    padnd.pad_window(array, 2, "symmetric", window=(slice(0, 3), slice(1, 6)), out=tile)
    expected = np.zeros((6, 10))
    expected[1:4, 2:7] = np.pad(array, 2, "symmetric")[0:3, 1:6]
    np.testing.assert_array_equal(canvas.numpy(), expected)


def test_out_errors_name_the_mismatch():
    with pytest.raises(ValueError, match="out: shape"):
        padnd.pad(torch.ones(2, 2), 1, out=torch.empty(3, 3))
    with pytest.raises(ValueError, match="out: requires grad"):  # torch refuses in-place too
        padnd.pad(torch.ones(2, 2), 1, out=torch.empty(4, 4, requires_grad=True))
    with pytest.raises(ValueError, match="out: dtype"):
        padnd.pad(torch.ones(2, 2), 1, out=torch.empty(4, 4, dtype=torch.float64))


def test_lazy_conjugate_and_negative_views_are_read_as_their_values():
    """torch's lazy views hold the values before the conjugation or negation; DLPack exports
    that memory, so padnd reads such an input from a copy with its values, and refuses it as
    out= (writing its values there would need the inverse operation)."""
    values = torch.tensor([1 + 2j, 3 - 1j])
    negative_real = values.conj().imag
    assert negative_real.is_neg()
    for view in (values.conj(), torch._neg_view(values), negative_real):
        expected = np.pad(view.resolve_conj().resolve_neg().numpy(), (1, 2), "reflect")
        for result in (padnd.pad(view, (1, 2), "reflect"),
                       padnd.pad_window(view, (1, 2), "reflect", window=(slice(None),)),
                       padnd.onnx.pad(view, [1, 2], mode="reflect")):
            np.testing.assert_array_equal(result.numpy(), expected)
    for out in (torch.zeros(4, dtype=torch.complex64).conj(),
                torch._neg_view(torch.zeros(4, dtype=torch.complex64))):
        with pytest.raises(ValueError, match="out: a lazy (conjugation|negation) view"):
            padnd.pad(torch.ones(2, dtype=torch.complex64), 1, out=out)


def test_requires_grad_tensor_is_padded_without_a_gradient_under_no_grad():
    """(With grad mode on it is refused: test_drop_in_hardening.py.)"""
    tensor = torch.arange(3.0, requires_grad=True)
    with torch.no_grad():
        result = padnd.pad(tensor, 1, "edge")
    assert not result.requires_grad
    assert result.tolist() == [0.0, 0.0, 1.0, 2.0, 2.0]


def test_value_modes_and_extensions_on_tensors():
    tensor = torch.arange(1.0, 7.0, dtype=torch.float64).reshape(2, 3)
    np.testing.assert_array_equal(padnd.pad(tensor, 2, "mean").numpy(),
                                  np.pad(tensor.numpy(), 2, "mean"))
    cropped = padnd.pad(tensor, ((0, 0), (-1, 2)), "wrap", negative="crop_then_pad")
    assert cropped.tolist() == [[2.0, 3.0, 2.0, 3.0], [5.0, 6.0, 5.0, 6.0]]


class _OnDevice:
    """A DLPack producer on a GPU (device type 2 = cuda), for the device check."""

    def __dlpack__(self, **kwargs):
        raise AssertionError("padnd must check the device before importing")

    def __dlpack_device__(self):
        return (2, 1)


def test_gpu_tensor_error_names_the_device():
    # The spec functions read CPU memory; padnd.pad takes CUDA tensors (test_cuda_dlpack.py).
    with pytest.raises(ValueError, match=r"data: a tensor on cuda:1; this function reads "
                                         r"tensors in CPU memory .* padnd.pad and "
                                         r"padnd.pad_window also take CUDA tensors"):
        padnd.onnx.pad(_OnDevice(), [1, 1])
    with pytest.raises(ValueError, match=r"array: in CPU memory while out is on cuda:1"):
        padnd.pad(np.ones(2), 1, out=_OnDevice())


def test_tensor_without_a_dlpack_device_is_refused_by_name():
    meta = torch.empty(2, 3, device="meta")
    expected = r"its __dlpack_device__ failed \(.*meta.*\); padnd reads tensors in CPU memory"
    with pytest.raises(ValueError, match="array: " + expected):
        padnd.pad(meta, 1)
    with pytest.raises(ValueError, match="out: " + expected):
        padnd.pad(np.ones(2), 1, out=meta)


def test_spec_functions_return_the_callers_type():
    tensor = torch.arange(6, dtype=torch.bfloat16).reshape(2, 3)
    onnx = padnd.onnx.pad(tensor, [0, 1, 0, 2], mode="reflect", opset=18)
    openvino = padnd.openvino.pad(tensor, [0, 1], [1, 0], "symmetric")
    ngraph = padnd.ngraph.pad(tensor.float(), 0.0, [1, 0], [0, 1], [1, 1])
    expected = np_pad_bits(tensor, ((0, 0), (1, 2)), "reflect")
    assert isinstance(onnx, torch.Tensor) and onnx.dtype == torch.bfloat16
    np.testing.assert_array_equal(bits_of(onnx), expected)
    np.testing.assert_array_equal(bits_of(openvino),
                                  np_pad_bits(tensor, ((0, 1), (1, 0)), "symmetric"))
    assert isinstance(ngraph, torch.Tensor) and ngraph.shape == (4, 6)
    window = padnd.onnx.pad(tensor, [0, 1, 0, 2], mode="reflect", opset=18,
                            window=(slice(None), slice(1, 4)))
    np.testing.assert_array_equal(bits_of(window), expected[:, 1:4])


def test_array_api_strict():
    xp = pytest.importorskip("array_api_strict")
    array = xp.asarray(np.arange(6.0).reshape(2, 3))
    result = padnd.pad(array, ((1, 0), (0, 2)), "reflect")
    assert type(result) is type(array)
    np.testing.assert_array_equal(np.asarray(result),
                                  np.pad(np.arange(6.0).reshape(2, 3), ((1, 0), (0, 2)),
                                         "reflect"))
