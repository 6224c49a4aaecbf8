"""The room's round (docs/web.md, "The room API"): a save names the
revision it was made from and a stale one is refused with the server's list (two tabs
of one player never wipe a list), strict flags, the waiting step, settings fixed when the
clock starts, bonus and challenge cells chosen on the page, one table of phase moves."""
from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.errors import LimitReached, RoundStateError, UsageError  # noqa: E402
from boggle_cv.room.model import TRANSITIONS, Phase, Round  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web import requests as web_requests  # noqa: E402
from boggle_cv.web.requests import PutWords  # noqa: E402

from .test_rooms_api import BOARD, Table  # noqa: E402


@pytest.fixture()
def client(games_db, dictionary):
    app = create_app(ServeConfig(db_path=games_db), dictionary=dictionary)
    with TestClient(app) as c:
        yield c


def ann(t: Table, view: dict) -> dict:
    return next(p for p in view["players"] if p["id"] == t.players["Ann"][0])


# ---- revisions: two tabs of one player ------------------------------------------------------------

def test_a_second_tab_on_a_stale_revision_cannot_wipe_the_list(client):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    t.as_host("POST", "/rounds")
    assert ann(t, t.view())["revision"] == 0
    tab1 = t.words("Ann", ["rest", "pest", "last"], base=0)
    assert tab1.status_code == 200
    assert ann(t, tab1.json()["room"])["revision"] == 1
    change = tab1.json()["room"]["last_change"]
    assert change["what"] == "words" and change["by"] == "Ann" and change["revision"] == 1
    assert change["player_id"] == t.players["Ann"][0]
    tab2 = t.words("Ann", ["slate"], base=0)  # tab 2 still showed the empty box
    assert tab2.status_code == 409, tab2.text
    doc = tab2.json()
    assert doc["kind"] == "StaleList" and doc["error"] and doc["hint"]
    assert doc["current"] == {"words": ["rest", "pest", "last"], "revision": 1}
    assert t.view("Ann")["players"][0]["words"] == ["rest", "pest", "last"]  # nothing lost
    # tab 2 merges (its word added to the server's) and saves from revision 1
    merged = t.words("Ann", doc["current"]["words"] + ["slate"], base=1)
    assert merged.status_code == 200 and ann(t, merged.json()["room"])["revision"] == 2
    assert ann(t, t.view("Bob"))["revision"] == 2 and ann(t, t.view("Bob"))["words"] is None  # count only


def test_revisions_start_again_each_round_and_a_removed_player_takes_theirs(client):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest"], base=0)
    t.words("Bob", ["pest"], base=0)
    t.as_host("DELETE", f"/players/{t.players['Bob'][0]}")
    assert t.as_host("POST", "/rounds", json={"discard": True}).status_code == 201
    assert [p["revision"] for p in t.view()["players"]] == [0]
    assert t.words("Ann", ["last"], base=0).status_code == 200


@pytest.mark.parametrize("body, fragment", [
    ({"words": ["rest"]}, "base"),
    ({"words": ["rest"], "base": None}, "base"),
    ({"words": ["rest"], "base": "0"}, "base"),
    ({"words": ["rest"], "base": True}, "base"),
    ({"words": ["rest"], "base": -1}, "base"),
    ({"words": ["rest"], "base": 0.0}, "base"),
    ({"base": 0}, "words"),
    ({"words": 5, "base": 0}, "words"),
    ({"words": ["rest", 5], "base": 0}, "words"),
])
def test_a_save_needs_words_and_a_base_revision(client, body, fragment):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    res = t.as_player("Ann", "PUT", f"/players/{t.players['Ann'][0]}/words", json=body)
    assert res.status_code == 400, res.text
    assert fragment in res.json()["error"]


def test_words_are_split_in_a_worker_thread_and_counting_stops_past_the_limit(client, monkeypatch):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    seen: list[int] = []
    real_read, real_iter = PutWords.read.__func__, web_requests.iter_tokens  # type: ignore[attr-defined]

    def read(cls, doc, max_words):
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()  # not on the event loop
        return real_read(cls, doc, max_words)

    def counted(text):
        for tok in real_iter(text):
            seen.append(1)
            yield tok
    monkeypatch.setattr(PutWords, "read", classmethod(read))
    monkeypatch.setattr(web_requests, "iter_tokens", counted)
    limit = client.app.state.rooms.limits.max_words
    res = t.words("Ann", "word " * 100_000, base=0)  # 500 KB of words
    assert res.status_code == 409 and f"at most {limit}" in res.json()["error"]
    assert len(seen) == limit + 1
    assert t.words("Ann", "rest pest", base=0).status_code == 200


