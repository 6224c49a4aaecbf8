"""The room endpoints (docs/web.md, "Rooms"): HTTP in, one RoomService call, JSON out.

Tokens come as `Authorization: Bearer TOKEN`. Every change is published to the
live hub so that every phone of the room sees it within a second. Errors are the
service's Room* errors with their statuses (401, 403, 404, 409), plus 429 for a
client that keeps guessing room codes.
"""
from __future__ import annotations

import collections
import time
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from ..errors import LimitReached, RoomNotFound, UsageError
from ..room.model import Room
from ..room.service import RoomService
from ..wordlists import tokenise
from .api import _json_body, _ok
from .live import RoomHub, room_events
from .uploads import read_photo


class TooManyGuesses(LimitReached):
    """A client that asked for too many unknown rooms (429)."""

    status = 429


class GuessGuard:
    """Counts unknown-room answers per client address: more than `limit` within
    `window_s` seconds and that client gets 429 for a while (codes cannot be
    enumerated)."""

    def __init__(self, limit: int = 30, window_s: float = 600.0) -> None:
        self.limit, self.window_s = limit, window_s
        self._misses: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)

    def check(self, client: str) -> None:
        misses, now = self._misses[client], time.monotonic()
        while misses and misses[0] < now - self.window_s:
            misses.popleft()
        if len(misses) >= self.limit:
            raise TooManyGuesses("too many unknown room codes from this device", "wait a few minutes")

    def miss(self, client: str) -> None:
        self._misses[client].append(time.monotonic())


def _service(request: Request) -> RoomService:
    svc: RoomService = request.app.state.rooms
    return svc


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _call(request: Request, fn: Any, *args: Any) -> Any:
    """Run a service call in a worker thread; unknown rooms count against the client."""
    guard: GuessGuard = request.app.state.room_guard
    guard.check(_client(request))
    try:
        return await anyio.to_thread.run_sync(fn, *args)
    except RoomNotFound:
        guard.miss(_client(request))
        raise


def _changed(request: Request, room: Room) -> None:
    """Tell the room's live streams (no await: the change is committed, so nothing may
    stop its answer); the hub keeps the round's deadline from it."""
    hub: RoomHub = request.app.state.room_hub
    r = room.round
    hub.publish(room.code, room.version, room.last_change, deadline=r.deadline if r.phase == "playing" else None)


async def _view(request: Request, room: Room, token: str | None, status: int = 200,
                extra: dict[str, Any] | None = None) -> JSONResponse:
    _changed(request, room)
    view = await anyio.to_thread.run_sync(_service(request).view, room.code, token)
    return _ok({**(extra or {}), "room": view}, status)


def join_url(request: Request, code: str) -> str:
    """The link players open: on this server's LAN address when it serves the LAN."""
    base = request.app.state.web.config.public_url or str(request.base_url)
    return f"{base.rstrip('/')}/?room={code}"


# ---- the room and its players -------------------------------------------------------------------

async def _optional_json(request: Request) -> dict[str, Any]:
    """The JSON object of a request whose body may be left out ({} then)."""
    if request.headers.get("content-length", "0") == "0" and "transfer-encoding" not in request.headers:
        return {}
    return await _json_body(request)


async def create_room(request: Request) -> JSONResponse:
    doc = await _optional_json(request)
    game = doc.get("game")
    seconds = doc.get("seconds", 180)
    target = doc.get("target", 50)
    room, host_token = await _call(request, _service(request).create, game, seconds, target)
    return await _view(request, room, host_token, 201, {"code": room.code, "host_token": host_token,
                                                       "join_url": join_url(request, room.code)})


async def get_room(request: Request) -> JSONResponse:
    code = request.path_params["code"]
    view = await _call(request, _service(request).view, code, _token(request))
    return _ok({"room": view, "join_url": join_url(request, view["code"])})


