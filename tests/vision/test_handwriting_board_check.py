"""The board informs, the ink decides (vision/handwriting/board_check.py): a board
lexicon's word stands without a question only when the ink prefers it clearly over
every reading off the board; its rule in the calibration file; read_words with a board
known, on drawn words."""
from __future__ import annotations

import json

import pytest

from boggle_cv.vision.handwriting import board_check, doubt
from boggle_cv.vision.handwriting.board_check import BoardRule, decide, weigh, with_written
from boggle_cv.vision.handwriting.reading import WordReading
from boggle_cv.vision.onnx_models import WORD_READER, model_path
from ink_frames import frames

needs_model = pytest.mark.skipif(not model_path(WORD_READER).is_file(), reason="word model not installed")

RULE = BoardRule(word_margin=2.0, other_margin=0.0, offer_gap=6.0)
DICTIONARY = {"methods", "method", "mates", "males", "makes", "seat", "seats", "sat", "set", "beat", "meat"}


def reading(word: str, alts: tuple[tuple[str, float], ...], free: str, flagged: bool = False) -> WordReading:
    return WordReading(word, alts[0][1], alts, flagged, free)


def test_a_board_word_the_ink_spells_clearly_is_kept():
    view = frames("seat")
    board = reading("seat", (("seat", 0.9), ("seats", 0.05), ("sat", 0.05)), "seat")
    c = weigh(board, None, view, DICTIONARY, {"seat", "sat"})
    assert c.on_board and c.written == "seat" and "seats" in dict(c.scores)  # its near word is weighed
    assert c.word_margin > RULE.word_margin and c.outcome(RULE) == "kept"
    kept = decide(board, None, c, RULE, 5)
    assert kept.word == "seat" and not kept.flagged and kept.written == "seat" and kept.board_check is c


def test_a_near_word_the_ink_may_say_is_asked_the_written_word_first():
    """"seats" written with a faint s, "seat" on the board and "seats" not: the board's
    word does not beat its near word clearly, so the player is asked, what the ink says
    without the board first and the board's word beside it."""
    view = frames("seat", tail=("s", 0.5))
    board = reading("seat", (("seat", 0.8), ("seats", 0.2)), "seats")
    opened = reading("seats", (("seats", 0.7), ("seat", 0.3)), "seats")
    c = weigh(board, opened, view, DICTIONARY, {"seat", "meat"})
    assert c.written == "seats" and c.word_margin < RULE.word_margin
    asked = decide(board, opened, c, RULE, 5)
    assert c.outcome(RULE) == "asked" and asked.flagged
    assert [a for a, _ in asked.alternatives[:2]] == ["seats", "seat"]
    assert asked.word == "seats" and asked.confidence == asked.alternatives[0][1]
    assert asked.written == "seats" and asked.free == "seats"
    assert sum(p for _, p in asked.alternatives) == pytest.approx(1.0)


def test_the_margins_decide_between_kept_and_asked():
    view = frames("seat", tail=("s", 0.2))
    board = reading("seat", (("seat", 0.9), ("seats", 0.1)), "seat")
    c = weigh(board, None, view, DICTIONARY, {"seat"})
    at = c.word_margin
    assert c.outcome(BoardRule(at, -1e9, 6.0)) == "kept"
    assert c.outcome(BoardRule(at + 0.1, -1e9, 6.0)) == "asked"
    assert c.other_margin == float("inf")  # every reading of this ink is a word of the dictionary
    scrawl = weigh(reading("seat", (("seat", 1.0),), "seot"), None, frames("seot", 0.99), DICTIONARY, {"seat"})
    assert scrawl.other_margin == pytest.approx(scrawl.score("seat") - scrawl.score("seot"))
    assert scrawl.other_margin < 0 and scrawl.outcome(BoardRule(-1e9, 0.0, 6.0)) == "asked"


def test_a_board_word_far_below_what_the_ink_says_is_not_offered():
    """"methods" written, the board holding "mates": read as written, "mates" not
    even offered (it could only be asked about), "method" (off the board) offered."""
    view = frames("methods")
    board = reading("mates", (("mates", 0.7), ("males", 0.2), ("makes", 0.1)), "methods", flagged=True)
    opened = reading("methods", (("methods", 0.9), ("method", 0.1)), "methods")
    c = weigh(board, opened, view, DICTIONARY, {"mates", "makes"})
    assert c.outcome(RULE) == "written" and c.offered(RULE) == ()
    written = decide(board, opened, c, RULE, 5)
    assert written.word == "methods" and written.written == "methods" and not written.flagged
    assert not {"mates", "makes"} & {a for a, _ in written.alternatives}
    assert "method" in {a for a, _ in written.alternatives}
    wide = decide(board, opened, c, BoardRule(2.0, 0.0, 1e9), 5)  # every board word may be offered: asked
    assert wide.flagged and wide.word == "methods" and "mates" in dict(wide.alternatives)


def test_a_lexicon_word_off_the_board_gives_way_to_the_written_word():
    view = frames("methods")
    board = reading("method", (("method", 0.6), ("methods", 0.4)), "methods")
    opened = reading("methods", (("methods", 0.9), ("method", 0.1)), "methods")
    c = weigh(board, opened, view, DICTIONARY, {"mates"})
    assert not c.on_board and c.outcome(RULE) == "written"
    got = decide(board, opened, c, RULE, 5)
    assert got.word == "methods" and "method" in dict(got.alternatives) and not got.flagged


