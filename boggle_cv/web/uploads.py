"""Request bodies with limits: a size cap checked while the body streams in, and
photos that must really be images.

``BodyLimit`` is an ASGI middleware: it refuses a declared Content-Length above the
cap at once and counts the bytes of undeclared (chunked) bodies as they arrive,
raising ``BodyTooLarge`` (answered 413) as soon as the cap is passed. The photo is
never written to disk under any name: a raw body is held in memory (at most the
cap), a multipart part is spooled by Starlette to an anonymous temporary file.
"""
from __future__ import annotations

from typing import Callable

from starlette.requests import Request

from ..errors import UsageError

# First bytes of the formats the bounded decoder reads (imageio.SUPPORTED).
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


class BodyLimit:
    """ASGI middleware: cap request bodies; `limit_for(path)` gives the cap in bytes."""

    def __init__(self, app, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
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
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counted, send)


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

