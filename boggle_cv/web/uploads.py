"""Request bodies with limits: a size cap checked while the body streams in, a time
limit for the whole body, a bounded number of photos held at once, and photos that
must really be images.

``BodyLimit`` is an ASGI middleware: it refuses a declared Content-Length above the
cap at once and counts the bytes of undeclared (chunked) bodies as they arrive,
raising ``BodyTooLarge`` (answered 413) as soon as the cap is passed; a body that
has not fully arrived ``body_timeout_s`` after the app began to read it is answered
408 (a client sending one byte a second cannot hold the server). Photo uploads
(/api/scan) are admitted ``max_photo_requests`` at a time, at most
``max_photo_requests_per_client`` of them from one address (so one busy phone cannot
take every slot); a further upload waits for a slot (its body stays in the kernel's
buffers, not ours) up to ``photo_wait_s``, then 503. The photos held in memory are
bounded whatever the clients do. The photo
is never written to disk under any name: a raw body is held in memory (at most the
cap), a multipart part is spooled by Starlette to an anonymous temporary file.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, MutableMapping

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request

from ..errors import UsageError
from .config import ServeConfig

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PHOTO_PATH = "/api/scan"


def is_photo_upload(path: str) -> bool:
    """True for the endpoints that take a photo body: /api/scan and a room's
    /api/rooms/{code}/rounds/current/photo."""
    return path == PHOTO_PATH or (path.startswith("/api/rooms/") and path.endswith("/rounds/current/photo"))

# First bytes of the formats the bounded decoder reads (image_header.SUPPORTED).
_MAGIC = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"BM", "BMP"),
)
SUPPORTED = "JPEG, PNG, WebP, TIFF or BMP"
# Declared types we accept before looking at the bytes (curl sends octet-stream for
# unknown extensions; the magic check below still applies).
_GENERIC_TYPES = ("application/octet-stream", "")


class BodyTooLarge(Exception):
    """The request body is larger than the cap (answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"request body larger than {limit // (1024 * 1024)} MB")
        self.limit = limit


class UnsupportedType(Exception):
    """A body of a type the endpoint does not take (answered 415)."""


class NotAnImage(UnsupportedType):
    """The upload is not an image we can read (answered 415)."""


@dataclass
class _ClientSlots:
    """One address's photo slots and how many of its requests use or wait for them."""

    slots: anyio.Semaphore
    users: int = 0


class BodyLimit:
    """ASGI middleware: cap request bodies in size and time, admit photos in bounded
    numbers. `limit_for(path)` gives the size cap in bytes; `config` the other limits
    (ServeConfig: body_timeout_s, max_photo_requests, max_photo_requests_per_client,
    photo_wait_s)."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int], config: ServeConfig) -> None:
        self.app = app
        self.limit_for = limit_for
        c = config
        self.body_timeout_s = c.body_timeout_s
        self.photo_wait_s = c.photo_wait_s
        self.per_client = c.max_photo_requests_per_client
        self._photo_slots = anyio.Semaphore(max(1, c.max_photo_requests))
        self._slots_of: dict[str, _ClientSlots] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from .errors import json_error
        path = scope.get("path", "")
        limit = self.limit_for(path)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = False
            if too_big:
                from .errors import json_error
                ctype = dict(scope.get("headers") or []).get(b"content-type", b"").lower()
                what = "a smaller photo" if ctype.startswith((b"image/", b"multipart/")) else "fewer words"
                await json_error(413, str(BodyTooLarge(limit)), f"send {what}")(scope, receive, send)
                return
        if not is_photo_upload(path) or scope.get("method") != "POST":
            await self.app(scope, self._timed(receive, limit), send)
            return
        client = str((scope.get("client") or ("?", 0))[0])
        mine = self._slots_of.get(client)
        if mine is None:
            mine = self._slots_of[client] = _ClientSlots(anyio.Semaphore(max(1, self.per_client)))
        mine.users += 1
        got_mine = got_one = False
        try:
            with anyio.move_on_after(self.photo_wait_s):  # only the wait is bounded here
                await mine.slots.acquire()  # this address's share of the slots,
                got_mine = True
                await self._photo_slots.acquire()  # then one of the server's
                got_one = True
            if got_one:
                await self.app(scope, self._timed(receive, limit), send)
            else:
                await json_error(503, "the server is busy reading other photos", "try again in a moment",
                                 "Busy")(scope, receive, send)
        finally:
            if got_one:
                self._photo_slots.release()
            if got_mine:
                mine.slots.release()
            mine.users -= 1
            if not mine.users:
                del self._slots_of[client]

    def _timed(self, receive: Receive, limit: int) -> Receive:
        """`receive` counting the body's bytes (BodyTooLarge past `limit`) and giving
        up (408) when the body is not in body_timeout_s after the first read."""
        seen = 0
        deadline: float | None = None

        async def counted() -> Message:
            nonlocal seen, deadline
            now = time.monotonic()
            if deadline is None:
                deadline = now + self.body_timeout_s
            try:
                with anyio.fail_after(max(0.0, deadline - now)):
                    message = await receive()
            except TimeoutError:
                raise HTTPException(408, f"the request body did not arrive within {self.body_timeout_s:g} s") \
                    from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        return counted


def sniff(data: bytes) -> str | None:
    """The image format named by the first bytes, or None."""
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    for magic, name in _MAGIC:
        if data.startswith(magic):
            return name
    return None


def check_image(data: bytes, declared: str) -> str:
    """The format of an uploaded photo; NotAnImage for anything else (415).

    declared: the Content-Type the client gave (of the body or of the form part).
    """
    kind = (declared or "").split(";")[0].strip().lower()
    if not (kind.startswith("image/") or kind in _GENERIC_TYPES):
        raise NotAnImage(f"that file ({kind}) is not a photo; send a {SUPPORTED} image")
    fmt = sniff(data)
    if fmt is None:
        if kind in ("image/heic", "image/heif"):
            raise NotAnImage("HEIC photos cannot be read; set the camera to 'Most Compatible' (JPEG)")
        raise NotAnImage(f"the upload is not a {SUPPORTED} image")
    return fmt


async def read_photo(request: Request, field: str = "photo") -> tuple[bytes, str]:
    """The photo's bytes and format from a raw image body or a multipart form field.

    Raw: Content-Type image/* (or application/octet-stream), the body is the photo.
    Multipart: the file part named `field` (the only part read as a file).
    Raises BodyTooLarge (413), NotAnImage (415), PhotoMissing (400).
    """
    ctype = request.headers.get("content-type", "")
    if ctype.lower().startswith("multipart/form-data"):
        async with request.form(max_files=1, max_fields=8) as form:
            part = form.get(field)
            if part is None or isinstance(part, str):
                raise PhotoMissing(f"the form has no file field {field!r}")
            data = await part.read()
            part_type = part.content_type or ""
        return data, check_image(data, part_type)
    chunks = []
    async for chunk in request.stream():
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data:
        raise PhotoMissing("the request holds no photo")
    return data, check_image(data, ctype)


class PhotoMissing(UsageError):
    """A scan request without a photo (answered 400)."""

