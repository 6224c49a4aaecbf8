"""The page under load: every wait is bounded, every client capped,
photos read by a pool of worker processes.

Before: an upload at 1 byte/s was never cut off, header-only connections stayed open
as long as the client liked, one address could open any number of connections and
photo uploads, and photos were read one at a time in the server process.
"""
from __future__ import annotations

import dataclasses
import http.client
import json
import os
import signal
import select
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")

from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.config import serve_workers  # noqa: E402
from boggle_cv.web.limits import uvicorn_config  # noqa: E402

from .conftest import SAMPLE, real_model_available  # noqa: E402

FAST = dict(header_timeout_s=1.0, body_timeout_s=2.0, keep_alive_s=1)


class Served:
    """The app behind uvicorn with `config`'s limits (as `serve` runs it), in a thread."""

    def __init__(self, app, config: ServeConfig) -> None:
        import uvicorn
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(512)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn_config(app, config))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "Served":
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=15)


def _app(tmp_path, dictionary, scanner_factory=None, **limits):
    config = ServeConfig(db_path=tmp_path / "g.db", **limits)
    return create_app(config, scanner_factory, dictionary), config


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before closing the connection; fails if still open."""
    sock.settimeout(seconds)
    data = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                return data
            data += chunk
    except socket.timeout:
        raise AssertionError(f"connection still open after {seconds} s (got {data[:80]!r})") from None
    except ConnectionResetError:
        return data


def test_headers_that_never_finish_are_cut_off(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, **FAST)
    with Served(app, config) as s:
        socks = [s.connect() for _ in range(3)]
        socks[0].sendall(b"POST /api/scan HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        socks[1].sendall(b"G")
        t0 = time.monotonic()
        for sk in socks:
            _closed_within(sk, 15)
        assert time.monotonic() - t0 < 12  # cut off (FAST's limit), not left open; generous for a busy CI


def test_slow_keep_alive_request_is_cut_off_too(tmp_path, dictionary):
    """After a first response, a second request's head trickling in byte by byte
    (which stops uvicorn's keep-alive timer) is still cut off."""
    app, config = _app(tmp_path, dictionary, **FAST)
    with Served(app, config) as s:
        sk = s.connect()
        sk.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sk.recv(4096).startswith(b"HTTP/1.1 200")
        t0 = time.monotonic()
        with pytest.raises((BrokenPipeError, ConnectionResetError, AssertionError)):
            for ch in b"GET /api/health HTTP/1.1\r\nHost: x\r\n":
                sk.sendall(bytes([ch]))
                time.sleep(0.3)
                if time.monotonic() - t0 > 15:
                    raise AssertionError("not cut off")
        assert time.monotonic() - t0 < 12  # cut off, not fed forever; generous for a busy CI


def test_upload_at_one_byte_a_second_gets_408(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, **FAST)
    with Served(app, config) as s:
        sk = s.connect()
        sk.sendall(b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n\r\n")
        t0 = time.monotonic()
        got = b""
        sk.settimeout(0.5)
        while time.monotonic() - t0 < 20 and b"\r\n\r\n" not in got:
            try:
                sk.sendall(b"\xff")
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                got += sk.recv(4096)
            except socket.timeout:
                pass
        assert got.startswith(b"HTTP/1.1 408"), got[:200]
        assert time.monotonic() - t0 < 15  # well before the 1000 bytes could arrive


def test_connections_per_client_are_capped(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, max_connections_per_client=3, header_timeout_s=30)
    with Served(app, config) as s:
        held = [s.connect() for _ in range(3)]
        time.sleep(0.3)
        extra = s.connect()
        assert _closed_within(extra, 5).startswith(b"HTTP/1.1 429")
        for sk in held:
            sk.close()
        time.sleep(0.3)
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        c.request("GET", "/api/health")
        assert c.getresponse().status == 200


def test_connections_in_all_are_capped(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, max_connections=4, max_connections_per_client=100, header_timeout_s=30)
    with Served(app, config) as s:
        held = [s.connect() for _ in range(4)]
        time.sleep(0.3)
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        c.request("GET", "/api/health")
        assert c.getresponse().status == 503
        for sk in held:
            sk.close()


def _other_address(port: int) -> socket.socket:
    """A connection from 127.0.0.2 (loopback too on Linux): another client."""
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0))
    except OSError:
        pytest.skip("no second loopback address here")


