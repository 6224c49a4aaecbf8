"""The board check's fit (train/word_board.py): the alignment of a sheet's readings with
what was written, and the replay of a rule over recorded readings (drawn frames, no
sheets, no model)."""
from __future__ import annotations

import numpy as np

from boggle_cv.train.word_board import Record, align, play
from boggle_cv.vision.handwriting import board_check
from boggle_cv.vision.handwriting.board_check import BoardRule
from boggle_cv.vision.handwriting.reading import WordReading
from ink_frames import frames


def test_align_matches_readings_to_written_words_in_order():
    readings = [({"seat", "sat"}, "seat"), ({"junk"}, "xq"), ({"rate"}, "rote")]
    assert align(readings, ["seat", "rate"]) == ["seat", None, "rate"]


def test_align_takes_a_near_free_reading_and_leaves_a_far_one():
    assert align([({"mates"}, "methods")], ["methods"]) == ["methods"]  # the free reading spells it
    assert align([({"cat"}, "zzz")], ["methods"]) == [None]
    assert align([], ["seat"]) == []


def _record(truth: str, read: str, on_board: set[str], opened: str) -> Record:
    reading = WordReading(read, 0.9, ((read, 0.9), (opened, 0.1)), False, opened)
    open_reading = WordReading(opened, 0.9, ((opened, 0.9), (read, 0.1)), False, opened)
    return Record("offboard", "s/sheet-000.jpg", "jeremy-words", truth, (truth,), frozenset(on_board), reading,
                  frames(opened).astype(np.float32), open_reading)


def test_play_counts_a_board_word_nobody_wrote_only_when_it_stands_unasked():
    """"methods" written, read against a board holding "mates": kept without a check it
    would be invented; the check replayed as at run time reads it as written."""
    from boggle_cv.game.dictionary import load_default
    rec = _record("methods", "mates", {"mates"}, "methods")
    found = [board_check.weigh(rec.reading, rec.opened, rec.view, load_default(), rec.on_board)]
    tally = play([rec], found, BoardRule(2.0, 0.0, 6.0))["offboard"]
    assert (tally.words, tally.right, tally.invented) == (1, 1, 0)
    keep_all = play([rec], [None], BoardRule(2.0, 0.0, 6.0))["offboard"]  # no check: the board's word stands
    assert (keep_all.right, keep_all.invented) == (0, 1)
