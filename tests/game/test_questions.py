"""The referee's questions: only the doubts whose answer changes a score are asked,
the cells first, the rest settled and shown with what else they may be."""
from __future__ import annotations

from pathlib import Path

from boggle_cv.game.board import Board
from boggle_cv.game.questions import CellDoubt, RoundDoubts, WordDoubt, considered, decide, shown
from boggle_cv.game.sheet_doubts import marked_doubts, sheet_entries
from boggle_cv.game.scoring import Rules, solve

BOARD = Board.parse("PERS/LATG/SINE/TERS")
RULES = Rules.for_board(BOARD)


def _round(lists, cells=(), words=()):
    return RoundDoubts(BOARD, RULES, lists, tuple(cells), tuple(words))


def test_the_facts_the_tests_rest_on(default_dict):
    words = {w.word: w.points for w in solve(BOARD, default_dict)}
    assert words["late"] == words["lane"] == 1 and words["slat"] == 1
    assert "slab" not in words and "lote" not in words


def test_a_word_that_scores_the_same_either_way_is_settled_and_shown_with_its_alternative(default_dict):
    doubt = WordDoubt("ann", 0, (("late", 0.6), ("lane", 0.4)))
    d = decide(_round({"ann": ["late", "slat"]}, words=[doubt]), default_dict)
    assert d.questions == () and d.settled == (doubt,)
    assert shown(doubt) == "late (or lane)"
    assert d.to_dict()["settled"][0]["shown"] == "late (or lane)"


def test_a_word_whose_alternative_is_not_on_the_board_is_asked(default_dict):
    doubt = WordDoubt("ann", 1, (("slat", 0.7), ("slab", 0.3)))
    d = decide(_round({"ann": ["late", "slat"]}, words=[doubt]), default_dict)
    assert [q.doubt for q in d.questions] == [doubt]
    q = d.questions[0]
    assert q.points == 1 and q.players == ("ann",) and abs(q.expected - 0.3) < 1e-9


def test_an_alternative_another_list_has_is_asked_crossing_off_changes_two_scores(default_dict):
    doubt = WordDoubt("ann", 0, (("lane", 0.8), ("late", 0.2)))
    d = decide(_round({"ann": ["lane"], "bob": ["late"]}, words=[doubt]), default_dict)
    assert [q.doubt.key for q in d.questions] == ["ann#1"]
    assert d.questions[0].players == ("ann", "bob") and d.questions[0].points == 2


def test_a_cell_no_list_uses_asks_nothing_one_that_decides_a_word_is_asked_first(default_dict):
    unused = CellDoubt((0, 0), (("P", 0.6), ("B", 0.4)))      # r1c1: no word of the lists goes through it
    deciding = CellDoubt((1, 1), (("A", 0.7), ("O", 0.3)))    # r2c2: LATE needs its A
    word = WordDoubt("ann", 1, (("slat", 0.5), ("slab", 0.5)))
    d = decide(_round({"ann": ["late", "slat"]}, cells=[unused, deciding], words=[word]), default_dict)
    assert [q.doubt.key for q in d.questions] == ["r2c2", "ann#2"]
    assert d.settled == (unused,) and shown(unused) == "r1c1 P (or B)"


def test_each_answer_decides_again(default_dict):
    ann = WordDoubt("ann", 0, (("lane", 0.8), ("late", 0.2)))
    bob = WordDoubt("bob", 0, (("late", 0.6), ("lane", 0.4)))
    r = _round({"ann": ["lane"], "bob": ["late"]}, words=[ann, bob])
    first = decide(r, default_dict)
    assert set(first.keys) == {"ann#1", "bob#1"}
    after = r.answered("ann#1", "lane")
    assert after.lists["ann"] == ["lane"] and after.words == (bob,)
    # bob's late (or lane): lane would cross ann's off, so it still rides
    assert decide(after, default_dict).keys == ["bob#1"]


def test_an_answer_about_a_cell_can_settle_a_word():
    cell = CellDoubt((1, 1), (("A", 0.5), ("O", 0.5)))       # LATE needs the A of r2c2
    word = WordDoubt("ann", 0, (("late", 0.6), ("slab", 0.4)))
    r = _round({"ann": ["late"]}, cells=[cell], words=[word])
    assert decide(r).keys == ["r2c2", "ann#1"]
    after = r.answered("r2c2", "O")
    assert after.board.faces[1][1] == "O" and after.cells == ()
    assert decide(after).questions == () and decide(after).settled == (word,)


def test_a_crossed_out_line_that_would_score_is_asked_one_that_would_not_is_settled(default_dict):
    read = [{"word": "late", "free": "late", "flagged": False, "alternatives": [["late", 0.99]], "crossed_out": True},
            {"word": "slab", "free": "slab", "flagged": False, "alternatives": [["slab", 0.99]], "crossed_out": True},
            {"word": "slat", "free": "slat", "flagged": False, "alternatives": [], "crossed_out": False}]
    entries, doubts = sheet_entries("ann", read)
    assert entries == ["", "", "slat"] and [w.kind for w in doubts] == ["crossed", "crossed"]
    r = _round({"ann": entries}, words=doubts)
    d = decide(r, default_dict)
    assert d.keys == ["ann#1"] and [s.key for s in d.settled] == ["ann#2"]
    assert r.answered("ann#1", "late").scored_lists() == {"ann": ["late", "slat"]}


