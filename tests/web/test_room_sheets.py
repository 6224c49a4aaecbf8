"""Paper lists in the room: a sheet photo's words added to a player's list,
the doubtful ones marked and settled, and the bad cases storing nothing.

The reading is the real sheet reader on the shipped sample sheet where the test is
about reading; elsewhere a recorded reading (`Recorded`) stands in, so that each
rule (duplicates, crossed-out words, doubtful marks, the round changing while a sheet
is read) is checked on words the test chooses.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.errors import NoWritingError  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .conftest import SAMPLE, SAMPLES  # noqa: E402
from .test_rooms_api import Table  # noqa: E402

SHEET = SAMPLES / "sheets" / "sheet-4x4-a.jpg"
TRAY_BOARD = "DRML/HCNL/XEHD/YTOC"  # sample-4x4-a's board, which the sample sheet was written on
JPEG = SHEET.read_bytes()


def truth() -> list[str]:
    lines = (SAMPLES / "sheets" / "sheet-4x4-a.truth.txt").read_text().splitlines()
    return [w for w in lines if w and not w.startswith("#")]


def word(w: str, flagged: bool = False, alts: list[tuple[str, float]] | None = None, crossed: bool = False,
         free: str | None = None) -> dict[str, Any]:
    alternatives = [[a, p] for a, p in (alts or [(w, 0.97)])]
    return {"word": w, "confidence": alternatives[0][1] if alternatives else 0.0, "alternatives": alternatives,
            "flagged": flagged, "free": w if free is None else free, "crossed_out": crossed, "box": []}


class Recorded:
    """A sheet reader giving `words` (SheetWord.to_dict each) for any photo, and
    keeping the lexicon and language each call was given; `before` runs first (in the reading's
    thread: the round may move on meanwhile); `error` is raised instead."""

    def __init__(self, words: list[dict[str, Any]], error: Exception | None = None,
                 before: Callable[[], None] | None = None) -> None:
        self.words, self.error, self.before = words, error, before
        self.lexicons: list[list[str] | None] = []
        self.langs: list[str] = []

    def __call__(self, data: bytes, lexicon: list[str] | None, lang: str = "en") -> dict[str, Any]:
        self.lexicons.append(lexicon)
        self.langs.append(lang)
        if self.before is not None:
            self.before()
        if self.error is not None:
            raise self.error
        return {"corners": [], "turn": 0, "words": self.words}


SAMPLE_READ = [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3), ("post", 0.05)]),
               word("Last"), word("rest"), word("zzz", crossed=True), word("", free=""), word("slate")]


@pytest.fixture()
def app(tmp_path, dictionary):
    return create_app(ServeConfig(db_path=tmp_path / "games.sqlite3"), dictionary=dictionary)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def send(t: Table, name: str | None, player: str, data: bytes = JPEG, query: str = "", **kw: Any):
    """POST the sheet of `player` as `name` (None: the host)."""
    pid = t.players[player][0]
    headers = {"Content-Type": "image/jpeg", **kw.pop("headers", {})}
    tail = f"/players/{pid}/sheet{query}"
    token = t.host if name is None else t.players[name][1]
    return t.c.post(t.url(tail), content=data, headers={**headers, "Authorization": f"Bearer {token}"}, **kw)


def settle(t: Table, name: str | None, player: str, w: str, choice: str | None):
    pid = t.players[player][0]
    body = {"word": w, "choice": choice}
    if name is None:
        return t.as_host("POST", f"/players/{pid}/doubtful", json=body)
    return t.as_player(name, "POST", f"/players/{pid}/doubtful", json=body)


def me(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in view["players"] if p["name"] == name)


def playing(client: TestClient, names: list[str] = ["Ann", "Bob"]) -> Table:
    t = Table(client, names, seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    return t


def test_the_sheet_adds_its_words_after_what_was_typed(client, app):
    app.state.web.sheet_reader = Recorded(SAMPLE_READ)
    t = playing(client)
    assert t.words("Ann", ["slate", "zone"]).status_code == 200
    res = send(t, "Ann", "Ann")
    assert res.status_code == 200, res.text
    doc = res.json()
    assert doc["sheet"] == {"added": ["rest", "pest", "last"], "already": ["rest", "slate"], "crossed_out": ["zzz"],
                            "doubtful": ["pest"], "unreadable": 1, "round": 1, "read": 7, "turn": 0,
                            "lexicon": "dictionary", "images": 0}
    ann = me(doc["room"], "Ann")
    # nothing typed is lost, nothing twice ("Last" is "last"), the crossed-out word left out
    assert ann["words"] == ["slate", "zone", "rest", "pest", "last"] and ann["revision"] == 2
    assert ann["doubtful"] == {"pest": [["pest", 0.6], ["past", 0.3], ["post", 0.05]]} and ann["doubtful_count"] == 1
    # the reading and its two runners-up at most
    assert doc["room"]["last_change"]["what"] == "sheet" and doc["room"]["last_change"]["added"] == 3
    # Bob sees how many words and how many to confirm, not which
    bob_sees = me(t.view("Bob"), "Ann")
    assert bob_sees["words"] is None and bob_sees["doubtful"] is None
    assert bob_sees["word_count"] == 5 and bob_sees["doubtful_count"] == 1
    # the same sheet again adds nothing (and marks nothing twice)
    again = send(t, "Ann", "Ann").json()
    assert again["sheet"]["added"] == [] and me(again["room"], "Ann")["words"] == ann["words"]
    assert me(again["room"], "Ann")["revision"] == 2


def test_who_may_send_a_sheet(client, app):
    app.state.web.sheet_reader = Recorded([word("rest", True, [("rest", 0.5), ("reset", 0.4)])])
    t = playing(client, ["Ann", "Bob", "Cy"])
    cy = t.players["Cy"][0]
    assert client.post(t.url(f"/players/{cy}/sheet"), content=JPEG,
                       headers={"Content-Type": "image/jpeg"}).status_code == 401
    other = send(t, "Ann", "Cy")
    assert other.status_code == 403 and "Cy" in other.json()["error"]
    # the host photographs the sheet of a player without a phone
    by_host = send(t, None, "Cy")
    assert by_host.status_code == 200 and by_host.json()["room"]["last_change"]["by"] == "host"
    assert me(t.view("Cy"), "Cy")["words"] == ["rest"]
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    # once locked the host sees the words to confirm and settles them for Cy
    assert me(t.view(), "Cy")["doubtful"] == {"rest": [["rest", 0.5], ["reset", 0.4]]}
    assert settle(t, "Bob", "Cy", "rest", "reset").status_code == 403
    res = settle(t, None, "Cy", "rest", "reset")
    assert res.status_code == 200, res.text
    assert me(res.json()["room"], "Cy")["words"] == ["reset"] and me(res.json()["room"], "Cy")["doubtful_count"] == 0
    # no such player
    assert client.post(t.url("/players/p9nobody/sheet"), content=JPEG,
                       headers={"Content-Type": "image/jpeg", "Authorization": f"Bearer {t.host}"}).status_code == 404


@pytest.mark.parametrize("error,status,kind", [
    (NoWritingError("no writing found in the photo", "give a photo of a player's sheet"), 422, "NoWritingError"),
])
def test_a_failed_reading_stores_nothing(client, app, error, status, kind):
    app.state.web.sheet_reader = Recorded([], error=error)
    t = playing(client)
    assert t.words("Ann", ["slate", "zone"]).status_code == 200
    before = me(t.view("Ann"), "Ann")
    res = send(t, "Ann", "Ann")
    assert res.status_code == status and res.json()["kind"] == kind
    assert "no writing found" in res.json()["error"] and res.json()["hint"]
    assert me(t.view("Ann"), "Ann") == before


def test_bad_uploads_store_nothing(client, app):
    t = playing(client)
    assert t.words("Ann", ["slate"]).status_code == 200
    before = me(t.view("Ann"), "Ann")
    not_image = send(t, "Ann", "Ann", b"%PDF-1.4 not a photo", headers={"Content-Type": "application/pdf"})
    assert not_image.status_code == 415
    corrupt = send(t, "Ann", "Ann", JPEG[:2000])
    assert corrupt.status_code == 422 and corrupt.json()["kind"] == "ImageReadError"
    big = send(t, "Ann", "Ann", b"\xff\xd8\xff" + b"\0" * (26 * 1024 * 1024))
    assert big.status_code == 413
    cross = send(t, "Ann", "Ann", headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403 and cross.json()["kind"] == "CrossSite"
    as_json = t.as_player("Ann", "POST", f"/players/{t.players['Ann'][0]}/sheet", json={"words": ["x"]})
    assert as_json.status_code == 415
    assert me(t.view("Ann"), "Ann") == before


def test_a_reading_for_another_round_writes_nothing(client, app):
    t = playing(client)
    app.state.web.sheet_reader = Recorded([word("rest")])
    # the phone still showed round 1 when round 2 had started
    assert t.as_host("POST", "/rounds", json={"discard": True}).status_code == 201
    stale = send(t, "Ann", "Ann", query="?round=1")
    assert stale.status_code == 409 and stale.json()["kind"] == "RoundChanged"
    assert me(t.view("Ann"), "Ann")["words"] == []
    assert send(t, "Ann", "Ann", query="?round=x").status_code == 400

    # the round is scored while the sheet is being read: the words do not land anywhere
    svc = app.state.rooms

    def host_scores() -> None:
        svc.lock(t.code, t.host)
        svc.set_board(t.code, t.host, "PERS/LATG/SINE/TERS")
        svc.score(t.code, t.host)
    app.state.web.sheet_reader = Recorded([word("rest")], before=host_scores)
    late = send(t, "Ann", "Ann", query="?round=2")
    assert late.status_code == 409 and late.json()["kind"] == "RoundChanged"
    view = t.view("Ann")
    assert view["round"]["phase"] == "scored" and me(view, "Ann")["words"] == []
    # nor in the next round, opened meanwhile
    assert t.as_host("POST", "/rounds").status_code == 201

    def next_round() -> None:
        svc.start(t.code, t.host, None, discard=True)
    app.state.web.sheet_reader = Recorded([word("rest")], before=next_round)
    moved = send(t, "Ann", "Ann")
    assert moved.status_code == 409 and moved.json()["kind"] == "RoundChanged"
    assert me(t.view("Ann"), "Ann")["words"] == []


def test_not_before_the_clock_nor_after_scoring(client, app):
    app.state.web.sheet_reader = Recorded([word("rest")])
    t = Table(client, ["Ann"], seconds=None)
    waiting = send(t, "Ann", "Ann")
    assert waiting.status_code == 409 and "not started" in waiting.json()["error"]
    assert t.as_host("POST", "/rounds").status_code == 201
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    # a paper round: the sheet is photographed once the lists are locked
    assert send(t, "Ann", "Ann").status_code == 200
    assert t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": "PERS/LATG/SINE/TERS"}).status_code == 200
    assert t.as_host("POST", "/rounds/current/score").status_code == 200
    scored = send(t, "Ann", "Ann")
    assert scored.status_code == 409 and "scored" in scored.json()["error"]


def test_doubtful_words_are_confirmed_replaced_or_dropped(client, app):
    app.state.web.sheet_reader = Recorded([
        word("seat", True, [("seat", 0.7), ("sat", 0.2), ("set", 0.05)]),
        word("rest", True, [("rest", 0.5), ("rust", 0.4)]),
        word("pets", True, [("pets", 0.5), ("pest", 0.4)]),
        word("tale", True, [("tale", 0.5), ("tile", 0.4)]),
        word("oats", True, [("oats", 0.5), ("bats", 0.4)])])
    t = playing(client)
    assert t.words("Ann", ["rust"]).status_code == 200
    assert send(t, "Ann", "Ann").status_code == 200
    # a tap on the reading confirms it: the word stays, the mark goes
    res = settle(t, "Ann", "Ann", "seat", "seat")
    ann = me(res.json()["room"], "Ann")
    assert ann["words"] == ["rust", "seat", "rest", "pets", "tale", "oats"] and "seat" not in ann["doubtful"]
    assert ann["revision"] == 3 and res.json()["room"]["last_change"]["what"] == "words"
    # a tap on an alternative replaces the word where it stands
    ann = me(settle(t, "Ann", "Ann", "pets", "pest").json()["room"], "Ann")
    assert ann["words"] == ["rust", "seat", "rest", "pest", "tale", "oats"]
    # an alternative already in the list: the doubtful word just goes (no word twice)
    ann = me(settle(t, "Ann", "Ann", "rest", "rust").json()["room"], "Ann")
    assert ann["words"] == ["rust", "seat", "pest", "tale", "oats"]
    # not a word at all: dropped
    ann = me(settle(t, "Ann", "Ann", "tale", None).json()["room"], "Ann")
    assert ann["words"] == ["rust", "seat", "pest", "oats"] and list(ann["doubtful"]) == ["oats"]
    # settled already (another phone): 409, nothing changes
    again = settle(t, "Ann", "Ann", "tale", "tile")
    assert again.status_code == 409 and again.json()["kind"] == "NotDoubtful"
    assert settle(t, "Ann", "Ann", "two words", "x").status_code == 400
    assert t.as_player("Ann", "POST", f"/players/{t.players['Ann'][0]}/doubtful",
                       json={"word": "oats"}).status_code == 400
    # typing the doubtful word away settles it too
    assert t.words("Ann", ["rust", "seat", "pest", "boats"]).status_code == 200
    ann = me(t.view("Ann"), "Ann")
    assert ann["doubtful"] == {} and ann["doubtful_count"] == 0


def test_a_tab_behind_the_sheet_merges(client, app):
    """Tab 1 saw revision 1; the sheet (sent from tab 2) makes it 2: tab 1's next save is
    refused with the list holding the sheet's words, so its merge keeps them."""
    app.state.web.sheet_reader = Recorded([word("rest"), word("pest")])
    t = playing(client)
    assert t.words("Ann", ["slate"]).status_code == 200
    assert send(t, "Ann", "Ann").json()["room"]["players"][0]["revision"] == 2
    stale = t.words("Ann", ["slate", "zone"], base=1)
    assert stale.status_code == 409 and stale.json()["kind"] == "StaleList"
    assert stale.json()["current"] == {"words": ["slate", "rest", "pest"], "revision": 2}
    assert t.words("Ann", ["slate", "rest", "pest", "zone"], base=2).status_code == 200


