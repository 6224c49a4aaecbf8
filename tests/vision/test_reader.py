"""The shipped classifier: hash check, output shapes, turn convention, accuracy guards."""
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.errors import EngineMissingError, UsageError
from boggle_cv.vision.cells import cut_cells
from boggle_cv.vision.engines import make_reader
from boggle_cv.vision.reader import ClassifierReader, default_model_path
from boggle_cv.vision.reader_model import FACES

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


@pytest.fixture(scope="module")
def reader():
    return ClassifierReader()


def _synth(n, seed=123):
    crops = pytest.importorskip("boggle_cv.train.crops")
    return crops.CropRenderer(seed).batch(n)


def test_missing_model(tmp_path):
    with pytest.raises(EngineMissingError) as e:
        ClassifierReader(tmp_path / "nope.onnx")
    assert e.value.exit_code == 3


def test_corrupt_model_is_refused(tmp_path):
    src = default_model_path()
    dst = tmp_path / "reader.onnx"
    data = bytearray(src.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dst.write_bytes(bytes(data))
    shutil.copy(src.with_name(src.name + ".sha256"), tmp_path / "reader.onnx.sha256")
    with pytest.raises(EngineMissingError, match="corrupt"):
        ClassifierReader(dst)


def test_missing_hash_is_refused(tmp_path):
    shutil.copy(default_model_path(), tmp_path / "reader.onnx")
    with pytest.raises(EngineMissingError, match="hash"):
        ClassifierReader(tmp_path / "reader.onnx")


def test_unknown_engine():
    with pytest.raises(UsageError):
        make_reader("magic")


def test_bad_crops(reader):
    with pytest.raises(UsageError):
        reader.read(np.zeros((2, 64, 64), np.uint8))


def test_shapes_and_probabilities(reader):
    x, _, _ = _synth(8)
    rd = reader.read(x)
    assert rd.faces.shape == (8, len(FACES)) and rd.turns.shape == (8, 4)
    assert np.allclose(rd.faces.sum(1), 1, atol=1e-4) and np.allclose(rd.turns.sum(1), 1, atol=1e-4)


def test_synthetic_faces_and_turns(reader):
    x, f, t = _synth(160, seed=4242)
    rd = reader.read(x)
    # the renderer also draws hard cases (serif I, rings, red cubes, heavy blur)
    assert (rd.faces.argmax(1) == f).mean() >= 0.80
    # turn is only defined for faces that look different when turned
    symmetric = [FACES.index(c) for c in "HINOSXZ#"]
    keep = ~np.isin(f, symmetric)
    assert (rd.turns.argmax(1)[keep] == t[keep]).mean() >= 0.80


def test_turn_convention_follows_rotation(reader):
    x, f, t = _synth(40, seed=77)
    keep = ~np.isin(f, [FACES.index(c) for c in "HINOSXZ#"])
    base = reader.read(x).turns.argmax(1)
    # rotating each crop a quarter turn counter-clockwise takes its turn from t to t - 1
    rot = reader.read(np.ascontiguousarray(np.rot90(x, 1, axes=(1, 2)))).turns.argmax(1)
    assert ((base - 1) % 4 == rot)[keep].mean() >= 0.9


def test_no_tta_matches_tta_mostly(reader):
    x, f, _ = _synth(60, seed=5)
    a = reader.read(x).faces.argmax(1)
    b = ClassifierReader(tta=False).read(x).faces.argmax(1)
    assert (a == b).mean() >= 0.8


@pytest.mark.skipif(not (SHARED / "real-photos" / "truth.json").exists(), reason="../shared absent")
def test_real_photo_cells_from_truth_corners(reader):
    """A guard, not the evaluation (scripts/eval_cells.py): the upright-edit photo reads well."""
    d = json.loads((SHARED / "real-photos" / "truth.json").read_text())["photos"]
    p = next(p for p in d if p["file"] == "boogle-4x4-navy-upright-edit.jpg")
    img = cv2.imread(str(SHARED / "real-photos" / p["file"]))
    crops = cut_cells(img, np.array(p["corners"]), 4, 64).reshape(-1, 64, 64, 3)
    rd = reader.read(crops)
    truth = [f for row in p["faces"] for f in row]
    got = [FACES[i] for i in rd.faces.argmax(1)]
    assert sum(a == b for a, b in zip(got, truth)) >= 15
    # every face on that photo is upright; faces that look the same after a half
    # turn (S, I, H, N, O, X, Z) carry no turn evidence, so they are not counted
    same_half_turned = {"S", "I", "H", "N", "O", "X", "Z"}
    keep = np.array([f not in same_half_turned for f in truth])
    assert (rd.turns.argmax(1)[keep] == 0).mean() >= 0.9
