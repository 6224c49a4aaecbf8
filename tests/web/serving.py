"""Helpers for tests that talk to a server over real sockets: a `python -m boggle_cv
serve` subprocess, JSON requests, and raw live streams that can be reset together
(phones dropping off the Wi-Fi at once).

Timeouts are generous on purpose: a test says "answers at all within N s", never
how fast, so a loaded machine does not make it fail.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

from child_sigint import RESTORED

from .conftest import REPO


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`python -m boggle_cv serve ARGS` in its own session (its own process group, as
    a terminal's Ctrl-C reaches a foreground job), SIGINT's default restored (however
    the tests were started: child_sigint), stdout and stderr piped as text."""
    e = {**os.environ, **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "boggle_cv", "serve", *args], cwd=REPO, env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            **RESTORED)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(port: int, proc: subprocess.Popen, deadline_s: float = 60) -> dict:
    """The server's /api/health answer once it answers (AssertionError if it exits or
    does not answer within deadline_s seconds)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited {proc.returncode}: {proc.stderr.read()}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/api/health")
            return json.loads(c.getresponse().read())
        except OSError:
            time.sleep(0.1)
    raise AssertionError("serve did not answer")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM, bound_s: float = 15) -> tuple[float, int, str]:
    """Send `sig` (SIGINT goes to the server's whole process group, as a terminal's
    Ctrl-C does) and wait for the exit: (seconds taken, exit code, stderr).
    AssertionError (after a SIGKILL) if it is still running after bound_s."""
    t0 = time.monotonic()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=bound_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(f"serve did not stop within {bound_s} s of {signal.Signals(sig).name}:\n{err[-3000:]}") \
            from None
    return time.monotonic() - t0, proc.returncode, err


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
            timeout: float = 10) -> tuple[int, dict]:
    """(status, JSON answer) of one request; socket.timeout (an OSError) if there is
    no answer within `timeout` seconds."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        c.request(method, path, json.dumps(body if body is not None else {}), headers)
        res = c.getresponse()
        return res.status, json.loads(res.read())
    finally:
        c.close()


def open_streams(port: int, code: str, n: int, timeout: float = 10) -> list[socket.socket]:
    """n raw connections, each holding `GET /api/rooms/CODE/events` with its response
    head read (200)."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        s.sendall(f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Accept: text/event-stream\r\n\r\n".encode())
        socks.append(s)
    for s in socks:
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # byte by byte: the events after it stay unread
            chunk = s.recv(1)
            assert chunk, f"a stream closed before its response head: {head!r}"
            head += chunk
        assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return socks


def reset_all(socks: list[socket.socket]) -> None:
    """Close every connection at once with a reset (SO_LINGER 0: an RST, as when a
    phone leaves the network), not an orderly FIN."""
    for s in socks:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    for s in socks:
        s.close()


def read_until(sock: socket.socket, marker: bytes, timeout: float = 10) -> bytes:
    """What a raw stream sends until `marker` has come (AssertionError if it does not
    within `timeout` seconds or the stream ends)."""
    got, end = b"", time.monotonic() + timeout
    while marker not in got:
        left = end - time.monotonic()
        assert left > 0, f"{marker!r} did not come within {timeout} s: {got[-500:]!r}"
        sock.settimeout(left)
        try:
            chunk = sock.recv(4096)
        except socket.timeout:
            continue
        assert chunk, f"the stream ended before {marker!r}: {got[-500:]!r}"
        got += chunk
    return got


def storms(port: int, code: str, host_token: str, count: int = 12, streams: int = 10) -> None:
    """`count` storms: `streams` streams of the room are opened, then reset together
    while a change in the room (the host's timer setting) is being answered and
    published, the reset landing a little later each time (0 to 20 ms); each change
    must be answered (200) within 10 s. The old hub hung after a few such storms,
    not always the first: hence several."""
    for i in range(count):
        socks = open_streams(port, code, streams)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            c.request("PUT", f"/api/rooms/{code}/settings", json.dumps({"seconds": 60 + i}),
                      {"Content-Type": "application/json", "Authorization": f"Bearer {host_token}"})
            time.sleep((0.0, 0.002, 0.005, 0.01, 0.02)[i % 5])
            reset_all(socks)
            res = c.getresponse()  # socket.timeout here is the hang
            assert res.status == 200, res.read()
            res.read()
        finally:
            c.close()
