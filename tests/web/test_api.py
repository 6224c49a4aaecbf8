"""The web API through Starlette's TestClient: every endpoint, good and bad requests.

Photos go through the real bounded decoder, tray finder, cell cutter and decoder;
the reader is the real model when models/reader.onnx exists, else the recorded
reading of conftest.py.
"""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")
import warnings  # noqa: E402

with warnings.catch_warnings():  # starlette 1.x nudges towards httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.game.board import Board  # noqa: E402
from boggle_cv.errors import EngineMissingError  # noqa: E402
from boggle_cv.game.scoring import score_round  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .conftest import SAMPLE, SAMPLES  # noqa: E402

BOARD = "PERS/LATG/SINE/TERS"
JPEG = {"content-type": "image/jpeg"}


@pytest.fixture()
def client(tmp_path, scanner_factory, dictionary):
    config = ServeConfig(db_path=tmp_path / "games.sqlite3", max_upload_bytes=2 * 1024 * 1024)
    with TestClient(create_app(config, scanner_factory, dictionary), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture()
def store_client(games_db, scanner_factory, dictionary):
    """The app on each backend of the games database (for the endpoints that use it)."""
    config = ServeConfig(db_path=games_db, max_upload_bytes=2 * 1024 * 1024)
    with TestClient(create_app(config, scanner_factory, dictionary), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def sample_bytes() -> bytes:
    return SAMPLE.read_bytes()


def lines(name: str) -> str:
    return (SAMPLES / f"sample-4x4-a.{name}.txt").read_text()


def assert_error(res, status: int, *words: str) -> dict:
    assert res.status_code == status, res.text[:400]
    assert res.headers["content-type"].startswith("application/json")
    doc = res.json()
    assert isinstance(doc["error"], str) and doc["error"]
    for w in words:
        assert w.lower() in (doc["error"] + " " + (doc["hint"] or "")).lower(), doc
    return doc


# ---- page and assets ---------------------------------------------------------------

def test_page_and_every_asset_it_names_are_served(client):
    res = client.get("/")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    html = res.text
    assert 'capture="environment"' in html and 'accept="image/*"' in html
    assert "http://" not in html and "https://" not in html  # offline: nothing from elsewhere
    import re
    assets = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
    assert {"/static/app.js", "/static/style.css"} <= assets
    for a in assets:
        r = client.get(a)
        assert r.status_code == 200, a
        assert "https://" not in r.text, a
    js = client.get("/static/app.js")
    assert "javascript" in js.headers["content-type"]
    for module in re.findall(r'from "\./([^"]+)"', js.text):  # the modules app.js imports
        assert client.get(f"/static/{module}").status_code == 200, module
    csp = res.headers["content-security-policy"]
    assert "default-src 'self'" in csp and res.headers["x-content-type-options"] == "nosniff"


def test_health(client):
    doc = client.get("/api/health").json()
    assert doc["ok"] is True and doc["limits"]["max_upload_bytes"] == 2 * 1024 * 1024


def test_unknown_route_and_method_are_json(client):
    assert_error(client.get("/api/nothing"), 404, "not found")
    assert_error(client.get("/api/scan"), 405, "not allowed")
    assert_error(client.get("/static/../app.py"), 404)


# ---- photos --------------------------------------------------------------------------

def test_scan_raw_body_reads_the_board_and_gives_overlay_geometry(client, sample_bytes, photo_ready):
    res = client.post("/api/scan", content=sample_bytes, headers=JPEG)
    assert res.status_code == 200, res.text
    d = res.json()
    assert d["format"] == "JPEG" and d["board"]["size"] == 4
    assert len(d["board"]["cells"]) == 16 and all(0 <= c["confidence"] <= 1 for c in d["board"]["cells"])
    g = d["geometry"]
    assert np.array(g["centres"]).shape == (4, 4, 2) and np.array(g["quads"]).shape == (4, 4, 4, 2)
    w, h = d["image"]["width"], d["image"]["height"]
    x, y, vw, vh = g["view"]
    assert 0 <= x and 0 <= y and x + vw <= w + 0.1 and y + vh <= h + 0.1 and vw > 4 * g["pitch"] * 0.9
    # each centre lies inside its cell's outline
    for r in range(4):
        for c in range(4):
            quad = np.array(g["quads"][r][c], np.float32)
            assert cv2.pointPolygonTest(quad, tuple(g["centres"][r][c]), False) >= 0
    photo = client.get(d["photo_url"])
    assert photo.status_code == 200 and photo.headers["content-type"] == "image/jpeg"
    img = cv2.imdecode(np.frombuffer(photo.content, np.uint8), cv2.IMREAD_COLOR)
    assert abs(img.shape[1] / img.shape[0] - w / h) < 0.01  # same aspect: coordinates scale


def test_scan_multipart_upload(client, sample_bytes, photo_ready):
    res = client.post("/api/scan?size=4", files={"photo": ("../../etc/evil.jpg", sample_bytes, "image/jpeg")})
    assert res.status_code == 200, res.text
    assert res.json()["board"]["size"] == 4


def test_scan_png_upload(client, sample_bytes, photo_ready):
    img = cv2.imdecode(np.frombuffer(sample_bytes, np.uint8), cv2.IMREAD_COLOR)
    ok, png = cv2.imencode(".png", img)
    res = client.post("/api/scan", content=png.tobytes(), headers={"content-type": "application/octet-stream"})
    assert res.status_code == 200 and res.json()["format"] == "PNG"


def test_too_large_declared_upload_is_413(client):
    res = client.post("/api/scan", content=b"\xff\xd8\xff" + b"0" * (3 * 1024 * 1024), headers=JPEG)
    assert_error(res, 413, "MB")


def test_non_image_upload_is_415(client):
    assert_error(client.post("/api/scan", content=b"hello", headers={"content-type": "text/plain"}), 415)
    assert_error(client.post("/api/scan", content=b"%PDF-1.4 ...", headers=JPEG), 415, "JPEG")
    res = client.post("/api/scan", files={"photo": ("a.txt", b"just text", "text/plain")})
    assert_error(res, 415)
    res = client.post("/api/scan", content=b"\x00\x00\x00\x18ftypheic", headers={"content-type": "image/heic"})
    assert_error(res, 415, "HEIC")


def test_truncated_and_corrupt_images_are_422(client, sample_bytes):
    assert_error(client.post("/api/scan", content=sample_bytes[:5000], headers=JPEG), 422, "truncated")
    junk = b"\x89PNG\r\n\x1a\n" + b"\x00" * 200
    assert_error(client.post("/api/scan", content=junk, headers={"content-type": "image/png"}), 422)


def test_photo_without_a_board_is_422(client, photo_ready):
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 40, (480, 640, 3), dtype=np.uint8)
    ok, jpg = cv2.imencode(".jpg", noise)
    assert_error(client.post("/api/scan", content=jpg.tobytes(), headers=JPEG), 422)


def test_empty_and_missing_photo_are_400(client):
    assert_error(client.post("/api/scan", content=b"", headers=JPEG), 400)
    assert_error(client.post("/api/scan", data={"other": "x"}, files={"nope": ("a.jpg", b"\xff\xd8\xff", "image/jpeg")}),
                 400, "photo")


def test_bad_size_is_400(client, sample_bytes):
    assert_error(client.post("/api/scan?size=9", content=sample_bytes, headers=JPEG), 400, "size")


def test_a_size_the_photo_contradicts_is_refused(client, sample_bytes, photo_ready):
    """The sample is a 4x4: asked for a 5x5, the page gets the command line's refusal."""
    assert_error(client.post("/api/scan?size=5", content=sample_bytes, headers=JPEG), 422, "shows a 4x4 board",
                 "size 5")


def test_missing_model_is_503_and_server_stays_up(tmp_path, dictionary, sample_bytes):
    def no_model():
        raise EngineMissingError("reader model not found: x.onnx", "retrain")
    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), no_model, dictionary)
    with TestClient(app) as c:
        assert_error(c.post("/api/scan", content=sample_bytes, headers=JPEG), 503, "model")
        assert c.post("/api/score", json={"board": BOARD, "players": []}).status_code == 200


