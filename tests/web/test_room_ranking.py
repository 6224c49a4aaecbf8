"""Every score table in rank order: the round's report (the room's view) and the
game's standings, winner first, equal scores sharing a rank (1, 1, 3)."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")

from boggle_cv.room.view import ranked  # noqa: E402

from .test_rooms_api import Table, client  # noqa: E402,F401

BOARD = "PERS/LATG/SINE/TERS"


def test_ranked_shares_ranks_between_equal_scores_and_skips_after():
    rows = [{"name": "Ann", "score": 1}, {"name": "Bob", "score": 4}, {"name": "Cy", "score": 4},
            {"name": "Di", "score": 0}]
    out = ranked(rows, "score")
    assert [(r["name"], r["rank"], r["tied"]) for r in out] == [
        ("Bob", 1, True), ("Cy", 1, True), ("Ann", 3, False), ("Di", 4, False)]
    assert ranked([], "score") == []
    assert rows[0] == {"name": "Ann", "score": 1}  # the rows given are left as they were


def _round(t: Table, lists: dict[str, list[str]]) -> dict:
    assert t.as_host("POST", "/rounds", json={"seconds": None}).status_code == 201
    for name, words in lists.items():
        assert t.words(name, words).status_code == 200
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_host("PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    res = t.as_host("POST", "/rounds/current/score")
    assert res.status_code == 200, res.text
    report: dict = t.view()["round"]["report"]
    return report


def test_the_report_and_the_standings_are_ranked_winner_first(client):  # noqa: F811
    t = Table(client, ["Ann", "Bob", "Cy"], seconds=None)
    # Ann (joined first) scores least; Bob and Cy tie
    report = _round(t, {"Ann": ["xyzzy"], "Bob": ["slate", "tern"], "Cy": ["slate", "rest"]})
    got = [(p["name"], p["score"], p["rank"], p["tied"]) for p in report["players"]]
    assert [g[0] for g in got][-1] == "Ann" and got[0][2] == got[1][2] == 1 and got[0][3] and got[1][3]
    assert got[2][2] == 3 and not got[2][3] and got[0][1] > got[2][1]
    for who in ("Ann", None):
        seen = t.view(who)["round"]["report"]["players"]
        assert [(p["name"], p["rank"], p["tied"]) for p in seen] == [(g[0], g[2], g[3]) for g in got]
    # a second round: Ann alone on top of the game
    _round(t, {"Ann": ["slate", "pert", "rest", "tern", "pest"], "Bob": [], "Cy": []})
    st = t.as_player("Bob", "GET", "/standings").json()
    assert [p["player"] for p in st["players"]][0] == "Ann" and st["players"][0]["rank"] == 1
    totals = [p["total"] for p in st["players"]]
    assert totals == sorted(totals, reverse=True)
    assert [p["rank"] for p in st["players"]] == [1 + sum(1 for x in totals if x > y) for y in totals]
