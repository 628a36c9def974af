# SPDX-License-Identifier: Apache-2.0
# padnd.torch.pad: equal to F.pad wherever F.pad takes the request, numpy.pad beyond it; the
# custom op's opcheck, gradcheck, gradgradcheck, determinism and torch.compile.
import contextlib
import os
import sys
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
F = torch.nn.functional
padnd_torch = pytest.importorskip("padnd.torch")

TORCH_MODES = ["constant", "reflect", "replicate", "circular"]
NUMPY_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap", "symmetric": "symmetric"}
ALL_MODES = [*TORCH_MODES, "symmetric"]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]


def random_tensor(shape, dtype, seed: int):
    """Small integers in ``dtype`` (exact in every dtype, so results compare bitwise)."""
    values = torch.from_numpy(np.random.default_rng(seed).integers(-50, 50, shape))
    return values.to(dtype) if dtype is not torch.bool else values > 0


def numpy_oracle(tensor, pads, mode, value=0):
    """numpy.pad of F.pad's request. Negative pads crop in F.pad's order: circular (and
    constant, where the order makes no difference) crops the input first; reflect, replicate
    and symmetric pad the whole input, then crop the result."""
    array = tensor.numpy() if tensor.dtype is not torch.bfloat16 else tensor.float().numpy()
    pairs = [(0, 0)] * (tensor.dim() - len(pads) // 2)
    pairs += [(pads[i], pads[i + 1]) for i in range(len(pads) - 2, -1, -2)]
    grow = [(max(0, b), max(0, a)) for b, a in pairs]
    extra = {"constant_values": value} if mode == "constant" else {}
    if mode in ("constant", "circular"):
        crop = tuple(slice(max(0, -b), array.shape[k] - max(0, -a))
                     for k, (b, a) in enumerate(pairs))
        return np.pad(array[crop], grow, NUMPY_MODE[mode], **extra)
    padded = np.pad(array, grow, NUMPY_MODE[mode], **extra)
    return padded[tuple(slice(max(0, -b), padded.shape[k] - max(0, -a))
                        for k, (b, a) in enumerate(pairs))]


# The backward's paths, each forced on small tensors: one gather (small outputs); the
# pad-sized region folds over an interior numpy copies, or padnd's engine crops.
BACKWARD_PATHS = {"gather": {}, "regions": {"_GATHER_ELEMENTS": -1},
                  "regions+engine": {"_GATHER_ELEMENTS": -1, "_ENGINE_CROP_BYTES": 0}}


@contextlib.contextmanager
def backward_path(name):
    with contextlib.ExitStack() as stack:
        for attribute, limit in BACKWARD_PATHS[name].items():
            stack.enter_context(mock.patch.object(padnd_torch, attribute, limit))
        yield


@st.composite
def fpad_requests(draw):
    """A request F.pad takes: non-constant modes pad the last 1-3 dimensions of a tensor with
    one or two more, reflect below the size, circular up to it; every mode crops. Circular
    pads stay within what its crops leave: beyond it F.pad returns uninitialised memory."""
    mode = draw(st.sampled_from(TORCH_MODES))
    padded = draw(st.integers(1, 3))
    ndim = padded + draw(st.integers(0 if mode == "constant" else 1, 2))
    shape = draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim))
    pads = []
    for size in reversed(shape[-padded:]):
        high = {"constant": 4, "reflect": size - 1, "replicate": 5, "circular": size}[mode]
        before = draw(st.integers(-(size // 2), high))
        after = draw(st.integers(-(size // 2), high))
        if mode == "circular":
            left = size - max(0, -before) - max(0, -after)
            before, after = min(before, left), min(after, left)
        pads += [before, after]
    dtype = draw(st.sampled_from(FLOATS if mode != "constant" else
                                 [*FLOATS, torch.int32, torch.uint8, torch.bool]))
    # F.pad takes a value of 0 in every mode; numbers in constant mode.
    values = [None, 0, 0.0]
    if mode == "constant" and dtype is not torch.bool:
        values += [7] if dtype in (torch.int32, torch.uint8) else [7, -2.5]
    return shape, pads, mode, dtype, draw(st.sampled_from(values))


@given(fpad_requests(), st.integers(0, 2**32 - 1))
def test_equals_fpad_bitwise(request, seed):
    shape, pads, mode, dtype, value = request
    tensor = random_tensor(shape, dtype, seed)
    try:
        expected = F.pad(tensor, pads, mode, value)
    except (RuntimeError, NotImplementedError):
        return  # a request F.pad refuses (its rules vary by dimension count and dtype)
    result = padnd_torch.pad(tensor, pads, mode, value)
    assert result.dtype == expected.dtype
    assert torch.equal(result, expected)


@given(st.sampled_from(ALL_MODES), st.lists(st.integers(1, 4), min_size=1, max_size=5),
       st.sampled_from([torch.int64, torch.int8, torch.bool, torch.bfloat16, torch.float32]),
       st.integers(0, 2**32 - 1), st.data())
def test_beyond_fpad_equals_numpy(mode, shape, dtype, seed, data):
    """Every dimension padded, wide pads, integer and bool data, symmetric, crops."""
    tensor = random_tensor(shape, dtype, seed)
    pads = []
    for size in reversed(shape):
        low = -(size - 1) if mode != "constant" else -size
        pads += [data.draw(st.integers(low, 9)), data.draw(st.integers(low, 9))]
    for size, before, after in zip(reversed(shape), pads[::2], pads[1::2]):
        left = size - max(0, -before) - max(0, -after)
        # Circular wraps what its crops leave; the other modes read the whole input.
        if left < 0 or (left == 0 and mode == "circular" and max(before, after) > 0):
            with pytest.raises(ValueError):  # crops beyond the data; wrapping nothing
                padnd_torch.pad(tensor, pads, mode)
            return
    result = padnd_torch.pad(tensor, pads, mode)
    assert result.dtype == dtype
    expected = numpy_oracle(tensor, pads, mode)
    got = result.float().numpy() if dtype is torch.bfloat16 else result.numpy()
    np.testing.assert_array_equal(got, expected)


def forward_input(kind):
    """Tensors of each forward route: Tensor.numpy() views (plain, a transposed one, one
    that requires a gradient, unsigned and complex types), DLPack imports (bfloat16, a
    Parameter: not a plain Tensor)."""
    base = random_tensor((3, 4, 5), torch.float32, 7)
    return {"plain": base, "transposed": base.permute(2, 1, 0),
            "requires_grad": base.clone().requires_grad_(),
            "uint16": base.abs().to(torch.uint16), "complex64": base.to(torch.complex64) * 1j,
            "bfloat16": base.to(torch.bfloat16),
            "parameter": torch.nn.Parameter(base, requires_grad=False)}[kind]


@pytest.mark.parametrize("kind", ["plain", "transposed", "requires_grad", "uint16", "complex64",
                                  "bfloat16", "parameter"])
@pytest.mark.parametrize("pads", [(1, 2, 0, 3), (2, -1, -1, 1, 1, 0)], ids=["grow", "crop"])
@pytest.mark.parametrize("mode", ["constant", "circular"])
def test_forward_routes_equal_numpy(kind, pads, mode):
    tensor = forward_input(kind)
    with torch.no_grad():
        result = padnd_torch.pad(tensor, pads, mode)
    assert type(result) is torch.Tensor and result.dtype == tensor.dtype
    assert result.is_contiguous() and not result.requires_grad
    got = result.float() if kind == "bfloat16" else result
    np.testing.assert_array_equal(got.numpy(), numpy_oracle(tensor.detach(), pads, mode))
    result.fill_(1)  # a new tensor: the input is untouched
    assert not torch.equal(tensor.detach(), torch.ones_like(tensor))


@pytest.mark.skipif(not (sys.platform.startswith("linux") and torch.backends.openmp.is_available()),
                    reason="torch's OpenMP runtime is looked up in /proc/self/maps (Linux)")
def test_openmp_runtime_is_torchs():
    path = padnd_torch._padnd._openmp_runtime()
    assert path is not None and os.path.basename(path).startswith(("libgomp", "libiomp5", "libomp"))
    with open("/proc/self/maps", encoding="utf-8") as maps:
        assert path in maps.read()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("mode", ALL_MODES)
def test_many_task_forward_on_any_team_size(mode, threads):
    """Outputs of several MiB: many tasks, on torch's OpenMP team of `threads` (any size,
    more than the cores too), each written once."""
    tensor = random_tensor((3, 2, 300, 517), torch.float32, seed=threads)
    pads = (5, 300, 260, 1, 0, 2)
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        result = padnd_torch.pad(tensor, pads, mode)
    finally:
        torch.set_num_threads(previous)
    np.testing.assert_array_equal(result.numpy(), numpy_oracle(tensor, pads, mode))


def test_lazy_conjugate_and_negative_views_are_resolved():
    """A conjugate or negative view's memory holds the values before the lazy operation."""
    values = torch.tensor([1 + 2j, 3 - 1j])
    conjugate = padnd_torch.pad(values.conj(), (1, 1), "circular")
    assert conjugate.tolist() == [3 + 1j, 1 - 2j, 3 + 1j, 1 - 2j]
    negative = padnd_torch.pad(torch._neg_view(values), (1, 0))
    assert negative.tolist() == [0, -1 - 2j, -3 + 1j]


def strided_input(layout):
    """Tensors whose memory pad_flat_tensor reads in place (offsets, steps, zero strides)."""
    base = random_tensor((4, 6, 5), torch.float32, 3)
    return {"offset": base[1:, 2:], "stepped": base[:, ::2, 1::2],
            "expanded": base[:1, :1].expand(3, 4, 5), "permuted": base.permute(1, 0, 2),
            "fortran": base.permute(2, 1, 0),
            "empty": base[:, :0], "empty_out": base[:, :0],
            "int16": base[:, 1:4].to(torch.int16), "scalar": base[0, 0, 0]}[layout]


HAS_EXCHANGE_API = padnd_torch._HAS_EXCHANGE_API


@pytest.fixture(params=["exchange", "fields"])
def one_call_route(request):
    """The one-call forward's ways of reading a tensor: DLPack's C exchange API (dtype None: read
    from the tensor; small results are torch's allocations), or its data_ptr(), shape and
    stride() (the numpy dtype given; results are numpy arrays). Yields (route, dtype of a
    tensor -> pad_flat_tensor's dtype argument)."""
    if request.param == "exchange" and not HAS_EXCHANGE_API:
        pytest.skip(f"torch {torch.__version__} has no __dlpack_c_exchange_api__")
    was = padnd_torch._padnd._use_dlpack_exchange(request.param == "exchange")
    try:
        yield request.param, (lambda dtype: None if request.param == "exchange" else
                              padnd_torch._NUMPY_DTYPES[dtype])
    finally:
        padnd_torch._padnd._use_dlpack_exchange(was)


@pytest.mark.parametrize("layout", ["offset", "stepped", "expanded", "permuted", "fortran",
                                    "empty", "empty_out", "int16", "scalar"])
@pytest.mark.parametrize("mode", ["constant", "circular"])
def test_one_call_forward_reads_strided_tensors_in_place(layout, mode, one_call_route):
    """The one-call forward reads the tensor at its storage offset, element strides scaled to
    bytes, zero strides too; its result equals numpy.pad's: a new C-order tensor of the input's
    dtype through the exchange API, a numpy array through the fields."""
    route, dtype_argument = one_call_route
    tensor = strided_input(layout)
    if layout in ("empty", "empty_out", "scalar") and mode != "constant":
        mode = "constant"  # circular has nothing to wrap
    # empty_out: an output with an empty middle axis (any strides address it).
    pads = {"scalar": [], "empty_out": [2, 1]}.get(layout, [2, 1, 1, 0])
    # numpy.pad takes no pad_width for a 0-d array: nothing to pad, the value itself.
    expected = numpy_oracle(tensor, pads, mode) if pads else tensor.numpy()
    direct = padnd_torch._padnd.pad_flat_tensor(tensor, dtype_argument(tensor.dtype), pads,
                                                padnd_torch._MODES[mode], None)
    if layout == "fortran":
        assert direct is None  # Fortran-ordered: numpy.pad's layout rule, the general path
    else:
        assert direct is not None  # the one-call route was taken
        if route == "exchange":
            assert type(direct) is torch.Tensor and direct.dtype == tensor.dtype
            assert direct.is_contiguous()
            assert direct.numel() == 0 or direct.data_ptr() != tensor.data_ptr()
        else:
            assert isinstance(direct, np.ndarray)
        np.testing.assert_array_equal(direct, expected)
    np.testing.assert_array_equal(padnd_torch.pad(tensor, pads, mode).numpy(), expected)


def test_one_call_forward_refuses_what_it_cannot_read(one_call_route):
    """Lazy conjugate and negative views (a real one too), sparse and meta tensors take the
    general path, which resolves the views and reports the rest."""
    _, dtype_argument = one_call_route
    values = torch.tensor([1 + 2j, 3 - 1j])
    negative_real = values.conj().imag
    assert negative_real.is_neg()
    refused = [values.conj(), negative_real, torch._neg_view(torch.ones(3)),
               torch.ones(2, 2).to_sparse(), torch.ones(2, 2, device="meta")]
    for tensor in refused:
        assert padnd_torch._padnd.pad_flat_tensor(tensor, dtype_argument(tensor.dtype), [1, 1],
                                                  "wrap", None) is None
    assert padnd_torch.pad(negative_real, (1, 0)).tolist() == [0, -2, 1]


def test_one_call_forward_leaves_other_dtypes_to_the_general_path():
    """Through the exchange API the call reads the dtype itself: types numpy lacks (bfloat16,
    float8) are the general path's (ml_dtypes through DLPack)."""
    if not HAS_EXCHANGE_API:
        pytest.skip(f"torch {torch.__version__} has no __dlpack_c_exchange_api__")
    for dtype in (torch.bfloat16, getattr(torch, "float8_e4m3fn", torch.bfloat16)):
        tensor = torch.ones(2, 3, dtype=dtype)
        assert padnd_torch._padnd.pad_flat_tensor(tensor, None, [1, 1], "edge", None) is None
        assert padnd_torch.pad(tensor, (1, 1), "replicate").float().tolist() == [[1.0] * 5] * 2


def test_one_call_forward_returns_large_results_in_numpys_allocation(one_call_route):
    """Outputs of 4 MiB and more are numpy's allocation (huge pages) on both routes, handed to
    torch by torch.from_numpy; smaller ones through the exchange API are torch's own."""
    route, dtype_argument = one_call_route
    tensor = random_tensor((1024, 1024), torch.float32, 9)  # 4 MiB in, 4 MiB + 16 KiB out
    pads = [0, 0, 2, 2]
    direct = padnd_torch._padnd.pad_flat_tensor(tensor, dtype_argument(tensor.dtype), pads,
                                                "reflect", None)
    assert isinstance(direct, np.ndarray)
    np.testing.assert_array_equal(direct, numpy_oracle(tensor, pads, "reflect"))
    result = padnd_torch.pad(tensor, pads, "reflect")
    assert type(result) is torch.Tensor
    np.testing.assert_array_equal(result.numpy(), numpy_oracle(tensor, pads, "reflect"))
    small = padnd_torch._padnd.pad_flat_tensor(tensor[:1000], dtype_argument(tensor.dtype),
                                               pads, "reflect", None)
    assert type(small) is (torch.Tensor if route == "exchange" else np.ndarray)


def test_one_call_forward_takes_every_dtype_numpy_has():
    for dtype, numpy_dtype in padnd_torch._NUMPY_DTYPES.items():
        tensor = random_tensor((3, 4), dtype, 5)
        assert tensor.numpy().dtype == numpy_dtype
        result = padnd_torch.pad(tensor, (1, 2, 0, 1), "circular")
        assert result.dtype == dtype
        np.testing.assert_array_equal(result.numpy(), numpy_oracle(tensor, (1, 2, 0, 1),
                                                                   "circular"))


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.bfloat16, torch.complex64])
def test_zero_dimensional_tensor_is_its_value(mode, dtype):
    """F.pad takes a 0-d tensor with no pads and returns its value, shape (): so do the
    one-call forward, the general path (numpy.pad refuses an empty pad_width, and a result made
    C-contiguous must stay 0-d), the custom op and autograd, in every dtype route."""
    value = torch.tensor(2.5, dtype=dtype)
    constants = [None, 7] if mode == "constant" else [None]
    for constant in constants:
        expected = F.pad(value, [], value=constant or 0)
        assert expected.shape == () and torch.equal(expected, value)
        result = padnd_torch.pad(value, [], mode, constant)
        assert result.shape == () and result.dtype == dtype and torch.equal(result, value)
        tracked = value.clone().requires_grad_(True)
        result = padnd_torch.pad(tracked, [], mode, constant)
        assert result.shape == () and result.data_ptr() != tracked.data_ptr()
        assert torch.equal(result.detach(), value)
        (gradient,) = torch.autograd.grad(result, tracked, torch.full_like(result, 3))
        assert gradient.shape == () and gradient.item() == 3
        op_result = torch.ops.padnd.pad(value, [], mode, torch.tensor(constant or 0, dtype=dtype))
        assert op_result.shape == () and torch.equal(op_result, value)


def test_constant_value_and_dtypes():
    tensor = torch.tensor([[1, 2], [3, 4]], dtype=torch.int16)
    assert padnd_torch.pad(tensor, (1, 0), value=7).tolist() == [[7, 1, 2], [7, 3, 4]]
    flags = padnd_torch.pad(torch.tensor([True]), (1, 1), "reflect")
    assert flags.dtype is torch.bool and flags.tolist() == [True, True, True]
    complex_result = padnd_torch.pad(torch.tensor([1 + 2j, 3j]), (0, 3), "circular")
    assert complex_result.tolist() == [1 + 2j, 3j, 1 + 2j, 3j, 1 + 2j]


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
def test_crops_beyond_a_dimension_that_fpad_takes(mode):
    # Reflect and replicate pad first, then crop the padded dimension: one side may crop more
    # than the input holds when the other pads enough. Every request F.pad takes, L = 1..4.
    taken = 0
    for length in range(1, 5):
        x = torch.arange(float(length)).reshape(1, 1, length)
        for before in range(-6, 7):
            for after in range(-6, 7):
                try:
                    expected = F.pad(x, [before, after], mode)
                except RuntimeError:
                    continue
                taken += 1
                got = padnd_torch.pad(x, [before, after], mode)
                assert torch.equal(got, expected), (length, before, after)
    assert taken > 90  # 94 in reflect, more in replicate


def _fpad_values(seed):
    """Python numbers F.pad reads as doubles: 16-bit float ties (torch rounds through float32),
    and integers beyond a double's 53 bits."""
    rng = np.random.default_rng(seed)
    values = [2**62 + 1, -2**63 - 1, 2**53 + 1, 8623489032.0, 358.6250000004314, 2.5, -2.5]
    for _ in range(400):
        scale = 10.0 ** int(rng.integers(-30, 30))
        bits = np.float32(rng.standard_normal() * scale).view(np.uint32)
        for tie_bit in (0x1000, 0x8000):  # float16's and bfloat16's halfway bits in float32
            tie = float(np.uint32(bits & ~np.uint32(2 * tie_bit - 1) | tie_bit).view(np.float32))
            values += [tie, tie * (1 + float(rng.standard_normal()) * 2**-40)]
    return values


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32, torch.int64,
                                   torch.int32, torch.uint8])
def test_number_values_equal_fpads_bitwise(dtype):
    x = torch.zeros(1, 2, dtype=dtype)
    routes = (False, True) if dtype.is_floating_point else (False,)
    for value in _fpad_values(int(dtype.itemsize)):
        try:
            expected = F.pad(x, [1, 1], value=value)
        except RuntimeError:  # beyond the dtype: F.pad refuses
            continue
        for tracked in routes:
            got = padnd_torch.pad(x.clone().requires_grad_(tracked), [1, 1], value=value)
            assert got.detach().view(torch.uint8).tolist() == \
                expected.view(torch.uint8).tolist(), (value, tracked)


@pytest.mark.parametrize("call, error", [
    (lambda t: padnd_torch.pad(t, (1,), "reflect"), "pad: expected an even number"),
    (lambda t: padnd_torch.pad(t, (1, 1, 1, 1, 1, 1), "reflect"), "at most 2 \\* input.dim"),
    (lambda t: padnd_torch.pad(t, (1, 1), "wrap"), "mode: expected one of"),
    (lambda t: padnd_torch.pad(t, (1, 1), "reflect", value=1.0), "value: only mode"),
    (lambda t: padnd_torch.pad(t, (1, 1), "reflect", value=torch.tensor(0.0)), "value: only"),
    (lambda t: padnd_torch.pad(t, (1, 1), value=torch.ones(2)), "value: expected a number"),
])
def test_errors(call, error):
    with pytest.raises(ValueError, match=error):
        call(torch.ones(2, 3))


def differentiable_case(mode):
    """(function, float64 inputs) with pads wider than a dimension and a crop."""
    tensor = torch.randn(3, 4, 2, dtype=torch.float64, requires_grad=True)
    pads = (1, 2, 5, -1, 2, 3)
    if mode == "constant":
        value = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
        return (lambda t, v: padnd_torch.pad(t, pads, mode, v)), (tensor, value)
    return (lambda t: padnd_torch.pad(t, pads, mode)), (tensor,)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_gradcheck_and_gradgradcheck(mode):
    function, inputs = differentiable_case(mode)
    assert torch.autograd.gradcheck(function, inputs)
    assert torch.autograd.gradgradcheck(function, inputs)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_eager_route_equals_the_custom_op(mode):
    """padnd.torch.pad's eager autograd.Function and the custom op give the same bits: the
    output, the gradients (input, value) and their own gradients (create_graph)."""
    function, inputs = differentiable_case(mode)
    grad = torch.randn(function(*inputs).shape, dtype=torch.float64, requires_grad=True)
    ours = function(*inputs)
    value = inputs[1] if mode == "constant" else torch.tensor(0.0, dtype=torch.float64)
    theirs = torch.ops.padnd.pad(inputs[0], [1, 2, 5, -1, 2, 3], mode, value)
    assert type(ours.grad_fn).__name__ != type(theirs.grad_fn).__name__  # two routes
    assert torch.equal(ours, theirs)
    plain = [torch.autograd.grad(out, inputs, grad, retain_graph=True) for out in (ours, theirs)]
    first = [torch.autograd.grad(out, inputs, grad, create_graph=True) for out in (ours, theirs)]
    for a, b, c, d in zip(*plain, *first):
        assert torch.equal(a, b) and torch.equal(a, c) and torch.equal(a, d)
    # pad is linear: its first gradients are functions of `grad` alone.
    second = [torch.autograd.grad(g[0].square().sum(), grad)[0] for g in first]
    assert torch.equal(second[0], second[1])


@pytest.mark.parametrize("mode", ALL_MODES)
def test_opcheck(mode):
    tensor = torch.randn(3, 4, 5, dtype=torch.float64, requires_grad=True)
    value = torch.tensor(0.5, dtype=torch.float64, requires_grad=mode == "constant")
    pads = [2, 7, -1, 1]
    torch.library.opcheck(torch.ops.padnd.pad.default, (tensor, pads, mode, value))
    grad = torch.randn(3, 4, 14, dtype=torch.float64, requires_grad=True)
    torch.library.opcheck(torch.ops.padnd.pad_backward.default, (grad, [3, 4, 5], pads, mode))


@pytest.mark.parametrize("mode", TORCH_MODES)
def test_gradient_equals_fpads(mode):
    tensor = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    pads = (2, 1, 3, 4)
    grad = torch.randn(2, 3, 12, 9, dtype=torch.float64)
    ours, = torch.autograd.grad(padnd_torch.pad(tensor, pads, mode), tensor, grad)
    theirs, = torch.autograd.grad(F.pad(tensor, pads, mode), tensor, grad)
    torch.testing.assert_close(ours, theirs, rtol=0, atol=1e-12)  # summation order may differ


@pytest.mark.parametrize("mode", TORCH_MODES)
def test_batched_gradients_equal_fpads(mode):
    # autograd.grad(is_grads_batched=True) (gradcheck's batched check) hands the backward a
    # batched wrapper tensor, whose memory padnd cannot read: the custom op runs per element.
    tensor = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    pads = (2, 1, 3, 4)
    grads = torch.randn(4, 2, 3, 12, 9, dtype=torch.float64)
    ours, = torch.autograd.grad(padnd_torch.pad(tensor, pads, mode), tensor, grads,
                                is_grads_batched=True)
    theirs, = torch.autograd.grad(F.pad(tensor, pads, mode), tensor, grads,
                                  is_grads_batched=True)
    torch.testing.assert_close(ours, theirs, rtol=0, atol=1e-12)  # summation order may differ


def memory_layouts():
    """Tensors of several layouts: contiguous, channels-last (dense, sliced, and of one
    channel), transposed; F.pad's result follows torch's suggested memory format of them."""
    base = torch.randn(2, 3, 5, 6, dtype=torch.float64)
    last = base.to(memory_format=torch.channels_last)
    volume = torch.randn(2, 3, 3, 4, 5, dtype=torch.float64)
    return {"contiguous": base, "channels_last": last, "channels_last_sliced": last[:, :, 1:, ::2],
            "channels_last_one_channel": last[:, :1], "transposed": base.transpose(2, 3),
            "channels_last_3d": volume.to(memory_format=torch.channels_last_3d)}


def result_layout(tensor):
    rank = {4: torch.channels_last, 5: torch.channels_last_3d}.get(tensor.dim())
    return (tensor.is_contiguous(),
            rank is not None and tensor.is_contiguous(memory_format=rank))


@pytest.mark.parametrize("layout", list(memory_layouts()))
@pytest.mark.parametrize("mode", TORCH_MODES)
@pytest.mark.parametrize("pads", [(1, 2, 2, 1), (1, -1, -1, 2)], ids=["grow", "crop"])
def test_result_memory_format_is_fpads(layout, mode, pads):
    tensor = memory_layouts()[layout].requires_grad_()
    pads = pads + (1, 0) * (tensor.dim() == 5)  # F.pad pads all three of a volume's dimensions
    ours, theirs = padnd_torch.pad(tensor, pads, mode), F.pad(tensor, pads, mode)
    assert result_layout(ours) == result_layout(theirs)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    grad = torch.randn(theirs.shape, dtype=theirs.dtype)
    (grad_ours,) = torch.autograd.grad(ours, tensor, grad)
    (grad_theirs,) = torch.autograd.grad(theirs, tensor, grad)
    torch.testing.assert_close(grad_ours, grad_theirs, rtol=0, atol=1e-12)


def test_meta_tensor_is_refused_by_name():
    with pytest.raises(ValueError, match=r"input: its __dlpack_device__ failed \(.*meta"):
        padnd_torch.pad(torch.empty(2, 3, device="meta"), (1, 1))


def test_channels_last_errors_name_the_callers_dimension():
    tensor = torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last)
    with pytest.raises(ValueError, match="dimension 3 remove more than its 5 elements"):
        padnd_torch.pad(tensor, (-3, -3), "constant")


def test_value_gradient_is_the_sum_over_pad_positions():
    tensor = torch.zeros(2, 3, requires_grad=True, dtype=torch.float64)
    value = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    grad = torch.arange(20.0, dtype=torch.float64).reshape(4, 5)
    padnd_torch.pad(tensor, (1, 1, 1, 1), value=value).backward(grad)
    assert value.grad.item() == grad.sum().item() - grad[1:3, 1:4].sum().item()


def pad_request(shape, mode, widest: int, data):
    """F.pad-style pads for ``shape`` that padnd.torch.pad takes: every dimension or the last
    few, up to ``widest`` (wider than the dimension), crops (leaving data to reflect in
    non-constant modes)."""
    padded = data.draw(st.integers(1, len(shape)))
    pads = []
    for size in reversed(shape[-padded:]):
        keep = 1 if mode != "constant" else 0
        before = data.draw(st.integers(-(size - keep), widest))
        after = data.draw(st.integers(-(size - keep - max(0, -before)), widest))
        pads += [before, after]
    return pads


@given(st.sampled_from(ALL_MODES), st.sampled_from([torch.float64, torch.float32, torch.bfloat16]),
       st.sampled_from(list(BACKWARD_PATHS)), st.integers(0, 2**32 - 1), st.data())
def test_gradients_equal_the_adjoint_of_numpy_pad(mode, dtype, path, seed, data):
    """d(sum(grad * pad(x, v)))/dx at each input element is grad's inner product with
    numpy.pad of that unit element; d/dv the inner product with the pads of a zero input.
    Small integers keep every sum exact (bfloat16: ones, at most 125 of them), so the
    comparison is bitwise."""
    low_precision = dtype is torch.bfloat16
    shape = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3 if low_precision else 4))
    pads = pad_request(shape, mode, 2 if low_precision else 7, data)
    tensor = torch.zeros(shape, dtype=dtype, requires_grad=True)
    value = torch.tensor(0, dtype=dtype, requires_grad=True)
    result = padnd_torch.pad(tensor, pads, mode, value if mode == "constant" else None)
    grad = random_tensor(result.shape, dtype, seed)
    grad = grad.clamp(-1, 1) if low_precision else grad
    inputs = (tensor, value) if mode == "constant" else (tensor,)
    with backward_path(path):
        gradients = torch.autograd.grad(result, inputs, grad)
    weights = grad.double().numpy()
    expected = np.zeros(shape)
    for index in np.ndindex(*shape):
        unit = torch.zeros(shape, dtype=torch.float64)
        unit[index] = 1
        expected[index] = (numpy_oracle(unit, pads, mode) * weights).sum()
    np.testing.assert_array_equal(gradients[0].double().numpy(), expected)
    if mode == "constant":  # summed exactly, rounded once
        ones = numpy_oracle(torch.zeros(shape, dtype=torch.float64), pads, mode, value=1)
        rounded = torch.tensor((ones * weights).sum()).to(dtype)
        assert torch.equal(gradients[1], rounded)