def test_unknown_photo_id_is_404(client):
    assert_error(client.get("/api/scans/0123abcd/photo"), 404)


def test_internal_error_is_500_json_and_server_stays_up(tmp_path, dictionary, sample_bytes):
    class Broken:
        def scan_image(self, *a, **k):
            raise RuntimeError("boom")
    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), lambda: Broken(), dictionary)
    with TestClient(app, raise_server_exceptions=False) as c:
        assert_error(c.post("/api/scan", content=sample_bytes, headers=JPEG), 500, "internal")
        assert c.get("/api/health").status_code == 200


# ---- scoring -------------------------------------------------------------------------

def test_score_matches_the_library(client, dictionary):
    players = [{"name": "alice", "words": lines("alice")}, {"name": "bob", "words": lines("bob")}]
    res = client.post("/api/score", json={"board": "DRML/HCNL/XEHD/YTOC", "players": players})
    assert res.status_code == 200, res.text
    got = res.json()
    want = score_round(Board.parse("DRML/HCNL/XEHD/YTOC"),
                       {p["name"]: p["words"].split() for p in players}, dictionary).to_dict()
    assert got.pop("notes") == []
    assert {k: v for k, v in got.items() if k in want} == json.loads(json.dumps(want))
    assert got["rules_why"]["variant"] == "default" and got["unresolved"] == []
    assert any(w["status"] == "crossed_off" and w["crossed_off_by"] == ["bob"] for w in got["players"][0]["words"])


