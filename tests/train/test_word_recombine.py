"""New words joined from the letters of real crops (train/word_recombine.py): the
alignment, the core band, the baseline, the cut where the reader puts the letters,
and words of the training splits only. No torch."""
from __future__ import annotations

import cv2
import numpy as np

from boggle_cv.train.word_head import split_of, word_split
from boggle_cv.train.word_recombine import Piece, best_path, core_band, joined, letter_pieces, recombined
from boggle_cv.vision.handwriting import preprocess


def _peaks(spans: list[tuple[int, int]], letters: str, t: int) -> np.ndarray:
    """(t, 27) frame probabilities: blank everywhere but letters[i] over spans[i]."""
    p = np.full((t, 27), 0.01 / 26, np.float32)
    p[:, 0] = 0.99
    for (a, b), c in zip(spans, letters):
        p[a:b] = 0.01 / 26
        p[a:b, ord(c) - 96] = 0.99
    return p


def test_best_path_puts_each_letter_where_its_frames_are():
    probs = _peaks([(2, 4), (6, 7), (9, 11)], "see", 13)
    path = best_path(probs, "see")
    assert path is not None
    assert list(np.nonzero(path == 0)[0]) == [2, 3]
    assert list(np.nonzero(path == 1)[0]) == [6]
    assert list(np.nonzero(path == 2)[0]) == [9, 10]
    assert best_path(probs[:2], "see") is None  # fewer frames than letters


def test_a_doubled_letter_needs_a_blank_between():
    path = best_path(_peaks([(1, 2), (3, 4)], "ee", 6), "ee")
    assert path is not None and set(path[path >= 0]) == {0, 1}


def test_core_band_is_the_x_height():
    grey = np.full((48, 80), 255, np.uint8)
    grey[20:34, 5:75] = 0     # the x-height band, inked all along
    grey[6:20, 10:13] = 0     # an ascender
    grey[34:44, 50:53] = 0    # a descender
    top, bottom = core_band(grey)
    assert abs(top - 20) <= 1 and abs(bottom - 34) <= 1


def test_joined_pieces_share_a_baseline_at_their_own_scale():
    tall = np.full((60, 20), 255, np.uint8)
    tall[30:50, 5:15] = 0
    short = np.full((30, 12), 255, np.uint8)
    short[10:20, 2:10] = 0
    out = joined([Piece(tall, 50), Piece(short, 20)], np.random.default_rng(0))
    grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
    assert grey.shape[1] <= 32 and grey.shape[1] >= 30  # side by side, 0-2 px overlap
    rows_a = np.nonzero((grey[:, :18] < 128).any(axis=1))[0]
    rows_b = np.nonzero((grey[:, 22:] < 128).any(axis=1))[0]
    assert abs(int(rows_a[-1]) - int(rows_b[-1])) <= 2  # the ink ends on one baseline (+-1 each)
    assert len(rows_a) == 20 and len(rows_b) == 10      # no letter scaled


def test_recombined_words_use_only_letters_there_are():
    piece = Piece(np.zeros((30, 8), np.uint8), 20)
    out = recombined({"a": [piece], "t": [piece]}, ["tat", "cat", "at"], 6, np.random.default_rng(0))
    assert len(out) == 6 and {w for _, w in out} <= {"tat", "at"}
    assert all(im.shape[1] >= 8 * len(w) - 2 * len(w) for im, w in out)


def test_word_split_is_the_split_of_jeremys_crops_of_that_word():
    for w in ("seat", "node", "path", "state", "over", "router", "unique"):
        assert word_split(w) == split_of({"set": "jeremy-words", "transcription": w})


def test_letters_are_cut_where_the_reader_reads_them():
    """A clearly drawn word is read exactly; its letters come back in order, at the
    crop's own scale, together as wide as the trimmed word."""
    im = np.full((120, 420, 3), 240, np.uint8)
    cv2.putText(im, "seat", (15, 90), cv2.FONT_HERSHEY_SIMPLEX, 3.0, (20, 20, 20), 7)
    trimmed = preprocess.normalise(im)  # what the reader reads: the word and a margin
    pieces = letter_pieces([(im, "seat")])
    assert set(pieces) == {"s", "e", "a", "t"} and all(len(v) == 1 for v in pieces.values())
    heights = {p.image.shape[0] for v in pieces.values() for p in v}
    assert heights == {trimmed.shape[0]}  # the crop's own scale, not the reader's 48 px
    width = sum(p.image.shape[1] for v in pieces.values() for p in v)
    assert abs(width - trimmed.shape[1]) <= 4
    widths = [pieces[c][0].image.shape[1] for c in "seat"]
    assert min(widths) > 0.15 * width  # each letter its share, none a sliver
    assert letter_pieces([(im, "stop")]) == {}  # not what the reader reads: not cut
