# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of the `padnd` CLI with numpy as the oracle (numpy.pad, slicing)."""
import ast
import io
import os
import re
import stat
import zlib

import numpy as np
import pytest

from conftest import REPO, option_args

NUMPY_VERSION = tuple(int(p) for p in re.findall(r"\d+", np.__version__)[:2])
# numpy < 2.1 reflects/wraps only once for pads wider than the axis (docs/spec.md §8).
PERIODIC_NUMPY = NUMPY_VERSION >= (2, 1)

NUMERIC = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]
BIG_ENDIAN = [">i2", ">i4", ">i8", ">u2", ">u4", ">u8", ">f2", ">f4", ">f8", ">c8", ">c16"]
OPAQUE = ["S1", "S5", "U1", "U3", ">U3", "V1", "V6", "M8[ns]", ">M8[D]", "m8[s]", ">m8[us]",
          np.dtype(np.longdouble).str]
ALL_DTYPES = NUMERIC + BIG_ENDIAN + OPAQUE
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
SHAPES = [(), (0,), (5,), (1,), (3, 4), (2, 3, 4), (2, 0, 3), (1, 5, 1)]
FORTRAN_SHAPES = [(3, 4), (2, 3, 4), (4, 1, 3), (2, 0, 3)]


def seeded(*names):
    """A generator whose seed depends only on the test's parameters (not on hash salting)."""
    return np.random.default_rng(zlib.crc32(repr(names).encode()))


