# SPDX-License-Identifier: Apache-2.0
# The official ONNX backend node tests for Pad, run on padnd.onnx.backend (none skipped).
import unittest

import ml_dtypes
import numpy as np
import onnx
import onnx.backend.test
import pytest
from onnx import helper
from onnx.backend.test.loader import load_model_tests

import padnd.onnx.backend as padnd_backend


def pad_node_tests_in_installed_onnx() -> list[str]:
    """Names of the installed onnx's node tests whose model is made of Pad nodes only.

    onnx >= 1.23 generates its node tests in memory (onnx/backend/test/case/node), older releases
    read them from onnx/backend/test/data/node/*/model.onnx; `load_model_tests(kind="node")` is the
    loader BackendTest itself uses, so this is the same list either way."""
    names = []
    for case in load_model_tests(kind="node"):
        model = case.model
        if model is None:  # on-disk data (onnx < 1.23)
            model = onnx.load(f"{case.model_dir}/model.onnx")
        ops = {(n.domain, n.op_type) for n in model.graph.node}
        if ops and all(op_type == "Pad" and domain in ("", "ai.onnx") for domain, op_type in ops):
            names.append(case.name)
    return sorted(names)


PAD_NODE_TESTS = pad_node_tests_in_installed_onnx()
# The ones docs/spec.md §4.6 lists; the installed onnx must have at least these.
KNOWN_PAD_NODE_TESTS = ["test_constant_pad", "test_constant_pad_axes",
                        "test_constant_pad_negative_axes", "test_edge_pad", "test_reflect_pad",
                        "test_wrap_pad"]

backend_test = onnx.backend.test.BackendTest(padnd_backend, __name__)
for _name in PAD_NODE_TESTS:
    backend_test.include(f"^{_name}_cpu$")


def _selected_test_cases() -> dict[str, type[unittest.TestCase]]:
    """BackendTest's test classes with only the included CPU tests left. BackendTest keeps every
    other test (all other operators, CUDA variants, the model zoo) as a skipped method; those are
    removed so that nothing in this module reports as skipped."""
    selected = {f"{name}_cpu" for name in PAD_NODE_TESTS}
    cases = {}
    for class_name, case in backend_test.test_cases.items():
        for attr in [a for a in vars(case) if a.startswith("test_")]:
            if attr not in selected:
                delattr(case, attr)
        if any(a.startswith("test_") for a in vars(case)):
            cases[class_name] = case
    return cases


_CASES = _selected_test_cases()
globals().update(_CASES)


def _collected() -> list[str]:
    return sorted(a for case in _CASES.values() for a in vars(case) if a.startswith("test_"))


def test_collected_set_is_every_pad_node_test_of_installed_onnx():
    """A silent skip or an empty collection fails here: the conformance tests collected above are
    exactly the Pad-only node tests the installed onnx ships, each on CPU, and none is wrapped in
    a skip."""
    assert set(KNOWN_PAD_NODE_TESTS) <= set(PAD_NODE_TESTS)
    assert _collected() == sorted(f"{name}_cpu" for name in PAD_NODE_TESTS)
    for case in _CASES.values():
        for attr in vars(case):
            if attr.startswith("test_"):
                assert not getattr(getattr(case, attr), "__unittest_skip__", False), attr


# ---- the backend beyond the node tests ------------------------------------------------------

