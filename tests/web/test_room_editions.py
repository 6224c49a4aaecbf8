"""The room's edition: the host's setting `lang` (default `serve
--lang`), copied into the round when its clock starts, used to score (the edition's
dictionary, loaded once when first needed; its folding; its shortest word), stored with
the round (the games database's lang column) and shown in the view and the report;
/api/score and /api/rounds take rules.lang."""
from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .test_rooms_api import Table  # noqa: E402

#: A board with French words: ETE (été), ETES (êtes), AMI, AMIS, MOT, LOT.
FR_BOARD = "ETES/AMIR/LOTU/NDEC"


def make_client(tmp_path, dictionary, **config):
    app = create_app(ServeConfig(db_path=tmp_path / "games.sqlite3", **config), dictionary=dictionary)
    return TestClient(app)


@pytest.fixture()
def client(tmp_path, dictionary):
    with make_client(tmp_path, dictionary) as c:
        yield c


def play(t: Table, lists: dict[str, list[str]], board: str = FR_BOARD) -> dict:
    """Start the clock, save the lists, lock, type the board, score: the report."""
    assert t.as_host("POST", "/rounds").status_code in (200, 201)
    for name, words in lists.items():
        assert t.words(name, words).status_code == 200
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_host("PUT", "/rounds/current/board", json={"board": board}).status_code == 200
    res = t.as_host("POST", "/rounds/current/score")
    assert res.status_code == 200, res.text
    return res.json()


def words_of(report: dict, name: str) -> dict[str, dict]:
    p = next(p for p in report["players"] if p["name"] == name)
    return {w["word"]: w for w in p["words"]}


def stored_langs(tmp_path) -> list[str]:
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        return [row[0] for row in conn.execute("SELECT lang FROM rounds ORDER BY id")]


def test_a_room_is_english_by_default_and_the_host_chooses_its_edition(client):
    t = Table(client, ["Ann"])
    view = t.view()
    assert view["settings"]["lang"] == "en" and view["round"]["settings"]["lang"] == "en"
    res = t.as_host("PUT", "/settings", json={"lang": "FR"})
    assert res.status_code == 200, res.text
    assert res.json()["room"]["settings"]["lang"] == "fr"  # the edition's code, whatever the case sent
    assert t.view("Ann")["settings"]["lang"] == "fr"       # every phone sees it
    created = client.post("/api/rooms", json={"lang": "de"})
    assert created.status_code == 201 and created.json()["room"]["settings"]["lang"] == "de"


@pytest.mark.parametrize("body", [{"lang": "xx"}, {"lang": "french"}, {"lang": 3}, {"lang": None}, {"lang": ""}])
def test_an_unknown_edition_is_refused_and_the_editions_are_listed(client, body):
    t = Table(client, ["Ann"])
    res = t.as_host("PUT", "/settings", json=body)
    assert res.status_code == 400, res.text
    assert t.view()["settings"]["lang"] == "en"
    if body["lang"] == "xx":
        doc = res.json()
        assert "xx" in doc["error"] and "fr (French)" in doc["hint"] and "nl (Dutch)" in doc["hint"]
    assert client.post("/api/rooms", json={"lang": "xx"}).status_code == 400


def test_only_the_host_changes_the_edition(client):
    t = Table(client, ["Ann"])
    assert t.as_player("Ann", "PUT", "/settings", json={"lang": "fr"}).status_code == 403
    assert t.view()["settings"]["lang"] == "en"


def test_a_french_round_is_scored_by_the_french_rules_and_stored_as_french(client, tmp_path):
    t = Table(client, ["Ann", "Bob"], seconds=None)
    assert t.as_host("PUT", "/settings", json={"lang": "fr"}).status_code == 200
    report = play(t, {"Ann": ["été", "Êtes", "amis", "xyz"], "Bob": ["mot", "AMIS"]})
    assert report["rules"]["lang"] == "fr"
    ann = words_of(report, "Ann")
    assert ann["ete"]["status"] == "scored" and ann["ete"]["written"] == "été"   # folded the French way
    assert ann["etes"]["status"] == "scored" and ann["etes"]["written"] == "Êtes"  # as the player wrote it
    assert ann["amis"]["status"] == "crossed_off"                               # Bob had it too
    assert words_of(report, "Bob")["mot"]["status"] == "scored"
    view = t.view()
    assert view["round"]["settings"]["lang"] == "fr" and view["round"]["report"]["rules"]["lang"] == "fr"
    assert stored_langs(tmp_path) == ["fr"]
    # the French dictionary was loaded once, for the first French round, and is kept
    rooms = client.app.state.rooms
    assert rooms.dictionaries.loaded() == ("en", "fr")
    assert rooms.dictionaries.get("fr") is rooms.dictionaries.get("FR")