def test_put_words_reader_limits():
    assert PutWords.read({"words": "a, b;c\nd", "base": 3}, 4) == PutWords(("a", "b", "c", "d"), 3)
    with pytest.raises(LimitReached):
        PutWords.read({"words": ["a b", "c d e"], "base": 0}, 4)


# ---- strict flags -------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [{"discard": "no"}, {"discard": 1}, {"discard": None}, {"wait": "yes"},
                                  {"wait": 0}, {"seconds": "60"}, {"seconds": 60.0}, {"seconds": True}])
def test_start_flags_and_timer_must_be_json_values(client, body):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest"], base=0)
    res = t.as_host("POST", "/rounds", json=body)
    assert res.status_code == 400, res.text
    view = t.view("Ann")
    assert view["round"]["number"] == 1 and view["players"][0]["words"] == ["rest"]  # not discarded


@pytest.mark.parametrize("body, fragment", [
    ({"seconds": "60"}, "timer"), ({"seconds": 5}, "timer"), ({"target": True}, "target"),
    ({"target": "50"}, "target"), ({"game": 7}, "game name"), ({"game": "fri\u200bday"}, "invisible"),
])
def test_a_room_is_made_only_from_well_typed_values(client, body, fragment):
    res = client.post("/api/rooms", json=body)
    assert res.status_code == 400 and fragment in res.json()["error"], res.text


def test_a_rename_follows_the_name_rule(client):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    bob = f"/players/{t.players['Bob'][0]}"
    assert t.as_player("Bob", "PUT", bob, json={"name": "\uff21\uff2e\uff2e"}).status_code == 400  # ANN is Ann
    assert t.as_player("Bob", "PUT", bob, json={"name": "Bob\u202e"}).status_code == 400
    res = t.as_player("Bob", "PUT", bob, json={"name": "  \uff22obby  "})
    assert res.status_code == 200 and res.json()["room"]["players"][1]["name"] == "Bobby"


# ---- the waiting step ---------------------------------------------------------------------------

def test_next_round_can_wait_for_the_tray_and_the_timer(client):
    t = Table(client, ["Ann"], seconds=60)
    t.as_host("POST", "/rounds")
    t.as_host("POST", "/rounds/current/lock")
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD})
    assert t.as_host("POST", "/rounds/current/score").status_code == 200
    res = t.as_host("POST", "/rounds", json={"wait": True})
    assert res.status_code == 201, res.text
    r = res.json()["room"]["round"]
    assert (r["number"], r["phase"], r["deadline"], r["started_at"]) == (2, "waiting", None, None)
    assert res.json()["room"]["last_change"]["what"] == "wait"
    assert t.words("Ann", ["rest"], base=0).status_code == 409             # no clock: no lists yet
    assert t.as_host("POST", "/rounds", json={"wait": True}).json()["room"]["round"]["number"] == 2  # again: same
    assert t.as_host("POST", "/rounds", json={"wait": True, "seconds": 30}).status_code == 400
    assert t.as_host("PUT", "/settings", json={"seconds": 30}).status_code == 200  # the timer, while waiting
    started = t.as_host("POST", "/rounds", json={})
    r = started.json()["room"]["round"]
    assert started.status_code == 201 and (r["number"], r["phase"], r["seconds"]) == (2, "playing", 30)
    assert r["deadline"] == pytest.approx(r["started_at"] + 30)
    assert t.words("Ann", ["rest"], base=0).status_code == 200


def test_wait_on_an_unscored_round_needs_discard(client):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    assert t.as_host("POST", "/rounds", json={"wait": True}).status_code == 409
    res = t.as_host("POST", "/rounds", json={"wait": True, "discard": True})
    assert res.status_code == 201 and res.json()["room"]["round"]["phase"] == "waiting"


# ---- settings apply from the next round -----------------------------------------------------------

def test_settings_changed_after_the_start_apply_from_the_next_round(client):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest", "pest", "slate"], base=0)
    t.as_host("POST", "/rounds/current/lock")
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD})
    res = t.as_host("PUT", "/settings", json={"min_length": 5, "variant": "challenge"})
    assert res.status_code == 200
    view = res.json()["room"]
    assert view["settings"]["min_length"] == 5 and view["round"]["settings"]["min_length"] is None
    assert view["round"]["settings_fixed"] is True
    report = t.as_host("POST", "/rounds/current/score").json()
    assert report["rules"]["min_length"] == 3 and report["rules"]["variant"] == "standard"
    assert report["players"][0]["words"][0]["status"] == "scored"  # "rest": 4 letters, not too short
    # the next round is played with them
    t.as_host("POST", "/rounds")
    assert t.view()["round"]["settings"]["min_length"] == 5


# ---- bonus and challenge cells from the page --------------------------------------------------------

