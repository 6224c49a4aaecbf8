"""The page's "Practice alone" (docs/practice.md): one player, a virtual shake or a
real tray, the clock, the personal record in the games database.

  GET  /api/practice/options            sizes, editions and their cube sets, clocks
  POST /api/practice/deals              {mode: "shake"|"tray", size, lang, dice?, seconds?}
                                        -> a signed deal: the board (a shake), the clock,
                                        its deadline on the server's clock
  POST /api/practice/rounds             {deal, name, words, board?, scan_id?} -> the round
                                        scored and recorded, summed up (practice --json's
                                        document)
  POST /api/practice/sheet?board=TEXT&lang=LANG
                                        a sheet photo -> its words, read against the
                                        board (the server's photo readers)
  GET  /api/practice/record?name=NAME   the player's record (practice --history --json)

A deal is signed (HMAC-SHA256) with a secret kept in the games database
(practice.record.deal_secret), so that the board of a recorded shake is one this
server dealt, and a deal dealt before a restart still records. A deal is good until
DEAL_LIFE_S after its clock ran out (a phone that slept through the end can still
send its words); the same deal sent twice is recorded once (its id is unique in
the record). The page locks the words at the deadline; the server does not judge
when a word was typed.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..game.board import Board
from ..game.dice import CUBE_SETS
from ..game.editions import EDITIONS, get_edition
from ..errors import RoundStateError, UsageError
from ..game.names import clean_name
from ..practice.clock import MAX_SECONDS, MIN_SECONDS, usual_seconds
from ..practice.shake import SIZES, dice_for, shake
from ..room.dictionaries import Dictionaries
from ..store.sql import DbLocation
from .api import _json_body, _ok
from .errors import NotFound
from .requests import MAX_BOARD_TEXT, text
from .uploads import read_photo

#: A deal can be recorded until this many seconds after its clock ran out.
DEAL_LIFE_S = 3600
#: Longest deal token the server reads (a 6x6 board's deal is about 400 characters).
MAX_DEAL = 2000
#: Longest list of words in one request, in characters (a round's list is a few KB).
MAX_WORDS_TEXT = 200_000
MODES = ("shake", "tray")


@dataclass(frozen=True)
class Deal:
    """What a signed deal says: its id, mode, size, edition, cube set and board (a
    shake), clock (seconds) and when it was dealt (Unix seconds)."""

    id: str
    mode: str
    size: int
    lang: str
    seconds: int
    at: float
    dice: str | None = None
    board: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "mode": self.mode, "size": self.size, "lang": self.lang, "seconds": self.seconds,
                "at": self.at, "dice": self.dice, "board": self.board}


class PracticeDesk:
    """The practice side of one server: the games database, the dictionaries, and
    the deals' secret (read from the database once)."""

    def __init__(self, db_path: DbLocation, dictionaries: Dictionaries, clock: Any = time.time) -> None:
        self.db_path, self.dictionaries, self.clock = db_path, dictionaries, clock
        self._secret: bytes | None = None
        self._lock = threading.Lock()

    def secret(self) -> bytes:
        """Runs in a worker thread (the first call writes the database)."""
        with self._lock:
            if self._secret is None:
                from ..practice.record import deal_secret
                self._secret = deal_secret(self.db_path)
            return self._secret

    def sign(self, deal: Deal) -> str:
        body = base64.urlsafe_b64encode(json.dumps(deal.to_dict(), separators=(",", ":")).encode()).decode()
        mac = hmac.new(self.secret(), body.encode(), hashlib.sha256).hexdigest()
        return f"{body}.{mac}"

    def open(self, token: str) -> Deal:
        """The deal a token signs; UsageError (400) for one this server did not sign,
        RoundStateError (409) for one whose time to be recorded is over."""
        bad = UsageError("this practice round was not dealt by this server", "start a new round",
                         code="practice.deal")
        body, _, mac = token.partition(".")
        want = hmac.new(self.secret(), body.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(want, mac):
            raise bad
        try:
            d = json.loads(base64.urlsafe_b64decode(body.encode()))
            deal = Deal(str(d["id"]), str(d["mode"]), int(d["size"]), str(d["lang"]), int(d["seconds"]),
                        float(d["at"]), d.get("dice"), d.get("board"))
        except (ValueError, KeyError, TypeError):
            raise bad from None
        if self.clock() > deal.at + deal.seconds + DEAL_LIFE_S:
            raise RoundStateError("this practice round ended more than an hour ago", "start a new round",
                                  code="practice.expired")
        return deal


def _desk(request: Request) -> PracticeDesk:
    desk: PracticeDesk = request.app.state.practice
    return desk


async def options(request: Request) -> JSONResponse:
    """What the page offers: per edition, the sizes whose cubes are known (and every
    cube set of each size, to shake another edition's dice)."""
    sets = {n: [name for name, cs in CUBE_SETS.items() if cs.size == n] for n in SIZES}
    editions = []
    for e in EDITIONS.values():
        own: dict[str, str | None] = {}
        for n in SIZES:
            try:
                own[str(n)] = dice_for(n, e.code).name
            except UsageError:
                own[str(n)] = None
        editions.append({"code": e.code, "name": e.name, "dice": own})
    return _ok({"schema_version": 1, "sizes": list(SIZES), "sets": {str(n): v for n, v in sets.items()},
                "editions": editions, "usual_seconds": {str(n): usual_seconds(n) for n in SIZES},
                "seconds": [MIN_SECONDS, MAX_SECONDS]})


def _int(doc: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = doc.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"'{key}' must be a whole number")
    return value


async def deal(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    mode = doc.get("mode", "shake")
    if mode not in MODES:
        raise UsageError(f"'mode' must be one of {', '.join(MODES)}")
    size = _int(doc, "size", 4)
    if size not in SIZES:
        raise UsageError(f"unknown size {size!r}: practice boards are 4x4, 5x5 or 6x6")
    lang = get_edition(text(doc, "lang") if "lang" in doc else "en").code
    seconds = _int(doc, "seconds")
    seconds = usual_seconds(size) if seconds is None else seconds
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise UsageError(f"the clock must run from {MIN_SECONDS} to {MAX_SECONDS} seconds", code="practice.clock",
                         params={"min": MIN_SECONDS, "max": MAX_SECONDS})
    dice = text(doc, "dice", 40) if doc.get("dice") is not None else None
    desk = _desk(request)
    board = dealt = None
    if mode == "shake":
        shaken = shake(size, lang, dice)
        board, dealt = shaken.board, shaken.dice
    now = desk.clock()
    d = Deal(secrets.token_urlsafe(12), mode, size, lang, seconds, round(now, 3), dealt,
             board.to_text() if board is not None else None)
    token = await anyio.to_thread.run_sync(desk.sign, d)
    return _ok({"schema_version": 1, "deal": token, **d.to_dict(),
                "faces": board.to_rows() if board is not None else None,
                "deadline": d.at + seconds, "server_time": now}, 201)


def _words(raw: str, lang: str) -> list[str]:
    """The words of the page's list (several on a line, commas), at most MAX_WORDS."""
    from ..practice.round import MAX_WORDS
    from ..game.wordlists import parse_words
    from ..errors import WordListError
    try:
        return parse_words(raw.splitlines(), "the list", None, lang=lang)[:MAX_WORDS]
    except WordListError:
        raise UsageError("no words in the list: the round is not recorded", code="practice.no_words") from None


def _score(desk: PracticeDesk, d: Deal, name: str, words_text: str, board_text: str | None,
           scan: Any) -> dict[str, Any]:
    """In a worker thread: the round refereed, recorded and summed up."""
    from ..practice.round import practice_round, record_round, score_practice
    words = _words(words_text, d.lang)
    board = Board.parse(d.board) if d.board is not None else Board.parse(board_text) if board_text else None
    if board is None and scan is None:
        raise UsageError("a tray round needs its board", "take the photo of the tray, or type the board",
                         code="board.missing")
    if board is not None and board.size != d.size:
        raise UsageError(f"the board is {board.size}x{board.size}, the round was dealt for {d.size}x{d.size}")
    if scan is not None and board is None and scan.board.size != d.size:
        raise UsageError(f"the tray in the photo is {scan.board.size}x{scan.board.size}, "
                         f"the round was dealt for {d.size}x{d.size}")
    result = score_practice(name, words, desk.dictionaries.get(d.lang), d.lang, board=board,
                            scan=scan if d.mode == "tray" else None, photo="photo" if scan is not None else None)
    played = practice_round(result, d.seconds, d.mode, d.dice, deal=d.id)
    summary = record_round(desk.db_path, played, result)
    if summary.error is not None:
        raise summary.error
    return summary.to_dict()


async def post_round(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    desk = _desk(request)
    d = await anyio.to_thread.run_sync(desk.open, text(doc, "deal", MAX_DEAL))
    name = clean_name(doc.get("name"), "name")
    words_text = text(doc, "words", MAX_WORDS_TEXT)
    board_text = text(doc, "board", MAX_BOARD_TEXT) if d.mode == "tray" and doc.get("board") else None
    scan = None
    if d.mode == "tray" and doc.get("scan_id") is not None:
        stored = request.app.state.web.scans.get(text(doc, "scan_id", 64))
        if stored is None:
            raise NotFound("the photo of the tray is no longer kept", "take the photo again")
        scan = stored.scan
    return _ok(await anyio.to_thread.run_sync(_score, desk, d, name, words_text, board_text, scan), 201)


async def post_sheet(request: Request) -> JSONResponse:
    """A sheet photo's words read against the board of ?board= (the page adds them to
    the player's list: nothing is stored)."""
    q = request.query_params
    board = Board.parse(q.get("board", "")[:MAX_BOARD_TEXT])
    lang = get_edition(q.get("lang", "en")[:8]).code
    data, _fmt = await read_photo(request)
    lexicon = await anyio.to_thread.run_sync(request.app.state.lexicons.get, board, lang)
    reading = await request.app.state.web.read_sheet(data, lexicon, lang)
    words = [w for w in reading.get("words") or [] if not w.get("crossed_out")]
    return _ok({"schema_version": 1, "turn": reading.get("turn", 0),
                "words": [{"word": w.get("word") or w.get("free") or "", "confidence": w.get("confidence"),
                           "flagged": bool(w.get("flagged")),
                           "alternatives": [a[0] if isinstance(a, (list, tuple)) else a
                                            for a in (w.get("alternatives") or [])[:3]]}
                          for w in words if w.get("word") or w.get("free")]})


async def get_record(request: Request) -> JSONResponse:
    from ..practice import record
    name = clean_name(request.query_params.get("name", ""), "name")
    records = await anyio.to_thread.run_sync(record.history, _desk(request).db_path, name)
    return _ok({"schema_version": 1, "records": [r.to_dict() for r in records]})


def routes() -> list[Route]:
    """The practice routes, for the app's table (web/app.py)."""
    return [Route("/api/practice/options", options),
            Route("/api/practice/deals", deal, methods=["POST"]),
            Route("/api/practice/rounds", post_round, methods=["POST"]),
            Route("/api/practice/sheet", post_sheet, methods=["POST"]),
            Route("/api/practice/record", get_record)]