def random_array(dtype, shape, rng):
    dtype = np.dtype(dtype)
    kind = dtype.kind
    if kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype.newbyteorder("=")).astype(dtype)
    if kind in "fc":
        a = rng.standard_normal(shape) * 100
        if kind == "c":
            a = a + 1j * rng.standard_normal(shape)
        a = a.astype(dtype)
        if a.size:  # bit patterns that must survive untouched
            a.flat[0] = np.nan
            a.flat[-1] = -0.0
        return a
    if kind == "S":
        letters = np.frombuffer(b"abcdefghij", "S1")
        return np.array([b"".join(rng.choice(letters, rng.integers(0, dtype.itemsize + 1)))
                         for _ in range(int(np.prod(shape)))], dtype).reshape(shape)
    if kind == "U":
        chars = list("ab\u00e9\u20ac\U0001F600")
        return np.array(["".join(rng.choice(chars, rng.integers(0, dtype.itemsize // 4 + 1)))
                         for _ in range(int(np.prod(shape)))], dtype).reshape(shape)
    if kind == "V":
        raw = rng.integers(0, 256, (*shape, dtype.itemsize), dtype=np.uint8)
        return np.ascontiguousarray(raw).view(dtype).reshape(shape)
    if kind in "Mm":
        a = rng.integers(-10**9, 10**9, shape, dtype=np.int64)
        if a.size:
            a.flat[0] = np.iinfo(np.int64).min  # NaT
        return a.view(dtype.newbyteorder("=")).astype(dtype)
    raise AssertionError(dtype)


def random_pads(shape, mode, rng):
    """Non-negative (begin, end) per axis that numpy accepts for `mode`."""
    pairs = []
    for d in shape:
        if d == 0 and mode != "constant":
            pairs.append((0, 0))  # nothing to extend
            continue
        limit = 2 * d + 2 if PERIODIC_NUMPY or mode in ("constant", "edge") else max(d - 1, 0)
        pairs.append(tuple(int(x) for x in rng.integers(0, limit + 1, 2)))
    return pairs


def onnx_layout(pairs):
    return [b for b, _ in pairs] + [e for _, e in pairs]


def zero_of(dtype):
    """numpy.pad's default constant, the number 0 in `dtype`: the text "0" in S and U data,
    all-zero bytes in the others."""
    dtype = np.dtype(dtype)
    return np.array(0).astype(dtype) if dtype.kind in "SU" else np.zeros((), dtype)


# x87 long doubles (in either byte order, alone or in a complex) carry 6 undefined padding bytes.
X87 = {np.dtype(t).str[1:] for t in (np.longdouble, np.clongdouble)
       if np.finfo(np.longdouble).nmant == 63}


def assert_same(out, expected):
    expected = np.array(expected, order="C")  # (ascontiguousarray would make 0-d arrays 1-d)
    assert out.dtype.str == expected.dtype.str
    assert out.shape == expected.shape
    if out.dtype.str[1:] not in X87:
        assert out.tobytes() == expected.tobytes()
    if out.dtype.kind in "biufc":
        assert np.array_equal(out, expected, equal_nan=True)


def numpy_pad(array, pairs, mode, value=None):
    if array.ndim == 0:
        return array.copy()  # numpy.pad cannot take an empty pad_width; padding is the identity
    if mode == "constant":
        return np.pad(array, pairs, mode, constant_values=zero_of(array.dtype) if value is None
                      else value)
    return np.pad(array, pairs, mode)


# --- round trips against numpy.pad, every dtype ------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("mode", MODES)
def test_numpy_spec_matches_numpy_pad(padnd, dtype, mode):
    rng = seeded(dtype, mode)
    for shape in SHAPES:
        a = random_array(dtype, shape, rng)
        pairs = random_pads(shape, mode, rng)
        out = padnd.pad(a, onnx_layout(pairs), mode=mode, spec="numpy")
        assert_same(out, numpy_pad(a, pairs, mode))


# numpy's pad_width broadcasts: one value, one (before, after) pair, or one pair per axis.
@pytest.mark.parametrize("pads, pad_width", [([7], 7), ([7, 7], 7), ([1, 2], (1, 2)),
                                             ([0, 1, 2, 3], ((0, 2), (1, 3)))])
def test_numpy_spec_takes_numpys_broadcast_pad_width(padnd, pads, pad_width):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert_same(padnd.pad(a, pads, mode="wrap", spec="numpy"), np.pad(a, pad_width, "wrap"))


def test_broadcast_pads_only_under_the_numpy_spec(padnd):
    err = padnd.fail(padnd.save(np.zeros((2, 3), np.int32)), "-o", "o.npy", "--pads=7,7")
    assert "--pads: expected 4 values (all begins, then all ends: 2 x rank 2" in err


@pytest.mark.parametrize("dtype", ["i2", ">f4", "c16", "U3", "V6", "M8[ns]"])
@pytest.mark.parametrize("mode", MODES)
def test_fortran_order_input(padnd, dtype, mode):
    rng = np.random.default_rng(7)
    for shape in FORTRAN_SHAPES:
        a = random_array(dtype, shape, rng)
        pairs = random_pads(shape, mode, rng)
        out = padnd.pad(a, onnx_layout(pairs), fortran=True, mode=mode, spec="numpy")
        assert_same(out, numpy_pad(a, pairs, mode))


def test_fortran_input_is_really_fortran_and_output_is_c(padnd):
    a = np.arange(12, dtype="<i4").reshape(3, 4)
    src = padnd.save(a, fortran=True)
    with open(src, "rb") as f:
        np.lib.format.read_magic(f)
        assert np.lib.format.read_array_header_1_0(f)[1] is True
    assert padnd.run(src, "-o", "out.npy", "--pads=1,0,0,2").returncode == 0
    with open(padnd.dir / "out.npy", "rb") as f:
        assert np.lib.format.read_magic(f) == (1, 0)
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        assert (shape, fortran, dtype) == ((4, 6), False, np.dtype("<i4"))
        assert f.tell() % 64 == 0  # data aligned like numpy's own files
    assert_same(np.load(padnd.dir / "out.npy"), np.pad(a, [(1, 0), (0, 2)]))


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_reads_every_npy_format_version(padnd, version):
    a = np.array(["x", "\u00e9\u20ac"], dtype="<U2")
    with open(padnd.dir / "v.npy", "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    assert padnd.run("v.npy", "-o", "out.npy", "--pads=1,1", "--spec=numpy",
                     "--mode=wrap").returncode == 0
    assert_same(np.load(padnd.dir / "out.npy"), np.pad(a, 1, "wrap"))


def npy_v2(descr, shape, data):
    """A format-2.0 file written by hand (numpy refuses arrays of more than 64 dimensions)."""
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {tuple(shape)}, }}"
    header += " " * (-(12 + len(header) + 1) % 64) + "\n"
    return b"\x93NUMPY\x02\x00" + len(header).to_bytes(4, "little") + header.encode() + data


def test_writes_format_2_when_the_header_needs_it(padnd):
    rank = 25000  # a shape tuple longer than format 1.0's 64 KiB header limit
    shape = (1,) * (rank - 1) + (3,)
    (padnd.dir / "deep.npy").write_bytes(npy_v2("<i2", shape, np.arange(3, dtype="<i2").tobytes()))
    pads = [0] * (rank - 1) + [1] + [0] * (rank - 1) + [2]
    result = padnd.run("deep.npy", "-o", "out.npy", "--pads=" + ",".join(map(str, pads)))
    assert result.returncode == 0, result.stderr
    raw = (padnd.dir / "out.npy").read_bytes()
    assert raw[6:8] == b"\x02\x00"
    header_len = int.from_bytes(raw[8:12], "little")
    assert (12 + header_len) % 64 == 0
    header = ast.literal_eval(raw[12:12 + header_len].decode())
    assert header == {"descr": "<i2", "fortran_order": False, "shape": shape[:-1] + (6,)}
    assert raw[12 + header_len:] == np.array([0, 0, 1, 2, 0, 0], "<i2").tobytes()


def test_equals_sign_byte_order_is_kept(padnd):
    a = np.arange(6, dtype="<u2")
    raw = (padnd.dir / "in.npy")
    np.save(raw, a)
    data = raw.read_bytes().replace(b"'<u2'", b"'=u2'")
    raw.write_bytes(data)
    assert padnd.run("in.npy", "-o", "out.npy", "--pads=2,1", "--mode=reflect").returncode == 0
    out_bytes = (padnd.dir / "out.npy").read_bytes()
    assert b"'descr': '=u2'" in out_bytes
    assert_same(np.load(padnd.dir / "out.npy").astype("<u2"), np.pad(a, (2, 1), "reflect"))


# --- ONNX spec against an independent expectation ----------------------------------------------

ONNX_DTYPES = NUMERIC + [">i4", ">f8", ">c8"]


def onnx_expected(a, begins, ends, mode):
    """ONNX crops first (docs/spec.md §2.5), then pads what is left like numpy.pad."""
    crop = tuple(slice(max(0, -b), d - max(0, -e)) for d, b, e in zip(a.shape, begins, ends))
    pairs = [(max(0, b), max(0, e)) for b, e in zip(begins, ends)]
    return numpy_pad(a[crop], pairs, mode)


@pytest.mark.parametrize("dtype", ONNX_DTYPES)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_onnx_spec_pads_and_crops(padnd, dtype, mode):
    rng = seeded(dtype, mode, "onnx")
    for shape in [(5,), (3, 4), (2, 3, 4), (4, 1, 3)]:
        for crops in (False, True):
            a = random_array(dtype, shape, rng)
            begins, ends = [], []
            for d in shape:
                b, e = (int(x) for x in rng.integers(0, d + 2, 2))
                if crops and d >= 2:  # crop one or both sides, keep at least one element
                    b = -int(rng.integers(0, d // 2 + 1)) if rng.integers(2) else b
                    e = -int(rng.integers(0, d + min(b, 0))) if rng.integers(2) else e
                if not PERIODIC_NUMPY and mode in ("reflect", "wrap"):
                    left = d + min(b, 0) + min(e, 0)  # what remains after cropping
                    b, e = min(b, left - 1), min(e, left - 1)
                begins.append(b)
                ends.append(e)
            out = padnd.pad(a, begins + ends, mode=mode)  # --spec defaults to onnx:25
            assert_same(out, onnx_expected(a, begins, ends, mode))


def test_onnx_rejects_types_it_does_not_have(padnd):
    err = padnd.fail(padnd.save(np.array([b"ab"])), "-o", "o.npy", "--pads=1,1")
    assert "'|S2'" in err and "ONNX" in err
    assert "bool" in padnd.fail(padnd.save(np.array([True])), "-o", "o.npy", "--pads=1,1",
                                "--spec=onnx:11")


# --- spec examples (docs/spec.md §9) ----------------------------------------------------------------

X32 = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], dtype=np.float32)
M34 = np.arange(1, 13, dtype=np.int32).reshape(3, 4)


@pytest.mark.parametrize("spec,mode,pads,expected", [
    ("onnx:11", "constant", [0, 2, 0, 0], [[0, 0, 1.0, 1.2], [0, 0, 2.3, 3.4], [0, 0, 4.5, 5.7]]),
    ("onnx:11", "reflect", [0, 2, 0, 0], [[1.0, 1.2, 1.0, 1.2], [2.3, 3.4, 2.3, 3.4],
                                          [4.5, 5.7, 4.5, 5.7]]),
    ("onnx:11", "edge", [0, 2, 0, 0], [[1.0, 1.0, 1.0, 1.2], [2.3, 2.3, 2.3, 3.4],
                                       [4.5, 4.5, 4.5, 5.7]]),
    ("onnx:19", "wrap", [2, 1, 1, 1], [[3.4, 2.3, 3.4, 2.3], [5.7, 4.5, 5.7, 4.5],
                                       [1.2, 1.0, 1.2, 1.0], [3.4, 2.3, 3.4, 2.3],
                                       [5.7, 4.5, 5.7, 4.5], [1.2, 1.0, 1.2, 1.0]]),
    ("onnx:1", "constant", [0, 2, 0, 0], [[0, 0, 1.0, 1.2], [0, 0, 2.3, 3.4], [0, 0, 4.5, 5.7]]),
])
def test_onnx_doc_examples(padnd, spec, mode, pads, expected):
    assert_same(padnd.pad(X32, pads, mode=mode, spec=spec), np.array(expected, np.float32))


@pytest.mark.parametrize("data,pads,mode,expected", [
    ([1, 2, 3], [4, 5], "wrap", [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2]),
    ([0, 1, 2, 3], [5, 2], "wrap", [3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1]),
    ([1, 2, 3], [1, 8], "reflect", [2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3]),
    ([7], [2, 3], "reflect", [7] * 6),
    ([1, 2, 3, 4, 5, 6], [-2, -1], "constant", [3, 4, 5]),
    ([1, 2, 3, 4, 5, 6], [-2, 3], "edge", [3, 4, 5, 6, 6, 6, 6]),
    ([1, 2, 3, 4, 5, 6], [-4, 3], "reflect", [5, 6, 5, 6, 5]),
    ([1, 2, 3, 4], [-1, 1], "wrap", [2, 3, 4, 2]),
    ([1, 2], [-1, -1], "constant", []),
])
def test_onnx_1d_examples(padnd, data, pads, mode, expected):
    out = padnd.pad(np.array(data, np.int64), pads, mode=mode)
    assert_same(out, np.array(expected, np.int64))


def test_onnx_over_crop_and_rank0(padnd):
    a = np.arange(1, 7, dtype=np.int16)
    assert_same(padnd.pad(a, [4, -7], value=9), np.array([9, 9, 9], np.int16))
    assert "crop" in padnd.fail(padnd.save(a), "-o", "o.npy", "--pads=2,-7", "--mode=edge")
    assert "negative" in padnd.fail(padnd.save(np.array([1, 2])), "-o", "o.npy", "--pads=-2,-1")
    scalar = np.array(5.0, np.float32)
    assert_same(padnd.pad(scalar, []), scalar)


def test_onnx_pad2_value_attribute_is_float(padnd):
    out = padnd.pad(np.array([1, 2], np.float16), [1, 0], value="0.1", spec="onnx:2")
    assert_same(out, np.array([np.float16(np.float32(0.1)), 1, 2], np.float16))


@pytest.mark.parametrize("mode,expected", [
    ("constant", [[0, 1, 2, 3, 4, 0, 0, 0], [0, 5, 6, 7, 8, 0, 0, 0], [0, 9, 10, 11, 12, 0, 0, 0],
                  [0] * 8, [0] * 8]),
    ("edge", [[1, 1, 2, 3, 4, 4, 4, 4], [5, 5, 6, 7, 8, 8, 8, 8], [9, 9, 10, 11, 12, 12, 12, 12],
              [9, 9, 10, 11, 12, 12, 12, 12], [9, 9, 10, 11, 12, 12, 12, 12]]),
    ("reflect", [[2, 1, 2, 3, 4, 3, 2, 1], [6, 5, 6, 7, 8, 7, 6, 5], [10, 9, 10, 11, 12, 11, 10, 9],
                 [6, 5, 6, 7, 8, 7, 6, 5], [2, 1, 2, 3, 4, 3, 2, 1]]),
    ("symmetric", [[1, 1, 2, 3, 4, 4, 3, 2], [5, 5, 6, 7, 8, 8, 7, 6],
                   [9, 9, 10, 11, 12, 12, 11, 10], [9, 9, 10, 11, 12, 12, 11, 10],
                   [5, 5, 6, 7, 8, 8, 7, 6]]),
])
def test_openvino_pad1_spec_examples(padnd, mode, expected):
    out = padnd.pad(M34, [0, 1, 2, 3], mode=mode, spec="openvino:1")
    assert_same(out, np.array(expected, np.int32))


@pytest.mark.parametrize("mode,expected", [
    ("constant", [[0] * 6, [0] * 6, [2, 3, 4, 0, 0, 0], [6, 7, 8, 0, 0, 0]]),
    ("edge", [[2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [6, 7, 8, 8, 8, 8]]),
    ("reflect", [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1],
                 [6, 7, 8, 7, 6, 5]]),
    ("symmetric", [[6, 7, 8, 8, 7, 6], [2, 3, 4, 4, 3, 2], [2, 3, 4, 4, 3, 2], [6, 7, 8, 8, 7, 6]]),
])
def test_openvino_pad12_mixed_pads(padnd, mode, expected):
    out = padnd.pad(M34, [2, -1, -1, 3], mode=mode, spec="openvino:12")
    assert_same(out, np.array(expected, np.int32))


def test_openvino_rules(padnd):
    src = padnd.save(np.array([[1, 2], [4, 5]], np.int32))
    assert padnd.run(src, "-o", "o.npy", "--pads=0,1,0,0", "--mode=reflect",
                     "--spec=openvino:12").returncode == 0
    padnd.fail(src, "-o", "o.npy", "--pads=0,2,0,0", "--mode=reflect", "--spec=openvino:12")
    padnd.fail(padnd.save(np.array([1, 2, 3])), "-o", "o.npy", "--pads=-1,0", "--spec=openvino:1")
    clamped = padnd.pad(np.array([1, 2, 3], np.int8), [-2, -2], spec="openvino:12")
    assert_same(clamped, np.zeros(0, np.int8))
    assert_same(padnd.pad(M34, [-4, 3, 2, -5], mode="reflect", spec="openvino:12"),
                np.array([[4, 3]], np.int32))


NGRAPH_7X9 = [[42] * 9, [42, 42, 1, 42, 42, 2, 42, 42, 3],
              [42] * 9, [42, 42, 4, 42, 42, 5, 42, 42, 6],
              [42] * 9, [42, 42, 7, 42, 42, 8, 42, 42, 9], [42] * 9]


def test_ngraph_v0_interior_doc_example(padnd):
    a = np.arange(1, 10, dtype=np.int32).reshape(3, 3)
    out = padnd.pad(a, [1, 2, 1, 0], interior=[1, 2], value=42, spec="ngraph:v0")
    assert_same(out, np.array(NGRAPH_7X9, np.int32))


def test_ngraph_v0_interior_with_crops_and_modes(padnd):
    a = np.arange(1, 7, dtype=np.float64).reshape(2, 3)
    out = padnd.pad(a, [1, -2, 2, -1], interior=[2, 1], value=9, spec="ngraph:v0")
    assert_same(out, np.array([[9, 9], [2, 9], [9, 9], [9, 9], [5, 9], [9, 9], [9, 9]], np.float64))
    row = np.arange(1, 7, dtype=np.int32)
    assert_same(padnd.pad(row, [2, -7], mode="edge", spec="ngraph:v0"), np.array([1], np.int32))
    assert_same(padnd.pad(row, [-7, 3], mode="REFLECT", spec="ngraph:v0"),
                np.array([4, 3], np.int32))
    assert_same(padnd.pad(np.array([1, 2, 3], np.int32), [1, 1], mode="symmetric",
                          spec="ngraph:v1"), np.array([1, 1, 2, 3, 3], np.int32))
    padnd.fail(padnd.save(row), "-o", "o.npy", "--pads=1,1", "--interior=1", "--mode=edge",
               "--spec=ngraph:v0")


# --- --value in every dtype ----------------------------------------------------------------------


def fill_of(padnd, dtype, text, **options):
    """The pad value the CLI writes for `text` in a dtype (one constant pad before one zero)."""
    out = padnd.pad(np.zeros(1, dtype), [1, 0], value=text, spec="numpy", **options)
    assert out.dtype == np.dtype(dtype)
    return out[:1]


@pytest.mark.parametrize("dtype,text,expected", [
    ("?", "true", True), ("?", "False", False), ("?", "1", True), ("?", "0", False),
    ("i1", "-128", -128), ("i1", "127", 127), ("u1", "255", 255), ("i2", "+300", 300),
    (">i4", "-2", -2), ("i8", "-9223372036854775808", -2**63), ("u8", "18446744073709551615",
                                                                    2**64 - 1),
    (">u2", "65535", 65535),
])
def test_value_bool_and_int(padnd, dtype, text, expected):
    assert_same(fill_of(padnd, dtype, text), np.array([expected], dtype))


@pytest.mark.parametrize("dtype", ["f2", ">f2", "f4", ">f4", "f8", ">f8"])
@pytest.mark.parametrize("text", ["1.5", "-0.1", "0.1", "1.00048828125", "1.00146484375",
                                  "6e-8", "3e-8", "65504", "-0.0", "inf", "-inf", "1e-310",
                                  "2.5e-45"])
def test_value_float_rounds_to_nearest_even(padnd, dtype, text):
    assert_same(fill_of(padnd, dtype, text), np.array([float(text)]).astype(dtype))


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8"])
def test_value_nan(padnd, dtype):
    assert np.isnan(fill_of(padnd, dtype, "nan")[0])


@pytest.mark.parametrize("dtype", ["c8", ">c8", "c16", ">c16"])
@pytest.mark.parametrize("text", ["1+2j", "3", "-1.5j", "(1-2j)", "1e3-2.5e-1j", "j", "-j"])
def test_value_complex(padnd, dtype, text):
    expected = complex(text.replace("j", "1j") if text in ("j", "-j") else text)
    assert_same(fill_of(padnd, dtype, text), np.array([expected], dtype))


@pytest.mark.parametrize("dtype,text", [("S5", "abc"), ("S3", "xyz"), ("U3", "\u00e9\u20ac!"),
                                        (">U3", "\U0001F600b"), ("U2", "")])
def test_value_strings(padnd, dtype, text):
    expected = text.encode() if dtype.startswith("S") else text
    assert_same(fill_of(padnd, dtype, text), np.array([expected], dtype))


@pytest.mark.parametrize("dtype,text,expected", [
    ("M8[D]", "18000", np.datetime64(18000, "D")), (">M8[s]", "-5", np.datetime64(-5, "s")),
    ("M8[ns]", "NaT", np.datetime64("NaT", "ns")), ("m8[us]", "123", np.timedelta64(123, "us")),
    (">m8[h]", "nat", np.timedelta64("NaT", "h")),
])
def test_value_datetime(padnd, dtype, text, expected):
    assert_same(fill_of(padnd, dtype, text), np.array([expected], dtype))


@pytest.mark.parametrize("spec", ["onnx", "onnx:13", "openvino:12", "ngraph:v0", "ngraph:v1"])
def test_value_reaches_every_spec(padnd, spec):
    out = padnd.pad(np.array([1, 2], np.float32), [1, 1], value="-2.5", spec=spec)
    assert_same(out, np.array([-2.5, 1, 2, -2.5], np.float32))


@pytest.mark.parametrize("dtype,text,words", [
    ("i1", "128", ["128", "int8", "out of range"]),
    ("u1", "-1", ["-1", "uint8", "out of range"]),
    ("i8", "9223372036854775808", ["9223372036854775808", "int64"]),
    ("u4", "1.5", ["1.5", "uint32", "not an integer"]),
    ("?", "yes", ["yes", "bool"]),
    ("f2", "70000", ["70000", "float16", "out of range"]),
    ("f4", "1e39", ["1e39", "float32"]),
    ("f8", "abc", ["abc", "float64", "not a number"]),
    ("c8", "1+2k", ["1+2k", "complex64"]),
    ("S3", "abcd", ["abcd", "S3", "too long"]),
    ("U2", "\u00e9\u00e9\u00e9", ["U2", "too long"]),
    ("V4", "0", ["V4"]),
    ("M8[D]", "2020-01-01", ["2020-01-01", "M8[D]"]),
])
def test_value_errors_name_value_and_dtype(padnd, dtype, text, words):
    src = padnd.save(np.zeros(2, dtype))
    err = padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--spec=numpy", "--value", text)
    for word in words:
        assert word in err
    assert not (padnd.dir / "o.npy").exists()


# --- options -----------------------------------------------------------------------------------


def test_negative_pads_both_spellings(padnd):
    src = padnd.save(np.arange(1, 7, dtype=np.int32))
    for args in (["--pads=-2,1"], ["--pads", "-2,1"], ["--pads", " -2, 1 "]):
        assert padnd.run(src, "-o", "out.npy", *args, "--value", "-1").returncode == 0
        assert_same(np.load(padnd.dir / "out.npy"), np.array([3, 4, 5, 6, -1], np.int32))


def test_positional_output_and_explicit_pad_command(padnd):
    src = padnd.save(np.arange(3, dtype=np.uint8))
    assert padnd.run("pad", src, "b.npy", "--pads=1,0").returncode == 0
    assert_same(np.load(padnd.dir / "b.npy"), np.array([0, 0, 1, 2], np.uint8))


@pytest.mark.parametrize("axes,pads,expected", [
    ([1], [1, 2], [[7, 1, 2, 3, 7, 7], [7, 4, 5, 6, 7, 7]]),
    ([-1], [1, 2], [[7, 1, 2, 3, 7, 7], [7, 4, 5, 6, 7, 7]]),
    ([1, 0], [1, 0, 0, 2], [[7, 1, 2, 3], [7, 4, 5, 6], [7, 7, 7, 7], [7, 7, 7, 7]]),
])
def test_axes(padnd, axes, pads, expected):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int64)
    assert_same(padnd.pad(a, pads, axes=axes, value=7, spec="onnx:18"), np.array(expected))


