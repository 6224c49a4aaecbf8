"""The synthetic renderer: determinism, truth consistency, negatives, the CLI."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

pytest.importorskip("PIL")

from boggle_cv.game.board import ALL_FACES
from boggle_cv.errors import UsageError
from boggle_cv.synth import NEGATIVE_KINDS, render_photo, set_names, write_dataset
from boggle_cv.synth.cubesets import cubes_of, roll

SMALL = 480


def _render(seed, **kw):
    kw.setdefault("long_side", SMALL)
    return render_photo(np.random.default_rng(seed), **kw)


def test_same_seed_same_pixels_and_truth():
    a, ta = _render(11, size=5)
    b, tb = _render(11, size=5)
    assert np.array_equal(a, b)
    assert ta == tb
    c, _ = _render(12, size=5)
    assert a.shape != c.shape or not np.array_equal(a, c)


@pytest.mark.parametrize("seed,size", [(1, 4), (2, 5), (3, 6), (4, 4), (5, 6)])
def test_truth_is_consistent(seed, size):
    img, t = _render(seed, size=size, kind="tray")
    h, w = img.shape[:2]
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert t["image_size"] == [w, h] and max(w, h) == SMALL
    assert t["size"] == size and t["no_board"] is None
    assert len(t["faces"]) == size and all(len(r) == size for r in t["faces"])
    assert all(f in ALL_FACES for r in t["faces"] for f in r)
    assert all(v in (0, 90, 180, 270) for r in t["turns"] for v in r)
    # the frame is chosen so that most letters read upright
    turns = [v for r in t["turns"] for v in r]
    assert turns.count(0) == max(turns.count(a) for a in (0, 90, 180, 270))
    # each cube centre is inside the frame and inside its own cell of the grid
    corners = np.array(t["corners"], np.float32)
    unit = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    H = cv2.getPerspectiveTransform(corners, unit)
    for r in range(size):
        for c in range(size):
            x, y = t["centres"][r][c]
            assert 0 <= x < w and 0 <= y < h
            u, v = cv2.perspectiveTransform(np.array([[[x, y]]], np.float32), H)[0, 0]
            assert c < u < c + 1 and r < v < r + 1, (r, c, u, v)


def test_faces_come_from_the_set():
    for seed in range(3):
        _, t = _render(seed, set_name="modern-4", kind="tray")
        assert t["set"] == "modern-4"
        letters = sorted(f for r in t["faces"] for f in r)
        # a matching exists cube by cube; a cheap necessary check: Qu at most once
        assert letters.count("Qu") <= 1


@pytest.mark.parametrize("kind", NEGATIVE_KINDS)
def test_negatives_are_labelled(kind):
    _, t = _render(7, kind=kind)
    assert t["no_board"] == kind and t["faces"] is None and t["kind"] == kind


def test_pocket_letters_upright():
    _, t = _render(3, set_name="pocket")
    assert t["kind"] == "pocket" and t["size"] == 4
    assert all(v == 0 for r in t["turns"] for v in r)


def test_roll_uses_every_cube_once():
    cubes, ch = roll(np.random.default_rng(0), "big-1979")
    assert len(cubes) == 25 and ch is None
    for name in set_names():
        assert len(cubes_of(name)) in (16, 25, 36)


def test_bad_arguments():
    with pytest.raises(UsageError):
        _render(0, size=7)
    with pytest.raises(UsageError):
        _render(0, set_name="super-big-6", size=4)


def test_write_dataset_same_seed_same_bytes(tmp_path):
    a = write_dataset(tmp_path / "a", 3, seed=5, long_side=SMALL)
    b = write_dataset(tmp_path / "b", 3, seed=5, long_side=SMALL)
    assert a == b
    for p in a["photos"]:
        assert (tmp_path / "a" / p["file"]).read_bytes() == (tmp_path / "b" / p["file"]).read_bytes()


def test_samples_have_truth_and_word_lists():
    from pathlib import Path
    samples = Path(__file__).resolve().parents[2] / "samples"
    doc = json.loads((samples / "truth.json").read_text())
    assert {p["size"] for p in doc["photos"]} == {4, 5, 6}
    for p in doc["photos"]:
        img = cv2.imread(str(samples / p["file"]))
        assert img is not None and list(img.shape[1::-1]) == p["image_size"]
        assert len(p["faces"]) == p["size"] and len(p["corners"]) == 4
        assert len(p["players"]) >= 2
        for name in p["players"]:
            words = (samples / name).read_text().split()
            assert words and all(w.isalpha() and w.islower() for w in words)