def _reply(sk: socket.socket, seconds: float = 10) -> bytes:
    sk.settimeout(seconds)
    return sk.recv(4096)


def test_photo_uploads_share_slots_between_clients(tmp_path, dictionary):
    """Two slow uploads from one address hold its two photo slots: its third waits and
    gets 503 after photo_wait_s, while another address still gets a slot at once."""
    app, config = _app(tmp_path, dictionary, max_photo_requests=3, max_photo_requests_per_client=2,
                       photo_wait_s=6.0, header_timeout_s=30, body_timeout_s=30)
    head = b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
    with Served(app, config) as s:
        slow = [s.connect() for _ in range(2)]
        for sk in slow:
            sk.sendall(head % 100_000 + b"\xff\xd8\xff")
        time.sleep(0.5)
        third = s.connect()
        t_third = time.monotonic()
        third.sendall(head % 4 + b"\xff\xd8\xff\x00")
        other = _other_address(s.port)
        other.sendall(head % 4 + b"\xff\xd8\xff\x00")
        assert _reply(other, 30).startswith(b"HTTP/1.1 422")  # admitted: a (bad) photo was read
        # ... while the third upload still waits for its address's slot (no timing: an order)
        waiting, _, _ = select.select([third], [], [], 0)
        assert not waiting, "the third upload was answered before the other address's"
        got = _reply(third, 30)
        assert got.startswith(b"HTTP/1.1 503"), got[:300]
        assert time.monotonic() - t_third >= 5.0  # it waited (photo_wait_s = 6 s) before the 503
        for sk in (*slow, third, other):
            sk.close()


def _from(port: int, address: str) -> socket.socket:
    """A connection to the server from `address` (127.0.0.2, ... are loopback too on Linux)."""
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=15, source_address=(address, 0))
    except OSError:
        pytest.skip(f"no loopback address {address} here")


def _http(port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
          timeout: float = 60) -> tuple[int, dict]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        raw = r.read()
        try:
            return r.status, json.loads(raw or b"{}")
        except ValueError:  # uvicorn's own 503 is plain text
            return r.status, {"text": raw[:200].decode("latin-1")}
    finally:
        c.close()


class Trickle:
    """Uploads that send their head and then one byte a second (slow clients), each
    from its own address, until closed."""

    def __init__(self, port: int, addresses: list[str], head: bytes) -> None:
        self.socks = [_from(port, a) for a in addresses]
        for sk in self.socks:
            sk.sendall(head + b"\xff\xd8\xff")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        while not self.stop.wait(1.0):
            for sk in self.socks:
                try:
                    sk.sendall(b"\x00")
                except OSError:
                    pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for sk in self.socks:
            sk.close()


def test_slow_anonymous_uploads_leave_a_rooms_photo_its_turn(tmp_path, dictionary):
    """Four uploads to /api/scan trickling in (from four addresses) must not hold
    every photo slot and leave a player's tray photo waiting for a 503: slots are
    taken only once a body is in, and anonymous scans may hold only part of the
    places for bodies, so the room's photo is read at once."""
    app, config = _app(tmp_path, dictionary, header_timeout_s=90, body_timeout_s=90, body_grace_s=90,
                       photo_wait_s=60)
    head = b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n"
    with Served(app, config) as s:
        status, doc = _http(s.port, "POST", "/api/rooms", b"{}", {"Content-Type": "application/json"})
        assert status == 201, doc
        slow = Trickle(s.port, ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"], head)
        try:
            time.sleep(1.0)  # the slow uploads are in
            t0 = time.monotonic()
            status, answer = _http(s.port, "POST", f"/api/rooms/{doc['code']}/rounds/current/photo",
                                   b"\xff\xd8\xff\x00", {"Content-Type": "image/jpeg",
                                                       "Authorization": f"Bearer {doc['host_token']}"})
            took = time.monotonic() - t0
        finally:
            slow.close()
    assert status == 422, answer  # read (a JPEG that does not decode), not left waiting (503)
    assert took < 30, took  # photo_wait_s is 60


def test_reading_slots_go_to_room_photos_first():
    import anyio

    from boggle_cv.web.uploads import SlotQueue

    async def main() -> list[str]:
        slots, order = SlotQueue(1), []
        await slots.acquire(first=False)  # held

        async def wait(name: str, first: bool) -> None:
            await slots.acquire(first)
            order.append(name)
            slots.release()

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait, "scan 1", False)
            await anyio.sleep(0.01)
            tg.start_soon(wait, "scan 2", False)
            await anyio.sleep(0.01)
            tg.start_soon(wait, "room", True)
            await anyio.sleep(0.01)
            with anyio.move_on_after(0.01):  # a waiter that gives up leaves nothing behind
                await slots.acquire(first=True)
            assert slots.waiting == 3
            slots.release()
        assert slots.free == 1 and slots.waiting == 0
        return order

    assert anyio.run(main) == ["room", "scan 1", "scan 2"]


