"""Synthetic writers (train/font_hands.py): seeded styles, the crops they write, their
labels and the contact sheet, with Pillow's built-in face in a fake cache; the tests
on really fetched faces skip when none are cached (training-time download)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.train import font_fetch, font_hands, word_renders


@pytest.fixture
def cache(tmp_path) -> Path:
    """A fetched-faces cache holding Pillow's built-in face (a-z, A-Z) as two writers."""
    from PIL import ImageFont
    face = tmp_path / "packages" / "builtin" / "files" / "builtin-latin-400-normal.ttf"
    face.parent.mkdir(parents=True)
    face.write_bytes(ImageFont.load_default(20).font_bytes)
    faces = [{"family": "builtin", "package": "@fontsource/builtin", "version": "0", "licence": "OFL-1.1",
              "kind": kind, "weight": w, "file": str(face.relative_to(tmp_path))}
             for kind, w in (("print", 400), ("script", 700))]
    (tmp_path / "manifest.json").write_text(json.dumps({"faces": faces, "dropped": {}}))
    return tmp_path


@pytest.fixture
def english_only(monkeypatch):
    monkeypatch.setattr(word_renders, "word_pool", lambda rng: (["hello", "board", "quiz", "Tree"], []))


def test_styles_are_seeded():
    a = font_hands.style(np.random.default_rng(3))
    assert a == font_hands.style(np.random.default_rng(3))
    assert a != font_hands.style(np.random.default_rng(4))
    script = font_hands.style(np.random.default_rng(3), "script")
    assert script.tracking == 0.0 and script.connect == 0.0
    assert 40 <= a.size <= 64 and 0 < a.pen < 0.1 and 0 <= a.capital <= 1 and 0 <= a.upper <= 1


def test_a_writer_keeps_its_style_whatever_else_is_fetched(cache):
    faces = font_fetch.load_faces(cache)
    both = font_hands.writers(faces, seed=1)
    alone = font_hands.writers(faces[:1], seed=1)
    assert both[0].style == alone[0].style
    assert both[0].style != both[1].style
    assert len(font_hands.writers(faces, seed=1, per_face=3)) == 6
    assert font_hands.writers(faces, seed=1) == font_hands.writers(faces, seed=1)


@pytest.mark.parametrize("binarised", [False, True])
def test_a_written_word_is_ink_on_paper(cache, binarised):
    face = font_fetch.load_faces(cache)[0]["path"]
    s = replace(font_hands.style(np.random.default_rng(0)), binarised=binarised, darkness=0.9, pressure=0.1)
    im = font_hands.write("Hello", face, s, np.random.default_rng(1))
    assert im.dtype == np.uint8 and im.ndim == 3 and im.shape[2] == 3
    h, w = im.shape[:2]
    assert 0.5 * s.size < h < 2.5 * s.size and w > 2 * h  # a word, not a letter
    grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
    assert grey.min() < 120 < np.median(grey)  # dark ink, light paper around it
    if binarised:
        assert set(np.unique(grey)) <= {0, 255}
    again = font_hands.write("Hello", face, s, np.random.default_rng(1))
    assert np.array_equal(im, again)


def test_the_pen_sets_the_stroke_width(cache):
    face = font_fetch.load_faces(cache)[0]["path"]
    base = replace(font_hands.style(np.random.default_rng(0)), binarised=True, breaks=0.0, pen_var=0.0)
    ink = [int((font_hands.write("minimum", face, replace(base, pen=p), np.random.default_rng(2)) < 128).sum())
           for p in (0.025, 0.06)]
    assert ink[1] > 1.5 * ink[0]


def test_case_habits():
    rng = np.random.default_rng(0)
    s = font_hands.style(rng)
    assert font_hands.cased("straße", False, replace(s, upper=1.0), rng) == "STRASSE"
    assert font_hands.cased("GRÖSSE", True, replace(s, upper=0.0), rng) == "Grösse"
    assert font_hands.cased("Board", False, replace(s, upper=0.0, capital=0.0), rng) == "board"
    assert font_hands.cased("board", False, replace(s, upper=0.0, capital=1.0), rng) == "Board"


def test_renders_are_seeded_with_folded_labels(cache, english_only):
    got = font_hands.renders(10, seed=5, cache=cache)
    assert len(got) == 10
    assert {label for _, label in got} <= {"hello", "board", "quiz", "tree"}
    for im, _ in got:
        assert im.dtype == np.uint8 and im.ndim == 3 and im.shape[2] == 3 and im.shape[1] > im.shape[0] // 2
    again = font_hands.renders(10, seed=5, cache=cache)
    assert [w for _, w in got] == [w for _, w in again]
    assert all(np.array_equal(x, y) for (x, _), (y, _) in zip(got, again))


def test_german_labels_are_folded(cache, monkeypatch):
    monkeypatch.setattr(word_renders, "word_pool", lambda rng: (["x"], ["Größe", "Straße", "Café"]))
    got = font_hands.renders(8, seed=2, cache=cache, german_share=1.0)
    assert {label for _, label in got} == {"grosse", "strasse"}  # é is no letter the faces must draw


def test_contact_sheet(cache, english_only, tmp_path):
    real = tmp_path / "real"
    (real / "w").mkdir(parents=True)
    entries = []
    for k, (kind, shape) in enumerate([("dhsd", (64, 256, 4)), ("dhsd", (64, 256, 4)),
                                       ("jeremy-words", (90, 200)), ("jeremy-words", (90, 200))]):
        im = np.full(shape, 255, np.uint8)
        cv2.putText(im, "ab", (20, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 0, 255) if len(shape) == 3 else 0, 4)
        cv2.imwrite(str(real / "w" / f"{k}.png"), im)
        entries.append({"file": f"w/{k}.png", "transcription": "ab", "set": kind})
    (real / "manifest.json").write_text(json.dumps(entries))
    out = font_hands.contact_sheet(cache, real, tmp_path / "sheet.png", n=4, seed=0)
    sheet = cv2.imread(str(out))
    assert out == tmp_path / "sheet.png"
    assert sheet.shape[0] == 4 * (48 + 6) + 6 and sheet.shape[1] > 600
    left, right = sheet[6:54, 105:400], sheet[6:54, sheet.shape[1] // 2 + 110:]
    assert left.min() < 100 and right.min() < 100  # a synthetic word and a real one on the first row


FETCHED = font_fetch.DEFAULT_CACHE / "manifest.json"


@pytest.mark.skipif(not FETCHED.is_file(),
                    reason="no handwriting faces fetched (python -m boggle_cv.train.font_hands fetch)")
def test_fetched_faces_write_words():
    got = font_hands.renders(12, seed=3)
    assert len(got) == 12
    for im, label in got:
        assert im.dtype == np.uint8 and im.ndim == 3 and im.shape[2] == 3
        grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
        assert grey.min() < 170 and np.median(grey) - grey.min() > 50  # pencil may be light, but is ink
        assert label.isascii() and label.isalpha() and label == label.lower()
    for f in font_fetch.load_faces():
        assert f["licence"] in font_fetch.KEPT_LICENCES
