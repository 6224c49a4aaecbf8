"""A room's game played to its target: totals by player in rank order, the game
ended with its winner when someone reaches the target, "no target" going on, a new
game with the same players; the table screen's pass, which only reads."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")

from boggle_cv.room.service.games import next_game_name  # noqa: E402

from .test_rooms_api import Table, bearer, client  # noqa: E402,F401

BOARD = "PERS/LATG/SINE/TERS"


def play(t: Table, lists: dict[str, list[str]]) -> dict:
    """One round typed, locked, the board typed and scored: the room as the host sees it."""
    assert t.as_host("POST", "/rounds", json={"seconds": None}).status_code == 201
    for name, words in lists.items():
        assert t.words(name, words).status_code == 200
    t.as_host("POST", "/rounds/current/lock")
    t.as_host("PUT", "/rounds/current/board", json={"board": BOARD})
    assert t.as_host("POST", "/rounds/current/score").status_code == 200
    return t.view()


def test_the_game_ends_when_someone_reaches_the_target_and_a_new_game_keeps_the_players(client):  # noqa: F811
    t = Table(client, ["Ann", "Bob"], seconds=None, target=3)
    view = play(t, {"Ann": ["slate"], "Bob": ["rest"]})       # 2 and 1
    g = view["game_state"]
    assert g["target"] == 3 and g["over"] is None and g["number"] == 1
    assert [(s["name"], s["total"], s["rank"]) for s in g["standings"]] == [("Ann", 2, 1), ("Bob", 1, 2)]
    view = play(t, {"Ann": ["pert"], "Bob": ["tern", "last"]})   # 3 and 3: both reach it together
    over = view["game_state"]["over"]
    assert over == {"winners": ["Ann", "Bob"], "target": 3, "round": 2, "total": 3}
    assert [s["tied"] for s in view["game_state"]["standings"]] == [True, True]
    assert t.view("Bob")["game_state"] == view["game_state"]  # every phone sees it
    # a new game: the same players, totals from 0, round 1 waiting, its own name in the games database
    res = t.as_host("POST", "/games")
    assert res.status_code == 201, res.text
    room = res.json()["room"]
    assert [p["name"] for p in room["players"]] == ["Ann", "Bob"]
    assert room["round"]["number"] == 1 and room["round"]["phase"] == "waiting"
    assert room["game"] == "friday · 2" and room["game_state"]["over"] is None
    assert [s["total"] for s in room["game_state"]["standings"]] == [0, 0]
    assert t.as_player("Ann", "POST", "/games").status_code == 403  # the host's
    view = play(t, {"Ann": [], "Bob": ["slate"]})
    assert view["game_state"]["standings"][0]["name"] == "Bob" and view["game_state"]["over"] is None
    st = t.as_player("Ann", "GET", "/standings").json()
    assert st["game"] == "friday · 2" and st["rounds"] == 1


def test_no_target_plays_on_and_a_new_game_waits_for_a_scored_round(client):  # noqa: F811
    t = Table(client, ["Ann"], seconds=None)
    res = t.as_host("PUT", "/settings", json={"target": None})
    assert res.status_code == 200 and res.json()["room"]["settings"]["target"] is None
    view = play(t, {"Ann": ["slate", "plaster", "pert", "rest"]})
    assert view["game_state"]["over"] is None and view["game_state"]["target"] is None
    assert view["game_state"]["standings"][0]["total"] > 0
    assert t.as_player("Ann", "GET", "/standings").json()["target"] is None
    t.as_host("POST", "/rounds", json={"seconds": None})
    res = t.as_host("POST", "/games")
    assert res.status_code == 409 and res.json()["code"] == "round.not_scored"
    assert client.post("/api/rooms", json={"target": None}).json()["room"]["settings"]["target"] is None


def test_the_table_screen_reads_the_room_and_changes_nothing(client):  # noqa: F811
    t = Table(client, ["Ann"], seconds=None)
    key = t.view()["you"]["screen_key"]
    assert key and t.view("Ann")["you"]["screen_key"] is None  # only the host is given it
    res = client.get(t.url(), headers=bearer(key))
    assert res.status_code == 200
    seen = res.json()["room"]
    assert seen["you"] == {"host": False, "player_id": None, "name": None, "screen": True, "screen_key": None}
    assert [p["name"] for p in seen["players"]] == ["Ann"]
    assert client.get(t.url("/standings"), headers=bearer(key)).status_code == 200
    for method, tail, body in (("POST", "/rounds", {}), ("PUT", "/rounds/current/board", {"board": BOARD}),
                               ("POST", "/games", {}), ("PUT", "/settings", {"target": 100})):
        assert client.request(method, t.url(tail), headers=bearer(key), json=body).status_code == 401, tail


def test_a_restarted_server_keeps_the_game(tmp_path, dictionary):
    from starlette.testclient import TestClient

    from boggle_cv.web import ServeConfig, create_app
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(ServeConfig(db_path=db), dictionary=dictionary)) as c:
        t = Table(c, ["Ann"], seconds=None, target=1)
        before = play(t, {"Ann": ["slate"]})["game_state"]
    assert before["over"]["winners"] == ["Ann"]
    with TestClient(create_app(ServeConfig(db_path=db), dictionary=dictionary)) as c:
        t.c = c
        assert t.view()["game_state"] == before


def test_next_game_names():
    assert next_game_name("room KQ7M2XP", 2) == "room KQ7M2XP · 2"
    assert next_game_name("friday · 2", 3) == "friday · 3"