@pytest.mark.parametrize("path", ["/api/scan", "/api/score"])
def test_a_body_slower_than_the_minimum_rate_is_cut_after_the_grace(tmp_path, dictionary, path):
    """A body trickling in at 20 bytes a second used to hold its connection (and for a
    photo, its slot) for the whole body_timeout_s; after body_grace_s it must now come
    at min_body_rate on average."""
    app, config = _app(tmp_path, dictionary, header_timeout_s=60, body_timeout_s=60, body_grace_s=1.0,
                       min_body_rate=1000)
    ctype = b"image/jpeg" if path == "/api/scan" else b"application/json"
    with Served(app, config) as s:
        sk = s.connect()
        sk.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: 50000\r\n\r\n"
                   % (path.encode(), ctype))
        t0 = time.monotonic()
        got = b""
        sk.settimeout(0.5)
        while time.monotonic() - t0 < 40 and b"\r\n\r\n" not in got:
            try:
                sk.sendall(b"\xff" * 10)
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                got += sk.recv(4096)
            except socket.timeout:
                pass
        sk.close()
    assert got.startswith(b"HTTP/1.1 408"), got[:200]
    assert time.monotonic() - t0 < 30  # body_timeout_s is 60


def test_a_flood_from_a_few_addresses_leaves_room_for_the_table(tmp_path, dictionary):
    """Three addresses each opening 40 connections more than their cap, none of which
    sends a request, must not fill the server's connections: with the defaults
    (ServeConfig) each address holds at most its share, the rest are answered 429, and
    the others are still answered."""
    app, config = _app(tmp_path, dictionary, header_timeout_s=60)
    flood = config.max_connections_per_client + 40
    with Served(app, config) as s:
        held, refused = [], 0
        for address in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            for _ in range(flood):
                held.append(_from(s.port, address))
        time.sleep(0.5)
        for sk in held:
            sk.setblocking(False)
            try:
                refused += sk.recv(64).startswith(b"HTTP/1.1 429")
            except BlockingIOError:
                pass
        try:
            answers = [_http(s.port, "GET", "/api/health", timeout=20)[0] for _ in range(20)]
        finally:
            for sk in held:
                sk.close()
        counts = s.server.config.http_protocol_class.per_host  # counted as they come and go
        end = time.monotonic() + 10
        while counts and time.monotonic() < end:
            time.sleep(0.05)
        assert counts == {}
    assert answers == [200] * 20
    assert refused >= 3 * (flood - config.max_connections_per_client) - 3, refused


def test_defaults_hold_a_club_night():
    """180 phones, each with its live stream and a keep-alive connection, fit; a few
    addresses at their per-address caps fill only a small part of the server; five
    tables of ten devices behind one address (a browser opens at most 6 connections to
    a server) fit in that address's cap (docs/hosting.md)."""
    c = ServeConfig(db_path=Path("x.db"))
    assert c.max_connections >= 2 * 180 + 100
    assert c.max_connections_per_client * 3 <= c.max_connections // 5
    assert c.max_connections_per_client >= 5 * 10 * 5  # 5 tables x 10 devices, 5 connections each at once


