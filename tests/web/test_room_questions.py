"""The room's Score asks the referee first: while a doubt whose answer changes a
score is open (a sheet word marked doubtful, a doubtful cell of the tray's photo) it
refuses with the question (409 round.questions_open, every question in the body);
with none open it scores at once, the doubts that change nothing scored as read."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .test_room_sheets import Recorded, playing, send, settle, word  # noqa: E402

BOARD = "PERS/LATG/SINE/TERS"   # SINE and SLAT score 1 point each; SLAB and SLOB are not on it


@pytest.fixture()
def app(tmp_path, dictionary):
    return create_app(ServeConfig(db_path=tmp_path / "games.sqlite3"), dictionary=dictionary)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def _locked_with_board(t) -> None:
    assert t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200


def test_a_doubt_that_changes_nothing_does_not_hold_the_score(client, app):
    # slab or slob, or no word: none of them is on the board
    app.state.web.sheet_reader = Recorded([word("slab", True, [("slab", 0.6), ("slob", 0.4)]), word("sine")])
    t = playing(client)
    assert send(t, "Ann", "Ann").status_code == 200
    _locked_with_board(t)
    res = t.as_host("POST", "/rounds/current/score")
    assert res.status_code == 200, res.text
    doc = res.json()
    assert doc["questions"] == [] and [s["shown"] for s in doc["settled"]] == ["slab (or slob, no word)"]
    assert next(p for p in doc["players"] if p["name"] == "Ann")["score"] == 1


def test_score_refuses_with_the_question_while_a_doubt_changes_a_score(client, app):
    app.state.web.sheet_reader = Recorded([word("sine"), word("slat", True, [("slat", 0.6), ("slab", 0.4)])])
    t = playing(client)
    assert send(t, "Ann", "Ann").status_code == 200
    _locked_with_board(t)
    res = t.as_host("POST", "/rounds/current/score")
    assert res.status_code == 409
    body = res.json()
    assert body["code"] == "round.questions_open" and body["params"] == {"question": "Ann: slat (or slab, no word)"}
    assert [q["key"] for q in body["questions"]] == ["Ann#2"]
    assert body["questions"][0]["rides"] == {"points": 1, "expected": 0.44, "players": ["Ann"]}
    assert t.view()["round"]["phase"] == "locked"  # nothing scored
    assert settle(t, "Ann", "Ann", "slat", "slat").status_code == 200
    done = t.as_host("POST", "/rounds/current/score")
    assert done.status_code == 200 and done.json()["questions"] == []
