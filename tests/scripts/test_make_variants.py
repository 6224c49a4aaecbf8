"""scripts/make_variants.py: variants of labelled photos with their corners moved."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory) -> Path:
    """Two drawn photos with a truth.json (faces and corners)."""
    d = tmp_path_factory.mktemp("src")
    photos = []
    for i in range(2):
        img = np.full((300, 400, 3), 90, np.uint8)
        cv2.rectangle(img, (100, 50), (300, 250), (235, 235, 235), -1)
        cv2.imwrite(str(d / f"p{i}.jpg"), img)
        photos.append({"file": f"p{i}.jpg", "size": 4, "faces": [["A"] * 4] * 4,
                       "corners": [[100, 50], [300, 50], [300, 250], [100, 250]]})
    (d / "truth.json").write_text(json.dumps({"photos": photos}))
    return d


@pytest.mark.parametrize("harsh,names", [
    (False, ("rot90", "rot_free", "tilt", "small", "dim", "warm")),
    (True, ("turn_crop", "steep", "tiny", "half", "blur", "night")),
])
def test_variants_are_written_with_moved_corners(labelled, tmp_path, harsh, names):
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "scripts" / "make_variants.py"), str(labelled), str(out)]
    subprocess.run(cmd + (["--harsh"] if harsh else []), check=True, capture_output=True)
    truth = {p["file"]: p for p in json.loads((out / "truth.json").read_text())["photos"]}
    assert len(truth) == 2 * len(names)
    for name in names:
        p = truth[f"p0_{name}.jpg"]
        img = cv2.imread(str(out / p["file"]))
        assert img is not None and p["faces"] == [["A"] * 4] * 4
        c = np.array(p["corners"])
        assert c.shape == (4, 2)
        if name in ("tiny", "small"):
            s = (320 if name == "tiny" else 480) / 400
            assert max(img.shape[:2]) == (320 if name == "tiny" else 480)
            np.testing.assert_allclose(c, np.array([[100, 50], [300, 50], [300, 250], [100, 250]]) * s,
                                       atol=0.1)
        if name == "half":
            assert img.shape[:2] == (150, 200)
            np.testing.assert_allclose(c, np.array([[100, 50], [300, 50], [300, 250], [100, 250]]) * 0.5,
                                       atol=0.1)
        if name in ("blur", "night", "dim", "warm"):
            assert img.shape[:2] == (300, 400)
            np.testing.assert_allclose(c, [[100, 50], [300, 50], [300, 250], [100, 250]])
    if harsh:
        turned = cv2.imread(str(out / "p0_turn_crop.jpg"))
        assert turned.shape[:2] == (300, 400)  # same canvas: the photo's corners are lost


def test_variants_refuse_to_write_inside_the_project(labelled):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_variants.py"), str(labelled),
                        str(ROOT / "variants_here")], capture_output=True, text=True)
    assert r.returncode != 0 and "outside the project" in r.stderr
    assert not (ROOT / "variants_here").exists()


def _composed(tmp_path) -> tuple[Path, dict]:
    """Two drawn sheet photos (1500 x 1200) and their truth.json {file: {set, words}}."""
    src = tmp_path / "sheets"
    src.mkdir()
    truth = {}
    for i in range(2):
        img = np.full((1500, 1200, 3), 60, np.uint8)
        cv2.rectangle(img, (240, 180), (960, 1320), (240, 240, 240), -1)
        cv2.putText(img, "seat", (110, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 30), 3)
        cv2.imwrite(str(src / f"sheet-{i:03d}.jpg"), img)
        truth[f"sheet-{i:03d}.jpg"] = {"set": "jeremy-words", "words": ["seat"]}
    (src / "truth.json").write_text(json.dumps(truth))
    return src, truth


def test_sheet_variants_each_in_a_folder_with_its_truth(tmp_path):
    """--sheets: composed-sheet photos (truth.json {file: {set, words}}) -> one folder per
    variant, each with every sheet and the same truth, ready for eval_sheets.py."""
    src, truth = _composed(tmp_path)
    out = tmp_path / "out"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_variants.py"), str(src), str(out), "--sheets"],
                   check=True, capture_output=True)
    names = {"rot90", "rot180", "rot_free", "tilt", "small", "dim", "warm", "blur", "shadow"}
    assert {p.name for p in out.iterdir()} == names
    for name in names:
        assert json.loads((out / name / "truth.json").read_text()) == truth
        img = cv2.imread(str(out / name / "sheet-000.jpg"))
        assert img is not None
        if name == "small":
            assert img.shape[:2] == (1200, 960)
        if name == "rot90":
            assert img.shape[:2] == (1200, 1500)
        if name in ("rot180", "dim", "warm", "blur", "shadow"):
            assert img.shape[:2] == (1500, 1200)
    upside = cv2.imread(str(out / "rot180" / "sheet-000.jpg"), cv2.IMREAD_GRAYSCALE)
    first = cv2.imread(str(src / "sheet-000.jpg"), cv2.IMREAD_GRAYSCALE)
    assert np.abs(upside.astype(int) - first[::-1, ::-1].astype(int)).mean() < 4


def test_harsh_sheet_variants(tmp_path):
    """--sheets --harsh: steeper, further, JPEG 15, night, overexposed; each photo the
    source's size, each folder with the same truth."""
    src, truth = _composed(tmp_path)
    out = tmp_path / "out"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_variants.py"), str(src), str(out), "--sheets",
                    "--harsh"], check=True, capture_output=True)
    names = {"steep", "far", "jpeg", "night", "bright"}
    assert {p.name for p in out.iterdir()} == names
    first = cv2.imread(str(src / "sheet-000.jpg"), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    grey = {}
    for name in names:
        assert json.loads((out / name / "truth.json").read_text()) == truth
        grey[name] = cv2.imread(str(out / name / "sheet-000.jpg"), cv2.IMREAD_GRAYSCALE).astype(np.float32)
        assert grey[name].shape == (1500, 1200)
    paper = (slice(600, 900), slice(400, 800))
    assert grey["night"][paper].mean() < 0.7 * first[paper].mean() and grey["night"][paper].std() > 3
    assert grey["bright"][paper].mean() >= 250  # the paper washed out to white
    assert (grey["far"] > 200).mean() < 0.6 * (first > 200).mean()  # the sheet smaller in the frame
    assert np.abs(grey["jpeg"] - first).mean() < 6


def test_variants_refuse_to_write_into_the_project(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_variants.py"), str(tmp_path), str(ROOT / "x"),
                        "--sheets"], capture_output=True, text=True)
    assert r.returncode != 0 and "outside the project" in r.stderr
