"""Errors as JSON: every failure the page can meet becomes a status code and a
body ``{"error": message, "hint": hint or null, "kind": name, "code": code or null,
"params": {...}}`` (plus the error's ``details()``, e.g. ``current`` for a stale
list). `code` and `params` (error_codes.CODES) let a phone show the message in its
own language; `error` and `hint` are the English text, for scripts and logs.

Our own errors (boggle_cv.errors) map by type: bad input 400, an unreadable photo,
no board in it or no writing on a sheet 422, a missing model 503, the games database
500 (404 for an unknown game, decided by the endpoint), or 503 with ``Retry-After``
when it is busy or out of reach for now (code storage.busy). Anything unexpected is 500 with a short
message; the server keeps running.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse

from ..error_codes import ErrorCode
from ..errors import (BoggleError, EngineMissingError, ImageReadError, NoBoardError, NoWritingError, RoomError,
                      StorageError, UsageError)

_STATUS = ((UsageError, 400), (ImageReadError, 422), (NoBoardError, 422), (NoWritingError, 422),
           (EngineMissingError, 503), (StorageError, 500))


class NotFound(BoggleError):
    """Something the URL names does not exist (404)."""


def status_of(err: BoggleError) -> int:
    """HTTP status for one of our errors."""
    if isinstance(err, NotFound):
        return 404
    if isinstance(err, RoomError):
        return err.status
    for cls, status in _STATUS:
        if isinstance(err, cls):
            return status
    return 500


#: Seconds a client is asked to wait (Retry-After) when the games database is busy.
STORAGE_RETRY_S = 2


def json_error(status: int, message: str, hint: str | None = None, kind: str = "error",
               extra: dict[str, Any] | None = None, code: ErrorCode | None = None,
               params: Mapping[str, Any] | None = None, retry_after_s: int | None = None) -> JSONResponse:
    """The JSON error response (no caching, and Retry-After when retry_after_s is
    given); `extra` keys (such as StaleList's `current`) go beside error, hint, kind,
    code and params, never over them."""
    headers = {"Cache-Control": "no-store"}
    if retry_after_s is not None:
        headers["Retry-After"] = str(retry_after_s)
    return JSONResponse({**(extra or {}), "error": message, "hint": hint, "kind": kind, "code": code,
                         "params": dict(params or {})},
                        status_code=status, headers=headers)


def from_boggle_error(err: BoggleError) -> JSONResponse:
    if isinstance(err, StorageError) and err.code == "storage.busy":
        return json_error(503, err.message, err.hint, type(err).__name__, err.details(), err.code, err.params,
                          retry_after_s=STORAGE_RETRY_S)
    return json_error(status_of(err), err.message, err.hint, type(err).__name__, err.details(), err.code, err.params)
