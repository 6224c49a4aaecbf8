"""Request bodies with limits: a size cap checked while the body streams in, a time
limit and a minimum pace for the whole body, photos received whole before they may
wait for a reading slot, and photos that must really be images.

``BodyLimit`` is an ASGI middleware: it refuses a declared Content-Length above the
cap at once and counts the bytes of undeclared (chunked) bodies as they arrive,
raising ``BodyTooLarge`` (answered 413) as soon as the cap is passed; a body that
has not fully arrived ``body_timeout_s`` after the app began to read it, or that
after ``body_grace_s`` has come slower than ``min_body_rate`` on average, is answered
408 (a client sending one byte a second cannot hold the server).

Photo uploads (/api/scan, a room's /api/rooms/{code}/rounds/current/photo and a
player's sheet, /api/rooms/{code}/players/{id}/sheet) are
first received whole: at most ``max_photo_requests_per_client`` at once from one
address, at most ``max_photo_bodies`` held server-wide, of which anonymous /api/scan
may take only half (so slow anonymous uploads never leave a room's photo without a
place). Only a photo that has fully arrived queues for one of the
``max_photo_requests`` reading slots, a room's photo ahead of any /api/scan. A wait
for a place or a slot ends after ``photo_wait_s`` (503); a waiting upload's bytes stay
in the kernel's buffers, not ours. The photos held in memory are bounded whatever the
clients do (ServeConfig.held_photos_mb). The photo is never written to disk under any
name: a raw body is held in memory (at most the cap), a multipart part is spooled by
Starlette to an anonymous temporary file.
"""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, MutableMapping

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request

from ..error_codes import ErrorCode
from ..errors import UsageError
from .config import ServeConfig

#: Retry-After (seconds) of a photo refused because every reading slot stayed busy.
BUSY_RETRY_S = 10

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PHOTO_PATH = "/api/scan"
#: A sheet photo of a practice round (web.practice).
PRACTICE_SHEET_PATH = "/api/practice/sheet"


def is_photo_upload(path: str) -> bool:
    """True for the endpoints that take a photo body: /api/scan, /api/practice/sheet, a room's
    /api/rooms/{code}/rounds/current/photo (the tray) and
    /api/rooms/{code}/players/{id}/sheet (a player's sheet: the same caps, places and
    reading slots as the tray's photo)."""
    if path in (PHOTO_PATH, PRACTICE_SHEET_PATH):
        return True
    if not path.startswith("/api/rooms/"):
        return False
    return path.endswith("/rounds/current/photo") or (path.endswith("/sheet") and path.count("/") == 6
                                                      and path.split("/")[4] == "players")

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
    """A body of a type the endpoint does not take (answered 415); `code`: its
    error_codes code."""

    default_code: ErrorCode = "request.type"

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code or self.default_code


class NotAnImage(UnsupportedType):
    """The upload is not an image we can read (answered 415)."""

    default_code: ErrorCode = "photo.not_image"


@dataclass
class _ClientSlots:
    """One address's photo places and how many of its requests use or wait for them."""

    slots: anyio.Semaphore
    users: int = 0


@dataclass
class _Waiter:
    first: bool
    event: anyio.Event
    granted: bool = False


class SlotQueue:
    """`n` slots handed out in order of arrival, waiters marked `first` ahead of the
    others (a room's photo ahead of /api/scan). One event loop, no lock: a waiter
    cancelled after it was handed a slot hands it on."""

    def __init__(self, n: int) -> None:
        self.free = max(1, n)
        self._first: collections.deque[_Waiter] = collections.deque()
        self._others: collections.deque[_Waiter] = collections.deque()

    async def acquire(self, first: bool) -> None:
        """Wait for a slot (cancellable; nothing is held after a cancellation)."""
        if self.free > 0 and not self._first and not self._others:
            self.free -= 1
            return
        waiter = _Waiter(first, anyio.Event())
        queue = self._first if first else self._others
        queue.append(waiter)
        try:
            await waiter.event.wait()
        except BaseException:
            if waiter.granted:
                self.release()
            else:
                queue.remove(waiter)
            raise

    def release(self) -> None:
        """Give the slot to the next waiter (a `first` one if any), else free it."""
        for queue in (self._first, self._others):
            if queue:
                waiter = queue.popleft()
                waiter.granted = True
                waiter.event.set()
                return
        self.free += 1

    @property
    def waiting(self) -> int:
        return len(self._first) + len(self._others)


class BodyTimeout(HTTPException):
    """A request body that did not arrive in time or came too slowly (408)."""

    def __init__(self, detail: str) -> None:
        super().__init__(408, detail)