@pytest.mark.parametrize("mode", TORCH_MODES)
@pytest.mark.parametrize("layout", ["expanded", "transposed", "sliced"])
@pytest.mark.parametrize("path", BACKWARD_PATHS)
def test_gradient_of_a_strided_grad_equals_fpads(mode, layout, path):
    """The backward reads grad in any layout: sum()'s expanded ones, a transposed grad."""
    tensor = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    pads = (2, 1, 3, 4)
    shape = (2, 3, 12, 9)
    grad = {"expanded": torch.ones(()).double().expand(shape),
            "transposed": torch.randn(9, 12, 3, 2, dtype=torch.float64).permute(3, 2, 1, 0),
            "sliced": torch.randn(2, 3, 24, 9, dtype=torch.float64)[:, :, ::2]}[layout]
    with backward_path(path):
        ours, = torch.autograd.grad(padnd_torch.pad(tensor, pads, mode), tensor, grad)
    theirs, = torch.autograd.grad(F.pad(tensor, pads, mode), tensor, grad)
    assert ours.is_contiguous()
    torch.testing.assert_close(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("path", BACKWARD_PATHS)
def test_gradient_is_bitwise_deterministic_over_runs_and_threads(mode, path):
    tensor = torch.randn(6, 50, 70, dtype=torch.float32, requires_grad=True)
    grad = torch.randn(6, 50 + 45, 70 + 61, dtype=torch.float32)
    pads = (30, 31, 40, 5)
    threads = torch.get_num_threads()
    gradients = []
    try:
        for count in (1, 4, 1, 4):
            torch.set_num_threads(count)
            with backward_path(path):
                gradients.append(torch.autograd.grad(padnd_torch.pad(tensor, pads, mode),
                                                     tensor, grad)[0])
    finally:
        torch.set_num_threads(threads)
    assert all(torch.equal(g.view(torch.int32), gradients[0].view(torch.int32))
               for g in gradients)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_compile_fullgraph(mode):
    torch._dynamo.reset()
    tensor = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    pads = (1, 6, 2, 2, 1, 0)

    def step(t):
        return (padnd_torch.pad(t * 2, pads, mode) ** 2).sum()

    compiled = torch.compile(step, fullgraph=True, backend="aot_eager")
    ours, = torch.autograd.grad(compiled(tensor), tensor)
    eager, = torch.autograd.grad(step(tensor), tensor)
    assert torch.equal(ours, eager)


@settings(max_examples=1)
@given(st.just(None))
def test_compile_with_inductor(_):
    torch._dynamo.reset()
    compiled = torch.compile(lambda t: padnd_torch.pad(t + 1, (2, 3, 1, 1), "symmetric"),
                             fullgraph=True)
    tensor = torch.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(compiled(tensor).numpy(),
                                  np.pad(tensor.numpy() + 1, ((1, 1), (2, 3)), "symmetric"))
