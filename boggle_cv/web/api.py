"""The JSON endpoints of the page (all under /api).

  GET  /api/health                      server, engine and limits
  POST /api/scan[?size=auto|4|5|6]      a photo (raw image body or multipart field
                                        "photo") -> the board as read + overlay geometry
  GET  /api/scans/{id}/photo            the scaled JPEG of that photo
  POST /api/score                       board + players' words + rules -> ScoreSheet
  POST /api/rounds                      the same, stored as a round of `game`
  GET  /api/games                       stored game names
  GET  /api/games/{name}/standings[?target=N]

Request documents (JSON):
  {"board": "PERS/LATG/SINE/TERS" or [["P","E",...],...],
   "players": [{"name": "ann", "words": "one word per line (spaces, commas too)"}],
   "rules": {"variant": "standard"|"challenge", "min_length": null|3..,
             "long_words": "per-letter"|..., "bonus_cells": [[r, c], ...],
             "challenge_cell": [r, c] | null,            (cells 0-based, board order)
             "lang": "en"|"fr"|"de"|"es"|"it"|"nl"},     (the edition; default serve --lang)
   "game": "friday", "scan_id": "..."}                  (rounds only; scan_id optional)
Player and game names follow names.clean_name (docs/web.md, "Names"). Bodies are
parsed by parse_json_object (lone surrogates and deep nesting: 400).
Responses are ScoreSheet.to_dict() (scoring.py) plus "notes" (one line per odd
token in the lists) and "game" for a stored round.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .. import __version__
from ..store import database as store
from ..game.board import Board
from ..game.editions import DEFAULT_LANG, EDITIONS, LANGS, get_edition
from ..errors import BoardTextError, UsageError, WordListError
from ..game.names import MAX_NAME, clean_name, name_key
from ..game.referee import (Corrections, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round, store_round)
from ..game.wordlists import parse_words, tokenise
from .errors import NotFound
from ..vision.pipeline import ScanResult
from .geometry import board_geometry
from .guards import check_round_size
from .state import WebState
from .uploads import UnsupportedType, read_photo

SCHEMA_VERSION = 1
_NAME_MAX = MAX_NAME  # player and game names, as on the command line
_NO_STORE = {"Cache-Control": "no-store"}


def _ok(doc: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(doc, status_code=status, headers=_NO_STORE)


def _state(request: Request) -> WebState:
    state: WebState = request.app.state.web
    return state


async def health(request: Request) -> JSONResponse:
    st = _state(request)
    c = st.config
    return _ok({"ok": True, "version": __version__, "engine": c.engine, "lang": c.lang,
                "editions": [{"code": e.code, "name": e.name} for e in EDITIONS.values()],
                "limits": {"max_upload_bytes": c.max_upload_bytes, "max_players": c.max_players,
                           "max_words": c.max_words}})


# ---- photos -----------------------------------------------------------------

async def scan(request: Request) -> JSONResponse:
    st = _state(request)
    size_q = request.query_params.get("size", "auto")
    if size_q not in ("auto", "4", "5", "6"):
        raise UsageError(f"size {size_q!r} is not auto, 4, 5 or 6")
    size = None if size_q == "auto" else int(size_q)
    data, fmt = await read_photo(request)
    stored, timings = await st.read(data, size)  # state.py: in this process or a pool of workers
    scan_id = st.scans.add(stored)
    result = stored.scan
    doc = result.to_dict()
    doc.pop("photo", None)
    return _ok({"schema_version": SCHEMA_VERSION, "scan_id": scan_id, "format": fmt,
                "photo_url": f"/api/scans/{scan_id}/photo", **doc,
                "geometry": board_geometry(result),
                "timings_ms": {k: round(v * 1000, 1) for k, v in timings.items()}})


async def scan_photo(request: Request) -> Response:
    item = _state(request).scans.get(request.path_params["scan_id"])
    if item is None:
        raise NotFound("no such photo (the server keeps only the most recent ones)", "take the photo again")
    return Response(item.preview, media_type="image/jpeg",
                    headers={"Cache-Control": "private, max-age=3600"})


# ---- scoring ----------------------------------------------------------------

#: Bodies above this many bytes are parsed in a worker thread (a 1 MB body takes ~10 ms).
_PARSE_IN_THREAD_BYTES = 64 * 1024


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """A request body -> its JSON object; UsageError (400) for anything else: not JSON,
    not an object, nested too deeply for the parser (RecursionError), or holding text
    that is not Unicode (a lone surrogate such as "\\ud800", in a key or a value),
    which could be stored but never answered (UTF-8 cannot encode it)."""
    try:
        doc = json.loads(raw or b"null")
    except RecursionError:
        raise UsageError("the request body is nested too deeply", "send a flat JSON object") from None
    except (ValueError, UnicodeDecodeError):
        raise UsageError("the request body is not valid JSON") from None
    if not isinstance(doc, dict):
        raise UsageError("the request body must be a JSON object")
    if not raw.isascii() or b"\\u" in raw:  # else no string can hold a surrogate
        try:
            json.dumps(doc, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError("the request holds text that is not valid Unicode (a lone surrogate)",
                             "send the text as typed, in UTF-8") from None
        except RecursionError:
            raise UsageError("the request body is nested too deeply", "send a flat JSON object") from None
    return doc


async def _json_body(request: Request) -> dict[str, Any]:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise UnsupportedType("send the request as application/json")
    raw = await request.body()
    if len(raw) > _PARSE_IN_THREAD_BYTES:
        return await anyio.to_thread.run_sync(parse_json_object, raw)
    return parse_json_object(raw)


def parse_board(value: Any) -> Board:
    """Board text or rows of faces -> Board (BoardTextError, 400, otherwise)."""
    if isinstance(value, str):
        return Board.parse(value)
    if isinstance(value, list) and value and all(isinstance(r, list) and all(isinstance(f, str) for f in r)
                                                 for r in value):
        return Board.from_rows(value)
    raise BoardTextError("'board' must be board text (e.g. PERS/LATG/SINE/TERS) or rows of faces")


def parse_players(value: Any, max_players: int, max_words: int,
                  notes: list[str] | None = None) -> dict[str, list[str]]:
    """[{"name", "words"}] -> {name: words} in order (wordlists.parse_words: words split on
    lines, spaces, commas; odd tokens kept, scored not_a_word, and told in `notes`)."""
    if value is None:
        return {}
    if not isinstance(value, list):
        raise UsageError("'players' must be a list of {name, words}")
    if len(value) > max_players:
        raise UsageError(f"at most {max_players} players")
    out: dict[str, list[str]] = {}
    keys: set[str] = set()
    for i, p in enumerate(value, start=1):
        if not isinstance(p, dict):
            raise UsageError(f"player {i} must be an object with name and words")
        name = clean_name(p.get("name"), f"name of player {i}", _NAME_MAX)
        if name_key(name) in keys:
            raise UsageError(f"two players are called {name!r}", "give each player a different name")
        keys.add(name_key(name))
        words = p.get("words", "")
        if isinstance(words, list) and all(isinstance(w, str) for w in words):
            words = "\n".join(words)
        if not isinstance(words, str):
            raise UsageError(f"{name}'s words must be text")
        lines = words.splitlines()
        count = sum(len(tokenise(line)) for line in lines)
        if count > max_words:
            raise WordListError(f"{name}'s list has {count} words; at most {max_words}")
        out[name] = parse_words(lines, f"{name}'s words", notes) if count else []
    return out


def _cell(value: Any, what: str) -> tuple[int, int]:
    if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                            for v in value)):
        return int(value[0]), int(value[1])
    raise UsageError(f"{what} must be [row, col] (0-based)")


def parse_rules(value: Any, lang: str = DEFAULT_LANG) -> RulesOptions:
    """The rules object (all keys optional) -> the options the referee decides with;
    values are checked by scoring.Rules (one place for every limit). lang: the
    edition when the object names none (the server's)."""
    value = value or {}
    if not isinstance(value, dict):
        raise UsageError("'rules' must be an object")
    unknown = set(value) - {"variant", "min_length", "long_words", "bonus_cells", "challenge_cell", "lang"}
    if unknown:
        raise UsageError(f"unknown rule(s): {', '.join(sorted(unknown))}")
    bonus = value.get("bonus_cells") or []
    if not isinstance(bonus, list):
        raise UsageError("bonus_cells must be a list of [row, col]")
    challenge = value.get("challenge_cell")
    variant = value.get("variant")
    long_words = value.get("long_words", "per-letter")
    if not isinstance(variant, (str, type(None))) or not isinstance(long_words, str):
        raise UsageError("variant and long_words must be text")
    if variant == "challenge" and challenge is None:
        raise UsageError("the challenge variant needs challenge_cell", "tap the red cube's cell")
    edition = value.get("lang", lang)
    if not isinstance(edition, str):
        raise UsageError("lang must be an edition's code", "editions: " + ", ".join(LANGS))
    return RulesOptions(variant=variant, min_length=value.get("min_length"), long_words=long_words,
                        bonus_cells=frozenset(_cell(b, "a bonus cell") for b in bonus),
                        challenge_cell=_cell(challenge, "challenge_cell") if challenge is not None else None,
                        lang=get_edition(edition).code)


def _referee(st: WebState, doc: dict[str, Any], scan: ScanResult | None = None) -> RoundResult:
    """One referee call for a score or round request (runs in a worker thread).

    The page sends the board as the players corrected it and the rules as set on
    the page (marks already applied there), so marks seen in the photo are not
    added again. With the photo's scan, the board is given as corrections of that
    reading, so the stored round keeps what was read and which cells were changed."""
    if "board" not in doc:
        raise BoardTextError("the request has no 'board'")
    notes: list[str] = []
    players = parse_players(doc.get("players"), st.config.max_players, st.config.max_words, notes)
    board = parse_board(doc["board"])
    if scan is not None and scan.board.size == board.size:
        fixes = {(r, c): board.faces[r][c] for r, c in board.cells() if board.faces[r][c] != scan.board.faces[r][c]}
        corrections = Corrections(cells=fixes)
    else:
        scan, corrections = None, Corrections(board=board)
    options = parse_rules(doc.get("rules"), st.config.lang)
    result = referee_round(RoundRequest(scan, corrections, MarksPolicy.ignore, options, players),
                           st.dictionaries.get(options.lang))
    return dataclasses.replace(result, notes=tuple(notes) + result.notes)


async def score(request: Request) -> JSONResponse:
    st = _state(request)
    doc = await _json_body(request)
    result = await anyio.to_thread.run_sync(_referee, st, doc)
    return _ok(result.to_dict())


async def save_round(request: Request) -> JSONResponse:
    st = _state(request)
    doc = await _json_body(request)
    if doc.get("game") is None:
        raise UsageError("the round has no game name", "type a game name such as 'friday'")
    game = clean_name(doc["game"], "game name", _NAME_MAX)
    scan_id = doc.get("scan_id")
    item = st.scans.get(scan_id) if isinstance(scan_id, str) else None
    result = await anyio.to_thread.run_sync(_referee, st, doc, item.scan if item is not None else None)
    if not result.sheet.players:
        raise UsageError("a stored round needs at least one player")
    if item is not None:
        result = dataclasses.replace(result, photo="web upload")
    check_round_size(result, st.config.max_round_bytes)
    stored = await anyio.to_thread.run_sync(lambda: store_round(st.config.db_path, game, result))
    return _ok(stored.to_dict(), 201)


# ---- games ------------------------------------------------------------------

def _known_games(db: store.DbLocation) -> list[str]:
    """The stored games; none while the database file is not made yet."""
    return store.list_games(db) if store.exists(db) else []


async def games(request: Request) -> JSONResponse:
    db = _state(request).config.db_path
    names = await anyio.to_thread.run_sync(_known_games, db)
    return _ok({"games": names})


async def standings(request: Request) -> JSONResponse:
    db = _state(request).config.db_path
    name = request.path_params["name"]
    target_q = request.query_params.get("target")
    target = None
    if target_q not in (None, ""):
        if not target_q.isdigit() or not 1 <= int(target_q) <= 100000:
            raise UsageError(f"target {target_q!r} is not a positive whole number")
        target = int(target_q)
    known = await anyio.to_thread.run_sync(_known_games, db)
    if name not in known:
        raise NotFound(f"no game named {name!r}", "store a round in it first")
    result = await anyio.to_thread.run_sync(store.standings, db, name, target)
    return _ok(result.to_dict())