def test_options_under_the_floor_are_not_considered_the_first_always_is():
    assert considered([("seat", 0.001), ("sat", 0.998), ("set", 0.001)], 0.01) == (("seat", 0.001), ("sat", 0.998))


def test_the_room_s_marks_become_doubts_at_their_place_in_the_list():
    doubts = marked_doubts({"ann": ["late", "Slat"]}, {"ann": {"slat": [("slat", 0.7), ("slab", 0.3)]}})
    assert [(w.player, w.index, [v for v, _ in w.options]) for w in doubts] == [("ann", 1, ["Slat", "slab", ""])]


def test_a_doubtful_sheet_word_may_be_none_of_its_alternatives():
    """A reading that scores is asked even when every alternative scores the same: it
    may be none of them (a piece of a word cut in two, another word)."""
    read = [{"word": "late", "free": "late", "flagged": True, "alternatives": [["late", 0.6], ["lane", 0.4]],
             "crossed_out": False},
            {"word": "slab", "free": "slab", "flagged": True, "alternatives": [["slab", 0.6], ["slob", 0.4]],
             "crossed_out": False}]
    entries, doubts = sheet_entries("ann", read)
    assert [v for v, _ in doubts[0].options] == ["late", "lane", ""]
    assert [round(p, 3) for _, p in doubts[0].options[:2]] == [0.6, 0.4]  # the reading's own, counted once
    d = decide(_round({"ann": entries}, words=doubts))
    assert d.keys == ["ann#1"] and [shown(s) for s in d.settled] == ["slab (or slob, no word)"]


def test_a_doubtful_sheet_word_always_offers_what_was_written():
    """What was written (the open reading `written`, and the free reading) is among a
    question's options, however unlikely the lexicon found it."""
    read = [{"word": "mates", "free": "mthods", "written": "methods", "flagged": True,
             "alternatives": [["mates", 0.9], ["males", 0.1]], "crossed_out": False},
            {"word": "slab", "free": "slob", "flagged": True,                       # an older document: no "written"
             "alternatives": [["slab", 0.99], ["slob", 0.001]], "crossed_out": False},
            {"word": "late", "free": "late", "written": "late", "flagged": True,
             "alternatives": [["late", 0.6], ["lane", 0.4]], "crossed_out": False}]
    entries, doubts = sheet_entries("ann", read)
    assert [[v for v, _ in d.options] for d in doubts] == [["mates", "males", "methods", "mthods", ""],
                                                            ["slab", "slob", ""],
                                                            ["late", "lane", ""]]
    assert dict(doubts[0].options)["methods"] >= 0.01 and dict(doubts[1].options)["slob"] >= 0.005
    d = decide(_round({"ann": entries}, words=doubts))
    assert d.questions and all("methods" in dict(q.doubt.options) for q in d.questions if q.doubt.index == 0)


def test_a_board_given_as_a_table_of_words_needs_no_grid():
    doubt = WordDoubt("ann", 0, (("fire", 0.6), ("five", 0.4)))
    same = RoundDoubts(BOARD, RULES, {"ann": ["fire"]}, (), (doubt,))
    assert decide(same, table={"fire": 1, "five": 1}).questions == ()
    assert decide(same, table={"fire": 1}).keys == ["ann#1"]


def test_a_practice_tray_round_hands_its_sheet_s_doubts_to_the_referee(default_dict):
    """practice --tray: the sheet's words join the list after the typed ones, its doubts
    at their places; off a terminal nothing is asked, the decision is in the result."""
    import io

    from boggle_cv.cli.practice_play import PracticeArgs, Terminal, referee_tray
    from boggle_cv.practice.round import practice_request
    from boggle_cv.vision.sheet.types import SheetReading, SheetWord
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    words = (SheetWord("late", 0.99, (("late", 0.99),), False, "late", box, False),      # typed too: not twice
             SheetWord("slab", 0.6, (("slab", 0.6), ("slob", 0.4)), True, "slab", box, False),
             SheetWord("slat", 0.6, (("slat", 0.6), ("slab", 0.4)), True, "slat", box, False),
             SheetWord("sine", 0.9, (("sine", 0.9),), False, "sine", box, True))
    args = PracticeArgs("ann", None, "en", None, None, None, True, None, None, None)
    request = practice_request("ann", ["late"], "en", board=BOARD)
    result = referee_tray(Terminal(io.StringIO(), False), args, request, default_dict, None,
                          (SheetReading(words, box), Path("ann.jpg")))
    assert [w.word for w in result.sheet.players[0].words] == ["late", "slab", "slat"]
    assert [q.doubt.key for q in result.decision.questions] == ["ann#3", "ann#4"]   # slat; the crossed sine
    assert [shown(d) for d in result.decision.settled] == ["slab (or slob, no word)"]
    assert result.decision.questions[1].doubt.source == 3