def test_axes_errors(padnd):
    src = padnd.save(np.array([[1, 2, 3], [4, 5, 6]]))
    assert "opset 18" in padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--axes=1",
                                    "--spec=onnx:13", code=2)
    padnd.fail(src, "-o", "o.npy", "--pads=1,1,1,1", "--axes=1,-1")  # repeated axis
    padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--axes=2")  # out of range


def test_interior_only_with_ngraph_v0(padnd):
    src = padnd.save(np.arange(3))
    for spec in ("onnx", "openvino:12", "ngraph:v1", "numpy"):
        err = padnd.fail(src, "-o", "o.npy", "--pads=0,0", "--interior=1", "--spec", spec, code=2)
        assert "ngraph:v0" in err


def test_mode_names_per_spec(padnd):
    src = padnd.save(np.arange(4, dtype=np.int8))
    padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--mode=symmetric")  # not an ONNX mode
    padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--mode=wrap", "--spec=onnx:18")
    padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--mode=Mean", "--spec=numpy")
    out = padnd.pad(np.arange(4, dtype=np.int8), [1, 1], mode="wrap", spec="onnx:19")
    assert_same(out, np.array([3, 0, 1, 2, 3, 0], np.int8))


@pytest.mark.parametrize("dtype", ["S3", ">U2", "<U1", "?", "<M8[s]", "<c8", "V2"])
@pytest.mark.parametrize("memory", [None, "16"], ids=["in-memory", "out-of-core"])
def test_numpy_constant_default_is_numpys_zero_in_every_dtype(padnd, dtype, memory):
    a = np.frombuffer(bytes(range(1, 1 + 6 * np.dtype(dtype).itemsize)), dtype).reshape(2, 3)
    expected = np.pad(a, ((1, 0), (0, 2)))
    options = {} if memory is None else {"memory": memory}
    assert_same(padnd.pad(a, [1, 0, 0, 2], spec="numpy", **options), expected)
    # `empty` leaves numpy's memory unwritten; padnd writes zero bits (docs/spec.md §7.1).
    zero_bits = np.pad(a, ((1, 0), (0, 2)), constant_values=np.zeros((), a.dtype))
    assert_same(padnd.pad(a, [1, 0, 0, 2], spec="numpy", mode="empty", **options), zero_bits)


