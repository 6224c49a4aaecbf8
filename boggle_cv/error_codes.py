"""The machine codes of the errors a phone can meet in the room.

An error's JSON answer (web/errors.py) carries `code` and `params` beside `error`,
`hint` and `kind`: `kind` names the exception type and may cover several messages,
`code` names the one message, in words the page translates (static/errors.js maps
each code to a msgid of the page's catalogues, static/i18n/<lang>.po) and `params`
holds the values that message shows ({"seconds": 30}). A code is stable: clients key
on it; its English text may change.

CODES is the one table: code -> the names of its params, in the order the English
message uses them. `ErrorCode` is the same list as a type, so mypy refuses a raise
with a code that is not here; tests/web/test_error_codes.py fails when a code has no
text in the page's table or in a catalogue. Adding an error: docs/web.md, "Errors in
the phone's language".
"""
from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    # the room and its players
    "room.not_found", "room.no_free_code", "room.full", "room.guesses", "server.rooms_full",
    "player.not_found",
    # tokens
    "auth.no_token", "auth.bad_token", "auth.host_only", "auth.not_yours", "auth.not_yours_sheet",
    # names
    "name.taken", "name.empty", "name.too_long", "name.control", "name.invisible",
    # settings
    "settings.timer", "settings.target",
    # the round's phase
    "round.not_started", "round.locked", "round.not_scored", "round.cannot_lock", "round.cannot_reopen",
    "round.score_not_locked", "round.scored_lists", "round.scored_board", "round.questions_open",
    # the board
    "board.missing", "board.none_to_correct", "board.cell_outside", "board.challenge_missing", "board.text",
    # lists and sheets
    "list.too_long", "list.stale", "sheet.round_moved", "sheet.round_scored", "sheet.no_writing",
    "word.not_doubtful", "word.not_on_sheet", "image.not_found", "image.hidden",
    # photos and bodies
    "photo.unreadable", "photo.too_many_pixels", "photo.no_board", "photo.none", "photo.not_image",
    "photo.heic", "photo.missing", "photo.too_large", "body.too_large", "body.timeout",
    # requests refused before they are read
    "request.type", "request.cross_site", "request.rate_limited",
    # practising alone
    "practice.deal", "practice.expired", "practice.no_words", "practice.clock",
    # the server
    "server.busy", "reader.missing", "reader.stopped", "storage.busy", "storage.error", "server.internal",
]

#: code -> the names of its params (every code of ErrorCode, none else).
CODES: dict[ErrorCode, tuple[str, ...]] = {
    "room.not_found": (),
    "room.no_free_code": (),
    "room.full": ("max",),
    "room.guesses": (),
    "server.rooms_full": ("max",),
    "player.not_found": (),
    "auth.no_token": (),
    "auth.bad_token": (),
    "auth.host_only": (),
    "auth.not_yours": ("name",),
    "auth.not_yours_sheet": ("name",),
    "name.taken": ("name",),
    "name.empty": (),
    "name.too_long": ("max",),
    "name.control": (),
    "name.invisible": (),
    "settings.timer": ("min", "max"),
    "settings.target": ("min", "max"),
    "round.not_started": (),
    "round.locked": (),
    "round.not_scored": ("round",),
    "round.cannot_lock": ("phase",),
    "round.cannot_reopen": ("phase",),
    "round.score_not_locked": ("phase",),
    "round.scored_lists": (),
    "round.scored_board": (),
    "round.questions_open": ("question",),
    "board.missing": (),
    "board.none_to_correct": (),
    "board.cell_outside": ("cell", "size"),
    "board.challenge_missing": (),
    "board.text": (),
    "list.too_long": ("max",),
    "list.stale": ("revision", "base"),
    "sheet.round_moved": ("sent", "round"),
    "sheet.round_scored": ("sent",),
    "sheet.no_writing": (),
    "word.not_doubtful": ("word",),
    "word.not_on_sheet": ("word",),
    "image.not_found": (),
    "image.hidden": ("name",),
    "photo.unreadable": (),
    "photo.too_many_pixels": ("megapixels",),
    "photo.no_board": (),
    "photo.none": (),
    "photo.not_image": (),
    "photo.heic": (),
    "photo.missing": (),
    "photo.too_large": ("mb",),
    "body.too_large": ("mb",),
    "body.timeout": (),
    "request.type": (),
    "request.cross_site": (),
    "request.rate_limited": ("seconds",),
    "practice.deal": (),
    "practice.expired": (),
    "practice.no_words": (),
    "practice.clock": ("min", "max"),
    "server.busy": (),
    "reader.missing": (),
    "reader.stopped": (),
    "storage.busy": (),
    "storage.error": (),
    "server.internal": (),
}
