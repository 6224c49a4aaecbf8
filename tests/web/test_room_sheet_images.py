"""The handwriting of each word a sheet added, kept by the room: cut along
the word's box (web.word_images), stored with the room (room_word_images, in the
room's transaction), served by GET .../players/{id}/images/{image_id} with the words'
guards, kept across a restart, within its caps, and gone with its word, its player,
its round and its room.

The readings are recorded (test_room_sheets.Recorded) with images the test makes, so
each rule is checked on words and bytes it chooses; the real reader's images are
checked in test_room_sheets.test_the_sample_sheet_read_for_real.
"""
from __future__ import annotations

import sqlite3
from typing import Any

import cv2
import numpy as np
import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.store import database as store, schema as store_schema  # noqa: E402
from boggle_cv.room import sheets  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.word_images import WordImageConfig, encode, word_image, word_images  # noqa: E402

from .test_room_sheets import Recorded, me, playing, send, settle, word  # noqa: E402
from .test_rooms_api import Table  # noqa: E402


def written(text: str, width: int = 600, height: int = 200) -> tuple[np.ndarray, list[list[float]]]:
    """A photo of `text` written dark on light paper, and the word's box (4 (x, y) px)."""
    photo = np.full((height, width, 3), 235, np.uint8)
    cv2.putText(photo, text, (40, 130), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 2.0, (40, 30, 30), 4, cv2.LINE_AA)
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 2.0, 4)
    return photo, [[36.0, 130.0 - h - 4], [44.0 + w, 130.0 - h - 4], [44.0 + w, 134.0 + base], [36.0, 134.0 + base]]


def webp(text: str) -> bytes:
    photo, box = written(text)
    data = word_image(photo, box)
    assert data is not None
    return data


def read_with_images(words: list[dict[str, Any]], images: list[bytes | None]) -> Recorded:
    """A recorded reading whose words come with these images (the photo readers' "images")."""
    class WithImages(Recorded):
        def __call__(self, data: bytes, lexicon: list[str] | None, lang: str = "en") -> dict[str, Any]:
            return {**super().__call__(data, lexicon, lang), "images": images}
    return WithImages(words)


READ = [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3)]), word("zzz", crossed=True), word("slate")]


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture()
def app(db, dictionary):
    return create_app(ServeConfig(db_path=db), dictionary=dictionary)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def images_of(view: dict[str, Any], name: str) -> dict[str, str]:
    got: dict[str, str] = me(view, name)["images"]
    return got


def get_image(t: Table, name: str | None, player: str, image_id: str, token: str | None = "own"):
    """GET one image of `player` as `name` (None: the host); token None: no token at all."""
    pid = t.players[player][0]
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {t.host if name is None else t.players[name][1]}"
    return t.c.get(t.url(f"/players/{pid}/images/{image_id}"), headers=headers)


def stored_ids(db) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM room_word_images")}
    finally:
        conn.close()


def test_a_word_image_is_small_grey_and_upright():
    photo, box = written("pest")
    data = word_image(photo, box)
    assert data is not None and data.startswith(b"RIFF") and data[8:12] == b"WEBP"
    assert len(data) <= sheets.MAX_IMAGE_BYTES
    grey = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert grey.shape[0] <= 48 and grey.shape[1] <= 320
    # the paper white, the ink dark
    assert np.median(grey) > 240 and grey.min() < 60
    # a box turned upside down (as a sheet photographed the other way round) gives the word upright
    turned = cv2.rotate(photo, cv2.ROTATE_180)
    h, w = photo.shape[:2]
    turned_box = [[w - 1 - x, h - 1 - y] for x, y in box]
    again = word_image(turned, turned_box)
    assert again is not None
    upright = cv2.imdecode(np.frombuffer(again, np.uint8), cv2.IMREAD_UNCHANGED)
    assert upright.shape == grey.shape and np.abs(upright.astype(int) - grey.astype(int)).mean() < 12


def test_no_image_for_a_box_without_area_a_crossed_out_word_or_over_the_cap():
    photo, box = written("slate")
    assert word_image(photo, [[5, 5], [5, 5], [5, 5], [5, 5]]) is None
    assert word_image(photo, box[:3]) is None
    assert word_image(photo, [[float("nan"), 0], [1, 0], [1, 1], [0, 1]]) is None
    assert word_images(photo, [{"box": box}, {"box": box, "crossed_out": True}, {"box": []}])[1:] == [None, None]
    # over the cap: encoded smaller, or not at all
    small = word_image(photo, box, WordImageConfig(max_bytes=300))
    assert small is None or len(small) <= 300
    noise = np.random.default_rng(0).integers(0, 255, (48, 320), dtype=np.uint8)
    assert encode(noise, WordImageConfig(max_bytes=40)) is None