@pytest.mark.parametrize("mode", ["mean", "median", "maximum", "minimum", "linear_ramp"])
def test_numpy_value_modes_with_default_keywords(padnd, mode):
    a = np.array([[1, 8, 3], [4, 5, 9]], dtype=np.int16)
    out = padnd.pad(a, [1, 2, 3, 1], mode=mode, spec="numpy")
    assert_same(out, np.pad(a, ((1, 3), (2, 1)), mode))


def _pairs(values, rank):
    """The CLI's keyword layout (one value, or all begins then all ends) as numpy's pairs."""
    if len(values) == 1:
        return values[0]
    return tuple((values[k], values[rank + k]) for k in range(rank))


@pytest.mark.parametrize("dtype", ["u1", "i2", "i8", "f2", "f4", "f8", "c8", "c16"])
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median", "linear_ramp",
                                  "reflect", "symmetric"])
def test_numpy_keywords_against_numpy(padnd, dtype, mode):
    rng = seeded(dtype, mode)
    for _ in range(4):
        shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 3))))
        a = (rng.integers(-20, 20, size=shape) * 1.25).astype(dtype) if dtype[0] in "fc" else \
            rng.integers(0, 100, size=shape).astype(dtype)
        pads = [int(p) for p in rng.integers(0, 6, size=2 * a.ndim)]
        numpy_pads = [(pads[k], pads[a.ndim + k]) for k in range(a.ndim)]
        count = 1 if rng.integers(2) else 2 * a.ndim
        if mode == "linear_ramp":
            kinds = ["int", "float"] + (["complex"] if dtype[0] == "c" else [])
            kind = kinds[int(rng.integers(len(kinds)))]
            values = [int(v) for v in rng.integers(-50, 50, size=count)]
            values = [v + 0.5 if kind == "float" else complex(v, 1) if kind == "complex" else v
                      for v in values]
            text = ",".join(str(v).strip("()") for v in values)
            options, keywords = {"end-values": text}, {"end_values": _pairs(values, a.ndim)}
        elif mode in ("reflect", "symmetric"):
            kind = ["even", "odd"][int(rng.integers(2))]
            options, keywords = {"reflect-type": kind}, {"reflect_type": kind}
        else:
            values = [int(v) for v in rng.integers(1, 5, size=count)]
            options, keywords = {"stat-length": values}, {"stat_length": _pairs(values, a.ndim)}
        out = padnd.pad(a, pads, spec="numpy", mode=mode, **options)
        expected = np.pad(a, numpy_pads, mode, **keywords)
        if mode == "mean" and dtype[0] in "fc":  # numpy's summation order: docs/conformance.md
            np.testing.assert_allclose(out, expected, rtol=1e-3)
        else:
            assert_same(out, expected)


@pytest.mark.parametrize("dtype", ["c8", ">c8", "c16", ">c16"])
def test_linear_ramp_default_end_value_on_complex_data(padnd, dtype):
    # numpy's default end value 0 ramps to the complex edge: both parts change along the ramp.
    a = np.array([[1 + 2j, 3 - 1j], [-2 + 4j, 0.5j]], dtype)
    out = padnd.pad(a, [2, 1, 0, 3], spec="numpy", mode="linear_ramp")
    assert_same(out, np.pad(a, ((2, 0), (1, 3)), "linear_ramp"))


LONG_DOUBLES = [np.dtype(t).str for t in (np.longdouble, np.clongdouble)]
LONG_DOUBLES += [np.dtype(t).newbyteorder(">").str for t in (np.longdouble, np.clongdouble)]


@pytest.mark.parametrize("dtype", LONG_DOUBLES)
@pytest.mark.parametrize("mode", ["mean", "median", "maximum", "minimum", "linear_ramp",
                                  "ramp_to", "odd", "constant"])
def test_numpy_modes_on_long_double(padnd, dtype, mode):
    # numpy computes in the file's long double; so does the CLI (either byte order).
    a = (np.array([[1, 8, 3, 2], [4, 5, 9, 7]]) / 3).astype(dtype)
    if a.dtype.kind == "c":
        a = a + (1j / 7) * np.array([[2, 1, 0, 5], [3, 3, 1, 4]])
    keywords, options = {}, {"mode": mode}
    if mode == "odd":
        keywords, options = {"reflect_type": "odd"}, {"mode": "reflect", "reflect-type": "odd"}
    elif mode == "ramp_to":
        keywords, options = {"end_values": 2.5}, {"mode": "linear_ramp", "end-values": "2.5"}
    elif mode == "constant":
        keywords, options["value"] = {"constant_values": 0.1}, "0.1"
    out = padnd.pad(a, [1, 2, 3, 1], spec="numpy", **options)
    expected = np.pad(a, ((1, 3), (2, 1)), options["mode"], **keywords)
    if mode == "mean":  # numpy's summation order: docs/conformance.md
        np.testing.assert_allclose(out, expected, rtol=1e-15)
        assert out.dtype.str == expected.dtype.str
    else:
        assert_same(out, expected)


@pytest.mark.parametrize("dtype", [np.dtype(np.longdouble).str, "M8[s]", ">m8[ms]"])
@pytest.mark.parametrize("spec", ["openvino:1", "openvino:12", "ngraph:v0", "ngraph:v1"])
def test_framework_specs_move_numpy_s_own_types(padnd, dtype, spec):
    # numpy's own types are opaque elements to OpenVINO and nGraph (docs/cli.md, dtypes).
    a = (np.arange(12).reshape(3, 4) * 5).astype(dtype)
    mode = "reflect" if spec.startswith("openvino") else "REFLECT"
    out = padnd.pad(a, [1, 2, 0, 1], spec=spec, mode=mode)
    assert_same(out, np.pad(a, ((1, 0), (2, 1)), "reflect"))
    if a.dtype.kind == "f":  # a --value in the data's numbers
        out = padnd.pad(a, [1, 0, 0, 1], spec=spec, value="-1.5")
        assert_same(out, np.pad(a, ((1, 0), (0, 1)), constant_values=-1.5))


@pytest.mark.parametrize("mode", ["edge", "mean", "empty", "reflect"])
def test_numpy_value_only_with_constant_mode(padnd, mode):
    # numpy.pad: "unsupported keyword arguments for mode 'edge': {'constant_values'}"
    src = padnd.save(np.arange(4, dtype=np.int16))
    err = padnd.fail(src, "-o", "o.npy", *option_args([1, 1], spec="numpy", mode=mode, value=5))
    assert f"--value: mode '{mode}' takes no constant_values" in err
    assert not (padnd.dir / "o.npy").exists()


def test_errors_name_a_non_native_file_s_own_dtype(padnd):
    src = padnd.save(np.arange(4, dtype=">f4"))
    for mode in ("constant", "mean"):
        err = padnd.fail(src, "-o", "o.npy", "--pads=1,1", "--spec=numpy", f"--mode={mode}",
                         "--value=x")
        assert "--value 'x' for dtype float32 ('>f4'): not a number" in err


@pytest.mark.parametrize("dtype", ["M8[s]", ">m8[ms]"])
def test_onnx_names_the_specs_that_take_times(padnd, dtype):
    err = padnd.fail(padnd.save(np.arange(3).astype(dtype)), "-o", "o.npy", "--pads=1,1")
    assert "has no ONNX element type; --spec numpy, openvino or ngraph" in err


