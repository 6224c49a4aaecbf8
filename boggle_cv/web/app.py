"""create_app(): the Starlette application behind `boggle-cv serve`.

Routes: the page (/), its assets (/static/*, all shipped in the package: the page
works offline), the JSON API (/api/*, see api.py). Every error is answered as JSON
with a proper status (errors.py) and never stops the server.
"""
from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..game.dictionary import Dictionary
from ..error_codes import ErrorCode
from ..errors import BoggleError
from . import api
from .config import ServeConfig
from .errors import from_boggle_error, json_error
from .guards import Guards, GuessGuard
from .live import RoomHub
from .state import WebState
from .uploads import BodyLimit, BodyTimeout, BodyTooLarge, UnsupportedType, is_photo_upload

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("boggle_cv.web")

# The page loads nothing from elsewhere; the policy makes a stray CDN link fail loudly.
_CSP = ("default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware adding CSP, nosniff and no-referrer to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", _CSP.encode()),
                            (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _default_scanner_factory(engine: str) -> Callable[[], Any]:
    def make() -> Any:
        from ..vision.pipeline import Scanner
        return Scanner(engine)
    return make


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


async def _boggle_error(request: Request, exc: BoggleError) -> Response:
    return from_boggle_error(exc)


async def _too_large(request: Request, exc: BodyTooLarge) -> Response:
    photo = is_photo_upload(request.url.path)
    return json_error(413, str(exc), f"at most {exc.limit // (1024 * 1024)} MB", "BodyTooLarge",
                      code="photo.too_large" if photo else "body.too_large", params={"mb": exc.limit // (1024 * 1024)})


async def _unsupported(request: Request, exc: UnsupportedType) -> Response:
    return json_error(415, str(exc), None, type(exc).__name__, code=exc.code)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    messages = {404: "not found", 405: "method not allowed"}
    code: ErrorCode | None = "body.timeout" if isinstance(exc, BodyTimeout) else None
    return json_error(exc.status_code, messages.get(exc.status_code, str(exc.detail)), None, "HTTPException",
                      code=code)


async def _internal(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path)
    return json_error(500, f"internal error: {type(exc).__name__}", "see the server's log", "InternalError",
                      code="server.internal")


def _handlers(by_type: dict[type[Exception], Callable[[Request, Any], Awaitable[Response]]]) -> dict[Any, Any]:
    """The exception handlers as Starlette's table (its stubs type each handler as
    taking any Exception; ours take their own type, which is what it calls them with)."""
    return dict(by_type)


def create_app(config: ServeConfig, scanner_factory: Callable[[], Any] | None = None,
               dictionary: Dictionary | None = None) -> Starlette:
    """The ASGI app for one server.

    scanner_factory: () -> object with scan_image(image_bgr, size, photo=None) ->
        ScanResult; default Scanner(config.engine), made on the first photo.
    dictionary: a loaded Dictionary for English (default: the shipped one, loaded now);
        the other editions' shipped dictionaries are loaded when first needed, once
        (room.dictionaries), and shared by the rooms and /api/score.
    """
    from ..room.dictionaries import Dictionaries
    if dictionary is None:
        from ..game.dictionary import load_default
        dictionary = load_default()
    dictionaries = Dictionaries({"en": dictionary})
    state = WebState(config, dictionary, scanner_factory or _default_scanner_factory(config.engine),
                     dictionaries)

    def limit_for(path: str) -> int:
        return config.max_upload_bytes if is_photo_upload(path) else config.max_json_bytes

    from ..room.db import RoomDB
    from ..room.service import RoomLimits, RoomService
    from . import live_pg, practice, rooms, sheets
    from .reread import Rereads, reread_room
    rereads = Rereads(lambda code: reread_room(app.state, code))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        """The photo readers, the background re-reads of doubtful sheet words, and (on
        PostgreSQL) the other server processes' changes of rooms (live_pg)."""
        async with state.running(), rereads.running(), \
                live_pg.running(config.db_path, app.state.room_hub, room_service.room):
            yield
    room_service = RoomService(RoomDB(config.db_path), dictionaries,
                               limits=RoomLimits(max_rooms=config.max_rooms, max_players=config.max_players,
                                                 max_words=config.max_words, idle_s=config.room_idle_s),
                               lang=config.lang)
    r = "/api/rooms/{code:str}"
    routes = [
        Route("/", _index),
        Route("/api/rooms", rooms.create_room, methods=["POST"]),
        Route(r, rooms.get_room),
        Route(r + "/qr.svg", rooms.qr_svg),
        Route(r + "/events", rooms.events),
        Route(r + "/standings", rooms.standings),
        Route(r + "/settings", rooms.settings, methods=["PUT"]),
        Route(r + "/players", rooms.join, methods=["POST"]),
        Route(r + "/players/{player_id:str}", rooms.rename, methods=["PUT"]),
        Route(r + "/players/{player_id:str}", rooms.remove_player, methods=["DELETE"]),
        Route(r + "/players/{player_id:str}/words", rooms.put_words, methods=["PUT"]),
        Route(r + "/players/{player_id:str}/sheet", sheets.post_sheet, methods=["POST"]),
        Route(r + "/players/{player_id:str}/doubtful", sheets.settle, methods=["POST"]),
        Route(r + "/players/{player_id:str}/entry", sheets.correct, methods=["POST"]),
        Route(r + "/players/{player_id:str}/images/{image_id:str}", sheets.word_image, methods=["GET"]),
        Route(r + "/rounds", rooms.start_round, methods=["POST"]),
        Route(r + "/games", rooms.new_game, methods=["POST"]),
        Route(r + "/rounds/current/lock", rooms.lock, methods=["POST"]),
        Route(r + "/rounds/current/reopen", rooms.reopen, methods=["POST"]),
        Route(r + "/rounds/current/photo", rooms.post_photo, methods=["POST"]),
        Route(r + "/rounds/current/photo", rooms.get_photo, methods=["GET"]),
        Route(r + "/rounds/current/board", rooms.put_board, methods=["PUT"]),
        Route(r + "/rounds/current/score", rooms.score, methods=["POST"]),
        Route("/api/health", api.health),
        Route("/api/scan", api.scan, methods=["POST"]),
        Route("/api/scans/{scan_id:str}/photo", api.scan_photo),
        Route("/api/score", api.score, methods=["POST"]),
        Route("/api/rounds", api.save_round, methods=["POST"]),
        Route("/api/games", api.games),
        Route("/api/games/{name:str}/standings", api.standings),
        *practice.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), Middleware(Guards, config=config, is_photo=is_photo_upload),
                    Middleware(BodyLimit, limit_for=limit_for, config=config)],
        exception_handlers=_handlers({BoggleError: _boggle_error, BodyTooLarge: _too_large,
                                      UnsupportedType: _unsupported, HTTPException: _http_error,
                                      Exception: _internal}),
        lifespan=lifespan,
    )
    app.state.web = state
    app.state.rooms = room_service
    app.state.room_hub = RoomHub()
    app.state.lexicons = sheets.Lexicons(dictionaries)
    app.state.rereads = rereads
    app.state.room_guard = GuessGuard(config.guess_limit, config.guess_window_s)
    app.state.practice = practice.PracticeDesk(config.db_path, dictionaries)
    return app
