# SPDX-License-Identifier: Apache-2.0
# libpadnd_openvino (src/bindings/openvino): ONNX Pad models through OpenVINO's CPU plugin with
# padnd's extension, against padnd.onnx.pad and ONNX Runtime; OpenVINO IR models whose Pad-1 /
# Pad-12 nodes padnd replaces, against OpenVINO's own Pad.
import numpy as np
import pytest
from hypothesis import event, given, settings

ov = pytest.importorskip("openvino")
import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
import openvino.opset1 as opset1  # noqa: E402
import openvino.opset12 as opset12  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402
from openvino import passes as ov_passes  # noqa: E402

import padnd  # noqa: E402
from padnd import _openvino_replace, _openvino_runtime  # noqa: E402
from pad_models import PadCase, assert_same_bits, outcome, pad_cases  # noqa: E402

try:
    EXTENSION = padnd.openvino.extension_path()
except FileNotFoundError as missing:  # CI's builds have OpenVINO: there this fails the run
    pytest.skip(f"padnd built without its OpenVINO extension: {missing}", allow_module_level=True)

CORE = ov.Core()
# Element types OpenVINO has no type for (its ONNX frontend refuses the model).
NO_OPENVINO_TYPE = {"complex64", "complex128", "float8_e4m3fnuz", "float8_e5m2fnuz", "int2",
                    "uint2"}


# ml_dtypes' types as OpenVINO's: fed and read back as their bytes (OpenVINO's Python API takes
# no ml_dtypes arrays).
OPENVINO_TYPES = {"bfloat16": ov.Type.bf16, "float8_e4m3fn": ov.Type.f8e4m3,
                  "float8_e5m2": ov.Type.f8e5m2, "float8_e8m0fnu": ov.Type.f8e8m0}
PACKED = {"int4", "uint4", "float4_e2m1fn"}  # OpenVINO packs them two per byte: own test


def _feed(array: np.ndarray):
    if array.dtype.kind == "O":  # strings: OpenVINO takes numpy's str arrays
        return array.astype(np.str_)
    if array.dtype.name not in OPENVINO_TYPES:
        return array
    tensor = ov.Tensor(OPENVINO_TYPES[array.dtype.name], list(array.shape))
    tensor.data.reshape(-1).view(np.uint8)[...] = np.ascontiguousarray(array).reshape(-1).view(
        np.uint8)
    return tensor


