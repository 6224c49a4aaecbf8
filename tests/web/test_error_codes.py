"""The server's errors in the phone's language: every error the page
can meet carries a stable `code` and its `params` beside error, hint and kind
(boggle_cv/error_codes.py), and the page's table (static/errors.js, MESSAGES) gives
each code a msgid translated in all six catalogues.

A code added to the server without an entry in the page's table, an entry that uses a
param its code does not send, or a msgid missing from a catalogue fails here. The API
tests check the codes and params of representative errors; the browser side is
tests/web/test_e2e_errors.py.
"""
from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path
from typing import Any, get_args

import pytest

from boggle_cv.error_codes import CODES, ErrorCode
from scripts.page_strings import CATALOGUES, LANGS, STATIC, js_messages, read_po

PACKAGE = Path(__file__).resolve().parents[2] / "boggle_cv"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ENTRY = re.compile(r'^  "([\w.]+)": \(p\) => (t|tn)\((.*)\),$')


def page_table() -> dict[str, tuple[str, list[tuple[str, str | None]], str]]:
    """static/errors.js's MESSAGES: code -> (t or tn, its msgids, the entry's text)."""
    text = (STATIC / "errors.js").read_text(encoding="utf-8")
    body = text[text.index("export const MESSAGES = {"):]
    body = body[:body.index("\n};")]
    out = {}
    for line in body.splitlines()[1:]:
        m = ENTRY.match(line)
        assert m, f"errors.js: one entry a line, `\"code\": (p) => t(...)` or tn: {line!r}"
        assert m.group(1) not in out, f"errors.js: {m.group(1)} twice"
        out[m.group(1)] = (m.group(2), [(x.msgid, x.plural) for x in js_messages(line)], m.group(3))
    return out


PAGE = page_table()


def test_the_codes_are_one_table():
    assert set(get_args(ErrorCode)) == set(CODES)
    assert len(CODES) == len(get_args(ErrorCode))
    for code, params in CODES.items():
        assert re.fullmatch(r"[a-z]+\.[a-z_]+", code), code
        assert len(set(params)) == len(params) and all(re.fullmatch(r"[a-z_]+", p) for p in params), code


def test_every_code_is_raised_somewhere_and_no_other():
    """Each code of the table appears in the package (no dead codes), and every code
    given to an error (`code=...`, a class's `default_code = ...`) is in the table
    (mypy checks it too: ErrorCode)."""
    literal = re.compile(r'"([a-z]+\.[a-z_]+)"')
    seen: set[str] = set()
    given: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "error_codes.py":
            continue
        text = path.read_text(encoding="utf-8")
        seen |= set(literal.findall(text)) & set(CODES)
        for m in re.finditer(r"\bcode(?::[^=\n]*)?\s*=\s*([^,)\n]*)", text):
            given |= set(literal.findall(m.group(1)))
    assert len(given) > 40
    assert given - set(CODES) == set(), "codes given to errors but not in error_codes.CODES"
    assert set(CODES) - seen == set(), "codes in error_codes.CODES that nothing raises"


def test_every_code_has_an_entry_in_the_page_table():
    assert set(CODES) - set(PAGE) == set(), "codes without a message in static/errors.js"
    assert set(PAGE) - set(CODES) == set(), "static/errors.js holds codes the server does not send"


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_entry_uses_only_its_codes_params(code):
    fn, msgids, text = PAGE[code]
    params = set(CODES[code])
    assert len(msgids) == 1, (code, msgids)
    msgid, plural = msgids[0]
    used = set(re.findall(r"\bp\.(\w+)", text))
    assert used <= params, f"{code}: errors.js reads params {used - params} the server does not send"
    shown = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
    if fn == "tn":
        # the count is a param of the code (a number: "1 word", "3 words") and shows as {n};
        # other params are passed by name ({ min: p.min })
        count = re.search(r'", p\.(\w+)', text)
        assert plural is not None and count and count.group(1) in params and "n" in shown, code
        assert shown - {"n"} <= used, f"{code}: the msgid shows {shown - {'n'} - used}, which the entry does not fill"
    else:
        assert plural is None
        assert text.rstrip().endswith(", p"), f"{code}: t(msgid, p): the params fill the placeholders"
        assert shown <= params, f"{code}: the msgid shows {shown - params}, which the server does not send"


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_code_is_translated_in_each_catalogue(lang):
    _, entries = read_po(CATALOGUES / f"{lang}.po")
    for code, (_, msgids, _) in PAGE.items():
        for key in msgids:
            assert key in entries, f"{lang}.po lacks {code}'s msgid {key[0]!r} (scripts/page_strings.py --update)"
            strs = entries[key].msgstr
            assert strs and all(s.strip() for s in strs), f"{lang}.po: {code} is not translated"
            if lang != "en":
                assert strs[-1] != (key[1] or key[0]), f"{lang}.po: {code} is still English"


