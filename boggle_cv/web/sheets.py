"""The sheet endpoints: a player's handwritten list read from a photo into
their list, its doubtful words settled and any of its words typed over (docs/web.md,
"Paper lists").

POST /api/rooms/{code}/players/{id}/sheet[?round=N]: the photo (raw image body or
multipart field `photo`, received and queued like the tray's photo: uploads.BodyLimit)
is read in the server's photo readers (state.WebState.read_sheet) against the lexicon
of the round's board when there is one (`Lexicons`), freely otherwise; its words are
then added to the list (service.add_sheet) in the round it was sent for, or not at
all, with the handwriting of each word added (the reader's "images": a small WebP a
word, stored with the room: service.add_sheet), and what each word was read
against (the board's text, "" the dictionary): when the board becomes known or
changes, those words are read again from their images (web.reread). POST .../players/{id}/doubtful
answers the question about one doubtful word (service.settle_word), POST
.../players/{id}/entry confirms, types over or drops any word a sheet added
(service.correct_entry), lock or no lock until Score. GET .../players/{id}/images/{image_id}
serves one word's handwriting (service.word_image): its URL never changes, so the
phone's cache keeps it.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..game.board import Board
from ..errors import RoomNotFound, RoundChanged, UsageError
from ..room.dictionaries import Dictionaries
from ..room.sheets import media_type
from ..game.sheet_lexicon import SheetLexicon, sheet_lexicon
from .api import _json_body
from .requests import SettleWord
from .rooms import _call, _service, _token, _view, reread_sheets
from .uploads import read_photo


class Lexicons:
    """The words a sheet of a board is read against (as the `sheet` command reads: the
    board's words and every dictionary word one edit away), kept for the last
    `capacity` boards (a table photographs several sheets of one board)."""

    def __init__(self, dictionaries: Dictionaries, capacity: int = 8) -> None:
        self.dictionaries, self.capacity = dictionaries, max(1, capacity)
        self._held: OrderedDict[tuple[str, str], SheetLexicon] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, board: Board, lang: str) -> SheetLexicon:
        """Runs in a worker thread (the solver: a few ms to 100 ms)."""
        key = (board.to_text(), lang)
        with self._lock:
            if key in self._held:
                self._held.move_to_end(key)
                return self._held[key]
        words = sheet_lexicon(board, self.dictionaries.get(lang), lang)
        with self._lock:
            self._held[key] = words
            while len(self._held) > self.capacity:
                self._held.popitem(last=False)
        return words


def _round_asked(request: Request) -> int | None:
    """?round=N: the round the phone showed when the sheet was sent (None: the current one)."""
    value = request.query_params.get("round")
    if value is None:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 2**31 - 1:
        raise UsageError(f"round {value[:20]!r} is not a round number")
    return int(value)


async def post_sheet(request: Request) -> JSONResponse:
    code, pid, token = request.path_params["code"], request.path_params["player_id"], _token(request)
    svc = _service(request)
    number, board, lang = await _call(request, svc.sheet_target, code, pid, token)  # who, and when, first
    asked = _round_asked(request)
    if asked is not None and asked != number:
        raise RoundChanged(f"the sheet was sent for round {asked}, and round {number} is on now: nothing was added",
                           "photograph the sheet of this round", code="sheet.round_moved",
                           params={"sent": asked, "round": number})
    data, _fmt = await read_photo(request)
    lexicons: Lexicons = request.app.state.lexicons
    lexicon = await anyio.to_thread.run_sync(lexicons.get, board, lang) if board is not None else None
    reading = await request.app.state.web.read_sheet(data, lexicon, lang)  # the server's photo readers
    read: list[dict[str, Any]] = reading.get("words") or []
    images: list[bytes | None] = reading.get("images") or []
    against = board.to_text() if board is not None else ""
    room, done, kept = await _call(request, svc.add_sheet, code, pid, token, number, read, images, against)
    if done.added:  # the board may have changed while the sheet was read
        reread_sheets(request, room)
    sheet = {**done.to_dict(), "round": number, "read": len(read), "turn": reading.get("turn", 0),
             "lexicon": "board" if lexicon is not None else "dictionary", "images": kept}
    return await _view(request, room, token, extra={"sheet": sheet})


_IMAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def word_image(request: Request) -> Response:
    """One word's handwriting (a member's token; see service.word_image): immutable."""
    p, token = request.path_params, _token(request)
    image_id = str(p["image_id"])
    if not _IMAGE_ID.fullmatch(image_id):
        raise RoomNotFound("no such handwriting in this round", "it was removed with its word",
                           code="image.not_found")
    data: bytes = await _call(request, _service(request).word_image, p["code"], p["player_id"], image_id, token)
    return Response(data, media_type=media_type(data) or "application/octet-stream",
                    headers={"Cache-Control": "private, max-age=31536000, immutable"})


async def settle(request: Request) -> JSONResponse:
    """A question about a sheet's word answered (service.settle_word)."""
    cmd = SettleWord.read(await _json_body(request))
    p, token = request.path_params, _token(request)
    room = await _call(request, _service(request).settle_word, p["code"], p["player_id"], token, cmd.word, cmd.choice,
                       cmd.image)
    return await _view(request, room, token)


async def correct(request: Request) -> JSONResponse:
    """Any word a sheet added, confirmed, typed over or dropped (service.correct_entry)."""
    cmd = SettleWord.read(await _json_body(request))
    p, token = request.path_params, _token(request)
    room = await _call(request, _service(request).correct_entry, p["code"], p["player_id"], token, cmd.word,
                       cmd.choice, cmd.image)
    return await _view(request, room, token)
