"""Scoring rules and ScoreSheet (boggle_cv/game/scoring.py), one test per rule."""
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import from_words
from boggle_cv.errors import UsageError
from boggle_cv.game.scoring import Rules, path_points, score_round, table_points

B4 = Board.parse("CATS/OXEN/DOGS/RUNE")
D = from_words(["cat", "cats", "cate", "act", "dog", "dogs", "dose", "ox", "oxen", "sate",
                "eat", "eats", "tea", "teas", "rune", "runes", "urn", "xenon", "god", "goes",
                "zebra", "apple"])


@pytest.mark.parametrize("length, points", [(3, 1), (4, 1), (5, 2), (6, 3), (7, 5), (8, 11), (9, 11), (12, 11)])
def test_standard_table_4x4(length, points):
    assert table_points(length, Rules(size=4)) == points


@pytest.mark.parametrize("length, points", [(3, 0), (4, 1), (5, 2), (6, 3), (7, 5), (8, 11), (10, 11)])
def test_big_boggle_table_5x5_from_four(length, points):
    assert table_points(length, Rules(size=5)) == points


@pytest.mark.parametrize("rule, nine, ten", [("per-letter", 18, 20), ("eleven-plus", 13, 15), ("flat", 11, 11)])
def test_super_big_long_words_option(rule, nine, ten):
    r = Rules(size=6, long_words=rule)
    assert table_points(8, r) == 11
    assert (table_points(9, r), table_points(10, r)) == (nine, ten)
    assert table_points(3, r) == 0


def test_super_big_default_is_two_per_letter():
    assert table_points(9, Rules(size=6)) == 18


@pytest.mark.parametrize("length, points", [(3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6), (11, 6)])
def test_challenge_table(length, points):
    assert table_points(length, Rules(size=4, variant="challenge", challenge_cell=(0, 0))) == points


def test_challenge_cube_adds_five_through_its_cell():
    r = Rules(size=4, variant="challenge", challenge_cell=(0, 0))
    assert path_points("cat", [(0, 0), (0, 1), (0, 2)], r) == 6
    assert path_points("tea", [(0, 2), (1, 2), (0, 1)], r) == 1


def test_bonus_cell_doubles_each():
    r = Rules(size=4, bonus_cells=frozenset({(0, 1), (0, 2)}))
    assert path_points("cats", [(0, 0), (0, 1), (0, 2), (0, 3)], r) == 4
    assert path_points("dog", [(2, 0), (2, 1), (2, 2)], r) == 1


def test_min_length_override():
    assert table_points(2, Rules(size=4, min_length=2)) == 1
    assert table_points(3, Rules(size=4, min_length=4)) == 0


def test_bad_rules_are_usage_errors():
    with pytest.raises(UsageError):
        Rules(variant="speed")
    with pytest.raises(UsageError):
        Rules(long_words="double")
    with pytest.raises(UsageError):
        Rules(size=4, bonus_cells=frozenset({(4, 0)}))


def test_statuses_and_crossing_off():
    sheet = score_round(B4, {
        "ann": ["CATS", "cats", "ox", "zebra", "apple", "dogs", "xyzzy", "oxen", "taco"],
        "bob": ["dogs", "Rune", "eats"],
    }, D)
    ann = {w.written: w for w in sheet.players[0].words}
    assert ann["CATS"].status == "scored" and ann["CATS"].points == 1
    assert ann["cats"].status == "repeated" and ann["cats"].points == 0
    assert ann["ox"].status == "too_short"
    assert ann["zebra"].status == "not_on_board"
    assert ann["xyzzy"].status == "not_on_board"       # no path spells it, word or not
    assert ann["taco"].status == "not_in_dictionary"   # the board spells it; not a word
    assert ann["dogs"].status == "crossed_off" and ann["dogs"].crossed_with == ("bob",)
    bob = {w.written: w for w in sheet.players[1].words}
    assert bob["dogs"].status == "crossed_off" and bob["dogs"].crossed_with == ("ann",)
    assert sheet.players[0].score == 1 + 1  # cats, oxen
    assert sheet.players[1].score == 1 + 1  # rune, eats
    assert sheet.winners == ["ann", "bob"]  # a tie is a tie