def test_a_kept_word_found_doubtful_is_asked_the_written_word_first():
    view = frames("seat", tail=("s", 0.05))
    board = reading("seat", (("seat", 0.6), ("sat", 0.4)), "seat", flagged=True)
    opened = reading("set", (("set", 0.6), ("seat", 0.4)), "seat")
    c = weigh(board, opened, view, DICTIONARY, {"seat", "set", "sat"})
    rule = BoardRule(-1e9, -1e9, 6.0)
    assert c.outcome(rule) == "kept"
    got = decide(board, opened, c, rule, 5)
    assert got.flagged and got.word == "set" and "seat" in dict(got.alternatives)


def test_with_written():
    assert with_written((("a", 0.5), ("b", 0.5)), "c", 2, 0.02) == (("a", 0.5), ("c", 0.02))
    assert with_written((("a", 0.5),), "a", 5, 0.02) == (("a", 0.5),)


def test_the_rule_travels_in_the_calibration_file(tmp_path, monkeypatch):
    rule = BoardRule(1.5, -0.5, 6.0)
    cal = doubt.Calibration(doubt.NAMES, (0.0,) * 10, (1.0,) * 10, (0.0,) * 10, 0.0, 0.5, rule)
    path = tmp_path / "cal.json"
    doubt.write(path, cal)
    assert json.loads(path.read_text())["board"] == {"word_margin": 1.5, "other_margin": -0.5, "offer_gap": 6.0}
    monkeypatch.setenv(doubt.ENV, str(path))
    assert doubt.board_rule() == rule
    monkeypatch.setenv(doubt.ENV, "none")
    assert doubt.board_rule() == board_check.DEFAULT_RULE
    with pytest.raises(ValueError):
        BoardRule.from_dict({"word_margin": 1.0, "other_margin": 1.0, "offer_gap": -1.0})


def test_the_shipped_calibration_holds_a_board_rule():
    cal = doubt.calibration()
    assert cal is not None and cal.board is not None
    assert cal.board.offer_gap >= 0


@needs_model
def test_a_written_word_off_the_board_stands_as_written():
    """"methods" written, the board holding "mates": read as written (the open
    reading), with "mates" not invented; a board word written is read as it is."""
    from test_handwriting import _word_image

    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.near_words import board_lexicon
    from boggle_cv.vision.handwriting import read_words
    dictionary = load_default()
    board = ["mates", "rate", "fine", "seat"]
    lexicon = board_lexicon(board, dictionary)
    got = read_words([_word_image(w) for w in ("methods", "seat", "rat")], lexicon, board_words=board,
                     dictionary=dictionary)
    assert [r.word for r in got] == ["methods", "seat", "rat"]
    assert all(r.written == r.word for r in got)
    assert not got[0].flagged or "mates" not in dict(got[0].alternatives)


def test_a_lexicon_word_off_the_board_that_the_ink_spells_is_read_as_with_no_board(monkeypatch):
    """"agon" is in the board's lexicon (a neighbour of a board word) and the free
    reading spells it, but with no board the sheet reads "again" (the dictionary's
    prior of common words): with the board it reads "again" too, never fewer words
    right than with no board. A board word the ink spells needs no open reading."""
    from boggle_cv.vision.handwriting import reading as reading_module
    opened_calls: list[object] = []
    open_reading = reading("again", (("again", 0.7), ("agon", 0.3)), "agon", flagged=True)

    def read_against_dictionary(views: object, dictionary: object, lang: str = "en") -> WordReading:
        opened_calls.append(views)
        return open_reading

    monkeypatch.setattr(reading_module, "read_against_dictionary", read_against_dictionary)
    view = frames("agon", sure=0.6)
    lexicon_reading = reading("agon", (("agon", 0.8), ("anon", 0.2)), "agon")
    got = reading_module.ink_decides(lexicon_reading, [view], {"again", "agon", "anon"}, "en", frozenset({"anon"}))
    assert got.word == "again" and got.written == "again" and got.flagged and len(opened_calls) == 1
    open_reading = reading("agon", (("agon", 0.9), ("again", 0.1)), "agon", flagged=True)
    same = reading_module.ink_decides(lexicon_reading, [view], {"again", "agon", "anon"}, "en", frozenset({"anon"}))
    assert same is not lexicon_reading and same.word == "agon" and same.written == "agon" and not same.flagged
    assert len(opened_calls) == 2  # agreeing with the open reading, it stands as it was read
    spelled = reading("anon", (("anon", 0.9), ("agon", 0.1)), "anon")
    kept = reading_module.ink_decides(spelled, [frames("anon")], {"again", "agon", "anon"}, "en", frozenset({"anon"}))
    assert kept.written == "anon" and len(opened_calls) == 2


def test_the_open_reading_of_a_name_no_dictionary_holds_is_its_free_reading():
    """The ink spells "kuhndorf" clearly: the dictionary's nearest word is no reading
    of it, so the open reading (with no board, and the check's written word) is the
    free reading, asked about, the dictionary's word among its alternatives; a
    dictionary word written a letter off ("methads") still reads as the word."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.vision.handwriting.reading import FREE_OVER_DICTIONARY, read_against_dictionary
    dictionary = load_default()
    name = read_against_dictionary([frames("kuhndorf").astype("float32")], dictionary)
    assert (name.word, name.free, name.flagged) == ("kuhndorf", "kuhndorf", True)
    assert any(w in dictionary for w, _ in name.alternatives)
    misspelt = read_against_dictionary([frames("methads").astype("float32")], dictionary)
    assert (misspelt.word, misspelt.free) == ("methods", "methads")
    gap = board_check.scores(frames("methads"), ["methads", "methods"])
    assert gap[0] - gap[1] <= FREE_OVER_DICTIONARY