def _locked_round_with_board(client, **room) -> Table:
    t = Table(client, ["Ann", "Bob"], seconds=None, **room)
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest", "pest", "slate"], base=0)
    t.words("Bob", ["rest", "sine", "tern"], base=0)
    t.as_host("POST", "/rounds/current/lock")
    assert t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    return t


def test_a_challenge_round_needs_the_red_cubes_cell_then_scores_with_it(client):
    t = Table(client, ["Ann"], seconds=None)
    assert t.as_host("PUT", "/settings", json={"variant": "challenge"}).status_code == 200
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest", "pest", "slate"], base=0)
    t.as_host("POST", "/rounds/current/lock")
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD})
    res = t.as_host("POST", "/rounds/current/score")
    assert res.status_code == 409, res.text
    assert res.json()["kind"] == "RoundStateError" and "tap the red cube's cell" in res.json()["hint"]
    res = t.as_player("Ann", "PUT", "/rounds/current/board", json={"challenge": "r2c3", "bonus": ["r1c1"]})
    assert res.status_code == 200, res.text
    board = res.json()["room"]["round"]["board"]
    assert board["challenge"] == "r2c3" and board["bonus"] == ["r1c1"]
    assert board["marks_from"] == {"bonus": "page", "challenge": "page"}
    report = t.as_host("POST", "/rounds/current/score")
    assert report.status_code == 200, report.text
    want = client.post("/api/score", json={"board": BOARD, "players": [{"name": "Ann", "words": "rest pest slate"}],
                                           "rules": {"variant": "challenge", "challenge_cell": [1, 2],
                                                     "bonus_cells": [[0, 0]]}}).json()
    got = report.json()
    assert got["rules"] == want["rules"] and got["players"] == want["players"]


def test_bonus_cells_chosen_on_the_page_score_double(client):
    t = _locked_round_with_board(client)
    res = t.as_player("Bob", "PUT", "/rounds/current/board", json={"bonus": ["R1C1", "r1c1", "r4c4"]})
    assert res.status_code == 200 and res.json()["room"]["round"]["board"]["bonus"] == ["r1c1", "r4c4"]
    assert res.json()["room"]["last_change"]["what"] == "marks"
    got = t.as_host("POST", "/rounds/current/score").json()
    assert got["rules"]["bonus_cells"] == [[0, 0], [3, 3]] and got["rules"]["challenge_cell"] is None


@pytest.mark.parametrize("body, status, fragment", [
    ({"bonus": ["r5c1"]}, 400, "outside"),
    ({"bonus": ["x"]}, 400, "not a cell"),
    ({"bonus": "r1c1"}, 400, "list"),
    ({"challenge": 5}, 400, "challenge"),
    ({"challenge": "r0c1"}, 400, "not a cell"),
])
def test_bad_marks_are_refused(client, body, status, fragment):
    t = _locked_round_with_board(client)
    res = t.as_player("Ann", "PUT", "/rounds/current/board", json=body)
    assert res.status_code == status and fragment in res.json()["error"], res.text


def test_marks_need_a_board(client):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    res = t.as_player("Ann", "PUT", "/rounds/current/board", json={"bonus": ["r1c1"]})
    assert res.status_code == 409 and "no board" in res.json()["error"]


def test_no_challenge_cell_chosen_on_the_page_is_kept(client):
    t = _locked_round_with_board(client)
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"challenge": "r2c3"})
    res = t.as_player("Ann", "PUT", "/rounds/current/board", json={"challenge": None})
    board = res.json()["room"]["round"]["board"]
    assert board["challenge"] is None and board["marks_from"]["challenge"] == "page"


# ---- one table of phase moves -----------------------------------------------------------------------

def test_every_phase_has_its_moves_and_others_are_refused():
    assert set(TRANSITIONS) == set(Phase)
    r = Round(1)
    for to in (Phase.playing, Phase.locked, Phase.playing, Phase.locked, Phase.scored):
        r.move(to)
    for to in Phase:
        with pytest.raises(RoundStateError):
            r.move(to)
    with pytest.raises(RoundStateError):
        Round(1).move(Phase.scored)
    with pytest.raises(ValueError):
        Round(1, "finished")  # type: ignore[arg-type]


def test_flag_and_int_readers():
    from boggle_cv.web.requests import flag, int_in, text
    assert flag({"x": True}, "x") is True and flag({}, "x") is False
    for bad in ("no", "false", 0, 1, None, [], {}):
        with pytest.raises(UsageError):
            flag({"x": bad}, "x")
    assert int_in({"n": 3}, "n", 1, 5) == 3
    for bad in (0, 6, 3.0, "3", True, None):
        with pytest.raises(UsageError):
            int_in({"n": bad}, "n", 1, 5)
    assert text({"s": "ab"}, "s", 2) == "ab"
    for bad in ("abc", 1, None):
        with pytest.raises(UsageError):
            text({"s": bad}, "s", 2)