def test_score_accepts_rows_spaces_and_commas(client):
    rows = [list("PERS"), list("LATG"), list("SINE"), list("TERS")]
    res = client.post("/api/score", json={"board": rows, "players": [{"name": " ann  lee ", "words": "rest, pest  slate\nRATS"}]})
    assert res.status_code == 200, res.text
    p = res.json()["players"][0]
    assert p["name"] == "ann lee" and [w["word"] for w in p["words"]] == ["rest", "pest", "slate", "rats"]


def test_odd_tokens_are_kept_as_not_a_word_with_a_note(client):
    doc = client.post("/api/score", json={"board": BOARD, "players": [{"name": "a", "words": "rest re5t"}]}).json()
    assert [w["status"] for w in doc["players"][0]["words"]] == ["scored", "not_a_word"]
    assert any("re5t" in n for n in doc["notes"])


def test_score_rules(client):
    base = {"board": BOARD, "players": [{"name": "a", "words": "slate"}]}
    plain = client.post("/api/score", json=base).json()["players"][0]["score"]
    doubled = client.post("/api/score", json={**base, "rules": {"bonus_cells": [[1, 0]]}}).json()
    assert doubled["rules"]["bonus_cells"] == [[1, 0]]
    assert doubled["players"][0]["score"] in (plain, 2 * plain)
    five = client.post("/api/score", json={**base, "rules": {"min_length": 6}}).json()
    assert five["players"][0]["words"][0]["status"] == "too_short"