def test_the_board_lexicon_is_used_when_there_is_a_board(client, app):
    rec = Recorded([word("rest")])
    app.state.web.sheet_reader = rec
    t = playing(client)
    assert send(t, "Ann", "Ann").json()["sheet"]["lexicon"] == "dictionary"
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": "PERS/LATG/SINE/TERS"}).status_code == 200
    assert send(t, "Bob", "Bob").json()["sheet"]["lexicon"] == "board"
    assert rec.lexicons[0] is None
    lexicon = rec.lexicons[1]
    assert lexicon is not None and "rest" in lexicon and "last" in lexicon and "zebra" not in lexicon


def test_the_sample_sheet_read_for_real(client):
    """The shipped rendered sheet, read by the real reader against its board's lexicon:
    its ten words added, the crossed-out "dose" left out."""
    t = playing(client, ["Ann"])
    assert t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": TRAY_BOARD}).status_code == 200
    res = send(t, "Ann", "Ann")
    assert res.status_code == 200, res.text
    sheet = res.json()["sheet"]
    assert sheet["added"] == truth() and sheet["crossed_out"] == ["dose"] and sheet["lexicon"] == "board"
    assert me(res.json()["room"], "Ann")["words"] == truth()
    # each word's handwriting kept, cut from the photo: a small WebP each (test_room_sheet_images)
    images = me(res.json()["room"], "Ann")["images"]
    assert sheet["images"] == len(truth()) and set(images) == set(truth())
    got = t.as_player("Ann", "GET", f"/players/{t.players['Ann'][0]}/images/{images[truth()[0]]}")
    assert got.status_code == 200 and got.headers["content-type"] == "image/webp" and len(got.content) <= 4096
    # the tray's photo given as a sheet: no writing, nothing stored
    tray = send(t, "Ann", "Ann", SAMPLE.read_bytes())
    assert tray.status_code == 422 and tray.json()["kind"] == "NoWritingError"
    assert me(t.view("Ann"), "Ann")["words"] == truth()


