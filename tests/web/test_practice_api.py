"""The practice API without a browser (docs/practice.md, "The page"): options, deals
and their end, a sheet's words read against the board, the record."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.practice import DEAL_LIFE_S  # noqa: E402

from .conftest import SAMPLES  # noqa: E402

SHEET = SAMPLES / "sheets" / "sheet-4x4-a.jpg"


@pytest.fixture()
def client(tmp_path, dictionary, scanner_factory):
    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), scanner_factory, dictionary)
    with TestClient(app) as c:
        yield c


def test_the_options_name_each_editions_cubes(client):
    doc = client.get("/api/practice/options").json()
    by = {e["code"]: e["dice"] for e in doc["editions"]}
    assert by["en"] == {"4": "modern-4", "5": "big-1979", "6": "super-big-6"}
    assert by["fr"]["4"] == "fr-4" and by["fr"]["5"] is None and by["de"] == {"4": None, "5": None, "6": None}
    assert doc["usual_seconds"] == {"4": 180, "5": 180, "6": 240} and doc["seconds"] == [10, 3600]
    assert "classic-4" in doc["sets"]["4"]


def test_a_deal_ends_an_hour_after_its_clock(client):
    deal = client.post("/api/practice/deals", json={"size": 4, "seconds": 60}).json()
    desk = client.app.state.practice
    real = desk.clock
    desk.clock = lambda: real() + 60 + DEAL_LIFE_S + 5
    try:
        r = client.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "tea"})
    finally:
        desk.clock = real
    assert r.status_code == 409 and r.json()["code"] == "practice.expired"
    r = client.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "tea"})
    assert r.status_code == 201 and r.json()["seconds"] == 60


def test_the_deals_secret_survives_a_restart(tmp_path, dictionary, scanner_factory):
    db = tmp_path / "g.db"
    with TestClient(create_app(ServeConfig(db_path=db), scanner_factory, dictionary)) as c:
        deal = c.post("/api/practice/deals", json={"size": 6}).json()
    assert len(deal["faces"]) == 6 and deal["seconds"] == 240
    with TestClient(create_app(ServeConfig(db_path=db), scanner_factory, dictionary)) as c:
        r = c.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "tea"})
        assert r.status_code == 201, r.text
        rec = c.get("/api/practice/record", params={"name": "ANN"}).json()["records"]
    assert rec[0]["size"] == 6 and rec[0]["round_count"] == 1


def test_a_tray_round_needs_a_board_of_its_size(client):
    deal = client.post("/api/practice/deals", json={"mode": "tray", "size": 4}).json()
    assert deal["faces"] is None and deal["board"] is None
    r = client.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "tea"})
    assert r.status_code == 400 and r.json()["code"] == "board.missing"
    r = client.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "tea",
                                                   "board": "ABCDE/ABCDE/ABCDE/ABCDE/ABCDE"})
    assert r.status_code == 400 and "dealt for 4x4" in r.json()["error"]
    r = client.post("/api/practice/rounds", json={"deal": deal["deal"], "name": "ann", "words": "pert\nlast",
                                                   "board": "PERS/LATG/SINE/TERS"})
    assert r.status_code == 201 and r.json()["source"] == "tray" and r.json()["score"] == 2


def test_bad_names_and_bodies_are_400(client):
    deal = client.post("/api/practice/deals", json={}).json()
    for body in ({"deal": deal["deal"], "name": "a\u202eb", "words": "tea"},
                 {"deal": deal["deal"], "name": "", "words": "tea"},
                 {"deal": deal["deal"], "name": "ann", "words": 5},
                 {"deal": "x" * 3000, "name": "ann", "words": "tea"},
                 {"deal": "garbage", "name": "ann", "words": "tea"}):
        r = client.post("/api/practice/rounds", json=body)
        assert r.status_code == 400, (body, r.text)
    r = client.post("/api/practice/rounds", content=b"x", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    assert client.get("/api/practice/record", params={"name": "nobody"}).json()["records"] == []


def test_a_sheet_is_read_against_the_board(client):
    truth = [w for w in (SAMPLES / "sheets" / "sheet-4x4-a.truth.txt").read_text().split() if not w.startswith("#")]
    r = client.post("/api/practice/sheet", params={"board": "COTY/DHEX/LNCH/LMRD", "lang": "en"},
                    content=SHEET.read_bytes(), headers={"Content-Type": "image/jpeg"})
    if r.status_code == 503:
        pytest.skip(r.json()["error"])
    assert r.status_code == 200, r.text
    words = [w["word"] for w in r.json()["words"]]
    assert len(set(words) & set(truth)) >= len(truth) // 2
    r = client.post("/api/practice/sheet", params={"board": "nope"}, content=SHEET.read_bytes(),
                    headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 400
