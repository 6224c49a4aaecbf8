"""The HTTP server's own limits for `boggle-cv serve` (uvicorn with its h11 protocol).

uvicorn bounds open connections (limit_concurrency: 503 above it), idle keep-alive
connections and the size of a request head, but it waits forever for a request
whose headers never finish (300 such connections stayed open 50 s). The protocol
made here adds the limits of ServeConfig:
  * header_timeout_s: a connection whose request head has not arrived that many
    seconds after the connection was made, or after the previous response, is
    closed (uvicorn's own keep-alive timer stops as soon as any byte arrives);
  * max_connections_per_client: an address's open connections. A family or a club
    behind one public address (NAT) shares it: every device holds its live stream and
    opens up to 6 more while a page loads, so at the cap a new connection first takes
    the place of the address's longest-idle keep-alive connection (one between
    requests, which a browser reopens when it needs it) and is answered 429 only when
    none is idle. A flood of slow heads from one address is held to the cap too, each
    for header_timeout_s. Not counted for the reverse proxy named by ServeConfig.proxy, whose
    X-Forwarded-For then names each request's address for the other limits
    (uvicorn's proxy headers, from that address only).
The body's own time limit is uploads.BodyLimit's (408).

Every open connection is a file descriptor: fit_open_files raises the process's
soft RLIMIT_NOFILE (often 1024) towards max_connections plus a margin, within the
hard limit, and lowers uvicorn's connection cap to what fits if it cannot.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .config import ServeConfig
from .refusal import too_many_connections

#: the answer to a connection over the cap: a page that says why in the page's languages and loads again
_TOO_MANY = too_many_connections()


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and per-client connection caps
    (class attributes, set by guarded_protocol)."""

    header_timeout_s: float = 10.0
    max_per_client: int = 256
    #: a reverse proxy's address, whose connections are not counted per address
    proxy: str | None = None
    #: open connections per client address, for this server (a fresh dict per
    #: guarded_protocol class), kept as they come and go; an address with none is dropped
    per_host: dict[str, set["GuardedH11"]] = {}

    _deadline: asyncio.TimerHandle | None = None
    _waiting_since: Any = None
    _idle_since: float = 0.0
    _counted: str | None = None

    # uvicorn narrows asyncio.Protocol's BaseTransport to Transport (with the same ignore)
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = _host(self)
        if host is not None and host != self.proxy:
            same = self.per_host.setdefault(host, set())
            refused = not self._make_room(same)
            same.add(self)
            self._counted = host
            if refused:
                self.transport.write(_TOO_MANY)
                self.transport.close()
                return
        self._arm()

    def _make_room(self, same: set["GuardedH11"]) -> bool:
        """True when this address may open one more connection: it has fewer than
        max_per_client open, or its longest-idle keep-alive connection closes to make
        way (False: none is idle: every one is busy or waits for its first request)."""
        open_ = [c for c in same if not c.transport.is_closing()]
        if len(open_) < self.max_per_client:
            return True
        idle = [c for c in open_ if c.idle]
        if not idle:
            return False
        min(idle, key=lambda c: c._idle_since).transport.close()
        return True

    @property
    def idle(self) -> bool:
        """A keep-alive connection between requests: its last response sent, no new request begun."""
        cycle = self.cycle
        return cycle is not None and cycle is self._waiting_since and bool(cycle.response_complete)

    def on_response_complete(self) -> None:
        self._arm()  # before uvicorn may start a pipelined request's cycle
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        host, self._counted = self._counted, None
        if host is not None:
            same = self.per_host.get(host)
            if same is not None:
                same.discard(self)
                if not same:
                    self.per_host.pop(host, None)
        super().connection_lost(exc)

    def _arm(self) -> None:
        """Expect a new request head within header_timeout_s."""
        self._disarm()
        self._waiting_since = self.cycle  # a new request makes a new cycle
        self._idle_since = self.loop.time()
        self._deadline = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is self._waiting_since and not self.transport.is_closing():
            self.transport.close()


def _host(conn: object) -> str | None:
    """The client address of a connection (None if unknown)."""
    client = getattr(conn, "client", None)
    return str(client[0]) if isinstance(client, tuple) and client else None


def guarded_protocol(config: ServeConfig) -> type[GuardedH11]:
    """GuardedH11 with this server's limits."""
    return type("GuardedH11Server", (GuardedH11,), {"header_timeout_s": float(config.header_timeout_s),
                                                    "max_per_client": int(config.max_connections_per_client),
                                                    "proxy": config.proxy, "per_host": {}})


#: File descriptors kept besides the connections: the listening socket, the database,
#: the photo workers' pipes, spooled uploads, Python's own files.
FD_SPARE = 128
log = logging.getLogger("boggle_cv.web")


def fit_open_files(connections: int, spare: int = FD_SPARE) -> int:
    """How many connections this process can hold open: the soft open-file limit is
    raised to connections + spare where the hard limit allows; if it stays lower,
    the connections that fit in it (at least 1)."""
    try:
        import resource
    except ImportError:  # not a POSIX system: nothing to raise or to learn
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + spare
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= want:
        return connections
    return max(1, soft - spare)


def uvicorn_config(app: Any, config: ServeConfig) -> uvicorn.Config:
    """uvicorn's settings for the page: the limits of `config` (see ServeConfig), the
    connection cap lowered to the open files the system allows (fit_open_files)."""
    connections = fit_open_files(config.max_connections)
    if connections < config.max_connections:
        log.warning("only %d connections fit in this process's open-file limit (ulimit -n); "
                    "max_connections %d lowered to that", connections, config.max_connections)
    return uvicorn.Config(app, http=guarded_protocol(config), log_level="warning", access_log=False,
                          proxy_headers=config.proxy is not None, forwarded_allow_ips=config.proxy,
                          server_header=False, limit_concurrency=connections,
                          timeout_keep_alive=config.keep_alive_s, backlog=config.backlog,
                          h11_max_incomplete_event_size=config.max_header_bytes)
