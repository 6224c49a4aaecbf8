"""The board informs, the ink decides (vision/handwriting/board_check.py): a board
lexicon's word stands only when the ink supports it about as well as the open reading;
its rule in the calibration file; read_words with a board known, on drawn words."""
from __future__ import annotations

import json

import numpy as np
import pytest

from boggle_cv.vision.handwriting import board_check, doubt
from boggle_cv.vision.handwriting.board_check import BoardRule, check, decide, merged, with_written
from boggle_cv.vision.handwriting.reading import WordReading
from boggle_cv.vision.onnx_models import WORD_READER, model_path

needs_model = pytest.mark.skipif(not model_path(WORD_READER).is_file(), reason="word model not installed")

RULE = BoardRule(keep_gap=2.0, ask_gap=8.0)


def frames(word: str, sure: float = 0.9) -> np.ndarray:
    """(T, 27) frame probabilities that spell `word`: each letter, then a blank."""
    rows = []
    for c in word:
        for cls in (ord(c) - 96, 0):
            row = np.full(27, (1 - sure) / 26)
            row[cls] = sure
            rows.append(row)
    return np.array(rows)


def reading(word: str, alts: tuple[tuple[str, float], ...], free: str, flagged: bool = False) -> WordReading:
    return WordReading(word, alts[0][1], alts, flagged, free)


def test_a_word_the_ink_spells_is_kept_and_one_it_does_not_is_not():
    view = frames("methods")
    assert check("methods", "methods", "methods", view, RULE).outcome == "kept"
    far = check("mates", "methods", "methods", view, RULE)
    assert far.outcome == "written" and far.gap > RULE.ask_gap
    assert far.gap == pytest.approx(far.open_ll - far.lexicon_ll)


def test_the_gap_decides_between_kept_asked_and_written():
    view = frames("seat", sure=0.6)
    gap = check("sat", "seat", "seat", view, BoardRule(0.0, 1e9)).gap
    assert gap > 0
    assert check("sat", "seat", "seat", view, BoardRule(gap, gap)).outcome == "kept"
    assert check("sat", "seat", "seat", view, BoardRule(gap - 0.1, gap)).outcome == "asked"
    assert check("sat", "seat", "seat", view, BoardRule(gap - 0.2, gap - 0.1)).outcome == "written"


def test_decide_keeps_the_written_word_among_the_options_of_every_outcome():
    view = frames("methods")
    board = reading("mates", (("mates", 0.7), ("males", 0.2), ("makes", 0.1)), "methods", flagged=True)
    opened = reading("methods", (("methods", 0.9), ("method", 0.1)), "methods")
    written = decide(board, opened, view, RULE, 5)
    assert written.word == "methods" and written.written == "methods" and not written.flagged
    assert written.board_check.outcome == "written"
    asked = decide(board, opened, view, BoardRule(0.0, 1e9), 5)
    assert asked.flagged and asked.word == "methods" and asked.alternatives[0][0] == "methods"
    assert {"methods", "mates"} <= {a for a, _ in asked.alternatives}
    assert asked.confidence == asked.alternatives[0][1]
    sure = reading("mates", (("mates", 0.7), ("males", 0.2), ("makes", 0.1)), "methods", flagged=False)
    kept = decide(sure, opened, view, BoardRule(1e9, 1e9), 5)
    assert kept.word == "mates" and not kept.flagged and "methods" in dict(kept.alternatives)
    doubtful = decide(board, opened, view, BoardRule(1e9, 1e9), 5)  # kept, but doubtful: asked, the ink's word first
    assert doubtful.flagged and doubtful.word == "methods" and "mates" in dict(doubtful.alternatives)


def test_a_board_word_the_ink_does_not_support_is_no_alternative():
    view = frames("methods")
    board = reading("mates", (("mates", 0.7), ("males", 0.3)), "methods", flagged=True)
    opened = reading("methods", (("methods", 0.8), ("method", 0.1), ("mates", 0.1)), "methods")
    written = decide(board, opened, view, RULE, 5, on_board={"mates", "method"})
    assert [a for a, _ in written.alternatives] == ["methods", "method"]  # mates: far below the ink's word
    assert [a for a, _ in decide(board, opened, view, RULE, 5).alternatives] == ["methods", "method", "mates"]


def test_merged_and_with_written():
    both = merged((("a", 0.6), ("b", 0.4)), (("b", 0.5), ("c", 0.5)), 0.5, 5)
    assert both[0] == ("a", 0.3) and dict(both) == pytest.approx({"a": 0.3, "b": 0.45, "c": 0.25})
    assert with_written((("a", 0.5), ("b", 0.5)), "c", 2, 0.02) == (("a", 0.5), ("c", 0.02))
    assert with_written((("a", 0.5),), "a", 5, 0.02) == (("a", 0.5),)


def test_the_rule_travels_in_the_calibration_file(tmp_path, monkeypatch):
    cal = doubt.Calibration(doubt.NAMES, (0.0,) * 10, (1.0,) * 10, (0.0,) * 10, 0.0, 0.5, BoardRule(1.5, 6.0))
    path = tmp_path / "cal.json"
    doubt.write(path, cal)
    assert json.loads(path.read_text())["board"] == {"keep_gap": 1.5, "ask_gap": 6.0}
    monkeypatch.setenv(doubt.ENV, str(path))
    assert doubt.board_rule() == BoardRule(1.5, 6.0)
    monkeypatch.setenv(doubt.ENV, "none")
    assert doubt.board_rule() == board_check.DEFAULT_RULE
    with pytest.raises(ValueError):
        BoardRule.from_dict({"keep_gap": 3.0, "ask_gap": 1.0})


def test_the_shipped_calibration_holds_a_board_rule():
    cal = doubt.calibration()
    assert cal is not None and cal.board is not None
    assert 0.0 <= cal.board.keep_gap <= cal.board.ask_gap


@needs_model
def test_a_written_word_off_the_board_stands_as_written():
    """"methods" written, the board holding "mates": read as written (the open
    reading), with "mates" not invented; a board word written is read as it is."""
    from test_handwriting import _word_image

    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.near_words import board_lexicon
    dictionary = load_default()
    board = ["mates", "rate", "fine", "seat"]
    lexicon = board_lexicon(board, dictionary)
    got = board_check_readings([_word_image(w) for w in ("methods", "seat", "rat")], lexicon, board, dictionary)
    assert [r.word for r in got] == ["methods", "seat", "rat"]
    assert all(r.written == r.word for r in got)


def board_check_readings(images, lexicon, board, dictionary):
    from boggle_cv.vision.handwriting import read_words
    return read_words(images, lexicon, board_words=board, dictionary=dictionary)

