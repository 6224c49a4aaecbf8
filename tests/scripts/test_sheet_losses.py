"""scripts/sheet_losses.py: each true word of a composed sheet given one cause."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from sheet_losses import align, attribute, table  # noqa: E402


def box(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def read(word, b, flagged=False, crossed=False, free=None):
    return SimpleNamespace(word=word, box=b, flagged=flagged, crossed_out=crossed, free=free or word)


TRUTH = ["seat", "tears", "stare", "least", "steal", "slate", "tale"]
QUADS = [box(100, 100 + 60 * k, 300, 140 + 60 * k) for k in range(len(TRUTH))]


def test_each_cause_from_the_boxes():
    reads = [
        read("seat", box(98, 98, 302, 142)),                          # right
        read("tears", box(100, 160, 300, 200), crossed=True),         # false strike
        read("stars", box(100, 220, 300, 260)),                       # misread (whole box)
        read("le", box(100, 280, 170, 320)), read("ast", box(190, 280, 300, 320), flagged=True),  # split
        read("steals", box(100, 340, 300, 440)),                      # merged (two lines)
        read("x", box(900, 900, 950, 930), flagged=True),             # a fragment off the words
    ]                                                                 # "tale": missed
    out = attribute(TRUTH, QUADS, reads)
    assert out.words == ["right", "false strike", "misread", "split", "merged", "merged", "missed"]
    assert sorted(out.extras) == [("fragment", True), ("split piece", False)]
    text = table({"dhsd": out})
    assert "split" in text and "1 (0 unfl.)" in text


def test_a_box_holding_part_of_the_word_is_cut():
    out = attribute(["seat"], [box(100, 100, 300, 140)], [read("sea", box(100, 100, 200, 140))])
    assert out.words == ["cut"]


def test_the_same_causes_from_the_text_alone():
    reads = [read("zz", None, flagged=True), read("seat", None), read("tears", None, crossed=True),
             read("stars", None), read("le", None), read("ast", None), read("steaslate", None, free="stealslate")]
    out = align(TRUTH, reads)
    assert out.words == ["right", "false strike", "misread", "split", "merged", "merged", "missed"]
    assert ("fragment", True) in out.extras and ("split piece", False) in out.extras


def test_a_struck_word_is_right_crossed_out_and_a_loss_read_as_a_word():
    quads = [box(100, 100, 300, 140), box(100, 160, 300, 200)]
    reads = [read("seat", quads[0], crossed=True), read("tears", quads[1])]
    out = attribute(["seat", "tears"], quads, reads, struck=[True, True])
    assert out.words == ["right", "strike missed"]