@pytest.mark.parametrize("options, message", [
    ({"mode": "mean", "stat-length": "1,2,3"}, "--stat-length: expected 1 value, 1 (before, after) pair or 2 x"),
    ({"mode": "mean", "stat-length": "-1"}, "stat_length: axis 0: index can't contain negative"),
    ({"mode": "constant", "stat-length": "2"}, "mode 'constant' takes no stat_length"),
    ({"mode": "edge", "end-values": "2"}, "mode 'edge' takes no end_values"),
    ({"mode": "linear_ramp", "end-values": "1,x"}, "--end-values 'x' for dtype float64"),
    ({"mode": "linear_ramp", "end-values": "1,2,3"}, "--end-values: expected 1 value, 1 (before, after) pair or 2 x"),
    ({"mode": "wrap", "reflect-type": "odd"}, "mode 'wrap' takes no reflect_type"),
])
def test_numpy_keyword_errors(padnd, options, message):
    src = padnd.save(np.arange(4, dtype=np.int16))
    err = padnd.fail(src, "-o", "o.npy", *option_args([1, 1], spec="numpy", **options))
    assert message in err
    assert not (padnd.dir / "o.npy").exists()


@pytest.mark.parametrize("options, message", [
    ({"spec": "onnx", "reflect-type": "odd"}, "need --spec numpy (got --spec onnx:25)"),
    ({"spec": "numpy", "reflect-type": "weird"}, "--reflect-type: expected even or odd, got"),
    ({"spec": "openvino", "stat-length": "1"}, "need --spec numpy (got --spec openvino:12)")])
def test_numpy_keyword_usage_errors(padnd, options, message):
    src = padnd.save(np.arange(4, dtype=np.int16))
    err = padnd.fail(src, "-o", "o.npy", *option_args([1, 1], mode="reflect", **options), code=2)
    assert message in err


@pytest.mark.parametrize("dtype", BIG_ENDIAN + [">M8[s]", ">m8[s]"])
@pytest.mark.parametrize("mode", ["mean", "median", "maximum", "linear_ramp", "odd"])
def test_numpy_value_modes_on_non_native_byte_order(padnd, dtype, mode):
    # The arithmetic runs on native numbers: the file's bytes are swapped in and back out.
    a = (np.array([[1, 8, 3, 2], [4, 5, 9, 7]]) * 3).astype(dtype)
    options = {"mode": "reflect", "reflect-type": "odd"} if mode == "odd" else {"mode": mode}
    if a.dtype.kind in "Mm" and (a.dtype.kind, mode) not in (("M", "maximum"), ("m", "odd")):
        # numpy: TypeError (no arithmetic on these times)
        err = padnd.fail(padnd.save(a), "-o", "o.npy", *option_args([1, 2, 3, 1],
                                                                     spec="numpy", **options))
        assert "computes values, which needs" in err and a.dtype.name[:9] in err
        return
    out = padnd.pad(a, [1, 2, 3, 1], spec="numpy", **options)
    expected = (np.pad(a, ((1, 3), (2, 1)), "reflect", reflect_type="odd") if mode == "odd"
                else np.pad(a, ((1, 3), (2, 1)), mode))
    assert_same(out, expected)


@pytest.mark.parametrize("args", [
    ["--bogus"], ["in.npy", "-o", "o.npy"], ["in.npy", "--pads=1,1"],
    ["in.npy", "-o", "o.npy", "--pads=1,2,3"], ["in.npy", "-o", "o.npy", "--pads=1,x"],
    ["in.npy", "-o", "o.npy", "--pads=1,1", "--spec=onnx:99"],
    ["in.npy", "-o", "o.npy", "--pads=1,1", "--spec=tensorflow"],
    ["in.npy", "-o", "o.npy", "--pads=1,1", "--pads=2,2"], ["in.npy", "-o", "o.npy", "--pads"],
    ["demo", "extra"], ["explain", "--pads=1,1"], ["explain", "in.npy", "--shape=2", "--pads=1,1"],
    [],
])
def test_usage_errors_exit_2(padnd, args):
    padnd.save(np.arange(3))
    padnd.fail(*args, code=2)
    assert not (padnd.dir / "o.npy").exists()


# --- errors leave no output ----------------------------------------------------------------------


def write_raw(padnd, name, data):
    (padnd.dir / name).write_bytes(data)
    return name


def npy_bytes(array):
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=True)
    return buf.getvalue()


@pytest.mark.parametrize("make,words", [
    (lambda p: "missing.npy", ["missing.npy"]),
    (lambda p: write_raw(p, "bad.npy", b"NOTNUMPY" + b"\0" * 100), ["magic"]),
    (lambda p: write_raw(p, "short.npy", npy_bytes(np.arange(10.0))[:-5]), ["truncated"]),
    (lambda p: write_raw(p, "long.npy", npy_bytes(np.arange(10.0)) + b"x"), ["size"]),
    (lambda p: write_raw(p, "head.npy", npy_bytes(np.arange(3))[:20]), ["truncated"]),
    (lambda p: write_raw(p, "obj.npy", npy_bytes(np.array([1, "a"], dtype=object))), ["object"]),
    (lambda p: write_raw(p, "rec.npy", npy_bytes(np.zeros(2, "i4,f4"))), ["structured"]),
    (lambda p: write_raw(p, "ver.npy", b"\x93NUMPY\x09\x00" + b"\0" * 100), ["version"]),
    (lambda p: write_raw(p, "huge.npy", b"\x93NUMPY\x02\x00\xff\xff\xff\xf0{"), ["truncated"]),
    (lambda p: write_raw(p, "code.npy", npy_bytes(np.zeros(2, "<i4")).replace(b"<i4", b"<x4")),
     ["x4"]),
    (lambda p: p.save(np.arange(6).reshape(2, 3), "rank.npy"), []),  # pads are for rank 1
])
def test_errors_leave_no_output_and_keep_existing_file(padnd, make, words):
    src = make(padnd)
    before = sorted(os.listdir(padnd.dir))
    err = padnd.fail(src, "-o", "out.npy", "--pads=1,1")
    for word in words:
        assert word in err
    assert not (padnd.dir / "out.npy").exists()
    assert sorted(os.listdir(padnd.dir)) == before  # no temporary file left behind

    (padnd.dir / "keep.npy").write_bytes(b"precious")
    padnd.fail(src, "-o", "keep.npy", "--pads=1,1")
    assert (padnd.dir / "keep.npy").read_bytes() == b"precious"


def test_value_error_keeps_existing_output(padnd):
    src = padnd.save(np.arange(3, dtype=np.int8))
    (padnd.dir / "keep.npy").write_bytes(b"precious")
    padnd.fail(src, "-o", "keep.npy", "--pads=1,1", "--value=1000")
    assert (padnd.dir / "keep.npy").read_bytes() == b"precious"


def test_unwritable_output_directory(padnd):
    src = padnd.save(np.arange(3))
    assert "cannot" in padnd.fail(src, "-o", "no/such/dir/o.npy", "--pads=1,1")


def test_success_replaces_existing_output(padnd):
    (padnd.dir / "out.npy").write_bytes(b"old")
    assert_same(padnd.pad(np.arange(2, dtype=np.int16), [0, 1]), np.array([0, 1, 0], np.int16))


def test_output_gets_ordinary_permissions(padnd):
    umask = os.umask(0)
    os.umask(umask)
    padnd.pad(np.arange(2), [1, 1])
    assert stat.S_IMODE(os.stat(padnd.dir / "out.npy").st_mode) == 0o666 & ~umask


# --- explain, demo, help ------------------------------------------------------------------------


def test_explain_from_file(padnd):
    src = padnd.save(np.zeros((2, 3, 4), np.float32), fortran=True)
    result = padnd.run("explain", src, "--pads=0,1,2,0,3,1", "--mode=reflect")
    assert result.returncode == 0, result.stderr
    assert "output shape (2, 7, 7)" in result.stdout
    assert "Fortran order" in result.stdout and "row segments" in result.stdout
    assert "crop, then pad" in result.stdout


def test_explain_needs_only_the_header(padnd):
    data = npy_bytes(np.zeros((1000, 1000), np.float64))
    header_len = 10 + int.from_bytes(data[8:10], "little")
    write_raw(padnd, "big.npy", data[:header_len])
    result = padnd.run("explain", "big.npy", "--pads=1,0,0,-1", "--spec=openvino:12")
    assert result.returncode == 0, result.stderr
    assert "output shape (1001, 999)" in result.stdout


def test_explain_without_file(padnd):
    result = padnd.run("explain", "--shape=2,3,4", "--dtype=float32", "--pads", "-1,0,2,0,3,1",
                       "--value=1.5")
    assert result.returncode == 0, result.stderr
    assert "output shape (1, 6, 7)" in result.stdout
    assert "00 00 c0 3f" in result.stdout  # 1.5f, little-endian
    result = padnd.run("explain", "--shape=3,3", "--dtype=int32", "--pads=1,2,1,0",
                       "--interior=1,2", "--spec=ngraph:v0", "--value=42")
    assert "output shape (7, 9)" in result.stdout
    result = padnd.run("explain", "--shape=5", "--dtype=int4", "--pads=1,1", "--value=-3")
    assert result.returncode == 0 and "output shape (7,)" in result.stdout
    assert "bytes 0d" in result.stdout  # -3 as a 4-bit code
    result = padnd.run("explain", "--shape=2", "--dtype=bfloat16", "--pads=0,1", "--value=1.5")
    assert result.returncode == 0 and "bytes c0 3f" in result.stdout
    result = padnd.run("explain", "--shape=2", "--dtype=>f8", "--pads=0,1", "--value=-2")
    assert result.returncode == 0 and "bytes c0 00 00 00 00 00 00 00" in result.stdout


