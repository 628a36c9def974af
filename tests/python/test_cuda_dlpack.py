# SPDX-License-Identifier: Apache-2.0
# padnd.pad and pad_window on CUDA DLPack tensors, simulated: no GPU is on these machines.
#
# The CUDA executor itself is proven by the grid simulator (tests/cuda_grid_sim_test.cpp) and on a
# lent GPU (bench/gpu/device_check.sh). What is tested here is the Python layer around it:
# python/padnd/_cuda.py's stream protocol, planning, output allocation, out= and windows and the
# result's kind. The five calls that reach the CUDA runtime are replaced by host stand-ins
# ("device" memory is host memory, the kernel is the CPU executor) that record the device and
# the streams they were given; every result is compared with numpy.pad.
import numpy as np
import pytest

import padnd
from padnd import _cuda, _padnd

_REAL_IMPORT = _padnd.dlpack_import_cuda
_CONSUMER_STREAM = 77  # the stream the simulated framework's from_dlpack runs on


class _Namespace:
    """A framework that is neither torch nor CuPy (as JAX is): from_dlpack reads a producer."""

    def __init__(self, device: int):
        self.device = device

    def from_dlpack(self, producer):
        assert producer.__dlpack_device__() == (2, self.device)
        _, address, (code, bits, _), shape, strides, device = _REAL_IMPORT(
            producer, "result", False, _CONSUMER_STREAM)
        assert device == (2, self.device)
        dtype = np.dtype(_padnd_dtype(code, bits))
        memory = _HostMemory(address, dtype, shape, strides)
        return _SimTensor(np.asarray(memory).view(dtype).copy(), self.device, owner=producer)


def _padnd_dtype(code: int, bits: int) -> str:
    return {0: "int", 1: "uint", 2: "float", 5: "complex", 6: "bool"}[code] + (
        "" if code == 6 else str(bits))


class _HostMemory:
    def __init__(self, address, dtype, shape, strides):
        self.__array_interface__ = {"version": 3, "data": (address, True),
                                    "typestr": f"|V{dtype.itemsize}", "shape": tuple(shape),
                                    "strides": tuple(strides)}


