"""A small HTTP/1.1 client on asyncio streams for bench_club_night.py: one keep-alive
connection per phone, bound to the phone's own loopback address (127.0.0.N), and a
server-sent-events reader. Raw sockets instead of httpx so that 200 phones cost the
benchmark little CPU (it shares the machine with the server it measures) and so that
hostile clients can misbehave at the byte level.

Times are in seconds (time.monotonic), sizes in bytes.
"""
from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import Any

#: Seconds a request (connect, send, whole answer) may take before it counts as a timeout.
REQUEST_TIMEOUT_S = 30.0
_HEAD_LIMIT = 64 * 1024


@dataclass
class Answer:
    """One HTTP answer: status, headers (lower-case names), body; `seconds` from the
    request's start to the body's end."""

    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    return status, headers


async def _read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body (b"" for the last one)."""
    size_line = await reader.readuntil(b"\r\n")
    size = int(size_line.split(b";")[0].strip() or b"0", 16)
    if size == 0:
        await reader.readuntil(b"\r\n")  # no trailers expected
        return b""
    data = await reader.readexactly(size)
    await reader.readexactly(2)
    return data


class Connection:
    """A keep-alive connection from `local_ip` to the server; reopened when closed."""

    def __init__(self, host: str, port: int, local_ip: str) -> None:
        self.host, self.port, self.local_ip = host, port, local_ip
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self.opened = 0  # connections made (1 + reconnections)
        self.retried = 0  # requests sent again after the server closed an idle connection

    async def _open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(self.local_ip, 0), limit=_HEAD_LIMIT)
        self.opened += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: dict[str, str] | None = None, timeout: float = REQUEST_TIMEOUT_S) -> Answer:
        """Send one request and read its whole answer. Raises asyncio.TimeoutError,
        OSError or asyncio.IncompleteReadError (the connection is then closed).

        A reused keep-alive connection that the server closed while idle (the request
        met its end before any byte of an answer) is replaced and the request sent
        once more, as browsers do."""
        t0 = time.monotonic()
        reused = self._writer is not None and not self._writer.is_closing()
        try:
            return await asyncio.wait_for(self._exchange(method, path, body, headers or {}, t0), timeout)
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as e:
            self.close()
            if not reused or (isinstance(e, asyncio.IncompleteReadError) and e.partial):
                raise
        except BaseException:
            self.close()
            raise
        self.retried += 1
        try:
            left = max(0.1, timeout - (time.monotonic() - t0))
            return await asyncio.wait_for(self._exchange(method, path, body, headers or {}, t0), left)
        except BaseException:
            self.close()
            raise

    async def _exchange(self, method: str, path: str, body: bytes | None, headers: dict[str, str],
                        t0: float) -> Answer:
        if self._writer is None or self._writer.is_closing():
            await self._open()
        assert self._reader is not None and self._writer is not None
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None or method in ("POST", "PUT"):
            head.append(f"Content-Length: {len(body or b'')}")
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b""))
        await self._writer.drain()
        status, got = await _read_head(self._reader)
        if got.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while chunk := await _read_chunk(self._reader):
                parts.append(chunk)
            data = b"".join(parts)
        else:
            data = await self._reader.readexactly(int(got.get("content-length", "0")))
        if got.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, got, data, time.monotonic() - t0)


def json_body(doc: Any) -> tuple[bytes, dict[str, str]]:
    """(body, headers) of a JSON request."""
    return json.dumps(doc).encode(), {"Content-Type": "application/json"}


@dataclass
class Event:
    """One `event: room` of a stream: when it arrived, the room's version, its change."""

    at: float
    version: int
    what: str


@dataclass
class EventStream:
    """A phone's live stream (GET /api/rooms/{code}/events) from its own address, read
    until stop() (then it is closed, as a phone leaving); reconnects after 2 s when
    the server ends it or refuses it, as EventSource does. Counts what happened."""

    host: str
    port: int
    local_ip: str
    path: str
    events: list[Event] = field(default_factory=list)
    opened: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # status or error -> count
    dropped: int = 0  # streams that ended while wanted
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.StreamWriter | None = None

    def stop(self, reset: bool = False) -> None:
        """End the stream: closed (a page closed), or `reset` with a TCP RST (a phone
        dropping off the Wi-Fi)."""
        self._stop.set()
        if self._writer is not None:
            sock = self._writer.get_extra_info("socket")
            if reset and sock is not None:
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                except OSError:
                    pass
            self._writer.close()

    async def run(self) -> None:
        while not self._stop.is_set():
            try:
                await self._one()
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as e:
                if self._stop.is_set():
                    return
                key = type(e).__name__
                self.refused[key] = self.refused.get(key, 0) + 1
            if self._stop.is_set():
                return
            self.dropped += 1
            try:
                await asyncio.wait_for(self._stop.wait(), 2.0)
            except asyncio.TimeoutError:
                pass

    async def _one(self) -> None:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            self.host, self.port, local_addr=(self.local_ip, 0), limit=_HEAD_LIMIT), REQUEST_TIMEOUT_S)
        self._writer = writer
        try:
            writer.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                          "Accept: text/event-stream\r\n\r\n").encode())
            await writer.drain()
            status, headers = await asyncio.wait_for(_read_head(reader), REQUEST_TIMEOUT_S)
            if status != 200:
                self.refused[str(status)] = self.refused.get(str(status), 0) + 1
                return
            self.opened += 1
            chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            buf = b""
            while not self._stop.is_set():
                data = await (_read_chunk(reader) if chunked else reader.read(65536))
                if not data:
                    return
                buf += data
                while b"\n\n" in buf:
                    block, buf = buf.split(b"\n\n", 1)
                    self._parse(block.decode("utf-8", "replace"))
        finally:
            writer.close()
            self._writer = None

    def _parse(self, block: str) -> None:
        for line in block.split("\n"):
            if line.startswith("data:"):
                try:
                    doc = json.loads(line[5:].strip())
                    self.events.append(Event(time.monotonic(), int(doc["version"]),
                                             str(doc.get("change", {}).get("what", ""))))
                except (ValueError, KeyError, TypeError):
                    pass

    def first_at(self, version: int) -> float | None:
        """When this phone first saw the room at `version` or later (None: never)."""
        return next((e.at for e in self.events if e.version >= version), None)


def reset_socket(sock: socket.socket) -> None:
    """Close `sock` with a TCP reset (SO_LINGER 0), as a phone dropping off the Wi-Fi."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()
