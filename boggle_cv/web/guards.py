"""What a request must be before the app spends anything on it (docs/web.md, "Limits").

  * Cross-site requests: any page a player visits can make their browser send
    "simple" requests (a form POST, an image link) to the room on the LAN. Every
    request under /api whose ``Sec-Fetch-Site`` is present and not ``same-origin`` or
    ``none``, or whose ``Origin`` names another host:port than its ``Host``, is refused
    403 (kind "CrossSite"), before it reaches a handler or counts as a wrong guess.
    A POST or PUT under /api must declare ``Content-Type: application/json`` (a photo
    upload: an image type, ``application/octet-stream`` or multipart), which a form or
    an image link cannot do without a preflight the server never grants: 415 otherwise.
  * Rate limits per address (token buckets, ServeConfig): creating rooms, and the
    anonymous writes /api/scan, /api/score and /api/rounds (and a practice round's
    deal, sheet and round); above them 429 (kind
    "RateLimited") with ``Retry-After`` in whole seconds.
  * check_round_size: a round stored through /api/rounds is at most max_round_bytes
    (413; a round of six players on a 6x6 board takes about 0.45 MB, most of it every
    word of the board with its path).
  * GuessGuard: the handlers' count of unknown room codes per address, so that codes
    cannot be enumerated; a request with a valid token for its room is never refused.

The tables here are bounded: an address is forgotten once it has nothing left to
remember (its bucket full again, its misses older than the window), and at most
MAX_TRACKED addresses are kept (the stalest dropped first).
"""
from __future__ import annotations

import collections
import json
import math
import time
from collections.abc import Callable
from typing import Any, Awaitable, MutableMapping, TypeVar

import anyio

from ..error_codes import ErrorCode
from ..errors import LimitReached, NotAuthenticated, RoomNotFound
from ..game.referee import RoundResult, round_record
from .config import MB, ServeConfig
from .errors import json_error
from .uploads import BodyTooLarge

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")

#: Most addresses one table (GuessGuard, a rate limit) remembers at once.
MAX_TRACKED = 10_000

_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SAME_SITE = frozenset({b"same-origin", b"none"})
_PHOTO_TYPES = (b"image/", b"application/octet-stream", b"multipart/form-data")