def test_the_same_words_in_an_english_room_are_not_french(client, tmp_path):
    t = Table(client, ["Ann"], seconds=None)
    report = play(t, {"Ann": ["été"]})
    assert report["rules"].get("lang", "en") == "en"
    assert [w["status"] for w in words_of(report, "Ann").values()] == ["not_in_dictionary"]  # ete: no English word
    assert stored_langs(tmp_path) == ["en"]
    assert client.app.state.rooms.dictionaries.loaded() == ("en",)  # no other edition was loaded


def test_the_edition_is_fixed_when_the_clock_starts(client, tmp_path):
    t = Table(client, ["Ann"], seconds=None)
    assert t.as_host("PUT", "/settings", json={"lang": "fr"}).status_code == 200
    assert t.as_host("POST", "/rounds").status_code in (200, 201)
    # changed during the round: applies from the next round on
    assert t.as_host("PUT", "/settings", json={"lang": "it"}).status_code == 200
    view = t.view()
    assert view["settings"]["lang"] == "it" and view["round"]["settings"]["lang"] == "fr"
    assert view["round"]["settings_fixed"] is True
    assert t.words("Ann", ["été"]).status_code == 200
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_host("PUT", "/rounds/current/board", json={"board": FR_BOARD}).status_code == 200
    report = t.as_host("POST", "/rounds/current/score").json()
    assert report["rules"]["lang"] == "fr" and words_of(report, "Ann")["ete"]["status"] == "scored"
    # the next round is Italian: 4 letters at least on 4x4, so ETE is too short
    assert t.as_host("POST", "/rounds", json={"wait": True}).status_code in (200, 201)
    report = play(t, {"Ann": ["été", "amici"]})
    assert report["rules"]["lang"] == "it" and words_of(report, "Ann")["ete"]["status"] == "too_short"
    assert stored_langs(tmp_path) == ["fr", "it"]


def test_serve_lang_is_the_default_edition_of_new_rooms_and_of_api_score(tmp_path, dictionary):
    with make_client(tmp_path, dictionary, lang="fr") as c:
        assert c.get("/api/health").json()["lang"] == "fr"
        assert [e["code"] for e in c.get("/api/health").json()["editions"]] == ["en", "fr", "de", "es", "it", "nl"]
        t = Table(c, ["Ann"])
        assert t.view()["settings"]["lang"] == "fr"
        body = {"board": FR_BOARD, "players": [{"name": "Ann", "words": "été\nmot"}]}
        doc = c.post("/api/score", json=body).json()
        assert doc["rules"]["lang"] == "fr"
        assert {w["word"]: w["status"] for w in doc["players"][0]["words"]} == {"ete": "scored", "mot": "scored"}
        english = c.post("/api/score", json={**body, "rules": {"lang": "en"}}).json()
        assert english["rules"].get("lang", "en") == "en"


def test_api_score_and_rounds_take_rules_lang(client, tmp_path):
    body = {"board": FR_BOARD, "players": [{"name": "Ann", "words": "été, Êtes, mot"}], "rules": {"lang": "fr"}}
    doc = client.post("/api/score", json=body).json()
    assert doc["rules"]["lang"] == "fr"
    assert [(w["word"], w["status"], w.get("written")) for w in doc["players"][0]["words"]] == [
        ("ete", "scored", "été"), ("etes", "scored", "êtes"), ("mot", "scored", None)]
    res = client.post("/api/rounds", json={**body, "game": "paris"})
    assert res.status_code == 201, res.text
    assert res.json()["rules"]["lang"] == "fr" and stored_langs(tmp_path) == ["fr"]
    for bad in ("xx", 7, None):
        res = client.post("/api/score", json={**body, "rules": {"lang": bad}})
        assert res.status_code == 400, (bad, res.text)
