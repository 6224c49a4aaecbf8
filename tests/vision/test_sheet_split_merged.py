"""read._split_merged: a box holding two words of one line (its lexicon reading far
from the network's free reading, which runs the two words together) is cut at its
widest blank gap when each piece is then read as written; a gap inside one word, or
pieces that do not read as written, leave the box whole."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from boggle_cv.vision.sheet import read
from boggle_cv.vision.sheet.ink import Ink
from boggle_cv.vision.sheet.layout import WordBox


def _page(gap: int) -> tuple[np.ndarray, Ink, WordBox]:
    """A 100 x 420 page with ink at rows 30-69 and columns 20-149 and 150+gap to 290."""
    mask = np.zeros((100, 420), np.uint8)
    mask[30:70, 20:150] = 255
    mask[30:70, 150 + gap:290] = 255
    flat = np.full((100, 420, 3), 255, np.uint8)
    flat[mask > 0] = 0
    ink = Ink(mask, np.zeros_like(mask), np.zeros(mask.shape, np.float32), 30.0)
    return flat, ink, WordBox(20, 30, 290, 70, line=3)


def _reading(word: str, free: str) -> SimpleNamespace:
    return SimpleNamespace(word=word, confidence=0.6, alternatives=((word, 0.6),), flagged=True, free=free)


def _reader(pieces: dict[int, SimpleNamespace]):
    """A stub word reader: the crops come as (left, right) pairs; a left piece reads
    pieces[0], a right one pieces[1]; records the widths it was given."""
    seen: list[int] = []

    def reader(crops, lexicon):
        seen.extend(c.shape[1] for c in crops)
        return [pieces[i % 2] for i in range(len(crops))]
    return reader, seen


def test_two_words_run_together_are_cut_at_the_gap():
    flat, ink, box = _page(gap=20)
    merged = _reading("degermed", "degermedcaltrap")
    reader, seen = _reader({0: _reading("degermed", "degermed"), 1: _reading("caltrap", "caltrap")})
    boxes, readings = read._split_merged(flat, ink, [box], [merged], reader, ["degermed", "caltrap"])
    assert [r.word for r in readings] == ["degermed", "caltrap"]
    assert (boxes[0].x0, boxes[0].x1) == (20, 150) and (boxes[1].x0, boxes[1].x1) == (170, 290)
    assert boxes[1].line == 3 and not boxes[1].joinable
    assert len(seen) == 2


def test_pieces_not_read_as_written_leave_the_box_whole():
    flat, ink, box = _page(gap=20)
    merged = _reading("pavilions", "putout")
    reader, _ = _reader({0: _reading("put", "pat"), 1: _reading("out", "ont")})
    boxes, readings = read._split_merged(flat, ink, [box], [merged], reader, ["put", "out", "pavilions"])
    assert boxes == [box] and readings == [merged]


def test_a_piece_too_short_to_score_leaves_the_box_whole():
    """A gap inside one word can leave a piece that reads as itself ("tourism" as
    "tours" and "m"): a piece of fewer letters than a word that scores is a fragment."""
    flat, ink, box = _page(gap=20)
    for left, right in (("tours", "m"), ("an", "oth"), ("it", "is")):
        merged = _reading("towers", left + right)
        reader, _ = _reader({0: _reading(left, left), 1: _reading(right, right)})
        boxes, readings = read._split_merged(flat, ink, [box], [merged], reader, [left, right, "towers"])
        assert boxes == [box] and readings == [merged]
    reader, _ = _reader({0: _reading("tours", "tours"), 1: _reading("map", "map")})
    boxes, readings = read._split_merged(flat, ink, [box], [_reading("towers", "toursmap")], reader,
                                         ["tours", "map", "towers"])
    assert [r.word for r in readings] == ["tours", "map"]


def test_a_narrow_gap_or_a_reading_that_fits_is_not_tried():
    flat, ink, box = _page(gap=int(read.SPLIT_GAP * 40) - 2)
    reader, seen = _reader({0: _reading("degermed", "degermed"), 1: _reading("caltrap", "caltrap")})
    read._split_merged(flat, ink, [box], [_reading("degermed", "degermedcaltrap")], reader, ["degermed"])
    flat, ink, box = _page(gap=20)
    read._split_merged(flat, ink, [box], [_reading("degermed", "degermeb")], reader, ["degermed"])
    read._split_merged(flat, ink, [box], [_reading("degermed", "degermedcaltrap")], reader, None)
    assert seen == []


def test_pieces_that_explain_the_ink_no_better_than_the_word_leave_it_whole():
    """A gap inside one word can leave two pieces each read as written ("decimal" as
    "dee" and "mal"): the cut stands only where the two words explain their ink better
    than the whole box's word, by SPLIT_MARGIN nats."""
    flat, ink, box = _page(gap=20)
    merged = _reading("decimal", "deunal")
    scored: list[tuple[int, str]] = []

    def ink_score(margin: float):
        def score(crop, word):
            scored.append((crop.shape[1], word))
            return {"decimal": 8.0, "dee": 4.0, "mal": 4.0 + margin}[word]
        return score
    reader, _ = _reader({0: _reading("dee", "dee"), 1: _reading("mal", "mal")})
    boxes, readings = read._split_merged(flat, ink, [box], [merged], reader, ["dee", "mal", "decimal"],
                                         ink_score(read.SPLIT_MARGIN - 0.5))
    assert boxes == [box] and readings == [merged]
    assert [w for _, w in scored] == ["decimal", "dee", "mal"]
    assert scored[0][0] > scored[1][0] and scored[0][0] > scored[2][0]  # the whole box, then each piece
    boxes, readings = read._split_merged(flat, ink, [box], [merged], reader, ["dee", "mal", "decimal"],
                                         ink_score(read.SPLIT_MARGIN + 0.5))
    assert [r.word for r in readings] == ["dee", "mal"]