class RoundTooLarge(BodyTooLarge):
    """A round sent to /api/rounds that would take more than max_round_bytes in the
    games database (413)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(limit)
        self.args = (f"the round would take {size / MB:.1f} MB in the games database; at most {limit / MB:g} MB",)


def check_round_size(result: RoundResult, limit: int) -> None:
    """RoundTooLarge when storing `result` would write more than `limit` bytes (its
    report and its players' words, as JSON)."""
    record = round_record(result)
    size = len(json.dumps(record["report"])) + len(json.dumps(record["words"]))
    if size > limit:
        raise RoundTooLarge(size, limit)


class TooManyGuesses(LimitReached):
    """A client that asked for too many unknown rooms (429)."""

    status = 429
    default_code: ErrorCode | None = "room.guesses"


def client_of(scope: Scope) -> str:
    """The client's address ("?" when the server does not know it)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class GuessGuard:
    """Counts unknown-room answers per client address: `limit` misses within
    `window_s` seconds and that address gets 429 for the rest of the window, unless
    its request carries a token that the room knows (codes cannot be enumerated, and
    a phone already in a room is never locked out of it)."""

    def __init__(self, limit: int = 30, window_s: float = 600.0, max_tracked: int = MAX_TRACKED,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window_s, self.max_tracked, self.clock = max(1, limit), window_s, max_tracked, clock
        self._misses: dict[str, collections.deque[float]] = {}

    def locked(self, client: str) -> bool:
        """True while `client` has `limit` misses within the window."""
        misses = self._misses.get(client)
        if misses is None:
            return False
        horizon = self.clock() - self.window_s
        while misses and misses[0] < horizon:
            misses.popleft()
        if not misses:
            del self._misses[client]
            return False
        return len(misses) >= self.limit

    def miss(self, client: str) -> None:
        """Count one unknown room (or unknown token while locked) for `client`."""
        misses = self._misses.get(client)
        if misses is None:
            if len(self._misses) >= self.max_tracked:
                self._forget()
            misses = self._misses[client] = collections.deque(maxlen=self.limit)
        misses.append(self.clock())

    def check(self, client: str) -> None:
        """TooManyGuesses while `client` is locked out (for requests without a token)."""
        if self.locked(client):
            raise TooManyGuesses("too many unknown room codes from this device", "wait a few minutes")

    async def call(self, client: str, has_token: bool, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker thread, guarded: a locked-out address without a token
        is refused at once; with a token it is served when the room knows the token
        (an unknown room or token is then answered 429 too, so a guess learns nothing)."""
        locked = self.locked(client)
        if locked and not has_token:
            self.check(client)
        try:
            return await anyio.to_thread.run_sync(fn, *args)
        except RoomNotFound:
            self.miss(client)
            if locked:
                self.check(client)
            raise
        except NotAuthenticated:
            if locked:
                self.miss(client)
                self.check(client)
            raise

    def __len__(self) -> int:
        return len(self._misses)

    def _forget(self) -> None:
        """Drop addresses whose misses are all out of the window; then, if still full,
        the addresses with the oldest last miss."""
        for client in list(self._misses):
            self.locked(client)
        if len(self._misses) >= self.max_tracked:
            by_age = sorted(self._misses, key=lambda c: self._misses[c][-1])
            for client in by_age[:len(self._misses) - self.max_tracked + 1]:
                del self._misses[client]


class TokenBuckets:
    """One token bucket per address: `burst` requests at once, then `per_hour` an hour
    (spread evenly). take() spends a token or says how long until the next one."""

    def __init__(self, burst: int, per_hour: float, max_tracked: int = MAX_TRACKED,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate = max(1, burst), max(per_hour, 1e-9) / 3600.0  # tokens a second
        self.max_tracked, self.clock = max_tracked, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, client: str) -> float:
        """0.0 when a token was spent; else the seconds until one is there (nothing spent)."""
        now = self.clock()
        tokens, when = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if client not in self._buckets and len(self._buckets) >= self.max_tracked:
            self._forget(now)
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def __len__(self) -> int:
        return len(self._buckets)

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again (they hold nothing to remember); then,
        if still full, the least recently used."""
        for client, (tokens, when) in list(self._buckets.items()):
            if tokens + (now - when) * self.rate >= self.burst:
                del self._buckets[client]
        if len(self._buckets) >= self.max_tracked:
            by_age = sorted(self._buckets, key=lambda c: self._buckets[c][1])
            for client in by_age[:len(self._buckets) - self.max_tracked + 1]:
                del self._buckets[client]


def rate_limits(config: ServeConfig) -> dict[tuple[str, str], TokenBuckets]:
    """The rate-limited requests (method, path) and their buckets (ServeConfig)."""
    anon = TokenBuckets(config.anon_burst, config.anon_per_hour)
    return {("POST", "/api/rooms"): TokenBuckets(config.rooms_burst, config.rooms_per_hour),
            ("POST", "/api/scan"): anon,
            ("POST", "/api/score"): anon,
            ("POST", "/api/rounds"): TokenBuckets(config.rounds_burst, config.rounds_per_hour),
            ("POST", "/api/practice/deals"): anon, ("POST", "/api/practice/sheet"): anon,
            ("POST", "/api/practice/rounds"): TokenBuckets(config.practice_burst, config.practice_per_hour)}


def _authority(value: bytes, scheme: str) -> str:
    """host[:port] in lower case, without the scheme's default port."""
    text = value.decode("latin-1").strip().lower()
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    return text[:-len(default)] if default and text.endswith(default) else text


def cross_site(headers: dict[bytes, bytes]) -> bool:
    """True for a request that a page of another site made a browser send."""
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.strip().lower() not in _SAME_SITE:
        return True
    origin = headers.get(b"origin")
    if origin is None:
        return False
    scheme, sep, rest = origin.decode("latin-1").strip().lower().partition("://")
    if not sep:  # "null" (a sandboxed frame, a file:// page) or junk
        return True
    host = headers.get(b"host", b"")
    return _authority(rest.encode("latin-1").rstrip(b"/"), scheme) != _authority(host, scheme)


def acceptable_type(path: str, headers: dict[bytes, bytes], is_photo: Callable[[str], bool]) -> bool:
    """True when a POST/PUT declares a type no cross-site form or link can send."""
    ctype = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    if is_photo(path) and ctype.startswith(_PHOTO_TYPES):
        return True
    return ctype == b"application/json"


class Guards:
    """ASGI middleware: cross-site refusal, declared body types and per-address rate
    limits for /api (module docstring). `is_photo(path)` names the photo endpoints."""

    def __init__(self, app: ASGIApp, config: ServeConfig, is_photo: Callable[[str], bool]) -> None:
        self.app, self.is_photo = app, is_photo
        self.limits = rate_limits(config)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api"):
            await self.app(scope, receive, send)
            return
        method = str(scope.get("method", "GET")).upper()
        headers = {k.lower(): v for k, v in scope.get("headers") or []}
        refusal = None
        if cross_site(headers):
            refusal = json_error(403, "requests from other sites are refused",
                                 "open the room's own page (its link or QR code)", "CrossSite",
                                 code="request.cross_site")
        elif method in ("POST", "PUT") and not acceptable_type(path, headers, self.is_photo):
            photo = "an image (image/jpeg, ...) or a multipart form" if self.is_photo(path) else "application/json"
            refusal = json_error(415, f"send the request as {photo}",
                                 "a request without a body sends {} as application/json", "UnsupportedType",
                                 code="request.type")
        else:
            bucket = self.limits.get((method, path.rstrip("/") or "/"))
            wait = bucket.take(client_of(scope)) if bucket is not None else 0.0
            if wait > 0:
                retry = max(1, math.ceil(wait))
                refusal = json_error(429, "too many requests of this kind from this device",
                                     f"try again in {retry} s", "RateLimited",
                                     code="request.rate_limited", params={"seconds": retry})
                refusal.headers["Retry-After"] = str(retry)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)
