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


def _create(port: int, forwarded: str) -> int:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("POST", "/api/rooms", json.dumps({}), {"Content-Type": "application/json",
                                                        "X-Forwarded-For": forwarded})
        res = c.getresponse()
        res.read()
        return res.status
    finally:
        c.close()


@pytest.mark.parametrize("proxy", [True, False])
def test_limits_per_address_follow_the_proxy_s_forwarded_address(tmp_path, proxy):
    port = free_port()
    args = ["--port", str(port), "--db", str(tmp_path / "g.db")] + (["--proxy", "127.0.0.1"] if proxy else [])
    proc = serve(*args)
    try:
        wait_health(port, proc)
        made = [_create(port, "10.0.0.1") for _ in range(10)]  # rooms_burst: 10 an address
        assert made == [201] * 10
        assert _create(port, "10.0.0.1") == 429
        assert _create(port, "10.0.0.2") == (201 if proxy else 429)  # another phone, or the same peer
        cap = ServeConfig(db_path=tmp_path / "x.db").max_connections_per_client
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(cap + 6)]
        try:
            for s in held:  # a request on each: past the cap an address (none idle yet), 429 without --proxy
                s.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            statuses = [s.recv(64).split(b" ")[1] for s in held]
        finally:
            for s in held:
                s.close()
        assert (statuses.count(b"429") == 0) if proxy else (statuses.count(b"429") == 6), statuses
    finally:
        stop(proc)