def test_the_images_are_kept_and_served(client, app, db):
    app.state.web.sheet_reader = read_with_images(READ, [webp("rest"), webp("pest"), webp("zzz"), webp("slate")])
    t = playing(client)
    res = send(t, "Ann", "Ann")
    assert res.status_code == 200, res.text
    assert res.json()["sheet"]["images"] == 3  # the crossed-out word is not added, nor its ink kept
    ids = images_of(res.json()["room"], "Ann")
    assert set(ids) == {"rest", "pest", "slate"} and len(set(ids.values())) == 3
    got = get_image(t, "Ann", "Ann", ids["pest"])
    assert got.status_code == 200 and got.content == webp("pest")
    assert got.headers["content-type"] == "image/webp"
    assert got.headers["cache-control"] == "private, max-age=31536000, immutable"
    assert got.headers["x-content-type-options"] == "nosniff"
    # the view never carries the bytes
    view = t.c.get(t.url(""), headers={"Authorization": f"Bearer {t.players['Ann'][1]}"})
    assert b"RIFF" not in view.content and len(view.content) < 4000
    assert stored_ids(db) == set(ids.values())


def test_who_may_see_an_image(client, app, dictionary, tmp_path):
    app.state.web.sheet_reader = read_with_images(READ, [webp("rest"), webp("pest"), None, None])
    t = playing(client, ["Ann", "Bob"])
    ids = images_of(send(t, "Ann", "Ann").json()["room"], "Ann")
    # neither Bob nor the host sees the words or their ink before the lists lock
    assert me(t.view("Bob"), "Ann")["images"] is None and me(t.view(), "Ann")["images"] is None
    for who in ("Bob", None):
        hidden = get_image(t, who, "Ann", ids["rest"])
        assert hidden.status_code == 403 and hidden.json()["code"] == "image.hidden"
        assert hidden.json()["params"] == {"name": "Ann"}
    assert get_image(t, None, "Ann", ids["rest"], token=None).status_code == 401
    # unknown ids, an id of another player's list, a malformed id: not found
    for who, image_id in (("Ann", "AAAAAAAAAAAAAAAA"), ("Bob", ids["rest"]), ("Ann", "bad*id"), ("Ann", "A" * 65)):
        pid = t.players["Bob" if image_id == ids["rest"] else "Ann"][0]
        res = client.get(t.url(f"/players/{pid}/images/{image_id}"),
                         headers={"Authorization": f"Bearer {t.players[who][1]}"})
        assert res.status_code == 404, (who, image_id, res.text)
        assert res.json()["code"] == "image.not_found"
    # another room: its player in this room is unknown, its token is not this room's
    other = Table(client, ["Cy"])
    cy, cy_token = other.players["Cy"]
    res = client.get(t.url(f"/players/{cy}/images/{ids['rest']}"), headers={"Authorization": f"Bearer {t.host}"})
    assert res.status_code == 404 and res.json()["code"] == "player.not_found"
    ann = t.players["Ann"][0]
    res = client.get(t.url(f"/players/{ann}/images/{ids['rest']}"), headers={"Authorization": f"Bearer {cy_token}"})
    assert res.status_code == 401 and res.json()["code"] == "auth.bad_token"
    res = client.get(other.url(f"/players/{ann}/images/{ids['rest']}"), headers={"Authorization": f"Bearer {t.host}"})
    assert res.status_code == 401
    # once locked, every member sees every list, and its ink
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert me(t.view("Bob"), "Ann")["images"] == ids == me(t.view(), "Ann")["images"]
    assert get_image(t, "Bob", "Ann", ids["rest"]).content == webp("rest")
    assert get_image(t, None, "Ann", ids["pest"]).content == webp("pest")


def test_the_images_survive_a_restart(client, app, db, dictionary):
    app.state.web.sheet_reader = read_with_images(READ, [webp("rest"), webp("pest"), None, webp("slate")])
    t = playing(client)
    ids = images_of(send(t, "Ann", "Ann").json()["room"], "Ann")
    fresh = create_app(ServeConfig(db_path=db), dictionary=dictionary)
    with TestClient(fresh) as c2:
        t.c = c2
        assert images_of(t.view("Ann"), "Ann") == ids
        assert get_image(t, "Ann", "Ann", ids["slate"]).content == webp("slate")
        # and they still follow their words there
        assert settle(t, "Ann", "Ann", "pest", "past").status_code == 200
        assert images_of(t.view("Ann"), "Ann") == {"rest": ids["rest"], "past": ids["pest"], "slate": ids["slate"]}