async def join(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    room, player, token = await _call(request, _service(request).join, request.path_params["code"], doc.get("name"))
    return await _view(request, room, token, 201, {"player_id": player.id, "token": token})


async def rename(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    p = request.path_params
    room = await _call(request, _service(request).rename, p["code"], p["player_id"], _token(request), doc.get("name"))
    return await _view(request, room, _token(request))


async def remove_player(request: Request) -> JSONResponse:
    p = request.path_params
    room = await _call(request, _service(request).remove, p["code"], _token(request), p["player_id"])
    return await _view(request, room, _token(request))


async def put_words(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    words = doc.get("words")
    if isinstance(words, str):
        words = [t for line in words.splitlines() for t in tokenise(line)]
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise UsageError("'words' must be a list of words (or text, one word per line)")
    words = [t for w in words for t in tokenise(w)]
    p = request.path_params
    room = await _call(request, _service(request).put_words, p["code"], p["player_id"], _token(request), words)
    return await _view(request, room, _token(request))


async def settings(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    room = await _call(request, _service(request).settings, request.path_params["code"], _token(request), doc)
    return await _view(request, room, _token(request))


async def standings(request: Request) -> JSONResponse:
    code = request.path_params["code"]
    svc = _service(request)
    view = await _call(request, svc.view, code, _token(request))  # members only
    target_q = request.query_params.get("target")
    target = view["settings"]["target"]
    if target_q:
        if not target_q.isdigit() or not 1 <= int(target_q) <= 100_000:
            raise UsageError(f"target {target_q!r} is not a whole number from 1 to 100000")
        target = int(target_q)
    from .. import store
    db = request.app.state.web.config.db_path
    known = await anyio.to_thread.run_sync(store.list_games, db)
    if view["game"] not in known:
        return _ok({"game": view["game"], "rounds": 0, "target": target, "first_to_target": [], "players": []})
    result = await anyio.to_thread.run_sync(store.standings, db, view["game"], target)
    return _ok(result.to_dict())


# ---- the round ----------------------------------------------------------------------------------

async def start_round(request: Request) -> JSONResponse:
    doc = await _optional_json(request)
    seconds = doc["seconds"] if "seconds" in doc else "default"
    room = await _call(request, _service(request).start, request.path_params["code"], _token(request), seconds,
                       bool(doc.get("discard", False)))
    return await _view(request, room, _token(request), 201)


async def lock(request: Request) -> JSONResponse:
    room = await _call(request, _service(request).lock, request.path_params["code"], _token(request))
    return await _view(request, room, _token(request))


async def reopen(request: Request) -> JSONResponse:
    room = await _call(request, _service(request).reopen, request.path_params["code"], _token(request))
    return await _view(request, room, _token(request))


async def put_board(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    text, fixes = doc.get("board"), doc.get("fix")
    if text is None and fixes is None:
        raise UsageError("send {\"board\": \"TEXT\"} or {\"fix\": {\"r2c3\": \"W\"}}")
    if text is not None and not isinstance(text, str):
        raise UsageError("'board' must be board text such as PERS/LATG/SINE/TERS")
    if fixes is not None and not (isinstance(fixes, dict) and all(isinstance(v, str) for v in fixes.values())):
        raise UsageError("'fix' must map cells to faces, e.g. {\"r2c3\": \"W\"}")
    room = await _call(request, _service(request).set_board, request.path_params["code"], _token(request),
                       text, fixes)
    return await _view(request, room, _token(request))


async def post_photo(request: Request) -> JSONResponse:
    code, token = request.path_params["code"], _token(request)
    svc = _service(request)
    await _call(request, svc.view, code, token)  # a member, before any photo is read
    data, _fmt = await read_photo(request)
    stored, _timings = await request.app.state.web.read(data, None)  # the server's photo readers
    from .geometry import board_geometry
    scan_doc = {**stored.scan.to_dict(), "geometry": board_geometry(stored.scan)}
    scan_doc.pop("photo", None)
    room = await _call(request, svc.set_photo, code, token, scan_doc, stored.preview)
    return await _view(request, room, token)


async def get_photo(request: Request) -> Response:
    code, token = request.path_params["code"], _token(request)
    view = await _call(request, _service(request).view, code, token)
    got = await anyio.to_thread.run_sync(_service(request).db.photo, view["code"], view["round"]["number"])
    if got is None:
        raise RoomNotFound("this round has no photo", "take one")
    return Response(got[1], media_type="image/jpeg", headers={"Cache-Control": "private, max-age=86400"})


async def score(request: Request) -> JSONResponse:
    room, report = await _call(request, _service(request).score, request.path_params["code"], _token(request))
    _changed(request, room)
    return _ok(report)


async def events(request: Request) -> StreamingResponse:
    code = request.path_params["code"]
    svc = _service(request)
    room = await _call(request, svc.room, code)
    _changed(request, room)  # a server started since the last change learns the room and its deadline

    def lock_if_due() -> Room:
        return svc.expire(room.code) or svc.room(room.code)

    async def expire() -> None:
        """At the deadline: lock the lists (or find them locked) and tell every stream."""
        _changed(request, await anyio.to_thread.run_sync(lock_if_due))

    return StreamingResponse(room_events(request.app.state.room_hub, room.code, room.version, expire, svc.clock),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def qr_svg(request: Request) -> Response:
    """The join link as a QR code (SVG, made here: the page loads nothing from elsewhere)."""
    code = request.path_params["code"]
    room = await _call(request, _service(request).room, code)
    import segno
    qr = segno.make(join_url(request, room.code), error="m")
    import io
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=2, dark="#1f1f1f", light="#ffffff", xmldecl=False,
            svgns=True, title=f"Join room {room.code}")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})
