"""train.word_model: the recogniser's last layer found and its weights moved into
Constant nodes, on a small graph built like PP-OCR's tail (needs onnx)."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from boggle_cv.train.word_model import backbone_end, constants_from_initializers, last_layer, letter_of  # noqa: E402


def _graph():
    """x (1, 4, 1, 6) -> AveragePool -> Squeeze -> Transpose (features, T x 4) -> MatMul
    (4 x 5 classes) -> Add -> Identity -> Softmax; the weights as initializers."""
    w = numpy_helper.from_array(np.arange(20, dtype=np.float32).reshape(4, 5), "linear.w")
    b = numpy_helper.from_array(np.ones(5, np.float32), "linear.b")
    axes = numpy_helper.from_array(np.array([2], np.int64), "axes")
    nodes = [
        helper.make_node("AveragePool", ["x"], ["pooled"], kernel_shape=[1, 1], name="AveragePool.0"),
        helper.make_node("Squeeze", ["pooled", "axes"], ["squeezed"], name="Squeeze.0"),
        helper.make_node("Transpose", ["squeezed"], ["feats"], perm=[0, 2, 1], name="Transpose.8"),
        helper.make_node("MatMul", ["feats", "linear.w"], ["mm"], name="MatMul.0"),
        helper.make_node("Add", ["mm", "linear.b"], ["logits"], name="Add.0"),
        helper.make_node("Identity", ["logits"], ["logits2"], name="Identity.0"),
        helper.make_node("Softmax", ["logits2"], ["out"], axis=2, name="Softmax.0"),
    ]
    g = helper.make_graph(nodes, "tail", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 1, 6])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 6, 5])], [w, b, axes])
    return helper.make_model(g).graph


def test_initializers_become_constants_and_the_last_layer_is_found():
    g = _graph()
    assert constants_from_initializers(g) == 3
    assert not g.initializer and [n.op_type for n in g.node[:3]] == ["Constant"] * 3
    consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == "Constant"}
    np.testing.assert_array_equal(consts["linear.w"], np.arange(20).reshape(4, 5))
    soft, matmul, w_name, b_name, feats = last_layer(g)
    assert (soft.name, matmul.name, w_name, b_name, feats) == ("Softmax.0", "MatMul.0", "linear.w", "linear.b", "feats")
    assert backbone_end(g) == "pooled"


def test_characters_fold_to_letters():
    assert [letter_of(c) for c in ("A", "ä", "ß", "р", "1", "ab")] == ["a", "a", "", "p", "", ""]