def test_open_file_limit_fits_the_connections():
    resource = pytest.importorskip("resource")
    from boggle_cv.web.limits import FD_SPARE, fit_open_files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        n = fit_open_files(1024)
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert n == 1024 or n == now - FD_SPARE
        assert now == resource.RLIM_INFINITY or n + FD_SPARE <= now
        huge = fit_open_files(10**9)  # more than a hard limit allows: lowered to what fits
        after = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert huge == 10**9 if after == resource.RLIM_INFINITY else 1 <= huge <= max(1, after - FD_SPARE)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_serve_workers_fit_cores_and_memory():
    assert serve_workers(cpus=1) == 1
    assert serve_workers(cpus=2) == 2
    assert serve_workers(cpus=16) == 2  # 600 MB: the memory, not the cores, decides
    assert serve_workers(memory_mb=2000, cpus=16) >= 8
    assert serve_workers(memory_mb=100, cpus=16) == 1


needs_real_model = pytest.mark.skipif(not real_model_available(), reason="models/reader.onnx not present")


@needs_real_model
def test_pool_reads_like_the_server_process_and_survives_a_dead_worker(tmp_path, dictionary):
    import anyio

    from boggle_cv.vision.pipeline import Scanner
    from boggle_cv.web.state import ReaderStopped, ReadingPool, read_photo_bytes
    config = ServeConfig(db_path=tmp_path / "g.db")
    data = SAMPLE.read_bytes()
    here, _ = read_photo_bytes(lambda: Scanner("classifier"), data, None, config.preview_max_side,
                               config.preview_quality)
    pool = ReadingPool(2, "classifier")
    try:
        pids = pool.start()
        assert len(pids) == 2 and os.getpid() not in pids
        there, timings = anyio.run(pool.read, data, None, config)
        assert there.scan.board == here.scan.board and "decode" in timings
        os.kill(pids[0], signal.SIGKILL)
        time.sleep(0.5)
        outcomes = []
        for _ in range(2):
            try:
                outcomes.append(anyio.run(pool.read, data, None, config)[0].scan.board)
            except ReaderStopped as e:
                outcomes.append(e.one_line())
        assert outcomes[-1] == here.scan.board, outcomes  # a fresh pool reads again
    finally:
        pool.close()


@needs_real_model
def test_serve_reads_photos_in_worker_processes(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, scan_workers=2)
    state = app.state.web
    try:
        state.pool.start()
        with Served(app, config) as s:
            results = []

            def upload() -> None:
                c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=120)
                c.request("POST", "/api/scan", body=SAMPLE.read_bytes(), headers={"Content-Type": "image/jpeg"})
                r = c.getresponse()
                results.append((r.status, json.loads(r.read()).get("board", {}).get("text")))
            threads = [threading.Thread(target=upload) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(180)
        texts = {t for _, t in results}
        assert [st for st, _ in results] == [200] * 4 and len(texts) == 1, results
    finally:
        state.close()


def test_serve_config_documents_every_limit():
    doc = ServeConfig.__doc__ or ""
    for f in dataclasses.fields(ServeConfig):
        assert f"{f.name}:" in doc or f.name in doc, f.name
    assert Path(__file__).exists()


def test_waiting_for_a_disconnect_after_the_body_is_not_timed(tmp_path):
    """A live stream waits on receive() for the client's disconnect for as long as it
    is open; once the (empty) body is in, that wait is no longer the body's: before,
    it ended with a 408 error body_timeout_s after the stream began."""
    import anyio

    from boggle_cv.web.uploads import BodyLimit
    config = ServeConfig(db_path=tmp_path / "g.db", body_timeout_s=0.2, body_grace_s=0.1)
    limit = BodyLimit(lambda *a: None, lambda path: 1000, config)  # type: ignore[arg-type]
    messages = [{"type": "http.request", "body": b"", "more_body": False}, {"type": "http.disconnect"}]

    async def receive() -> dict:
        message = messages.pop(0)
        if message["type"] == "http.disconnect":
            await anyio.sleep(0.5)  # the phone leaves after a while
        return message

    async def main() -> list[str]:
        timed = limit._timed(receive, 1000)
        return [(await timed())["type"], (await timed())["type"]]

    assert anyio.run(main) == ["http.request", "http.disconnect"]
