"""layout (and ink): the words of a flat sheet, in writing order."""
from __future__ import annotations

import numpy as np

from boggle_cv.vision.sheet.ink import ink_mask
from boggle_cv.vision.sheet.layout import crop_word, find_words

from sheet_helpers import WORDS, sheet


def _centre_in(word, box) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.y0 + word.y1) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _match(found, boxes) -> None:
    assert len(found) == len(boxes), (len(found), len(boxes))
    for f, b in zip(found, boxes):
        assert _centre_in(f, b), (f, b)


def test_ruled_sheet_one_word_a_line_in_order():
    paper, boxes = sheet(0, ruled=True)
    ink = ink_mask(paper)
    assert ink.lines.any()  # the ruling was found and taken out
    _match(find_words(ink), boxes)


def test_plain_sheet_two_columns_read_down_then_across():
    paper, boxes = sheet(1, ruled=False, columns=2)
    found = find_words(ink_mask(paper))
    _match(found, boxes)
    assert [w.column for w in found] == [0] * 6 + [1] * 6


def test_several_words_a_line_split_by_spaces_and_commas():
    lines = [["seat", "sat"], ["eats"], ["rate", "tears", "stare"]]
    for sep in ("   ", ", "):
        paper, boxes = sheet(2, lines=lines, separator=sep)
        _match(find_words(ink_mask(paper)), boxes)


def test_crossed_out_word_kept_and_marked():
    paper, boxes = sheet(3, struck=("tale", "sat"))
    found = find_words(ink_mask(paper))
    _match(found, boxes)
    assert [WORDS[i] for i, w in enumerate(found) if w.crossed_out] == ["sat", "tale"]


def test_scores_in_the_margin_are_not_words():
    paper, boxes = sheet(4, margin_marks=("1", "2", "11", "3", "5"))
    _match(find_words(ink_mask(paper)), boxes)


def test_blank_paper_has_no_words():
    paper, _ = sheet(5, lines=[])
    assert find_words(ink_mask(paper)) == []


def test_crop_holds_the_word_and_no_ruling():
    paper, boxes = sheet(6, ruled=True)
    ink = ink_mask(paper)
    words = find_words(ink)
    crop = crop_word(paper, ink, words[0])
    assert crop.dtype == np.uint8 and crop.ndim == 3
    assert crop.shape[1] >= words[0].x1 - words[0].x0
    # no long light-blue stroke left across the crop
    blue = (crop[:, :, 0].astype(int) - crop[:, :, 2].astype(int)) > 40
    assert blue.sum(axis=1).max() < crop.shape[1] * 0.5