def test_sheet_uploads_take_the_photo_places(app):
    """The sheet path is a photo upload: the same caps, places and reading slots."""
    from boggle_cv.web.uploads import is_photo_upload
    assert is_photo_upload("/api/rooms/KQ7M2XP/players/p1abc/sheet")
    assert not is_photo_upload("/api/rooms/KQ7M2XP/players/p1abc/words")
    assert not is_photo_upload("/api/rooms/KQ7M2XP/sheet")
    assert Path(SHEET).is_file()


def test_the_photo_readers_read_a_sheet_in_a_worker_process(dictionary):
    """`serve` reads sheets in its pool of worker processes (the function travels by
    name, the lexicon with it, the errors with their hints)."""
    import anyio

    from boggle_cv.game.board import Board
    from boggle_cv.cli.sheets import sheet_lexicon
    from boggle_cv.web.state import ReadingPool, read_sheet_bytes
    lexicon = sheet_lexicon(Board.parse(TRAY_BOARD), dictionary)
    pool = ReadingPool(1, "classifier")
    try:
        doc = anyio.run(pool.run, read_sheet_bytes, JPEG, lexicon)
        assert [w["word"] for w in doc["words"] if not w["crossed_out"]] == truth()
        assert [bool(i) for i in doc["images"]] == [not w["crossed_out"] for w in doc["words"]]
        with pytest.raises(NoWritingError) as err:
            anyio.run(pool.run, read_sheet_bytes, SAMPLE.read_bytes(), None)
        assert err.value.hint
    finally:
        pool.close()


