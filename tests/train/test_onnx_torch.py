"""onnx_torch: the word reader's ONNX graph run in torch gives cv2.dnn's outputs, from
the input or from the backbone's output; trained values written back load in cv2.dnn
and change its outputs as they change torch's (needs torch and onnx)."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from boggle_cv.train.onnx_torch import OnnxModule  # noqa: E402
from boggle_cv.train.word_finetune import backbone_net  # noqa: E402

MODEL = Path(__file__).resolve().parents[2] / "models" / "word_reader.onnx"
#: the backbone's end, as word_model recorded it for the shipped reader
BOUNDARY = json.loads(MODEL.with_name("word_reader_charset.json").read_text(encoding="utf-8"))["boundary"]


def _blob(width=96, seed=0):
    rng = np.random.default_rng(seed)
    im = np.full((48, width, 3), 255, np.uint8)
    for _ in range(4):  # a few dark strokes
        x = int(rng.integers(4, width - 12))
        cv2.line(im, (x, 10), (x + 8, 38), (0, 0, 0), 3)
    return (im.transpose(2, 0, 1)[None].astype(np.float32) / 127.5 - 1.0)


def _cv2(path, blob):
    """(probs, features) of the model at ``path`` (OpenCV 5 returns all outputs at once)."""
    net = cv2.dnn.readNet(str(path))
    net.setInput(blob)
    return net.forward(["probs", "features"])


@pytest.fixture(scope="module")
def module():
    return OnnxModule(MODEL)


def test_torch_run_matches_cv2(module):
    blob = _blob()
    probs, feats = _cv2(MODEL, blob)
    with torch.no_grad():
        out = module(torch.from_numpy(blob), ["probs", "features"])
    np.testing.assert_allclose(out["probs"].numpy(), probs, atol=1e-4)
    np.testing.assert_allclose(out["features"].numpy(), feats, atol=1e-3)


def test_run_from_the_backbone_output(module):
    blob = _blob(seed=1)
    net = backbone_net(MODEL, BOUNDARY)
    net.setInput(blob)
    probs, _, mid = net.forward(["probs", "features", BOUNDARY])
    start = module.index_of(BOUNDARY) + 1
    with torch.no_grad():
        out = module(torch.from_numpy(mid), ["probs"], start=start, start_name=BOUNDARY)
    np.testing.assert_allclose(out["probs"].numpy(), probs, atol=1e-4)
    trained = module.freeze_before(start)
    assert 0 < trained < sum(p.numel() for p in module.params.values())
    module.freeze_before(0)


def test_write_back_changes_cv2_as_torch(module, tmp_path):
    blob = _blob(seed=2)
    bias = module.key["linear_8.b_0"]  # the last layer's bias (kept classes)
    old = module.params[bias].detach().clone()
    try:
        with torch.no_grad():
            module.params[bias][5] += 4.0
            want = module(torch.from_numpy(blob), ["probs"])["probs"].numpy()
        module.write_back(tmp_path / "m.onnx")
    finally:
        with torch.no_grad():
            module.params[bias].copy_(old)
    got = _cv2(tmp_path / "m.onnx", blob)[0]
    np.testing.assert_allclose(got, want, atol=1e-4)
    assert not np.allclose(got, _cv2(MODEL, blob)[0], atol=1e-3)
