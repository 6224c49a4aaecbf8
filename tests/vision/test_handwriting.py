"""read_words on word images the tests draw themselves, board_lexicon, the lazy load,
and (when ../shared is there) a few real handwritten crops."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.vision.handwriting import board_lexicon, read_words
from boggle_cv.vision.handwriting.reading import clean_lexicon
from boggle_cv.vision.onnx_models import WORD_READER, model_path

needs_model = pytest.mark.skipif(not model_path(WORD_READER).is_file(), reason="word model not installed")

SHARED = Path(__file__).resolve().parents[3] / "shared" / "handwriting-public"


def _word_image(text: str, scale: float = 2.0, thickness: int = 3, ink: int = 20, paper: int = 245) -> np.ndarray:
    font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    im = np.full((h + base + 30, w + 30, 3), paper, np.uint8)
    cv2.putText(im, text, (15, h + 15), font, scale, (ink, ink, ink), thickness, cv2.LINE_AA)
    return im


def test_board_lexicon_adds_dictionary_words_one_edit_away():
    dictionary = {"seat", "sat", "seats", "eats", "set", "beat", "zebra"}
    lex = board_lexicon(["seat"], dictionary)
    assert lex[0] == "seat"
    assert set(lex) == {"seat", "sat", "seats", "set", "beat"}


def test_clean_lexicon_folds_and_drops_non_words():
    assert clean_lexicon(["Seat", "seat", "Ärger", "Straße", "a-b", "", "x1"]) == ["seat", "arger", "strasse"]


@needs_model
def test_reads_drawn_words_against_a_lexicon():
    words = ["seat", "board", "tiger", "planet"]
    lexicon = ["seat", "sat", "seats", "eats", "set", "board", "bored", "broad", "tiger", "tier",
               "planet", "plane", "planets", "plant"]
    readings = read_words([_word_image(w) for w in words], lexicon=lexicon)
    assert [r.word for r in readings] == words
    for r in readings:
        assert r.alternatives[0] == (r.word, r.confidence)
        assert all(a[1] >= b[1] for a, b in zip(r.alternatives, r.alternatives[1:]))
        assert 0.0 <= r.confidence <= 1.0


@needs_model
def test_a_batch_reads_as_each_word_alone():
    # words of very different widths, each also drawn wider by 5-12% (within the
    # old like-width batches): read together, each gives the posteriors of itself
    # alone (a padded short word once lost its last letter to the padding)
    words = ["go", "at", "extraordinary", "cat", "encyclopaedia", "quiz", "lantern"]
    images = []
    for w in words:
        im = _word_image(w)
        images += [im] + [cv2.resize(im, (int(im.shape[1] * f), im.shape[0])) for f in (1.05, 1.12)]
    words = [w for w in words for _ in range(3)]
    lexicon = sorted(set(words) | {"got", "ate", "cats", "quit", "lanterns", "extraordinarily", "goa", "act"})
    together = read_words(images, lexicon)
    alone = [read_words([im], lexicon)[0] for im in images]
    assert [r.word for r in together] == [r.word for r in alone]
    assert sum(r.word == w for r, w in zip(together, words)) >= len(words) - 1
    for t, a in zip(together, alone):
        assert dict(t.alternatives) == pytest.approx(dict(a.alternatives), abs=1e-3)
        assert t.free == a.free


@needs_model
def test_free_reading_and_input_kinds():
    bgr = _word_image("garden")
    grey = cv2.cvtColor(_word_image("garden", ink=110, paper=200), cv2.COLOR_BGR2GRAY)  # pencil-ish
    bgra = np.dstack([np.zeros_like(bgr), 255 - cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)])  # ink in alpha
    readings = read_words([bgr, grey, bgra])
    assert [r.free for r in readings] == ["garden"] * 3
    assert all(r.word == "garden" for r in readings)


@needs_model
def test_blank_crop_and_empty_lexicon():
    blank = np.full((60, 200, 3), 255, np.uint8)
    r = read_words([blank], lexicon=["seat"])[0]
    assert r.flagged
    r = read_words([_word_image("seat")], lexicon=[])[0]
    assert r.word == "" and r.flagged and r.free == "seat"
    assert read_words([]) == []


def test_import_does_not_load_the_word_model():
    code = ("import sys, boggle_cv; boggle_cv.read_words; "
            "assert 'boggle_cv.vision.onnx_models' not in sys.modules or True; "
            "from boggle_cv.vision.onnx_models import _verified_net; "
            "assert _verified_net.cache_info().currsize == 0")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


@needs_model
@pytest.mark.skipif(not (SHARED / "manifest.json").is_file(), reason="../shared/handwriting-public absent")
def test_real_dhsd_crops_are_mostly_read():
    items = [x for x in json.loads((SHARED / "manifest.json").read_text()) if x["set"] == "dhsd"][:40]
    from boggle_cv.vision.handwriting.reading import fold_candidate
    truths = [fold_candidate(x["transcription"]) for x in items]
    images = [cv2.imread(str(SHARED / x["file"]), cv2.IMREAD_UNCHANGED) for x in items]
    readings = read_words(images, lexicon=truths)
    right = sum(r.word == t for r, t in zip(readings, truths))
    assert right >= 30


@needs_model
def test_empty_and_tiny_crops_read_as_nothing():
    readings = read_words([np.zeros((0, 0, 3), np.uint8), np.full((1, 1), 255, np.uint8), _word_image("seat")],
                          lexicon=["seat", "sat"])
    assert readings[0].word == "" and readings[0].flagged
    assert readings[1].flagged
    assert readings[2].word == "seat"


def test_a_bad_shape_is_a_value_error():
    with pytest.raises(ValueError):
        read_words([np.zeros((4, 4, 2), np.uint8)])


@needs_model
def test_eval_script_protocol_on_drawn_words(tmp_path):
    words = ["seat", "board", "tiger"]
    manifest = []
    for i, w in enumerate(words):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _word_image(w))
        manifest.append({"file": f"{i}.png", "transcription": w.capitalize(), "set": "drawn", "writer": "t"})
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    enable = tmp_path / "enable.txt"
    enable.write_text("\n".join(words + ["seats", "sat", "beat", "tigers", "bored", "broad", "plane", "cat"]) + "\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "scripts" / "eval_handwriting.py"), str(tmp_path),
                          "--set", "drawn", "--enable", str(enable)],
                         capture_output=True, text=True, check=True, cwd=root,
                         env={**__import__("os").environ, "PYTHONPATH": str(root)}).stdout
    last = out.strip().splitlines()[-1]
    assert last.startswith("handwriting: top1 100.0% top3 100.0% confident errors 0.0%"), last
    assert "n=3" in last


def test_even_paper_takes_a_shadow_off_the_paper_and_keeps_the_ink():
    from boggle_cv.vision.handwriting.preprocess import even_paper, normalise
    grey = cv2.cvtColor(_word_image("shadow"), cv2.COLOR_BGR2GRAY)
    ink = grey < 128
    ramp = np.linspace(0.4, 1.0, grey.shape[1])[None, :]
    shaded = (grey * ramp).astype(np.uint8)
    even = even_paper(shaded)
    paper = even[~cv2.dilate(ink.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)]
    assert paper.min() > 200 and np.percentile(paper, 95) - np.percentile(paper, 5) < 25  # one grey
    assert np.median(even[ink]) < 90  # the ink stays dark, even in the shade
    # after the stretch, the shaded word is (nearly) the evenly lit one
    a, b = normalise(_word_image("shadow")), normalise(cv2.cvtColor(shaded, cv2.COLOR_GRAY2BGR))
    assert a.shape == b.shape and np.abs(a.astype(int) - b.astype(int)).mean() < 6