def test_the_list_rules_on_their_own():
    """room.sheets without a server: what is added, what a mark keeps, how settling edits."""
    from boggle_cv.room.sheets import add_sheet, prune, settle
    words, marks, done = add_sheet(["Ｒest"], {}, [word("rest"), word("seat", True, [("sat", 0.3), ("seat", 0.6),
                                                                                      ("Seat", 0.05), ("set", 0.04),
                                                                                      ("st", 0.01), ("sea", 0.01), ("eat", 0.01)]),
                                                   word("", free="tale"), word("", free="")])
    # full-width and case: one word; a lexicon-less reading falls back on the free one
    assert words == ["Ｒest", "seat", "tale"] and done.already == ["rest"] and done.unreadable == 1
    # the reading first, then its runners-up, one spelling each, five at most
    assert marks == {"seat": [("seat", 0.6), ("sat", 0.3), ("set", 0.04), ("st", 0.01), ("sea", 0.01)]}
    assert prune(["tale"], marks) == {} and prune(["SEAT"], marks) == marks
    # a marked word no longer in the list: the choice is added (once)
    assert settle(["tale"], marks, "seat", "sat") == (["tale", "sat"], {})
    assert settle(["tale", "sat"], marks, "seat", "sat") == (["tale", "sat"], {})
    with pytest.raises(KeyError):
        settle(words, {}, "seat", "seat")