def test_winner_and_missed_best_first():
    sheet = score_round(B4, {"ann": ["runes", "cat"], "bob": ["god"]}, D)
    assert sheet.winners == ["ann"]
    missed = [w.word for w in sheet.missed]
    assert "runes" not in missed and "cat" not in missed and "god" not in missed
    pts = [w.points for w in sheet.missed]
    assert pts == sorted(pts, reverse=True)
    assert sheet.max_points == sum(w.points for w in sheet.words)


def test_crossed_off_word_is_not_missed():
    sheet = score_round(B4, {"a": ["oxen"], "b": ["oxen"]}, D)
    assert "oxen" not in [w.word for w in sheet.missed]
    assert all(p.score == 0 for p in sheet.players)


def test_bonus_cell_through_score_round_uses_best_path():
    # "dog" on DOX/OGX/XXX: D(0,0), O at (0,1) or (1,0), G(1,1); the bonus is on (1,0)
    b = Board.parse("DOX/OGX/XXX")
    for bonus in [(1, 0), (0, 1)]:
        sheet = score_round(b, {"a": ["dog"]}, D, Rules(size=3, bonus_cells=frozenset({bonus})))
        w = sheet.players[0].words[0]
        assert w.points == 2 and bonus in w.path


def test_to_dict_schema():
    d = score_round(B4, {"a": ["cats", "zzz"]}, D).to_dict()
    assert d["schema_version"] == 1
    assert {"words", "max_points", "players", "missed", "winners", "board"} <= set(d)
    w0 = d["words"][0]
    assert set(w0) >= {"word", "points", "path"} and all(len(c) == 2 for c in w0["path"])
    p = d["players"][0]
    assert p["name"] == "a" and {"word", "status", "points"} <= set(p["words"][0])


def test_no_players_has_no_winner():
    sheet = score_round(B4, {}, D)
    assert sheet.winners == [] and len(sheet.missed) == len(sheet.words)


def test_everyone_at_zero_has_no_winner():
    """All tied at 0 is "Nobody scored this round", as the page says: no points, no
    winner, in the sheet and its JSON."""
    sheet = score_round(B4, {"ann": ["zebra"], "bob": [], "cy": ["dogs"], "dee": ["dogs"]}, D)
    assert [p.score for p in sheet.players] == [0, 0, 0, 0]
    assert sheet.winners == [] and sheet.to_dict()["winners"] == []


def test_rules_size_must_match_board():
    with pytest.raises(UsageError):
        score_round(B4, {}, D, Rules(size=5))


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(["cat", "cats", "dog", "dogs", "oxen", "rune", "runes",
                                          "eats", "tea", "zebra", "god", "xx"]), max_size=6),
                min_size=2, max_size=4))
def test_crossing_off_independent_of_player_order(lists):
    players = {f"p{i}": ws for i, ws in enumerate(lists)}
    base = score_round(B4, players, D)
    expect = {p.name: (p.score, [(w.word, w.status, w.points) for w in p.words]) for p in base.players}
    for perm in itertools.islice(itertools.permutations(players), 6):
        sheet = score_round(B4, {k: players[k] for k in perm}, D)
        got = {p.name: (p.score, [(w.word, w.status, w.points) for w in p.words]) for p in sheet.players}
        assert got == expect
        assert sorted(sheet.winners) == sorted(base.winners)


def test_a_word_the_board_cannot_spell_is_not_on_the_board_before_not_a_word_of_the_dictionary():
    board = Board.parse("PERS/LATG/SINE/TERS")
    sheet = score_round(board, {"a": ["xyzzy", "pers", "gats"]})
    assert [(w.word, w.status) for w in sheet.players[0].words] == [
        ("xyzzy", "not_on_board"),       # no X on the board: what players check first
        ("pers", "not_in_dictionary"),   # the board spells it; it is not a word
        ("gats", "not_on_board")]        # a word, but no path spells it


def test_accents_are_folded_as_players_mean_them():
    board = Board.parse("NAIX/XXVX/XXEX/XXXX")
    sheet = score_round(board, {"a": ["naïve", "NAÏVE", "café!"]})
    got = [(w.word, w.status) for w in sheet.players[0].words]
    assert got[0] == ("naive", "scored") and got[1] == ("naive", "repeated")
    assert got[2][1] in ("not_on_board", "not_a_word")
