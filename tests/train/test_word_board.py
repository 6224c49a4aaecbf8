"""The board check's fit (train/word_board.py): the alignment of a sheet's readings with
what was written, and the replay of a rule over recorded readings (drawn frames, no
sheets, no model)."""
from __future__ import annotations

import numpy as np
import pytest

from boggle_cv.train.word_board import Record, Tally, align, choose, cost, play
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


def test_cost_counts_a_question_a_tap_and_a_missed_word_as_typed():
    tallies = {"plain": Tally(asked=3, missed=1), "dice": Tally(asked=2)}
    assert cost(tallies, 5.0) == 10.0
    assert cost(tallies, 1.0) == 6.0


def test_choose_takes_no_rule_that_invents_more_than_allowed():
    """Without a check every rule lets the board's "mates" stand for "methods"."""
    rec = _record("methods", "mates", {"mates"}, "methods")
    with pytest.raises(SystemExit):
        choose([rec], [None], 1.0, 5.0)


def test_choose_takes_a_rule_that_reads_the_written_word():
    from boggle_cv.game.dictionary import load_default
    rec = _record("methods", "mates", {"mates"}, "methods")
    found = [board_check.weigh(rec.reading, rec.opened, rec.view, load_default(), rec.on_board)]
    rule = choose([rec], found, 0.0, 5.0)
    assert play([rec], found, rule)["offboard"].invented == 0


def test_play_gives_the_same_tallies_with_outcomes_kept_across_rules():
    from boggle_cv.game.dictionary import load_default
    recs = [_record("methods", "mates", {"mates"}, "methods"), _record("mates", "mates", {"mates"}, "mates")]
    found = [board_check.weigh(r.reading, r.opened, r.view, load_default(), r.on_board) for r in recs]
    rules = [BoardRule(w, o, g) for w in (0.0, 2.0, 9.0) for o in (-3.0, 0.0) for g in (2.0, 6.0)]
    seen: dict = {}
    assert [play(recs, found, r, seen) for r in rules] == [play(recs, found, r) for r in rules]
    assert seen


def test_the_command_refuses_a_calibration_file_that_is_not_there(tmp_path, capsys):
    """--out names the file the rule is written into (the rest of it kept): a missing
    one is one line on stderr and exit 2, before any sheet is read."""
    from boggle_cv.train import word_board
    with pytest.raises(SystemExit) as stop:
        word_board.main([str(tmp_path / "sheets"), "--out", str(tmp_path / "none.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "none.json: no such calibration file" in err and "Traceback" not in err