def test_the_sheet_is_read_in_the_rooms_language(client, app):
    """A German room's sheet is read as German (written forms of ä/ö/ü/ß, no English
    prior of common words); an English room's as English."""
    rec = Recorded([word("rest")])
    app.state.web.sheet_reader = rec
    send(playing(client), "Ann", "Ann")
    german = Table(client, ["Ann"], seconds=None)
    assert german.as_host("PUT", "/settings", json={"lang": "de"}).status_code == 200
    assert german.as_host("POST", "/rounds").status_code == 201
    send(german, "Ann", "Ann")
    assert rec.langs == ["en", "de"]


def test_a_sheet_sent_before_the_board_is_read_against_the_dictionary():
    """No board yet: the photo readers read each word against the edition's whole
    dictionary (every word read is a dictionary word), not as loose letters."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.web.state import read_sheet_bytes
    doc = read_sheet_bytes((SAMPLES / "sheets" / "sheet-4x4-a.jpg").read_bytes(), None, "en")
    words = [w["word"] for w in doc["words"]]
    english = load_default("en")
    assert len(words) == 11 and all(w in english for w in words)
    truth = (SAMPLES / "sheets" / "sheet-4x4-a.truth.txt").read_text().split()
    assert sum(w in truth for w in words) >= 8


def test_a_thumbnail_uploaded_as_a_sheet_is_no_writing():
    """A few pixels uploaded as a sheet is the room's 422 "no writing" (with its hint),
    not a 400 about the array's shape."""
    import cv2
    import numpy as np

    from boggle_cv.web.errors import status_of
    from boggle_cv.web.state import read_sheet_bytes
    ok, png = cv2.imencode(".png", np.zeros((3, 3, 3), np.uint8))
    with pytest.raises(NoWritingError, match="the image is 3 x 3 px, too small to hold a word") as err:
        read_sheet_bytes(png.tobytes(), None)
    assert ok and err.value.hint and status_of(err.value) == 422