def test_the_caps(client, app, db, monkeypatch):
    too_big = b"RIFF" + bytes(sheets.MAX_IMAGE_BYTES)
    not_an_image = b"<svg onload=alert(1)>"
    app.state.web.sheet_reader = read_with_images(READ, [too_big, not_an_image, None, webp("slate")])
    t = playing(client)
    res = send(t, "Ann", "Ann")
    assert res.json()["sheet"]["images"] == 1 and images_of(res.json()["room"], "Ann").keys() == {"slate"}
    # a player's images of one round: at most MAX_PLAYER_IMAGE_BYTES; the words past it come without
    held = len(webp("slate"))
    monkeypatch.setattr(sheets, "MAX_PLAYER_IMAGE_BYTES", held + len(webp("one")) + 1)
    app.state.web.sheet_reader = read_with_images([word("one"), word("two"), word("six")],
                                                  [webp("one"), webp("two"), webp("six")])
    res = send(t, "Ann", "Ann")
    assert res.status_code == 200 and res.json()["sheet"]["added"] == ["one", "two", "six"]
    kept = images_of(res.json()["room"], "Ann")
    assert set(kept) == {"slate", "one"} and res.json()["sheet"]["images"] == 1
    conn = sqlite3.connect(db)
    total = conn.execute("SELECT SUM(LENGTH(image)) FROM room_word_images").fetchone()[0]
    conn.close()
    assert total <= sheets.MAX_PLAYER_IMAGE_BYTES


def test_an_image_goes_with_its_word(client, app, db):
    app.state.web.sheet_reader = read_with_images(
        [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3)]), word("lest", True, [("lest", 0.5)]),
         word("slate", True, [("slate", 0.5), ("rest", 0.2)]), word("tale")],
        [webp("rest"), webp("pest"), webp("lest"), webp("slate"), webp("tale")])
    t = playing(client)
    ids = images_of(send(t, "Ann", "Ann").json()["room"], "Ann")
    # confirmed: kept; replaced: its ink is the new word's; dropped (not a word): gone
    assert settle(t, "Ann", "Ann", "lest", "lest").status_code == 200
    assert settle(t, "Ann", "Ann", "pest", "past").status_code == 200
    assert settle(t, None, "Ann", "slate", None).status_code == 200  # the host may settle for her
    now = images_of(t.view("Ann"), "Ann")
    assert now == {"rest": ids["rest"], "past": ids["pest"], "lest": ids["lest"], "tale": ids["tale"]}
    assert get_image(t, "Ann", "Ann", ids["slate"]).status_code == 404 and ids["slate"] not in stored_ids(db)
    # typed away: gone; the words kept keep theirs
    assert t.words("Ann", ["rest", "past", "lest"]).status_code == 200
    assert images_of(t.view("Ann"), "Ann") == {"rest": ids["rest"], "past": ids["pest"], "lest": ids["lest"]}
    assert stored_ids(db) == {ids["rest"], ids["pest"], ids["lest"]}
    # a removed player's go with them
    app.state.web.sheet_reader = read_with_images([word("slate")], [webp("slate")])
    bob_ids = images_of(send(t, "Bob", "Bob").json()["room"], "Bob")
    bob = t.players["Bob"][0]
    assert t.as_host("DELETE", f"/players/{bob}").status_code == 200
    assert bob_ids["slate"] not in stored_ids(db)
    # the next round starts with none: the last round's are deleted
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_host("POST", "/rounds", json={"discard": True}).status_code == 201
    assert stored_ids(db) == set() and images_of(t.view("Ann"), "Ann") == {}
    assert get_image(t, "Ann", "Ann", ids["rest"]).status_code == 404


def test_an_idle_room_goes_with_its_images(client, app, db):
    app.state.web.sheet_reader = read_with_images([word("rest")], [webp("rest")])
    t = playing(client)
    assert send(t, "Ann", "Ann").status_code == 200
    assert len(stored_ids(db)) == 1
    assert app.state.rooms.db.sweep(idle_s=0, now=10**12) == 1
    assert stored_ids(db) == set()


def test_an_older_database_gains_the_images_table_on_write(db):
    conn = sqlite3.connect(db)
    for statement in store_schema.SCHEMA[:-len(store_schema.ROOM_WORD_IMAGES)]:  # a schema-3 database
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '3')")
    conn.commit()
    conn.close()
    assert store.save_round(db, "g", "ABC/DEF/GHI", {"ann": 2}, {"ann": []}, {}) == 1
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "room_word_images" in tables
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(store.SCHEMA_VERSION),)
    conn.close()


def test_the_image_rules_on_their_own():
    """room.sheets without a server: an image stays with its word, in any case."""
    images = {"pest": "a", "rest": "b"}
    assert sheets.keep_images(["REST"], images) == {"rest": "b"}
    assert sheets.settled_images(images, ["past", "rest"], "pest", "past") == {"past": "a", "rest": "b"}
    assert sheets.settled_images(images, ["pest", "rest"], "pest", "pest") == images
    assert sheets.settled_images(images, ["rest"], "pest", None) == {"rest": "b"}
    # replaced by a word already in the list: that word keeps its own
    assert sheets.settled_images(images, ["rest"], "pest", "rest") == {"rest": "b"}
    assert sheets.media_type(b"\x89PNG\r\n") == "image/png" and sheets.media_type(b"<svg") is None