def run_openvino(model: onnx.ModelProto, feeds: dict) -> np.ndarray:
    # f32 inference: the CPU plugin would run Conv in bf16 where the CPU has it.
    compiled = CORE.compile_model(padnd.openvino.read_model(model, CORE), "CPU",
                                  {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.infer({name: _feed(array) for name, array in feeds.items()})
    output = request.get_output_tensor(0)
    dtype = feeds["x"].dtype
    if dtype.kind == "O":
        return output.str_data.astype(object)
    result = output.data
    if dtype.name in OPENVINO_TYPES:  # its bytes, as the feed's dtype
        return np.ascontiguousarray(result).view(np.uint8).view(dtype).reshape(result.shape)
    return result.copy()


@settings(max_examples=300, deadline=None)
@given(pad_cases(opsets=(2, 11, 13, 18, 19, 21, 23, 24, 25)))
def test_onnx_pads_through_openvino_equal_padnd(case: PadCase):
    if case.x.dtype.name in NO_OPENVINO_TYPE | PACKED:
        event("no OpenVINO type, or packed")
        return
    expected, padnd_error = outcome(case.padnd, (ValueError, TypeError))
    model, feeds = case.model_and_feeds(constants=True)
    got, openvino_error = outcome(lambda: run_openvino(model, feeds), (RuntimeError,))
    if padnd_error is not None:
        assert openvino_error is not None, f"OpenVINO padded what padnd refuses: {padnd_error}"
        assert str(padnd_error).split(": ", 1)[-1] in str(openvino_error)
        event("both refuse")
        return
    assert openvino_error is None, f"{openvino_error}\n(padnd pads it)"
    assert_same_bits(got, expected)
    event(f"pads {case.mode}")


def test_what_openvino_and_onnxruntime_refuse_runs_with_the_extension():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    wide_reflect = PadCase(x, [5, 9, 7, 6], None, None, "reflect", 19)
    wrap = PadCase(x, [2, 5, 1, 3], None, None, "wrap", 19)
    crops = PadCase(x, [-1, 2, 1, -3], np.float32(7), None, "edge", 18)
    int16 = PadCase(np.arange(6, dtype=np.int16).reshape(2, 3), [1, 1, 1, 1], np.int16(-3),
                    None, "constant", 21)
    for case in (wide_reflect, wrap, crops, int16):
        model, feeds = case.model_and_feeds(constants=True)
        assert_same_bits(run_openvino(model, feeds), case.padnd())
        # OpenVINO's own ONNX frontend, without padnd, refuses wrap and the wide reflect.
    plain = ov.Core()
    for case in (wide_reflect, wrap):
        model, feeds = case.model_and_feeds(constants=True)
        with pytest.raises(Exception):
            plain.compile_model(plain.read_model(model.SerializeToString(), b""), "CPU")(feeds)


def _conv_pad_relu(mode: str, pads: list) -> onnx.ModelProto:
    weights = np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Pad", ["c", "pads"], ["p"], mode=mode),
             helper.make_node("Relu", ["p"], ["y"])]
    graph = helper.make_graph(
        nodes, "conv_pad_relu",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        initializer=[numpy_helper.from_array(weights, "w"),
                     numpy_helper.from_array(np.array(pads, np.int64), "pads")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.mark.parametrize("mode", ["reflect", "edge", "wrap", "constant"])
def test_a_pad_between_conv_and_relu_runs_end_to_end(mode):
    x = np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)
    pads = [0, 0, 2, 3, 0, 0, 1, 2]
    model = _conv_pad_relu(mode, pads)
    got = run_openvino(model, {"x": x})
    # ONNX Runtime runs the same model (these pads are within what it takes).
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    expected = session.run(None, {"x": x})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    ops = {op.get_type_name() for op in padnd.openvino.read_model(model, CORE).get_ops()}
    assert "PadndPad" in ops and "Pad" not in ops


def test_a_model_path_reads_with_the_extension(tmp_path):
    case = PadCase(np.arange(6, dtype=np.float32).reshape(2, 3), [1, 2, 3, 4], None, None,
                   "wrap", 19)
    model, feeds = case.model_and_feeds(constants=True)
    onnx.save(model, tmp_path / "pad.onnx")
    compiled = ov.Core().compile_model(padnd.openvino.read_model(tmp_path / "pad.onnx"), "CPU")
    assert_same_bits(compiled(feeds)[0], case.padnd())


def test_a_conversion_error_is_onnxs():
    case = PadCase(np.zeros((2, 3), np.float32), [1, 1, 1], None, None, "constant", 19)
    model, feeds = case.model_and_feeds(constants=True)
    _, padnd_error = outcome(case.padnd, (ValueError,))
    with pytest.raises(RuntimeError) as raised:
        run_openvino(model, feeds)
    assert str(padnd_error).split(": ", 1)[-1] in str(raised.value)


def _ir_pad(version: int, x: np.ndarray, begins, ends, mode: str, value):
    data = opset12.parameter(list(x.shape), x.dtype)
    make = opset12.pad if version == 12 else opset1.pad
    arguments = [data, np.array(begins, np.int64), np.array(ends, np.int64), mode]
    if mode == "constant" and value is not None:
        arguments.append(opset12.constant(np.asarray(value, x.dtype)))
    return ov.Model([make(*arguments)], [data])


def _random_ir_case(rng):
    version = int(rng.choice([1, 12]))
    shape = [int(n) for n in rng.integers(1, 6, int(rng.integers(1, 4)))]
    mode = str(rng.choice(["constant", "edge", "reflect", "symmetric"]))
    low = -3 if version == 12 else 0
    limit = {"reflect": -1, "symmetric": 0}.get(mode)
    begins, ends = [], []
    for d in shape:  # OpenVINO's limits: reflect pads <= d - 1, symmetric <= d
        high = 4 if limit is None else d + limit
        begins.append(int(rng.integers(low, high + 1)))
        ends.append(int(rng.integers(low, high + 1)))
    dtype = rng.choice([np.float32, np.int32, np.uint8, np.int64, np.float16])
    x = (rng.standard_normal(shape) * 20).astype(dtype)
    return version, x, begins, ends, mode, dtype(rng.integers(-5, 5))


def _openvino_reference(version, x, begins, ends, mode, value) -> np.ndarray:
    """OpenVINO's reference implementation of the Pad (its evaluate, through constant
    folding of the Pad of a constant)."""
    data = opset12.constant(x)
    make = opset12.pad if version == 12 else opset1.pad
    arguments = [data, np.array(begins, np.int64), np.array(ends, np.int64), mode]
    if mode == "constant" and value is not None:
        arguments.append(opset12.constant(np.asarray(value, x.dtype)))
    model = ov.Model([make(*arguments)], [])
    manager = ov_passes.Manager()
    manager.register_pass(ov_passes.ConstantFolding())
    manager.run_passes(model)
    (folded,) = [op for op in model.get_ops() if op.get_type_name() == "Constant"]
    return folded.get_data()


def test_ir_pads_replaced_by_padnd_equal_openvinos_own():
    rng = np.random.default_rng(2)
    compared = 0
    for _ in range(150):
        version, x, begins, ends, mode, value = _random_ir_case(rng)
        reference, refused = outcome(
            lambda: _openvino_reference(version, x, begins, ends, mode, value))
        if refused is not None:
            continue  # OpenVINO does not take it: nothing to compare with
        core = ov.Core()
        _openvino_runtime.add_extension(core)
        model = _ir_pad(version, x, begins, ends, mode, value)
        assert _openvino_replace.replace_pads(model) == 1
        assert [op.get_type_name() for op in model.get_ordered_ops()].count("PadndPad") == 1
        assert_same_bits(core.compile_model(model, "CPU")({0: x})[0], reference)
        compared += 1
        # OpenVINO's CPU plugin equals its reference too, except where Pad-12 crops more than
        # an axis holds: there it reads past the input (wrong values, or a heap corruption that
        # aborts the process), so it is not run (docs/runtimes.md). padnd follows the reference.
        if all(-b <= d and -e <= d for d, b, e in zip(x.shape, begins, ends)):
            plugin = ov.Core().compile_model(_ir_pad(version, x, begins, ends, mode, value),
                                             "CPU")({0: x})[0]
            assert_same_bits(plugin, reference)
    assert compared > 100


def test_read_model_replaces_pads_of_an_ir_file(tmp_path):
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    ov.save_model(_ir_pad(12, x, [-1, 2], [3, -2], "reflect", None), tmp_path / "pad.xml")
    expected = ov.Core().compile_model(tmp_path / "pad.xml", "CPU")({0: x})[0]
    model = padnd.openvino.read_model(tmp_path / "pad.xml", replace_pad=True)
    assert "PadndPad" in {op.get_type_name() for op in model.get_ops()}
    core = ov.Core()
    _openvino_runtime.add_extension(core)
    assert_same_bits(core.compile_model(model, "CPU")({0: x})[0], expected)