@pytest.mark.parametrize("shape,pads,spec,row", [
    ("1152921504606846976", "0,0", "onnx", [0, 1152921504606846976, 0, 0, 0, 1152921504606846976]),
    ("3", "123456789,-2", "openvino:12", [0, 3, 123456789, -2, 0, 123456790]),
    ("2,3", "1,0,2,1", "onnx", [1, 3, 0, 1, 0, 4]),
])
def test_explain_table_columns_stay_apart(padnd, shape, pads, spec, row):
    result = padnd.run("explain", f"--shape={shape}", "--dtype=uint8", f"--pads={pads}",
                       f"--spec={spec}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = lines.index("canonical spec per axis:") + 1
    assert lines[header].split() == ["axis", "input", "begin", "end", "interior", "output"]
    axis_rows = lines[header + 1:header + 1 + shape.count(",") + 1]
    assert [int(v) for v in axis_rows[-1].split()] == row
    # every number ends under its column's name
    ends = [m.end() for m in re.finditer(r"\S+", lines[header])]
    for line in axis_rows:
        assert [m.end() for m in re.finditer(r"\S+", line)] == ends


def test_explain_reports_spec_errors(padnd):
    padnd.fail("explain", "--shape=2", "--dtype=float32", "--pads=-3,0")
    padnd.fail("explain", "--shape=2", "--dtype=nosuchtype", "--pads=1,0")


def test_demo(padnd):
    result = padnd.run("demo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) <= 100
    assert "\x1b" not in result.stdout  # no colors when stdout is not a terminal
    start = next(i for i, line in enumerate(lines) if line.startswith("nGraph")) + 2
    rows = [[int(x) for x in re.findall(r"\d+", line)][-9:] for line in lines[start:start + 7]]
    assert rows == NGRAPH_7X9
    assert "[ 1] 42  42 [ 2]" in result.stdout
    for strip in ("vvv|abcd|vvv", "aaa|abcd|ddd", "dcb|abcd|cba", "cba|abcd|dcb", "bcd|abcd|abc"):
        assert strip in result.stdout
    assert "56|565" in result.stdout and "56|543" in result.stdout


def test_help_and_version(padnd):
    for args in (["--help"], ["help"], ["-h"], ["demo", "--help"]):
        result = padnd.run(*args)
        assert result.returncode == 0 and "usage: padnd" in result.stdout
    version = re.search(r"project\(padnd VERSION ([\d.]+)",
                        (REPO / "CMakeLists.txt").read_text()).group(1)
    result = padnd.run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"padnd {version}"


def test_help_names_the_opsets_the_spec_accepts(padnd):
    # The newest opset padnd knows, from the C++ header, is the one --help states and accepts.
    newest = int(re.search(r"kNewestKnownOpset = (\d+);",
                           (REPO / "include/padnd/adapters/onnx.hpp").read_text()).group(1))
    latest = int(re.search(r"kLatestOpset = (\d+);",
                           (REPO / "include/padnd/adapters/onnx.hpp").read_text()).group(1))
    assert f"onnx:1..{newest} (opset)" in padnd.run("--help").stdout
    assert f"onnx (= onnx:{latest}, the default)" in padnd.run("--help").stdout
    src = padnd.save(np.arange(3, dtype=np.float32))
    assert padnd.run(src, "-o", "out.npy", "--pads=1,1", f"--spec=onnx:{newest}").returncode == 0
    err = padnd.fail(src, "-o", "out.npy", "--pads=1,1", f"--spec=onnx:{newest + 1}", code=2)
    assert f"unknown --spec 'onnx:{newest + 1}' (expected onnx, onnx:1..{newest}," in err


def test_help_lists_every_option_the_parser_accepts(padnd):
    # The options that take a value are listed once in cli/args.cpp (kValueOptions); the flags
    # are --help, --version and --no-fsync. Each must appear in --help, and the numpy modes too.
    source = (REPO / "cli/args.cpp").read_text()
    listed = re.search(r"kValueOptions\[\] = \{(.*?)\};", source, re.S).group(1)
    options = re.findall(r'"([a-z-]+)"', listed) + ["help", "version", "no-fsync"]
    assert {"stat-length", "end-values", "reflect-type"} <= set(options)
    text = padnd.run("--help").stdout
    for option in options:
        assert f"--{option}" in text, option
    for mode in ("empty", "linear_ramp", "maximum", "mean", "median", "minimum"):
        assert mode in text, mode


def test_option_args_helper():
    assert option_args([1, -2], mode="edge", axes=[0]) == ["--pads=1,-2", "--mode=edge",
                                                           "--axes=0"]


# --window: only a window of the output, numpy's slicing rules.
WINDOWS = [("1:-1,-5:", (slice(1, -1), slice(-5, None))), (":,2:3", (slice(None), slice(2, 3))),
           ("-100:100", (slice(-100, 100),)), ("4:2,", (slice(4, 2),)), ("", ())]


@pytest.mark.parametrize("text, window", WINDOWS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["u1", ">f8", "U3", "M8[ns]"])
def test_window_is_the_slice_of_the_whole(padnd, text, window, mode, dtype):
    a = random_array(dtype, (4, 5), seeded(text, mode, dtype))
    pairs = [(3, 1), (2, 6)]
    out = padnd.pad(a, onnx_layout(pairs), mode=mode, spec="numpy", window=text)
    assert_same(out, numpy_pad(a, pairs, mode)[window])


def test_window_with_fortran_input_and_onnx_crops(padnd):
    a = random_array("i4", (5, 6), seeded("fortran window"))
    out = padnd.pad(a, [-1, 2, 3, -2], fortran=True, mode="edge", window="1:,:-2")
    whole = padnd.pad(a, [-1, 2, 3, -2], fortran=True, mode="edge")
    assert_same(out, whole[1:, :-2])


def test_window_errors(padnd):
    src = padnd.save(np.zeros((2, 3), np.float32))
    for text, message in [("1:2:3", "axis 0: expected start:stop, got '1:2:3' (steps are not"),
                          ("0:1,1", "axis 1: expected start:stop (such as"),
                          (",0:1", "axis 0: expected start:stop (such as 0:256, 100: or :-1), "
                                   "got ''"),
                          ("a:b", "axis 0: 'a' is not an integer (expected start:stop"),
                          ("0:1,:99999999999999999999", "axis 1: '99999999999999999999' does "
                                                        "not fit in int64"),
                          ("0:1,0:1,0:1", "3 ranges for an output of 2")]:
        err = padnd.fail(src, "-o", "out.npy", "--pads=1,1,1,1", f"--window={text}", code=2)
        assert message in err, err
        assert not (padnd.dir / "out.npy").exists()


def test_explain_window_describes_the_window_plan(padnd):
    result = padnd.run("explain", "--shape=3,4", "--dtype=float32", "--pads=1,2,3,4",
                       "--mode=edge", "--window=0:2,5:")
    assert result.returncode == 0, result.stderr
    assert "window [0:2, 5:10] of the output" in result.stdout
    assert "output shape (2, 5)" in result.stdout


# --- hostile input, files and signals (issue 15) --------------------------------------------------


def npy_with_header(header, data=b"", major=1):
    """A .npy file with `header` (bytes, used as given) as its dict, padded as numpy pads."""
    prefix = 10 if major == 1 else 12
    header = header + b" " * (-(prefix + len(header) + 1) % 64) + b"\n"
    length = len(header).to_bytes(2 if major == 1 else 4, "little")
    return b"\x93NUMPY" + bytes([major, 0]) + length + header + data


def run_limited(padnd, *args, memory=None, stdin=None, timeout=10):
    """Runs the CLI with bytes in and out, optionally under an address-space limit."""
    import resource
    import subprocess

    def limit():
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    args = [a if isinstance(a, bytes) else str(a) for a in args]
    return subprocess.run([padnd.exe, *args], capture_output=True, cwd=padnd.dir,
                          input=stdin, timeout=timeout, preexec_fn=limit)


def hidden_files(directory):
    return [n for n in os.listdir(directory) if n.startswith(".")]


@pytest.mark.parametrize("command", ["pad", "explain"])
def test_deeply_nested_header_is_an_error_not_a_crash(padnd, command):
    header = b"{'descr': '<i8', 'fortran_order': False, 'shape': " + b"[" * 22000 + b", }"
    write_raw(padnd, "deep.npy", npy_with_header(header))
    args = ["deep.npy", "--pads=1,1"] + (["-o", "out.npy"] if command == "pad" else [])
    err = padnd.fail(command, *args)
    assert "nesting deeper than 64 levels" in err
    assert not (padnd.dir / "out.npy").exists()


def test_header_length_is_bounded_before_it_is_read(padnd):
    # A sparse file as long as its header length field says: 4 GiB that must not be read.
    path = padnd.dir / "sparse.npy"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + (0xFFFFFFF0).to_bytes(4, "little") + b"{")
        f.truncate(12 + 0xFFFFFFF0 + 64)
    for stdin, src in ((None, "sparse.npy"), (path.read_bytes()[:13], "-")):
        result = run_limited(padnd, src, "-o", "out.npy", "--pads=1,1", stdin=stdin,
                             memory=512 << 20, timeout=5)
        assert result.returncode == 1, result.stderr
        assert b"announces 4294967280 bytes" in result.stderr
        assert b"at most 1048576 bytes" in result.stderr
    assert not (padnd.dir / "out.npy").exists()


@pytest.mark.parametrize("spec", ["numpy", "openvino:12", "ngraph:v0", "ngraph:v1"])
def test_empty_output_of_huge_items_allocates_no_element(padnd, spec):
    header = b"{'descr': '|V2147483647', 'fortran_order': False, 'shape': (0,), }"
    write_raw(padnd, "v.npy", npy_with_header(header))
    result = run_limited(padnd, "v.npy", "-o", "out.npy", "--pads=0,0", "--spec=" + spec,
                         memory=1 << 30, timeout=5)
    assert result.returncode == 0, result.stderr
    out = np.load(padnd.dir / "out.npy")
    assert out.dtype == np.dtype("V2147483647") and out.shape == (0,)
    result = run_limited(padnd, "explain", "v.npy", "--pads=0,0", "--spec=" + spec,
                         memory=1 << 30, timeout=5)
    assert result.returncode == 0, result.stderr
    assert b"type opaque2147483647" in result.stdout and b"empty output" in result.stdout


def test_empty_output_of_huge_text_items_with_a_value(padnd):
    header = b"{'descr': '|S2147483647', 'fortran_order': False, 'shape': (3, 0), }"
    write_raw(padnd, "s.npy", npy_with_header(header))
    result = run_limited(padnd, "s.npy", "-o", "out.npy", "--pads=1,0,1,0", "--spec=numpy",
                         "--value=abc", memory=1 << 30, timeout=5)
    assert result.returncode == 0, result.stderr
    assert np.load(padnd.dir / "out.npy").shape == (5, 0)


@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("shape", [(0, 2**62, 2**62), (2**62, 2**62, 0), (0, 2**61)])
def test_empty_shapes_numpy_cannot_hold_are_rejected(padnd, shape, fortran):
    # numpy's rule: the lengths other than 0 times the item size fit in int64 (np.load raises
    # "array is too big" otherwise). Fortran strides of such a shape once overflowed (UBSan).
    header = (f"{{'descr': '<f8', 'fortran_order': {fortran}, 'shape': {shape}, }}").encode()
    write_raw(padnd, "e.npy", npy_with_header(header))
    for command in (["e.npy", "-o", "out.npy"], ["explain", "e.npy"]):
        result = run_limited(padnd, *command, "--pads=" + ",".join(["0"] * 2 * len(shape)))
        assert result.returncode == 1, result.stderr
        err = result.stderr.decode()
        assert "e.npy: shape " + str(shape) in err and "8-byte elements" in err, err
        assert "do not fit in int64" in err, err
    assert not (padnd.dir / "out.npy").exists()


@pytest.mark.parametrize("fortran", [False, True])
def test_empty_input_whose_pad_numpy_could_not_hold_writes_nothing(padnd, fortran):
    # (0, 2**59) float64 is a valid empty array (2**62 bytes if it were full); padded to
    # (0, 2**60) it is not.
    header = f"{{'descr': '<f8', 'fortran_order': {fortran}, 'shape': (0, {2**59}), }}".encode()
    write_raw(padnd, "e.npy", npy_with_header(header))
    ok = run_limited(padnd, "e.npy", "-o", "ok.npy", f"--pads=1,0,-1,{2**58}")
    assert ok.returncode == 0, ok.stderr
    out = np.load(padnd.dir / "ok.npy")
    assert out.shape == (0, 2**59 + 2**58) and out.dtype == np.float64
    result = run_limited(padnd, "e.npy", "-o", "out.npy", f"--pads=0,0,0,{2**59}")
    assert result.returncode == 1, result.stderr
    assert f"shape (0, {2**60}) of 8-byte elements" in result.stderr.decode()
    assert not (padnd.dir / "out.npy").exists()


def test_item_size_over_numpys_limit(padnd):
    header = b"{'descr': '|V4294967296', 'fortran_order': False, 'shape': (0,), }"
    write_raw(padnd, "v.npy", npy_with_header(header))
    err = padnd.fail("v.npy", "-o", "out.npy", "--pads=0,0", "--spec=numpy")
    assert "'|V4294967296'" in err and "2147483647" in err


@pytest.mark.parametrize("header,words", [
    (b"{'descr': '<i8', 'fortran_order': False, 'shape': [3], }", ["'shape' is not a tuple"]),
    # Python's "(3)" is 3 in parentheses: numpy's "shape is not valid".
    (b"{'descr': '<i8', 'fortran_order': False, 'shape': (3), }", ["'shape' is not a tuple"]),
    (b"{'descr': '<i8', 'fortran_order': False, 'shape': (3,), 'shape': (3,), }",
     ["duplicate key 'shape'"]),
    (b"{'descr': '<i8', 'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
     ["duplicate key 'descr'"]),
    (b"{'descr': '<i\x008', 'fortran_order': False, 'shape': (3,), }", ["'<i\\x008'"]),
    (b"{'descr': '<M8[\x1b[31m]', 'fortran_order': False, 'shape': (3,), }",
     ["'<M8[\\x1b[31m]'", "one of numpy's"]),
    (b"{'descr': '<i8', 'fortran_order': False, 'shape': (3,), '\x1b[2J': 1}",
     ["unexpected key '\\x1b[2J'"]),
])
def test_header_rules_and_escaped_messages(padnd, header, words):
    write_raw(padnd, "h.npy", npy_with_header(header, np.arange(3, dtype="<i8").tobytes()))
    result = run_limited(padnd, "h.npy", "-o", "out.npy", "--pads=1,1")
    assert result.returncode == 1
    err = result.stderr.decode()
    for word in words:
        assert word in err, err
    assert not any(ord(c) < 0x20 for c in err[:-1]), err  # only the final newline
    assert not (padnd.dir / "out.npy").exists()


@pytest.mark.parametrize("raw,why", [
    (b"\xed\xa0\x80", "surrogate"),          # U+D800
    (b"\xed\xbf\xbf", "surrogate"),          # U+DFFF
    (b"\xf4\x90\x80\x80", "above U+10FFFF"),  # U+110000
    (b"\xf7\xbf\xbf\xbf", "above U+10FFFF"),
    (b"\xc0\xaf", "overlong"),                # '/'
    (b"\xe0\x80\xaf", "overlong"),
    (b"\xf0\x80\x80\xaf", "overlong"),
    (b"a\xff", "starts no UTF-8 sequence"),
    (b"\xe2\x82", "truncated"),
])
def test_value_rejects_invalid_utf8_for_unicode(padnd, raw, why):
    padnd.save(np.array(["x"], "<U3"))
    result = run_limited(padnd, "in.npy", "-o", "out.npy", "--pads=1,1", "--spec=numpy",
                         b"--value=" + raw)
    assert result.returncode == 1, result.stderr
    err = result.stderr.decode("utf-8")  # the message itself is valid UTF-8
    assert "not valid UTF-8" in err and why in err, err
    assert "\\x" in err  # the bad bytes are shown escaped
    assert not (padnd.dir / "out.npy").exists()


def test_value_accepts_the_whole_unicode_range(padnd):
    for text in ["\U0010FFFF", "\uE000", "\uD7FF", "\u0080\u0800\U00010000"]:
        out = padnd.pad(np.array(["x"], "<U4"), [1, 0], spec="numpy", value=text)
        assert out[0] == text


def test_pads_count_error_is_short(padnd):
    padnd.save(np.arange(3))
    pads = ",".join(str(i) for i in range(20000))  # 109 KB: under one argument's limit
    for spec in ["onnx", "openvino:12", "ngraph:v0", "numpy"]:
        err = padnd.fail("in.npy", "-o", "out.npy", "--pads=" + pads, "--spec=" + spec)
        assert len(err) < 300, err
        assert "expected 2 values" in err and "0, 1, 2, 3" in err and "(20000 values)" in err
    err = padnd.fail("in.npy", "-o", "out.npy", "--pads=" + pads, "--axes=0")
    assert "2 x 1 axes in --axes" in err and len(err) < 300
    shape = (1,) * 25000  # a long shape is shown as its first values and its rank
    write_raw(padnd, "deep.npy", npy_v2("<i2", shape, b"\0\0"))
    err = padnd.fail("deep.npy", "-o", "out.npy", "--pads=0,0")
    assert "(1, 1, 1, 1, 1, 1, 1, 1, ...) (rank 25000)" in err and len(err) < 300, err


def sparse_u1_npy(padnd, name, shape):
    """A uint8 .npy of `shape` whose data is a hole on disk: big to read, cheap to make."""
    header = npy_with_header(f"{{'descr': '|u1', 'fortran_order': False, 'shape': {shape}, }}"
                             .encode())
    with open(padnd.dir / name, "wb") as f:
        f.write(header)
        f.truncate(len(header) + int(np.prod(shape)))


def test_allocation_failures_say_what_and_how_much(padnd):
    # A 300 MB input (sparse on disk) under a 256 MiB address-space limit: even its mapping
    # does not fit.
    sparse_u1_npy(padnd, "big.npy", (300_000_000,))
    result = run_limited(padnd, "big.npy", "-o", "out.npy", "--pads=0,0", memory=256 << 20)
    assert result.returncode == 1
    assert b"cannot allocate 300000000 bytes for the input data of shape (300000000,)" in \
        result.stderr, result.stderr
    # A 100 MB input that fits, padded to 300 MB that does not, in a value mode: it computes the
    # whole output in memory when --memory allows it (docs/out-of-core.md).
    sparse_u1_npy(padnd, "wide.npy", (1, 100_000_000))
    result = run_limited(padnd, "wide.npy", "-o", "out.npy", "--pads=1,0,1,0", "--spec=numpy",
                         "--mode=maximum", "--memory=1G", memory=256 << 20)
    assert result.returncode == 1
    assert b"cannot allocate 300000000 bytes for the output of shape (3, 100000000)" in \
        result.stderr, result.stderr
    # A pad this wide plans in O(1) memory: what fails is the output, and it says so.
    padnd.save(np.arange(3, dtype=np.uint8), "small.npy")
    result = run_limited(padnd, "small.npy", "-o", "out.npy", "--pads=0,300000000",
                         "--spec=numpy", "--mode=maximum", "--memory=1G", memory=256 << 20)
    assert result.returncode == 1
    assert b"cannot allocate 300000003 bytes for the output of shape (300000003,)" in \
        result.stderr, result.stderr
    assert not (padnd.dir / "out.npy").exists() and hidden_files(padnd.dir) == []
    # The index modes write the same outputs window by window under the same limit.
    for args in (["wide.npy", "--pads=1,0,1,0"], ["small.npy", "--pads=0,300000000"]):
        result = run_limited(padnd, *args, "-o", "out.npy", "--no-fsync", memory=256 << 20)
        assert result.returncode == 0, result.stderr
        assert (padnd.dir / "out.npy").stat().st_size > 300_000_000


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_signal_while_writing_leaves_no_temporary_file(padnd, sig):
    import signal
    import subprocess
    import time
    sig = getattr(signal, sig)
    padnd.save(np.zeros(1, np.uint8))
    for size in (200_000_000, 400_000_000, 800_000_000):
        # The signal's default action in the child: run under nohup, SIGHUP would be inherited
        # as ignored, and padnd keeps an ignored signal ignored.
        proc = subprocess.Popen([padnd.exe, "in.npy", "-o", "out.npy", f"--pads=0,{size}"],
                                cwd=padnd.dir, stderr=subprocess.PIPE,
                                preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
        while proc.poll() is None and not hidden_files(padnd.dir):
            time.sleep(0.0005)
        if proc.poll() is None:
            proc.send_signal(signal.SIGSTOP)  # hold it while the temporary file exists
            caught = bool(hidden_files(padnd.dir))
            proc.send_signal(sig)
            proc.send_signal(signal.SIGCONT)
            proc.wait(timeout=30)
            if caught:
                break
        proc.wait(timeout=30)
        (padnd.dir / "out.npy").unlink(missing_ok=True)
    else:
        pytest.skip("the output was written before a signal could be sent")
    assert proc.returncode == -sig  # the process ends by the signal, as the user asked
    assert hidden_files(padnd.dir) == []
    assert not (padnd.dir / "out.npy").exists()


def test_output_through_a_symbolic_link_writes_its_target(padnd):
    padnd.save(np.arange(3, dtype=np.int16))
    (padnd.dir / "real").mkdir()
    (padnd.dir / "links").mkdir()
    (padnd.dir / "real" / "t.npy").write_bytes(b"old")
    link = padnd.dir / "links" / "l.npy"
    link.symlink_to("../real/t.npy")  # relative to the link's directory
    chain = padnd.dir / "chain.npy"
    chain.symlink_to(link)
    for out in (link, chain):
        result = padnd.run("in.npy", "-o", out, "--pads=1,0")
        assert result.returncode == 0, result.stderr
        assert link.is_symlink() and os.readlink(link) == "../real/t.npy"
        assert chain.is_symlink()
        assert_same(np.load(padnd.dir / "real" / "t.npy"), np.array([0, 0, 1, 2], np.int16))
    dangling = padnd.dir / "d.npy"
    dangling.symlink_to("new.npy")
    assert padnd.run("in.npy", "-o", dangling, "--pads=0,1").returncode == 0
    assert dangling.is_symlink()
    assert_same(np.load(padnd.dir / "new.npy"), np.array([0, 1, 2, 0], np.int16))
    assert hidden_files(padnd.dir) == []


def test_output_into_a_fifo_is_written_in_place(padnd):
    padnd.save(np.arange(5, dtype=np.int32))
    fifo = padnd.dir / "out.fifo"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the writer need not wait
    try:
        result = padnd.run("in.npy", "-o", fifo, "--pads=1,1")
        assert result.returncode == 0, result.stderr
        data = os.read(fd, 1 << 16)
    finally:
        os.close(fd)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert_same(np.load(io.BytesIO(data)), np.pad(np.arange(5, dtype=np.int32), 1))
    assert hidden_files(padnd.dir) == []


def test_output_into_a_device_is_written_in_place(padnd):
    padnd.save(np.arange(5))
    if os.geteuid() == 0:  # a null device of our own: never replace the system's /dev/null
        device = padnd.dir / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = "/dev/null"
    result = padnd.run("in.npy", "-o", device, "--pads=1,1")
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert hidden_files(padnd.dir) == []


def test_dash_is_standard_input_and_output(padnd):
    a = np.arange(6, dtype=">f4").reshape(2, 3)
    result = run_limited(padnd, "-", "-o", "-", "--pads=0,1,1,0", stdin=npy_bytes(a))
    assert result.returncode == 0, result.stderr
    assert_same(np.load(io.BytesIO(result.stdout)), np.pad(a, [(0, 1), (1, 0)]))
    assert os.listdir(padnd.dir) == []  # no file named '-'
    result = run_limited(padnd, "explain", "-", "--pads=0,1,1,0", stdin=npy_bytes(a))
    assert b"output shape (3, 4)" in result.stdout
    result = run_limited(padnd, "-", "-o", "-", "--pads=1,1", stdin=npy_bytes(np.arange(3))[:-1])
    assert result.returncode == 1 and b"standard input: truncated" in result.stderr
    result = run_limited(padnd, "-", "-o", "-", "--pads=1,1", stdin=npy_bytes(np.arange(3)) + b"x")
    assert result.returncode == 1 and b"standard input: size mismatch" in result.stderr
    assert result.stdout == b""


def test_output_names_of_255_bytes(padnd):
    padnd.save(np.arange(3))
    for length in (242, 250, 255):
        name = "a" * (length - 4) + ".npy"
        assert padnd.run("in.npy", "-o", name, "--pads=1,1").returncode == 0
        assert_same(np.load(padnd.dir / name), np.pad(np.arange(3), 1))
    assert hidden_files(padnd.dir) == []


def test_fifo_input_is_a_stream_and_waiting_is_visible(padnd):
    import subprocess
    import time
    fifo = padnd.dir / "in.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([padnd.exe, fifo, "-o", "out.npy", "--pads=2,0"], cwd=padnd.dir,
                            stderr=subprocess.PIPE)
    time.sleep(1.5)
    assert proc.poll() is None
    with open(fifo, "wb") as f:  # opens once padnd reads
        f.write(npy_bytes(np.arange(4, dtype=np.uint16)))
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert b"waiting for a writer on FIFO" in err
    assert_same(np.load(padnd.dir / "out.npy"), np.pad(np.arange(4, dtype=np.uint16), (2, 0)))


def strace_calls(padnd, *args):
    import shutil
    import subprocess
    # scripts/test.sh installs strace: a missing one is a broken setup, not a reason to skip.
    assert shutil.which("strace") is not None, "strace is not installed (apt-get install strace)"
    log = padnd.dir / "strace.log"
    result = subprocess.run(["strace", "-f", "-o", log, "-e", "trace=fsync,rename,renameat,"
                             "renameat2", padnd.exe, *map(str, args)], cwd=padnd.dir,
                            capture_output=True, timeout=60)
    if result.returncode != 0 and not log.exists():
        pytest.skip("strace cannot trace here")
    calls = [line.split(None, 1)[1].split("(")[0] for line in log.read_text().splitlines()
             if "(" in line and "+++" not in line and "---" not in line]
    log.unlink()
    return result, calls


def test_output_is_synced_unless_no_fsync(padnd):
    padnd.save(np.arange(3))
    result, calls = strace_calls(padnd, "in.npy", "-o", "out.npy", "--pads=1,1")
    assert result.returncode == 0, result.stderr
    renames = [i for i, c in enumerate(calls) if c.startswith("rename")]
    assert len(renames) == 1
    assert calls[renames[0] - 1] == "fsync" and calls[renames[0] + 1] == "fsync"  # file, dir
    result, calls = strace_calls(padnd, "in.npy", "-o", "out.npy", "--pads=1,1", "--no-fsync")
    assert result.returncode == 0, result.stderr
    assert "fsync" not in calls and any(c.startswith("rename") for c in calls)
    assert_same(np.load(padnd.dir / "out.npy"), np.pad(np.arange(3), 1))
    assert "--no-fsync" in padnd.run("--help").stdout
    padnd.fail("explain", "in.npy", "--pads=1,1", "--no-fsync", code=2)
    padnd.fail("in.npy", "-o", "out.npy", "--pads=1,1", "--no-fsync=1", code=2)