def _model(nodes, inputs, outputs, opset, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _vi(name, elem_type=onnx.TensorProto.FLOAT, rank=1):
    return helper.make_tensor_value_info(name, elem_type, [None] * rank)


def test_supports_cpu_only():
    assert padnd_backend.supports_device("CPU")
    assert not padnd_backend.supports_device("CUDA")
    assert not padnd_backend.supports_device("NOPE")


def test_chained_nodes_initializers_and_skipped_input():
    """Two Pads chained by name; pads / axes from initializers; constant_value skipped with ""."""
    pads1 = onnx.numpy_helper.from_array(np.array([1, 0], np.int64), "p1")
    axes1 = onnx.numpy_helper.from_array(np.array([0], np.int64), "a1")
    value2 = onnx.numpy_helper.from_array(np.array(7, np.int64), "v2")
    nodes = [helper.make_node("Pad", ["x", "p1", "", "a1"], ["t"]),
             helper.make_node("Pad", ["t", "p2", "v2"], ["y"], mode="constant")]
    model = _model(nodes, [_vi("x", onnx.TensorProto.INT64, 2), _vi("p2", onnx.TensorProto.INT64)],
                   [_vi("y", onnx.TensorProto.INT64, 2)], 18, [pads1, axes1, value2])
    x = np.array([[1, 2, 3], [4, 5, 6]], np.int64)
    (y,) = padnd_backend.run_model(model, [x, np.array([0, 1, 0, 0], np.int64)])
    np.testing.assert_array_equal(y, [[7, 0, 0, 0], [7, 1, 2, 3], [7, 4, 5, 6]])


@pytest.mark.parametrize(("opset", "attr"), [(1, "paddings"), (2, "pads"), (10, "pads")])
def test_attribute_versions(opset, attr):
    """Pad-1 ``paddings`` / Pad-2 ``pads`` with the FLOAT ``value`` attribute (docs/spec.md §9 ex. 35,
    36): the version follows the model's opset_import."""
    node = helper.make_node("Pad", ["x"], ["y"], **{attr: [1, 0]}, value=0.1)
    model = _model([node], [_vi("x", onnx.TensorProto.FLOAT16)],
                   [_vi("y", onnx.TensorProto.FLOAT16)], opset)
    (y,) = padnd_backend.prepare(model).run([np.array([1, 2], np.float16)])
    np.testing.assert_array_equal(y, np.array([0.0999755859375, 1, 2], np.float16))


def test_pads_of_the_wrong_length_are_the_adapters_error():
    """The checker does not look at values; the adapter does (docs/spec.md §4.5 rule 5)."""
    pads = onnx.numpy_helper.from_array(np.array([1, 1, 0], np.int64), "pads")
    node = helper.make_node("Pad", ["x", "pads"], ["y"])
    model = _model([node], [_vi("x")], [_vi("y")], 13, [pads])
    with pytest.raises(ValueError, match="pads"):
        padnd_backend.run_model(model, [np.array([1, 2], np.float32)])


def test_run_node_opset_and_wrap():
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")
    x = np.array([1, 2, 3], np.float32)
    pads = np.array([1, 2], np.int64)
    (y,) = padnd_backend.run_node(node, [x, pads], opset_version=19)
    np.testing.assert_array_equal(y, [3, 1, 2, 3, 1, 2])
    with pytest.raises(ValueError, match="wrap"):
        padnd_backend.run_node(node, [x, pads], opset_version=18)


def test_int32_pads_from_the_model_are_rejected():
    node = helper.make_node("Pad", ["x", "pads"], ["y"])
    with pytest.raises(TypeError, match="int32"):
        padnd_backend.run_node(node, [np.zeros(2, np.float32), np.array([1, 1], np.int32)])


def test_other_ops_are_refused_by_name():
    nodes = [helper.make_node("Pad", ["x", "pads"], ["t"]),
             helper.make_node("Relu", ["t"], ["y"], name="act")]
    model = _model(nodes, [_vi("x"), _vi("pads", onnx.TensorProto.INT64)], [_vi("y")], 18)
    with pytest.raises(NotImplementedError, match="'act' is 'Relu'"):
        padnd_backend.prepare(model)
    assert not padnd_backend.is_compatible(model)


def test_packed_int4_initializer_model():
    """An int4 model (Pad-21): numpy_helper gives ml_dtypes int4, which padnd pads as packed
    ONNX int4 (docs/spec.md §9 ex. 37)."""
    node = helper.make_node("Pad", ["x", "pads"], ["y"])
    model = _model([node], [_vi("x", onnx.TensorProto.INT4), _vi("pads", onnx.TensorProto.INT64)],
                   [_vi("y", onnx.TensorProto.INT4)], 21)
    x = np.array([1, -2, 3]).astype(ml_dtypes.int4)
    (y,) = padnd_backend.run_model(model, [x, np.array([1, 0], np.int64)])
    assert y.dtype == x.dtype
    np.testing.assert_array_equal(y.astype(np.int8), [0, 1, -2, 3])