@pytest.mark.parametrize("body,words", [
    ({"board": "PERS/LATG"}, ["row"]),
    ({"board": 5}, ["board"]),
    ({}, ["board"]),
    ({"board": BOARD, "players": [{"name": "a", "words": "rest"}, {"name": "a", "words": "pest"}]}, ["two players", "different"]),
    ({"board": BOARD, "players": [{"name": "", "words": "rest"}]}, ["name"]),
    ({"board": BOARD, "players": [{"name": "a", "words": "rest"}, {"name": "\uff41", "words": "pest"}]},
     ["two players"]),
    ({"board": BOARD, "players": [{"name": "a\u200b", "words": "rest"}]}, ["invisible"]),
    ({"board": BOARD, "players": [{"name": "a", "words": "123 !!"}]}, ["a's words"]),
    ({"board": BOARD, "players": "a"}, ["players"]),
    ({"board": BOARD, "players": [{"name": f"p{i}"} for i in range(13)]}, ["12"]),
    ({"board": BOARD, "rules": {"variant": "speedy"}}, ["variant"]),
    ({"board": BOARD, "rules": {"variant": "challenge"}}, ["challenge_cell"]),
    ({"board": BOARD, "rules": {"bonus_cells": [[9, 9]]}}, ["outside"]),
    ({"board": BOARD, "rules": {"min_length": "x"}}, ["min_length"]),
    ({"board": BOARD, "rules": {"colour": 1}}, ["unknown"]),
])
def test_bad_score_requests_are_400(client, body, words):
    assert_error(client.post("/api/score", json=body), 400, *words)


def test_score_body_must_be_json(client):
    assert_error(client.post("/api/score", content=b"{not json", headers={"content-type": "application/json"}), 400, "JSON")
    assert_error(client.post("/api/score", content=b"[1]", headers={"content-type": "application/json"}), 400, "object")
    assert_error(client.post("/api/score", content=b"board=x", headers={"content-type": "text/plain"}), 415, "json")
    big = json.dumps({"board": BOARD, "players": [{"name": "a", "words": "x" * (2 * 1024 * 1024)}]})
    assert_error(client.post("/api/score", content=big, headers={"content-type": "application/json"}), 413)


# ---- rounds and games ------------------------------------------------------------------

def test_rounds_are_stored_and_standings_follow(store_client, games_db, sample_bytes, photo_ready):
    assert store_client.get("/api/games").json() == {"games": []}
    scan_id = store_client.post("/api/scan", content=sample_bytes, headers=JPEG).json()["scan_id"]
    body = {"game": "friday", "board": BOARD, "scan_id": scan_id,
            "players": [{"name": "ann", "words": "rest pest slate"}, {"name": "bob", "words": "rest"}]}
    first = store_client.post("/api/rounds", json=body)
    assert first.status_code == 201, first.text
    assert first.json()["game"] == {"name": "friday", "round": 1}
    second = store_client.post("/api/rounds", json={**body, "scan_id": None}).json()
    assert second["game"]["round"] == 2
    assert store_client.get("/api/games").json() == {"games": ["friday"]}
    s = store_client.get("/api/games/friday/standings?target=3").json()
    ann = next(p for p in s["players"] if p["player"] == "ann")
    per_round = first.json()["players"][0]["score"]
    assert ann["total"] == 2 * per_round and ann["rounds"] == 2
    assert s["rounds"] == 2 and s["target"] == 3
    # the command line sees the same store
    from boggle_cv.store import database as store
    assert store.standings(games_db, "friday").players[0].total == ann["total"]


def test_bad_rounds_and_standings(store_client):
    assert_error(store_client.post("/api/rounds", json={"board": BOARD, "players": [{"name": "a", "words": "rest"}]}), 400, "game")
    assert_error(store_client.post("/api/rounds", json={"game": "g", "board": BOARD, "players": []}), 400, "player")
    assert_error(store_client.get("/api/games/nope/standings"), 404, "nope")
    store_client.post("/api/rounds", json={"game": "g", "board": BOARD, "players": [{"name": "a", "words": "rest"}]})
    assert_error(store_client.get("/api/games/g/standings?target=-4"), 400, "target")


def test_unwritable_database_is_500_json(tmp_path, dictionary):
    (tmp_path / "dir.db").mkdir()
    app = create_app(ServeConfig(db_path=tmp_path / "dir.db"), None, dictionary)
    with TestClient(app) as c:
        assert_error(c.post("/api/rounds", json={"game": "g", "board": BOARD, "players": [{"name": "a", "words": "rest"}]}),
                     500, "directory")