# ---- the API: codes and params beside the existing keys --------------------------------------------

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .test_rooms_api import Table, bearer  # noqa: E402


def coded(res: Any, status: int, kind: str, code: str, **params: Any) -> dict[str, Any]:
    """The answer is `status` with the old keys as before, and `code` with exactly its params."""
    assert res.status_code == status, res.text[:400]
    doc: dict[str, Any] = res.json()
    assert isinstance(doc["error"], str) and doc["error"] and "hint" in doc and doc["kind"] == kind, doc
    assert doc["code"] == code, doc
    assert set(doc["params"]) == set(CODES[code]), doc
    for k, v in params.items():
        assert doc["params"][k] == v, doc
    return doc


@pytest.fixture()
def app(tmp_path, dictionary):
    return create_app(ServeConfig(db_path=tmp_path / "games.sqlite3", max_players=3, rooms_burst=3),
                      dictionary=dictionary)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def test_room_errors_carry_their_code_and_params(client):
    import dataclasses
    rooms = client.app.state.rooms  # no grace for a save in flight at the lock
    rooms.limits = dataclasses.replace(rooms.limits, grace_s=0.0)
    t = Table(client, ["Ann", "Bob"], seconds=None)
    doc = coded(client.post(t.url("/players"), json={"name": "ＡＮＮ"}), 400, "UsageError", "name.taken", name="ANN")
    assert "already playing" in doc["error"] and doc["hint"] == "choose another name"  # the English text as before
    coded(client.post(t.url("/players"), json={"name": " "}), 400, "UsageError", "name.empty")
    coded(client.post(t.url("/players"), json={"name": "x" * 41}), 400, "UsageError", "name.too_long", max=40)
    coded(client.post(t.url("/players"), json={"name": "a\u200bb"}), 400, "UsageError", "name.invisible")
    assert client.post(t.url("/players"), json={"name": "Cy"}).status_code == 201
    coded(client.post(t.url("/players"), json={"name": "Dee"}), 409, "LimitReached", "room.full", max=3)
    coded(client.get("/api/rooms/ZZZZZZZ", headers=bearer(t.host)), 404, "RoomNotFound", "room.not_found")
    coded(client.get(t.url()), 401, "NotAuthenticated", "auth.no_token")
    coded(client.get(t.url(), headers=bearer("nope")), 401, "NotAuthenticated", "auth.bad_token")
    coded(t.as_player("Ann", "POST", "/rounds"), 403, "NotAllowed", "auth.host_only")
    bob = t.players["Bob"][0]
    coded(t.as_player("Ann", "PUT", f"/players/{bob}", json={"name": "B"}), 403, "NotAllowed", "auth.not_yours",
          name="Bob")
    coded(t.as_host("PUT", "/settings", json={"seconds": 5}), 400, "UsageError", "settings.timer", min=10, max=3600)
    # the round's phases
    coded(t.words("Ann", ["rest"]), 409, "RoundStateError", "round.not_started")
    coded(t.as_host("POST", "/rounds/current/lock"), 409, "RoundStateError", "round.cannot_lock", phase="waiting")
    assert t.as_host("POST", "/rounds").status_code == 201
    coded(t.words("Ann", ["rest"], base=3), 409, "StaleList", "list.stale", revision=0, base=3)
    coded(t.as_host("POST", "/rounds/current/score"), 409, "RoundStateError", "round.score_not_locked",
          phase="playing")
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    coded(t.words("Ann", ["rest"]), 409, "RoundStateError", "round.locked")
    coded(t.as_host("POST", "/rounds/current/score"), 409, "RoundStateError", "board.missing")
    coded(t.as_host("PUT", "/rounds/current/board", json={"board": "PERS/LATG/SINE"}), 400, "BoardTextError",
          "board.text")
    coded(t.as_host("POST", "/rounds", json={}), 409, "RoundStateError", "round.not_scored", round=1)


