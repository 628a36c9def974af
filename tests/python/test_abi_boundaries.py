# SPDX-License-Identifier: Apache-2.0
"""Where Python meets C: DLPack capsules that lie or repeat (a stride that overflows in bytes,
a device other than __dlpack_device__'s, the same capsule twice), adapter ints past C's int,
and file paths that are not UTF-8. Each is refused with an error naming the argument, or (a
path the OS takes) works."""
import ctypes
import os

import numpy as np
import pytest

import padnd
import padnd.onnx
import padnd.openvino
from padnd import _dlpack


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    # dlpack.h's DLManagedTensor (unversioned); no deleter: the producer owns everything.
    _fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Producer:
    """A DLPack producer (before DLPack 1.0: no max_version) of a float32 array's memory whose
    capsule states `device` and element `strides`, and that may hand out one capsule again."""

    def __init__(self, array, *, device=(1, 0), strides=None, same_capsule=False, byte_offset=0):
        self.array = np.ascontiguousarray(array, np.float32)
        self.shape = (ctypes.c_int64 * self.array.ndim)(*self.array.shape)
        steps = strides or [s // 4 for s in self.array.strides]
        self.strides = (ctypes.c_int64 * self.array.ndim)(*steps)
        self.managed = _Managed(_Tensor(self.array.ctypes.data, _Device(*device), self.array.ndim,
                                        _DataType(2, 32, 1), self.shape, self.strides,
                                        byte_offset))
        self.same_capsule = same_capsule
        self.capsule = None

    def __dlpack_device__(self):
        return (1, 0)  # the CPU, whatever the capsule says

    def __dlpack__(self, stream=None):
        if self.capsule is None or not self.same_capsule:
            self.capsule = _capsule_new(ctypes.addressof(self.managed), b"dltensor", None)
        return self.capsule


def test_a_capsule_handed_out_twice_is_imported_once():
    producer = Producer(np.arange(3), same_capsule=True)
    assert _dlpack.as_numpy(producer, "array").tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match=r"array: its __dlpack__ returned a capsule that was "
                                         r"imported before \(named 'used_dltensor'\)"):
        _dlpack.as_numpy(producer, "array")


def test_the_capsules_device_is_checked_not_only_dlpack_device():
    producer = Producer(np.arange(3), device=(2, 0))  # kDLCUDA behind a CPU __dlpack_device__
    with pytest.raises(ValueError, match=r"array: its DLPack capsule holds a tensor on device "
                                         r"type 2 \(device 0\)"):
        _dlpack.as_numpy(producer, "array")


def test_a_stride_that_overflows_in_bytes_is_refused():
    # 2**62 elements of 4 bytes wrap to a byte stride of 0: row 0 was read twice.
    producer = Producer(np.arange(2), strides=[2**62])
    with pytest.raises(ValueError, match=r"array: axis 0: DLPack stride 4611686018427387904 of "
                                         r"4-byte elements overflows int64 bytes"):
        _dlpack.as_numpy(producer, "array")


@pytest.mark.parametrize("offset", [2**63, 2**64 - 4])
def test_a_byte_offset_past_the_address_space_is_refused(offset):
    # nanobind added it to the data pointer unchecked: 2**64 - 4 read 4 bytes before the
    # buffer, 2**63 crashed a pad (the C ABI refused both).
    producer = Producer(np.arange(3), byte_offset=offset)
    with pytest.raises(ValueError, match=rf"array: DLPack byte_offset {offset} past data address "
                                         r"\d+ leaves the address space or int64"):
        _dlpack.as_numpy(producer, "array")


@pytest.mark.parametrize("value", [2**40, -2**40, 2**70])
def test_adapter_ints_past_cs_int_are_named(value):
    a = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match=rf"opset: {value} is out of range"):
        padnd.onnx.pad(a, [1, 1], opset=value)
    with pytest.raises(ValueError, match=rf"version: {value} is out of range"):
        padnd.openvino.pad(a, [1], [1], "constant", version=value)


def test_paths_that_are_not_utf8_work_as_open_takes_them(tmp_path):
    src = os.path.join(os.fsdecode(bytes(tmp_path)), os.fsdecode(b"in\xff.npy"))
    dst = os.path.join(os.fsdecode(bytes(tmp_path)), os.fsdecode(b"out\xfe.npy"))
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    np.save(src, a)
    padnd.pad_file(src, dst, 1, "edge")
    assert np.array_equal(np.load(dst), np.pad(a, 1, "edge"))
    assert os.path.exists(bytes(tmp_path) + b"/out\xfe.npy")
    padnd.pad_file(os.fsencode(src), os.fsencode(dst), 2)  # bytes paths too
    assert np.array_equal(np.load(dst), np.pad(a, 2))
