"""The room endpoints (docs/web.md, "Rooms"): HTTP in, one RoomService call, JSON out.

Tokens come as `Authorization: Bearer TOKEN`. Every change is published to the
live hub so that every phone of the room sees it within a second. Errors are the
service's Room* errors with their statuses (401, 403, 404, 409), plus 429 for a
client that keeps guessing room codes.
"""
from __future__ import annotations

from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from ..errors import RoomNotFound, UsageError
from ..room.model import Room
from ..room.service import RoomService
from ..room.view import ranked
from .api import _json_body, _ok
from .guards import GuessGuard
from .live import RoomHub, room_events
from .reread import Rereads
from .requests import BoardChange, CreateRoom, Join, PutWords, Rename, SettingsChange, StartRound
from .uploads import read_photo


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
    """Run a service call in a worker thread; unknown rooms count against the client
    (guards.GuessGuard: a valid token for the room is never refused)."""
    guard: GuessGuard = request.app.state.room_guard
    return await guard.call(_client(request), _token(request) is not None, fn, *args)


def _changed(request: Request, room: Room) -> None:
    """Tell the room's live streams (no await: the change is committed, so nothing may
    stop its answer); the hub keeps the round's deadline from it."""
    hub: RoomHub = request.app.state.room_hub
    hub.publish_room(room)


def reread_sheets(request: Request, room: Room) -> None:
    """The board may have changed: the round's sheet words still the reader's, read
    against another lexicon, are read again against the board's, in the background
    (web.reread)."""
    rereads: Rereads = request.app.state.rereads
    rereads.request(room.code)


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
    cmd = CreateRoom.read(await _optional_json(request), _service(request).limits)
    room, host_token = await _call(request, _service(request).create, cmd.game, cmd.seconds, cmd.target,
                                   cmd.lang)
    return await _view(request, room, host_token, 201, {"code": room.code, "host_token": host_token,
                                                       "join_url": join_url(request, room.code)})


async def get_room(request: Request) -> JSONResponse:
    code = request.path_params["code"]
    view = await _call(request, _service(request).view, code, _token(request))
    return _ok({"room": view, "join_url": join_url(request, view["code"])})


async def join(request: Request) -> JSONResponse:
    """A player joins (their token in the answer), or the host adds a player without a
    phone ({"hosted": true}, the host's token; no token of their own: the host acts for them)."""
    cmd = Join.read(await _json_body(request), _service(request).limits)
    code = request.path_params["code"]
    if cmd.hosted:
        room, player = await _call(request, _service(request).add_hosted, code, _token(request), cmd.name)
        return await _view(request, room, _token(request), 201, {"player_id": player.id, "token": None})
    room, player, token = await _call(request, _service(request).join, code, cmd.name)
    return await _view(request, room, token, 201, {"player_id": player.id, "token": token})


async def rename(request: Request) -> JSONResponse:
    cmd = Rename.read(await _json_body(request), _service(request).limits)
    p = request.path_params
    room = await _call(request, _service(request).rename, p["code"], p["player_id"], _token(request), cmd.name)
    return await _view(request, room, _token(request))


async def remove_player(request: Request) -> JSONResponse:
    p = request.path_params
    room = await _call(request, _service(request).remove, p["code"], _token(request), p["player_id"])
    return await _view(request, room, _token(request))


async def put_words(request: Request) -> JSONResponse:
    doc = await _json_body(request)
    svc = _service(request)
    cmd = await anyio.to_thread.run_sync(PutWords.read, doc, svc.limits.max_words)  # CPU: off the event loop
    p = request.path_params
    room = await _call(request, svc.put_words, p["code"], p["player_id"], _token(request), cmd.words, cmd.base)
    return await _view(request, room, _token(request))


async def settings(request: Request) -> JSONResponse:
    cmd = SettingsChange.read(await _json_body(request), _service(request).limits)
    room = await _call(request, _service(request).settings, request.path_params["code"], _token(request),
                       dict(cmd.changes))
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
    from ..store import database as store
    db = request.app.state.web.config.db_path
    known = await anyio.to_thread.run_sync(store.list_games, db)
    if view["game"] not in known:
        return _ok({"game": view["game"], "rounds": 0, "target": target, "first_to_target": [], "players": []})
    result = (await anyio.to_thread.run_sync(store.standings, db, view["game"], target)).to_dict()
    return _ok({**result, "players": ranked(result["players"], "total")})


# ---- the round ----------------------------------------------------------------------------------

async def start_round(request: Request) -> JSONResponse:
    cmd = StartRound.read(await _optional_json(request), _service(request).limits)
    room = await _call(request, _service(request).start, request.path_params["code"], _token(request), cmd.seconds,
                       cmd.discard, cmd.wait)
    return await _view(request, room, _token(request), 201)


async def lock(request: Request) -> JSONResponse:
    room = await _call(request, _service(request).lock, request.path_params["code"], _token(request))
    return await _view(request, room, _token(request))


async def new_game(request: Request) -> JSONResponse:
    room = await _call(request, _service(request).new_game, request.path_params["code"], _token(request))
    return await _view(request, room, _token(request), status=201)


async def reopen(request: Request) -> JSONResponse:
    room = await _call(request, _service(request).reopen, request.path_params["code"], _token(request))
    return await _view(request, room, _token(request))


async def put_board(request: Request) -> JSONResponse:
    cmd = BoardChange.read(await _json_body(request))
    room = await _call(request, _service(request).set_board, request.path_params["code"], _token(request),
                       cmd.text, dict(cmd.fixes) if cmd.fixes is not None else None, cmd.bonus, cmd.challenge)
    reread_sheets(request, room)
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
    reread_sheets(request, room)
    return await _view(request, room, token)


async def get_photo(request: Request) -> Response:
    code, token = request.path_params["code"], _token(request)
    view = await _call(request, _service(request).view, code, token)
    got = await anyio.to_thread.run_sync(_service(request).db.photo, view["code"], view["round"]["number"])
    if got is None:
        raise RoomNotFound("this round has no photo", "take one", code="photo.none")
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
