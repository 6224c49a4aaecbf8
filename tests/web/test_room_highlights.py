"""The round's highlights the table screen tells after the podium: the best word that
scored (its points, its path, who found it) and a few of the words everyone missed,
the common ones first (room/view.round_highlights, in every view once scored)."""
from __future__ import annotations

import pytest

from boggle_cv.room.view import HIGHLIGHT_MISSED, round_highlights

pytest.importorskip("starlette")
pytest.importorskip("segno")

from .test_room_games import play  # noqa: E402
from .test_rooms_api import Table, client  # noqa: E402,F401


def _word(word: str, points: int, status: str = "scored", **more: object) -> dict:
    return {"word": word, "points": points, "status": status, "path": [[0, 0], [0, 1]], **more}


def test_the_best_word_is_the_one_that_scored_most_then_the_longest():
    report = {"players": [
        {"name": "Ann", "words": [_word("rest", 1), _word("tern", 1), _word("plaster", 0, "crossed_off")]},
        {"name": "Bob", "words": [_word("slate", 2), _word("pert", 1)]},
        {"name": "Cy", "words": [_word("aster", 2), _word("xyzzy", 0, "not_on_board")]},
    ], "missed": []}
    got = round_highlights(report)
    assert got is not None
    assert got["best"] == {"word": "aster", "points": 2, "path": [[0, 0], [0, 1]], "by": ["Cy"]}  # ties: a-z
    report["players"][0]["words"].append(_word("plasters", 2, written="Plasters"))
    assert round_highlights(report)["best"]["by"] == ["Ann"]  # the longer of the 2-point words
    assert round_highlights(report)["best"]["written"] == "Plasters"


def test_no_best_word_when_nothing_scored():
    report = {"players": [{"name": "Ann", "words": [_word("rest", 0, "crossed_off")]},
                          {"name": "Bob", "words": [_word("rest", 0, "crossed_off")]}], "missed": []}
    got = round_highlights(report)
    assert got == {"best": None, "missed": [], "missed_total": 0}
    assert round_highlights(None) is None


def test_the_missed_words_shown_are_the_common_ones_first_each_part_best_first():
    missed = [{"word": w, "points": p, "path": [[1, 1]], "common": c} for w, p, c in [
        ("replastering", 11, False), ("plasters", 5, True), ("argentites", 11, False),
        ("plaster", 4, True), ("tern", 1, True), ("stern", 2, False), ("lest", 1, False)]]
    got = round_highlights({"players": [], "missed": missed})
    assert [w["word"] for w in got["missed"]] == ["plasters", "plaster", "tern", "replastering", "argentites"]
    assert len(got["missed"]) == HIGHLIGHT_MISSED and got["missed_total"] == 7
    assert got["missed"][0] == {"word": "plasters", "points": 5, "path": [[1, 1]], "common": True}


def test_every_view_of_a_scored_round_carries_its_highlights(client):  # noqa: F811
    t = Table(client, ["Ann", "Bob"], seconds=None, target=50)
    assert t.view()["round"]["highlights"] is None  # before any round is scored
    view = play(t, {"Ann": ["slate", "rest"], "Bob": ["rest", "pert"]})
    h = view["round"]["highlights"]
    assert h["best"]["word"] == "slate" and h["best"]["by"] == ["Ann"] and h["best"]["points"] == 2
    assert len(h["best"]["path"]) == 5
    assert 3 <= len(h["missed"]) <= HIGHLIGHT_MISSED
    assert all(w["word"] not in ("slate", "rest", "pert") and w["points"] >= 1 for w in h["missed"])
    commons = [w["common"] for w in h["missed"]]
    assert commons == sorted(commons, reverse=True)  # the words a family would know first
    assert t.view("Bob")["round"]["highlights"] == h  # every phone, and the table screen, sees the same
    res = t.as_host("POST", "/rounds", json={"wait": True})
    assert res.status_code == 201 and res.json()["room"]["round"]["highlights"] is None  # the next round
