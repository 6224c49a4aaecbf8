"""The room API (docs/web.md, "Rooms"), played as scripts would: a host and three
players on their own tokens through a round, then the same with tokens swapped,
guessed codes, bad input and a restarted server."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.room.model import CODE_ALPHABET, CODE_LENGTH  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .conftest import REPO, SAMPLE  # noqa: E402

BOARD = "PERS/LATG/SINE/TERS"
LISTS = {"Ann": ["zone", "huge", "pert", "last", "slate"], "Bob": ["zone", "huge", "last", "rest"],
         "Cy": ["sine", "slate", "xyzzy", "élan"]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _bodied(method: str, kw: dict[str, object]) -> dict[str, object]:
    """A bodiless POST sends {} as JSON, as the page does (guards: cross-site requests)."""
    if method == "POST" and not {"json", "content", "data", "files"} & set(kw):
        return {**kw, "json": {}}
    return kw


class Table:
    """A room made through the API: the host's token and each player's (id, token)."""

    def __init__(self, client: TestClient, names: list[str] = list(LISTS), **room: object) -> None:
        self.c = client
        res = client.post("/api/rooms", json={"game": "friday", **room})
        assert res.status_code == 201, res.text
        doc = res.json()
        self.code, self.host, self.join_url = doc["code"], doc["host_token"], doc["join_url"]
        self.players: dict[str, tuple[str, str]] = {}
        for name in names:
            res = client.post(f"/api/rooms/{self.code}/players", json={"name": name})
            assert res.status_code == 201, res.text
            self.players[name] = (res.json()["player_id"], res.json()["token"])

    def url(self, tail: str = "") -> str:
        return f"/api/rooms/{self.code}{tail}"

    def as_host(self, method: str, tail: str, **kw: object):
        return self.c.request(method, self.url(tail), headers=bearer(self.host), **_bodied(method, kw))

    def as_player(self, name: str, method: str, tail: str, headers: dict[str, str] | None = None, **kw: object):
        return self.c.request(method, self.url(tail), headers={**(headers or {}), **bearer(self.players[name][1])},
                              **_bodied(method, kw))

    def words(self, name: str, words: object, as_name: str | None = None, base: int | None = None):
        """Save `name`'s list; base: the revision it was made from (default: the server's
        current one, as a phone that saw every save would send)."""
        pid = self.players[name][0]
        if base is None:
            base = next(p["revision"] for p in self.view()["players"] if p["id"] == pid)
        return self.as_player(as_name or name, "PUT", f"/players/{pid}/words", json={"words": words, "base": base})

    def view(self, name: str | None = None) -> dict:
        res = (self.as_player(name, "GET", "") if name else self.as_host("GET", ""))
        assert res.status_code == 200, res.text
        return res.json()["room"]


@pytest.fixture()
def client(games_db, dictionary):
    app = create_app(ServeConfig(db_path=games_db), dictionary=dictionary)
    with TestClient(app) as c:
        yield c


def score_cli(board: str, lists: dict[str, list[str]]) -> dict:
    """`boggle-cv score BOARD --player ... --json`, as a user runs it."""
    args = []
    tmp = Path(REPO / ".pytest_room_lists")
    tmp.mkdir(exist_ok=True)
    try:
        for name, words in lists.items():
            f = tmp / f"{name}.txt"
            f.write_text("\n".join(words) + "\n", encoding="utf-8")
            args += ["--player", f"{name}={f}"]
        out = subprocess.run([sys.executable, "-m", "boggle_cv", "score", board, *args, "--json"],
                             capture_output=True, text=True, cwd=REPO, timeout=120)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)
    finally:
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()


def test_a_round_through_the_api_matches_score_json(client):
    t = Table(client, seconds=None)
    assert t.join_url.endswith(f"/?room={t.code}") and len(t.code) == CODE_LENGTH
    assert t.as_host("POST", "/rounds").status_code == 201
    for name, words in LISTS.items():
        assert t.words(name, words).status_code == 200
    # during the round: own words only
    ann_view = t.view("Ann")
    assert [p["words"] for p in ann_view["players"]] == [LISTS["Ann"], None, None]
    assert [p["word_count"] for p in ann_view["players"]] == [5, 4, 4]
    assert ann_view["round"]["report"] is None
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_player("Cy", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    fix = t.as_player("Bob", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "W"}})
    assert fix.json()["room"]["round"]["board"]["corrections"]["r1c1"]["by"] == "Bob"
    back = t.as_player("Bob", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "P"}})  # as typed again
    assert back.json()["room"]["round"]["board"]["corrections"] == {}
    first = t.as_host("POST", "/rounds/current/score")
    again = t.as_host("POST", "/rounds/current/score")
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    report = first.json()
    want = score_cli(BOARD, LISTS)
    for key in ("board", "rules", "words", "word_count", "max_points", "players", "winners", "missed"):
        assert report[key] == want[key], key
    assert report["round"] == 1 and report["game"] == {"name": "friday", "round": 1}
    statuses = {w["word"]: w["status"] for w in next(p for p in report["players"] if p["name"] == "Ann")["words"]}
    assert statuses["zone"] in ("crossed_off", "not_on_board") and statuses["slate"] == "crossed_off"
    # every list is open now, and standings count the round once
    assert all(p["words"] is not None for p in t.view("Bob")["players"])
    st = t.as_player("Ann", "GET", "/standings").json()
    assert st["rounds"] == 1 and st["target"] == 50


def test_tokens_swapped_can_do_nothing_of_the_others(client):
    t = Table(client, seconds=None)
    ann_id = t.players["Ann"][0]
    assert t.as_player("Ann", "POST", "/rounds").status_code == 403  # not the host
    assert t.as_host("POST", "/rounds").status_code == 201
    assert t.words("Ann", ["pert"], as_name="Bob").status_code == 403
    assert t.as_player("Bob", "PUT", f"/players/{ann_id}", json={"name": "Bobby"}).status_code == 403
    assert t.as_host("PUT", f"/players/{ann_id}/words", json={"words": ["x"], "base": 0}).status_code == 403
    for tail, method in (("/rounds/current/lock", "POST"), ("/rounds/current/reopen", "POST"),
                         ("/rounds/current/score", "POST"), (f"/players/{ann_id}", "DELETE"),
                         ("/settings", "PUT")):
        kw = {"json": {"target": 100}} if method == "PUT" else {}
        res = t.as_player("Cy", method, tail, **kw)
        assert res.status_code == 403, (tail, res.text)
        assert "host" in res.json()["error"]
    # no token, a made-up token, another room's token: 401
    assert client.get(t.url()).status_code == 401
    assert client.get(t.url(), headers=bearer("made-up")).status_code == 401
    other = Table(client, ["Zed"], seconds=None)
    assert client.get(t.url(), headers=bearer(other.players["Zed"][1])).status_code == 401
    assert client.get(t.url(), headers=bearer(other.host)).status_code == 401
    # Ann's list is untouched by all of it
    assert t.view("Ann")["players"][0]["words"] == []


def test_guessed_codes_get_404_then_429(client):
    t = Table(client, ["Ann"])
    token = t.players["Ann"][1]
    wrong = "".join(CODE_ALPHABET[(CODE_ALPHABET.index(ch) + 1) % len(CODE_ALPHABET)] for ch in t.code)
    assert client.get(f"/api/rooms/{wrong}", headers=bearer(token)).status_code == 404
    assert client.post(f"/api/rooms/{wrong}/players", json={"name": "Eve"}).status_code == 404
    for i in range(40):
        res = client.get(f"/api/rooms/ZZZZZ{i:02d}", headers=bearer(token))
        if res.status_code == 429:
            break
    assert res.status_code == 429 and "too many" in res.json()["error"]


@pytest.mark.parametrize("method, tail, body, status, fragment", [
    ("POST", "/players", {"name": ""}, 400, "name"),
    ("POST", "/players", {"name": "ann"}, 400, "already playing"),
    ("POST", "/players", {"name": "x" * 41}, 400, "40"),
    ("POST", "/players", {"name": "Ann\u200b"}, 400, "invisible"),      # zero-width: not a second Ann
    ("POST", "/players", {"name": "\u202eAnn"}, 400, "invisible"),      # bidi override
    ("POST", "/players", {"name": "Ann\x7f"}, 400, "control"),          # DEL
    ("POST", "/players", {"name": "Ann\x9b"}, 400, "control"),          # C1
    ("POST", "/players", {"name": "\uff21\uff2e\uff2e"}, 400, "already playing"),  # full-width ANN
    ("PUT", "/rounds/current/board", {"board": "PERS/LATG"}, 400, "row"),
    ("PUT", "/rounds/current/board", {"fix": {"r9c9": "A"}}, 409, "no board"),
    ("PUT", "/rounds/current/board", {"fix": {"x": "A"}}, 400, "not a cell"),
    ("PUT", "/rounds/current/board", {}, 400, "board"),
    ("POST", "/rounds/current/lock", None, 409, "waiting"),
    ("POST", "/rounds/current/score", None, 409, "lock"),
    ("PUT", "/settings", {"seconds": 3}, 400, "timer"),
    ("PUT", "/settings", {"target": 0}, 400, "target"),
    ("PUT", "/settings", {"colour": "red"}, 400, "unknown"),
    ("PUT", "/settings", {"variant": "speedy"}, 400, "variant"),
])
def test_bad_requests_get_a_clear_message_and_status(client, method, tail, body, status, fragment):
    t = Table(client, ["Ann"])
    as_host = tail in ("/settings",) or tail.startswith("/rounds/current/lock") or tail.endswith("score")
    if tail == "/players":
        res = client.request(method, t.url(tail), json=body)
    elif as_host:
        res = t.as_host(method, tail, json=body) if body is not None else t.as_host(method, tail)
    else:
        res = t.as_player("Ann", method, tail, json=body)
    assert res.status_code == status, res.text
    doc = res.json()
    assert fragment.lower() in (doc["error"] + " " + (doc["hint"] or "")).lower(), doc


def test_words_only_while_the_round_is_open_and_host_can_reopen(client):
    t = Table(client, ["Ann"], seconds=None)
    rooms = client.app.state.rooms  # no grace for a save in flight at the lock (test_room_serve tests it)
    rooms.limits = dataclasses.replace(rooms.limits, grace_s=0.0)
    assert t.words("Ann", ["pert"]).status_code == 409            # not started
    t.as_host("POST", "/rounds")
    assert t.words("Ann", "pert\nlast, rest").status_code == 200  # text works too
    assert t.view("Ann")["players"][0]["words"] == ["pert", "last", "rest"]
    t.as_host("POST", "/rounds/current/lock")
    assert t.words("Ann", ["slate"]).status_code == 409
    assert t.as_host("POST", "/rounds/current/reopen").status_code == 200
    assert t.words("Ann", ["slate"]).status_code == 200
    assert t.as_host("POST", "/rounds").status_code == 409        # not scored: not discarded by accident
    assert t.as_host("POST", "/rounds", json={"discard": True}).status_code == 201
    assert t.view("Ann")["round"]["number"] == 2


def test_limits_players_words_and_bodies(games_db, dictionary):
    app = create_app(ServeConfig(db_path=games_db, max_players=3, max_words=5), dictionary=dictionary)
    with TestClient(app) as c:
        t = Table(c, ["A", "B", "C"], seconds=None)
        res = c.post(t.url("/players"), json={"name": "D"})
        assert res.status_code == 409 and "full" in res.json()["error"]
        t.as_host("POST", "/rounds")
        res = t.words("A", ["w"] * 6)
        assert res.status_code == 409 and "at most 5" in res.json()["error"]
        big = json.dumps({"words": ["x" * 70] * 20000, "base": 0})
        res = t.as_player("A", "PUT", f"/players/{t.players['A'][0]}/words", content=big,
                          headers={"content-type": "application/json"})
        assert res.status_code == 413


def test_a_restarted_server_resumes_the_room(games_db, dictionary):
    db = games_db
    with TestClient(create_app(ServeConfig(db_path=db), dictionary=dictionary)) as c:
        t = Table(c, ["Ann", "Bob"], seconds=None)
        t.as_host("POST", "/rounds")
        t.words("Ann", ["pert", "last"])
        code, host, ann = t.code, t.host, t.players["Ann"]
    with TestClient(create_app(ServeConfig(db_path=db), dictionary=dictionary)) as c:
        view = c.get(f"/api/rooms/{code}", headers=bearer(ann[1])).json()["room"]
        assert view["round"]["phase"] == "playing" and view["players"][0]["words"] == ["pert", "last"]
        assert c.post(f"/api/rooms/{code}/rounds/current/lock", headers=bearer(host), json={}).status_code == 200


def test_a_photo_reads_the_board_for_every_phone(client, photo_ready):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    t.as_host("POST", "/rounds")
    res = t.as_player("Ann", "POST", "/rounds/current/photo", content=SAMPLE.read_bytes(),
                      headers={"content-type": "image/jpeg"})
    assert res.status_code == 200, res.text
    board = t.view("Bob")["round"]["board"]
    assert board["source"] == "photo" and board["set_by"] == "Ann" and board["size"] == 4
    assert board["read"]["geometry"]["centres"] and board["photo_url"]
    photo = t.as_player("Bob", "GET", "/rounds/current/photo")
    assert photo.status_code == 200 and photo.content[:2] == b"\xff\xd8"
    assert client.get(t.url("/rounds/current/photo")).status_code == 401
    bad = t.as_player("Bob", "POST", "/rounds/current/photo", content=b"%PDF-1.4 not a photo",
                      headers={"content-type": "application/pdf"})
    assert bad.status_code == 415
    assert t.view("Bob")["round"]["board"]["set_by"] == "Ann"   # nothing lost


def test_the_qr_code_holds_the_join_link(client):
    t = Table(client, ["Ann"])
    res = client.get(t.url("/qr.svg"))
    assert res.status_code == 200 and res.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in res.content and t.code.encode() in res.content  # the title names the room


def test_the_live_stream_announces_changes(client):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    with client.stream("GET", t.url("/events")) as stream:
        lines = stream.iter_lines()
        first = next(line for line in lines if line.startswith("data:"))
        v0 = json.loads(first[5:])["version"]
        t.as_host("POST", "/rounds")
        nxt = next(line for line in lines if line.startswith("data:"))
        doc = json.loads(nxt[5:])
        assert doc["version"] > v0 and doc["change"]["what"] == "start"
