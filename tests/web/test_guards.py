"""Cross-site requests, per-address rate limits,
the guess guard, the size of stored rounds (web/guards.py), through the app."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.guards import GuessGuard, TokenBuckets  # noqa: E402

JSON = {"Content-Type": "application/json"}
BOARD = "PERS/LATG/SINE/TERS"


def _client(db, dictionary, **limits) -> TestClient:
    """The app on database `db` (a location), or on a new SQLite file in folder `db`."""
    location = db / "g.db" if isinstance(db, Path) and db.is_dir() else db
    return TestClient(create_app(ServeConfig(db_path=location, **limits), dictionary=dictionary))


def _room(c: TestClient) -> tuple[str, str]:
    res = c.post("/api/rooms", json={})
    assert res.status_code == 201, res.text
    return res.json()["code"], res.json()["host_token"]


# ---- cross-site requests ---------------------------------------------------------------------------

def test_an_empty_post_is_refused_and_the_page_sends_json(tmp_path, dictionary):
    """An empty POST /api/rooms is a "simple" request: any page could make a visitor's
    browser create rooms (before: 201)."""
    with _client(tmp_path, dictionary) as c:
        res = c.post("/api/rooms")
        assert res.status_code == 415 and res.json()["kind"] == "UnsupportedType", res.text
        assert c.post("/api/rooms", content=b"{}", headers={"Content-Type": "text/plain"}).status_code == 415
        code, host = _room(c)  # {} as application/json, as the page sends it
        auth = {"Authorization": f"Bearer {host}"}
        assert c.post(f"/api/rooms/{code}/rounds", headers=auth).status_code == 415
        assert c.post(f"/api/rooms/{code}/rounds", headers=auth, json={}).status_code == 201
        # a photo may come as an image or a form, but not as an untyped body
        photo = f"/api/rooms/{code}/rounds/current/photo"
        assert c.post(photo, headers=auth, content=b"\xff\xd8\xff\x00").status_code == 415
        assert c.post(photo, headers={**auth, "Content-Type": "image/jpeg"},
                      content=b"\xff\xd8\xff\x00").status_code == 422


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://testserver:8080"},
    {"Origin": "null"},
])
def test_cross_site_writes_are_refused(tmp_path, dictionary, headers):
    with _client(tmp_path, dictionary) as c:
        res = c.post("/api/rooms", json={}, headers=headers)
        assert res.status_code == 403 and res.json()["kind"] == "CrossSite", res.text
        files = {"photo": ("a.jpg", b"\xff\xd8\xff\x00", "image/jpeg")}  # a form: a simple request
        assert c.post("/api/scan", files=files, headers=headers).status_code == 403


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://TestServer:80"},
    {},
])
def test_same_origin_and_scripts_are_served(tmp_path, dictionary, headers):
    with _client(tmp_path, dictionary) as c:
        assert c.post("/api/rooms", json={}, headers=headers).status_code == 201


def test_cross_site_guesses_do_not_lock_the_host_out(games_db, dictionary):
    """Image links to random codes on any page the host visits (cross-site GETs) are
    refused before they count as guesses (before: 30 of them locked the address out)."""
    with _client(games_db, dictionary) as c:
        code, _host = _room(c)
        for i in range(40):
            res = c.get(f"/api/rooms/ZZZZZ{i:02d}/qr.svg",
                        headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors",
                                 "Sec-Fetch-Dest": "image"})
            assert res.status_code == 403
        assert c.get("/api/rooms/ZZZZZZZ").status_code == 404  # not 429: nothing was counted
        assert c.get(f"/api/rooms/{code}/qr.svg").status_code == 200


# ---- the guess guard -------------------------------------------------------------------------------

def test_a_valid_token_is_never_locked_out(games_db, dictionary):
    with _client(games_db, dictionary, guess_limit=5) as c:
        code, host = _room(c)
        joined = c.post(f"/api/rooms/{code}/players", json={"name": "Ann"}).json()
        for i in range(5):
            assert c.get(f"/api/rooms/QQQQQ{i:02d}").status_code == 404
        assert c.get("/api/rooms/QQQQQ99").status_code == 429  # locked out
        assert c.get(f"/api/rooms/{code}").status_code == 429  # no token: refused too
        assert c.get(f"/api/rooms/{code}", headers={"Authorization": "Bearer nope"}).status_code == 429
        assert c.get("/api/rooms/QQQQQ98", headers={"Authorization": f"Bearer {host}"}).status_code == 429
        # the host and a player of the room are served (before: 429 for everyone at this address)
        assert c.get(f"/api/rooms/{code}", headers={"Authorization": f"Bearer {host}"}).status_code == 200
        ann = {"Authorization": f"Bearer {joined['token']}"}
        assert c.put(f"/api/rooms/{code}/players/{joined['player_id']}", json={"name": "Annie"},
                     headers=ann).status_code == 200


def test_guess_guard_forgets_addresses():
    now = [0.0]
    guard = GuessGuard(limit=3, window_s=60, max_tracked=50, clock=lambda: now[0])
    for i in range(500):
        guard.miss(f"10.0.{i // 250}.{i % 250}")
        assert len(guard) <= 50
    for _ in range(3):
        guard.miss("10.9.9.9")
    assert guard.locked("10.9.9.9")
    now[0] += 61
    assert not guard.locked("10.9.9.9") and len(guard) <= 50
    guard.miss("10.9.9.8")
    assert len(guard) <= 50
    for a in list(guard._misses):
        guard.locked(a)
    assert len(guard) == 1  # only the fresh miss is left: the others' windows have passed


# ---- rate limits -----------------------------------------------------------------------------------

def test_creating_rooms_is_rate_limited_per_address(games_db, dictionary):
    """200 rooms filled in 7.6 s from one address (before: no limit)."""
    with _client(games_db, dictionary, rooms_burst=3, rooms_per_hour=1) as c:
        for _ in range(3):
            _room(c)
        res = c.post("/api/rooms", json={})
        assert res.status_code == 429 and res.json()["kind"] == "RateLimited", res.text
        assert 1 <= int(res.headers["Retry-After"]) <= 3600
        # other requests are not limited
        assert c.get("/api/health").status_code == 200


def test_anonymous_writes_are_rate_limited(games_db, dictionary):
    body = {"board": BOARD, "players": [{"name": "ann", "words": "rest"}], "game": "friday"}
    with _client(games_db, dictionary, anon_burst=2, anon_per_hour=1, rounds_burst=1, rounds_per_hour=1) as c:
        assert c.post("/api/score", json=body).status_code == 200
        assert c.post("/api/score", json=body).status_code == 200
        res = c.post("/api/score", json=body)
        assert res.status_code == 429 and "Retry-After" in res.headers
        assert c.post("/api/scan", content=b"\xff\xd8\xff\x00",
                      headers={"Content-Type": "image/jpeg"}).status_code == 429  # the same bucket
        assert c.post("/api/rounds", json=body).status_code == 201
        assert c.post("/api/rounds", json=body).status_code == 429


def test_default_rate_limits_fit_a_table():
    """A table makes one room a night and a script scores a round a few times a minute;
    a club's 30 players practising side by side behind one address record a round every
    3 minutes each."""
    c = ServeConfig(db_path=Path("x.db"))
    assert c.rooms_burst >= 5 and c.anon_burst >= 30 and c.rounds_burst >= 5
    assert c.practice_burst >= 30 and c.practice_per_hour >= 30 * 20
    assert c.anon_per_hour >= 600 and c.rounds_per_hour >= 20


def test_token_buckets_refill_and_stay_bounded():
    now = [0.0]
    b = TokenBuckets(burst=2, per_hour=3600, max_tracked=100, clock=lambda: now[0])  # one a second
    assert b.take("a") == 0 and b.take("a") == 0
    assert b.take("a") == pytest.approx(1.0)
    now[0] += 1.0
    assert b.take("a") == 0
    for i in range(1000):
        b.take(f"10.1.{i // 250}.{i % 250}")
        assert len(b) <= 100


# ---- stored rounds ---------------------------------------------------------------------------------

def test_a_stored_round_is_bounded(games_db, dictionary):
    """Anonymous POST /api/rounds grew the database by about 3 MB a round."""
    import random
    import string
    rng = random.Random(1)
    players = [{"name": f"p{i}", "words": [''.join(rng.choice(string.ascii_lowercase) for _ in range(8))
                                            for _ in range(2000)]} for i in range(12)]
    with _client(games_db, dictionary, max_json_bytes=4 * 1024 * 1024) as c:
        res = c.post("/api/rounds", json={"board": BOARD, "players": players, "game": "big"})
        assert res.status_code == 413, res.text[:200]
        assert "MB" in res.json()["error"]
        assert c.get("/api/games").json()["games"] == []
        small = {"board": BOARD, "players": [{"name": "ann", "words": "rest\npest"}], "game": "small"}
        assert c.post("/api/rounds", json=small).status_code == 201