class BodyLimit:
    """ASGI middleware: cap request bodies in size, time and pace; receive a photo
    whole before it may wait for one of the reading slots (module docstring).
    `limit_for(path)` gives the size cap in bytes; `config` the other limits
    (ServeConfig: body_timeout_s, body_grace_s, min_body_rate, max_photo_requests,
    max_photo_requests_per_client, max_photo_bodies, photo_wait_s)."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int], config: ServeConfig) -> None:
        self.app = app
        self.limit_for = limit_for
        c = config
        self.body_timeout_s, self.grace_s, self.min_rate = c.body_timeout_s, c.body_grace_s, c.min_body_rate
        self.photo_wait_s = c.photo_wait_s
        self.per_client = c.max_photo_requests_per_client
        self.reading = SlotQueue(c.max_photo_requests)
        self._bodies = anyio.Semaphore(max(1, c.max_photo_bodies))
        self._scan_bodies = anyio.Semaphore(max(1, c.max_photo_bodies // 2))
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
                ctype = dict(scope.get("headers") or []).get(b"content-type", b"").lower()
                photo = ctype.startswith((b"image/", b"multipart/"))
                what = "a smaller photo" if photo else "fewer words"
                await json_error(413, str(BodyTooLarge(limit)), f"send {what}",
                                 code="photo.too_large" if photo else "body.too_large",
                                 params={"mb": limit // (1024 * 1024)})(scope, receive, send)
                return
        if not is_photo_upload(path) or scope.get("method") != "POST":
            await self.app(scope, self._timed(receive, limit), send)
            return
        await self._photo(scope, receive, send, limit, first=path != PHOTO_PATH)

    async def _photo(self, scope: Scope, receive: Receive, send: Send, limit: int, first: bool) -> None:
        """A photo upload: a place for its body (the address's share, then the
        server's), the whole body, then a reading slot (`first`: ahead of /api/scan),
        then the app with the body replayed."""
        from .errors import json_error
        busy = json_error(503, "the server is busy reading other photos", "try again in a moment", "Busy",
                          code="server.busy", retry_after_s=BUSY_RETRY_S)
        client = str((scope.get("client") or ("?", 0))[0])
        mine = self._slots_of.get(client)
        if mine is None:
            mine = self._slots_of[client] = _ClientSlots(anyio.Semaphore(max(1, self.per_client)))
        mine.users += 1
        places = [mine.slots] + ([] if first else [self._scan_bodies]) + [self._bodies]
        held: list[anyio.Semaphore] = []
        reading = False
        try:
            with anyio.move_on_after(self.photo_wait_s):  # only the waits are bounded here
                for place in places:
                    await place.acquire()
                    held.append(place)
            if len(held) < len(places):
                await busy(scope, receive, send)
                return
            try:
                body = await self._whole_body(receive, limit)
            except BodyTooLarge as e:
                await json_error(413, str(e), f"at most {e.limit // (1024 * 1024)} MB", "BodyTooLarge",
                                 code="photo.too_large", params={"mb": e.limit // (1024 * 1024)})(scope, receive, send)
                return
            except BodyTimeout as e:
                await json_error(408, str(e.detail), "send the photo again on a better connection",
                                 "HTTPException", code="body.timeout")(scope, receive, send)
                return
            if body is None:
                return  # the client went away
            with anyio.move_on_after(self.photo_wait_s):
                await self.reading.acquire(first)
                reading = True
            if not reading:
                await busy(scope, receive, send)
                return
            await self.app(scope, _replay(body, receive), send)
        finally:
            if reading:
                self.reading.release()
            for place in reversed(held):
                place.release()
            mine.users -= 1
            if not mine.users:
                del self._slots_of[client]

    async def _whole_body(self, receive: Receive, limit: int) -> bytes | None:
        """The whole request body (None if the client disconnected first)."""
        timed = self._timed(receive, limit)
        chunks: list[bytes] = []
        while True:
            message = await timed()
            if message["type"] == "http.disconnect":
                return None
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _timed(self, receive: Receive, limit: int) -> Receive:
        """`receive` counting the body's bytes (BodyTooLarge past `limit`) and giving
        up (BodyTimeout, 408) when the body is not in body_timeout_s after the first
        read, or after body_grace_s has come slower than min_body_rate on average.
        Once the body is complete, later calls (waiting for a disconnect) are not timed."""
        seen = 0
        start: float | None = None
        done = False

        async def counted() -> Message:
            nonlocal seen, start, done
            if done:
                return await receive()
            now = time.monotonic()
            if start is None:
                start = now
            until = start + self.body_timeout_s
            if self.min_rate > 0:  # the next bytes are due when the average would drop below the rate
                until = min(until, start + max(self.grace_s, seen / self.min_rate))
            try:
                with anyio.fail_after(max(0.0, until - now)):
                    message = await receive()
            except TimeoutError:
                if until < start + self.body_timeout_s:
                    raise BodyTimeout(f"the request body came slower than {self.min_rate // 1024} KB/s") from None
                raise BodyTimeout(f"the request body did not arrive within {self.body_timeout_s:g} s") from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
                done = not message.get("more_body", False)
            return message

        return counted


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` giving the body already read as one message, then the client's own
    messages (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


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
            raise NotAnImage("HEIC photos cannot be read; set the camera to 'Most Compatible' (JPEG)", "photo.heic")
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
                raise PhotoMissing(f"the form has no file field {field!r}", code="photo.missing")
            data = await part.read()
            part_type = part.content_type or ""
        return data, check_image(data, part_type)
    chunks = []
    async for chunk in request.stream():
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data:
        raise PhotoMissing("the request holds no photo", code="photo.missing")
    return data, check_image(data, ctype)


class PhotoMissing(UsageError):
    """A scan request without a photo (answered 400)."""

