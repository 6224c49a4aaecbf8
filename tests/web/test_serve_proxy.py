"""`boggle-cv serve --proxy ADDR` behind a reverse proxy: the limits per address
apply to the phone X-Forwarded-For names (from the proxy only), and the proxy's own
many connections are not capped as one client's."""
from __future__ import annotations

import http.client
import json
import socket

import pytest

pytest.importorskip("starlette")

from boggle_cv.web.config import ServeConfig  # noqa: E402

from .serving import free_port, serve, stop, wait_health  # noqa: E402


def _create(port: int, forwarded: str) -> tuple[int, dict]:
    """(status, answer) of creating a room, the request forwarded for `forwarded`."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("POST", "/api/rooms", json.dumps({}), {"Content-Type": "application/json",
                                                        "X-Forwarded-For": forwarded})
        res = c.getresponse()
        return res.status, json.loads(res.read())
    finally:
        c.close()


def _status_line(s: socket.socket) -> bytes:
    """The status code of the first answer on `s` (b"" when it closed unanswered)."""
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(64)
        if not chunk:
            break
        head += chunk
    return head.split(b" ")[1] if head.startswith(b"HTTP/") else b""


@pytest.mark.parametrize("proxy", [True, False])
def test_limits_per_address_follow_the_proxy_s_forwarded_address(tmp_path, proxy):
    port = free_port()
    args = ["--port", str(port), "--db", str(tmp_path / "g.db")] + (["--proxy", "127.0.0.1"] if proxy else [])
    proc = serve(*args)
    try:
        wait_health(port, proc)
        made = [_create(port, "10.0.0.1") for _ in range(10)]  # rooms_burst: 10 an address
        assert [status for status, _ in made] == [201] * 10
        assert _create(port, "10.0.0.1")[0] == 429
        assert _create(port, "10.0.0.2")[0] == (201 if proxy else 429)  # another phone, or the same peer
        cap = ServeConfig(db_path=tmp_path / "x.db").max_connections_per_client
        # cap + 6 phones' live streams: each connection stays busy (never idle, so none gives way to
        # another), whatever order the server accepts them in and however long it takes
        code = made[0][1]["code"]
        stream = f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        held = []
        try:
            for _ in range(cap + 6):
                held.append(socket.create_connection(("127.0.0.1", port), timeout=30))
                held[-1].sendall(stream)
            statuses = [_status_line(s) for s in held]
        finally:
            for s in held:
                s.close()
        # past the cap an address, 429 without --proxy; the proxy's connections are not counted
        assert statuses.count(b"200") == (cap + 6 if proxy else cap), statuses
        assert statuses.count(b"429") == (0 if proxy else 6), statuses
    finally:
        stop(proc)