class _SimTensor:
    """A DLPack producer of a tensor "on CUDA device ``device``" whose memory is a numpy array:
    it records the stream every __dlpack__ call asks for."""

    def __init__(self, array: np.ndarray, device: int = 0, owner=None):
        self.array, self.device, self.owner, self.streams = array, device, owner, []

    def __dlpack_device__(self):
        return (2, self.device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.streams.append(stream)
        return self.array.__dlpack__(**({} if max_version is None else
                                        {"max_version": max_version}))

    def __array_namespace__(self):
        return _Namespace(self.device)


@pytest.fixture
def device(monkeypatch):
    """The CUDA runtime's calls replaced by host stand-ins; returns what they recorded."""
    calls = {"launches": [], "waits": [], "buffers": []}

    def import_cuda(tensor, name, writable, stream):
        assert isinstance(tensor, _SimTensor), "padnd imports the caller's tensor itself"
        tensor.streams.append(("import", stream))
        importer = _padnd.dlpack_import_writable if writable else _padnd.dlpack_import
        owner, address, dtype, shape, strides, _ = importer(tensor.array, name)
        return owner, address, dtype, shape, strides, (2, tensor.device)

    def execute(spec, in_address, type_name, shape, strides, out_address, out_bytes, device,
                stream, window_start=None, window_shape=None, out_strides=None):
        calls["launches"].append((device, stream))
        _padnd.execute_spec(spec, in_address, type_name, shape, strides, out_address, out_bytes,
                            1, window_start=window_start, window_shape=window_shape,
                            out_strides=out_strides)

    def buffer(device, nbytes):
        owner = np.zeros(max(nbytes, 1), np.uint8)
        calls["buffers"].append((device, nbytes))
        return owner, owner.__array_interface__["data"][0]

    for name, stand_in in (("cuda_built", lambda: True), ("cuda_available", lambda: True),
                           ("dlpack_import_cuda", import_cuda), ("cuda_execute_spec", execute),
                           ("cuda_buffer", buffer),
                           ("cuda_stream_wait", lambda d, p, c: calls["waits"].append((d, p, c)))):
        monkeypatch.setattr(_padnd, name, stand_in)
    return calls


def _random_request(rng):
    ndim = int(rng.integers(0, 4))
    shape = tuple(int(n) for n in rng.integers(1, 6, ndim))
    mode = str(rng.choice(["constant", "edge", "reflect", "symmetric", "wrap"]))
    widths = [tuple(int(w) for w in rng.integers(0, 8, 2)) for _ in shape] or 0
    dtype = rng.choice([np.uint8, np.int16, np.float32, np.float64, np.complex128, np.bool_])
    array = np.asarray(rng.standard_normal(shape) * 50).astype(dtype)
    return array, widths, mode


def test_pad_returns_the_callers_kind_on_its_device_in_numpys_values(device):
    rng = np.random.default_rng(5)
    for _ in range(200):
        array, widths, mode = _random_request(rng)
        tensor = _SimTensor(array, device=3)
        result = padnd.pad(tensor, widths, mode)
        assert isinstance(result, _SimTensor) and result.device == 3
        np.testing.assert_array_equal(result.array, np.pad(array, widths, mode))
    # Every import asked for padnd's stream (the legacy default, 1, for this framework); the
    # result's consumer was ordered after it; each launch ran on device 3, stream 1.
    assert all(launch == (3, 1) for launch in device["launches"])
    assert device["waits"] and all(wait == (3, 1, _CONSUMER_STREAM) for wait in device["waits"])


def test_pad_window_writes_the_window_of_numpys_result(device):
    rng = np.random.default_rng(6)
    for _ in range(100):
        array, widths, mode = _random_request(rng)
        full = np.pad(array, widths, mode)
        window = tuple(slice(int(a), int(a) + int(n)) for a, n in
                       ((rng.integers(0, d + 1), rng.integers(0, d + 1)) for d in full.shape))
        result = padnd.pad_window(_SimTensor(array, 1), widths, mode, window=window)
        np.testing.assert_array_equal(result.array, full[window])


def test_out_is_written_in_place_at_any_strides(device):
    array = np.arange(24, dtype=np.float32).reshape(4, 6)
    backing = np.full((8, 20), -1, np.float32)
    out = _SimTensor(backing[1:7, 2:20:2], device=0)  # strided: every other column
    assert padnd.pad(_SimTensor(array), [(1, 1), (2, 1)], "reflect", out=out) is out
    np.testing.assert_array_equal(backing[1:7, 2:20:2], np.pad(array, [(1, 1), (2, 1)],
                                                               "reflect"))
    assert (backing[:, 3::2] == -1).all() and (backing[0] == -1).all()
    assert ("import", 1) in out.streams  # out is imported on padnd's stream too
    assert not device["buffers"]  # nothing allocated


def test_a_result_consumer_asking_for_no_ordering_gets_none(device):
    result = _cuda.DeviceResult(np.zeros(3), 0, 5)
    result.__dlpack__(stream=-1)
    result.__dlpack__()  # None: the legacy default stream
    result.__dlpack__(stream=9)
    assert device["waits"] == [(0, 5, 1), (0, 5, 9)]


def test_requests_are_checked_as_on_the_cpu(device):
    tensor = _SimTensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="mode 'bogus' is not supported"):
        padnd.pad(tensor, 1, "bogus")
    with pytest.raises(ValueError, match=r"out: shape \(2, 3\) and dtype float32 do not match "
                                         r"the result's, \(4, 5\) and float32"):
        padnd.pad(tensor, 1, out=_SimTensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match=r"out: expected a tensor on cuda:0 as array is, got "
                                         r"cuda:1"):
        padnd.pad(tensor, 1, out=_SimTensor(np.ones((4, 5), np.float32), device=1))
    with pytest.raises(ValueError, match="out: is read-only"):
        read_only = np.ones((4, 5), np.float32)
        read_only.flags.writeable = False
        padnd.pad(tensor, 1, out=_SimTensor(read_only))
    with pytest.raises(ValueError, match="input_shape and input_start: not taken for CUDA"):
        padnd.pad_window(tensor, 1, window=(), input_shape=(2, 3), input_start=(0, 0))
    with pytest.raises(TypeError, match="threads"):
        padnd.pad(tensor, 1, threads="all")


def test_without_a_device_or_a_cuda_build_the_error_says_which():
    tensor = _SimTensor(np.ones(3))
    expected = ("built without its CUDA executor" if not _padnd.cuda_built() else
                "sees no CUDA device" if not _padnd.cuda_available() else None)
    if expected is None:
        pytest.skip("this machine has a CUDA device: bench/gpu/device_check.sh tests it")
    with pytest.raises(ValueError, match=f"array: a tensor on cuda:0, and .*{expected}"):
        padnd.pad(tensor, 1)
    assert tensor.streams == []  # refused before the tensor was touched
