"""The training command end to end on a tiny recipe: it writes a reader that
cv2.dnn loads, its hash, and metrics that record the recipe (needs torch and onnx)."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("PIL")

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


@pytest.mark.skipif(not (SHARED / "boggle-boards" / "truth.json").exists(), reason="needs ../shared/boggle-boards")
def test_tiny_training_run_exports_a_loadable_reader(tmp_path):
    width = 16  # not the default: the flag must reach the network
    import cv2
    from boggle_cv.train.__main__ import main
    from boggle_cv.vision.reader_model import FACES

    rc = main(["--boards", str(SHARED / "boggle-boards"), "--out", str(tmp_path), "--seed", "3",
               "--n-synth", "256", "--scene-photos", "2", "--steps", "3", "--batch", "32",
               "--width", str(width), "--real-copies", "1"])
    assert rc == 0
    onnx_path = tmp_path / "reader.onnx"
    digest = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    assert (tmp_path / "reader.onnx.sha256").read_text().split()[0] == digest
    metrics = json.loads((tmp_path / "reader_metrics.json").read_text())
    assert metrics["steps"] == 3 and metrics["args"]["width"] == str(width)
    assert metrics["cv2_vs_torch_max_logit_diff"] < 1e-3
    net = cv2.dnn.readNetFromONNX(str(onnx_path))
    net.setInput(np.zeros((5, 1, 48, 48), np.float32))
    assert net.forward().shape == (5, len(FACES) + 4)
