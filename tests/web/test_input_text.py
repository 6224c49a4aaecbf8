"""Text coming in can never brick a room: a lone
surrogate anywhere in a body (a key or a value, as a JSON escape or as CESU-8 bytes) is
400 at every entry and nothing is stored; JSON nested too deeply is 400, not 500; a
room that an older version stored with such a name is still shown."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.room.db import RoomDB  # noqa: E402
from boggle_cv.room.model import Player, Room, token_hash  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .test_rooms_api import BOARD, Table, bearer  # noqa: E402

JSON = {"content-type": "application/json"}
EVE = '"Eve\\ud800"'           # a lone surrogate, as a JSON escape (the body itself is ASCII)
CESU = '"Eve\xed\xa0\x80"'      # the same as CESU-8 bytes (latin-1 below keeps the bytes)


@pytest.fixture()
def client(tmp_path, dictionary):
    app = create_app(ServeConfig(db_path=tmp_path / "games.sqlite3"), dictionary=dictionary)
    with TestClient(app) as c:
        yield c


def raw(text: str) -> bytes:
    return text.encode("latin-1")


def players_doc(name: str) -> str:
    return f'{{"board": "{BOARD}", "players": [{{"name": {name}, "words": "rest"}}]'


# (name, method, tail or absolute path, body template with {S} for the bad string, as whom)
ENTRIES = [
    ("create game", "POST", "/api/rooms", '{{"game": {S}}}', None),
    ("join", "POST", "/players", '{{"name": {S}}}', None),
    ("rename", "PUT", "/players/ANN", '{{"name": {S}}}', "Ann"),
    ("words list", "PUT", "/players/ANN/words", '{{"words": ["rest", {S}], "base": 0}}', "Ann"),
    ("words text", "PUT", "/players/ANN/words", '{{"words": {S}, "base": 0}}', "Ann"),
    ("a key", "PUT", "/players/ANN/words", '{{"words": ["rest"], "base": 0, {S}: 1}}', "Ann"),
    ("settings", "PUT", "/settings", '{{"variant": {S}}}', "host"),
    ("board", "PUT", "/rounds/current/board", '{{"board": {S}}}', "Ann"),
    ("fix", "PUT", "/rounds/current/board", '{{"fix": {{"r1c1": {S}}}}}', "Ann"),
    ("score player", "POST", "/api/score",
     '{{"board": "PERS/LATG/SINE/TERS", "players": [{{"name": {S}, "words": "rest"}}]}}', None),
    ("rounds player", "POST", "/api/rounds",
     '{{"game": "g", "board": "PERS/LATG/SINE/TERS", "players": [{{"name": {S}, "words": "rest"}}]}}', None),
    ("rounds game", "POST", "/api/rounds",
     '{{"game": {S}, "board": "PERS/LATG/SINE/TERS", "players": [{{"name": "a", "words": "rest"}}]}}', None),
]


@pytest.mark.parametrize("bad", [EVE, CESU], ids=["escape", "cesu8"])
@pytest.mark.parametrize("what, method, tail, body, who", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_a_lone_surrogate_is_400_everywhere_and_the_room_stays_readable(client, bad, what, method, tail, body,
                                                                        who):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    ann_id = t.players["Ann"][0]
    url = tail if tail.startswith("/api/") else t.url(tail.replace("ANN", ann_id))
    headers = dict(JSON)
    if who == "host":
        headers.update(bearer(t.host))
    elif who:
        headers.update(bearer(t.players[who][1]))
    before = t.view()
    res = client.request(method, url, content=raw(body.format(S=bad)), headers=headers)
    assert res.status_code == 400, res.text
    assert res.json()["kind"] == "UsageError" and "Unicode" in res.json()["error"]
    after = t.view()  # the room answers every member, and nothing changed
    assert after["version"] == before["version"]
    assert t.view("Bob")["version"] == after["version"]
    assert client.get("/api/games").status_code == 200


@pytest.mark.parametrize("depth", [1000, 100_000])
@pytest.mark.parametrize("path", ["/api/rooms", "/api/score"])
def test_json_nested_too_deeply_is_400(client, path, depth):
    body = '{"board": ' + "[" * depth + "]" * depth + "}"
    res = client.post(path, content=body.encode(), headers=JSON)
    assert res.status_code == 400, res.text[:200]
    assert res.json()["kind"] in ("UsageError", "BoardTextError")


def test_json_nested_too_deeply_in_a_room_is_400(client):
    t = Table(client, ["Ann"], seconds=None)
    body = '{"words": ' + "[" * 100_000 + "]" * 100_000 + ', "base": 0}'
    res = t.as_player("Ann", "PUT", f"/players/{t.players['Ann'][0]}/words", content=body.encode(), headers=JSON)
    assert res.status_code == 400 and "nested" in res.json()["error"]


def test_a_room_stored_with_a_lone_surrogate_by_an_older_version_is_still_shown(tmp_path, dictionary):
    db_path = tmp_path / "games.sqlite3"
    room = Room("ABCDEFG", "friday\ud800", token_hash("host-token"), 0.0)
    room.players.append(Player("p1", "Eve\ud800", token_hash("eve-token"), 0.0))
    room.round.lists["p1"] = ["rest\udfff"]
    room.last_change = {"what": "join", "by": "Eve\ud800", "at": 0.0}
    app = create_app(ServeConfig(db_path=db_path), dictionary=dictionary)
    with TestClient(app) as c:
        assert RoomDB(db_path).create(room)  # as the old server stored it (json.dumps escapes it)
        for token in ("host-token", "eve-token"):
            res = c.get("/api/rooms/ABCDEFG", headers=bearer(token))
            assert res.status_code == 200, res.text
            view = res.json()["room"]
            assert view["game"] == "friday\ufffd" and view["players"][0]["name"] == "Eve\ufffd"
        # Eve can give herself a name that is kept as typed, and the room goes on
        res = c.put("/api/rooms/ABCDEFG/players/p1", json={"name": "Eve"}, headers=bearer("eve-token"))
        assert res.status_code == 200 and res.json()["room"]["players"][0]["name"] == "Eve"
        assert json.loads(json.dumps(res.json()))  # the answer is plain UTF-8 JSON