def test_a_stale_list_keeps_current_beside_its_code(client):
    t = Table(client, ["Ann"], seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    assert t.words("Ann", ["rest"]).status_code == 200
    doc = coded(t.words("Ann", ["pest"], base=0), 409, "StaleList", "list.stale", revision=1, base=0)
    assert doc["current"] == {"words": ["rest"], "revision": 1}


def test_sheet_errors_carry_their_code_and_params(client, app):
    from .test_room_sheets import Recorded, send
    t = Table(client, ["Ann"], seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    coded(send(t, "Ann", "Ann", query="?round=7"), 409, "RoundChanged", "sheet.round_moved", sent=7, round=1)
    from boggle_cv.errors import NoWritingError
    app.state.web.sheet_reader = Recorded([], error=NoWritingError("no writing found in the photo", "a hint"))
    coded(send(t, "Ann", "Ann"), 422, "NoWritingError", "sheet.no_writing")
    pid = t.players["Ann"][0]
    coded(t.as_player("Ann", "POST", f"/players/{pid}/doubtful", json={"word": "rest", "choice": None}), 409,
          "NotDoubtful", "word.not_doubtful", word="rest")


def _png_header(w: int, h: int) -> bytes:
    """A PNG that claims w x h pixels (its header only: refused before decoding)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b""))


def test_upload_errors_carry_their_code_and_params(client):
    t = Table(client, ["Ann"], seconds=None)
    photo = t.url("/rounds/current/photo")
    big = {"content-type": "image/jpeg", "content-length": str(26 * 1024 * 1024), **bearer(t.host)}
    # a declared size over the cap: kind "error" as it always was; the code tells a photo from a list
    coded(client.post(photo, content=b"\xff\xd8\xff", headers=big), 413, "error", "photo.too_large", mb=25)
    words = {"content-type": "application/json", **bearer(t.host)}
    coded(client.put(t.url("/settings"), content=b'{"a": "' + b"x" * (1024 * 1024) + b'"}', headers=words), 413,
          "error", "body.too_large", mb=1)
    coded(client.post(photo, content=b"%PDF-1.4", headers={"content-type": "image/jpeg", **bearer(t.host)}), 415,
          "NotAnImage", "photo.not_image")
    coded(client.post(photo, content=b"....ftypheic", headers={"content-type": "image/heic", **bearer(t.host)}),
          415, "NotAnImage", "photo.heic")
    coded(client.post(photo, content=b"\xff\xd8\xff\xe0trunc", headers={"content-type": "image/jpeg",
                                                                          **bearer(t.host)}),
          422, "ImageReadError", "photo.unreadable")
    coded(client.post(photo, content=_png_header(20_000, 20_000), headers={"content-type": "image/png",
                                                                           **bearer(t.host)}),
          422, "ImageReadError", "photo.too_many_pixels", megapixels="40")
    coded(client.get(photo, headers=bearer(t.host)), 404, "RoomNotFound", "photo.none")


def test_refusals_before_reading_carry_their_code_and_params(client):
    coded(client.post("/api/rooms", json={}, headers={"Sec-Fetch-Site": "cross-site"}), 403, "CrossSite",
          "request.cross_site")
    coded(client.post("/api/rooms", content=b"{}", headers={"content-type": "text/plain"}), 415, "UnsupportedType",
          "request.type")
    for _ in range(3):
        assert client.post("/api/rooms", json={}).status_code == 201
    res = client.post("/api/rooms", json={})
    doc = coded(res, 429, "RateLimited", "request.rate_limited")
    assert doc["params"]["seconds"] == int(res.headers["Retry-After"]) >= 1


def test_codes_survive_the_photo_readers_processes():
    """A reader's error crosses from a worker process with its code and params (pickled)."""
    import pickle

    from boggle_cv.errors import ImageReadError, StaleList
    err = pickle.loads(pickle.dumps(ImageReadError("m", "h", code="photo.too_many_pixels",
                                                   params={"megapixels": "40"})))
    assert (err.message, err.hint, err.code, err.params) == ("m", "h", "photo.too_many_pixels", {"megapixels": "40"})
    stale = pickle.loads(pickle.dumps(StaleList("m", "h", {"words": [], "revision": 2}, params={"revision": 2,
                                                                                                "base": 1})))
    assert stale.current == {"words": [], "revision": 2} and stale.code == "list.stale"
    assert ImageReadError("m").code == "photo.unreadable"  # a class's default code
