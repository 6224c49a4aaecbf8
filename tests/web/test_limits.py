"""The page under load (issue 17, item 7): every wait is bounded, every client capped,
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
        self.sock.listen(64)
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
            _closed_within(sk, 5)
        assert time.monotonic() - t0 < 4


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
                if time.monotonic() - t0 > 6:
                    raise AssertionError("not cut off")
        assert time.monotonic() - t0 < 4


def test_upload_at_one_byte_a_second_gets_408(tmp_path, dictionary):
    app, config = _app(tmp_path, dictionary, **FAST)
    with Served(app, config) as s:
        sk = s.connect()
        sk.sendall(b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n\r\n")
        t0 = time.monotonic()
        got = b""
        sk.settimeout(0.5)
        while time.monotonic() - t0 < 8 and b"\r\n\r\n" not in got:
            try:
                sk.sendall(b"\xff")
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                got += sk.recv(4096)
            except socket.timeout:
                pass
        assert got.startswith(b"HTTP/1.1 408"), got[:200]
        assert time.monotonic() - t0 < 5


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
                       photo_wait_s=1.5, header_timeout_s=30, body_timeout_s=30)
    head = b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
    with Served(app, config) as s:
        slow = [s.connect() for _ in range(2)]
        for sk in slow:
            sk.sendall(head % 100_000 + b"\xff\xd8\xff")
        time.sleep(0.5)
        third = s.connect()
        third.sendall(head % 4 + b"\xff\xd8\xff\x00")
        other = _other_address(s.port)
        t0 = time.monotonic()
        other.sendall(head % 4 + b"\xff\xd8\xff\x00")
        assert _reply(other).startswith(b"HTTP/1.1 422")  # admitted at once: a (bad) photo was read
        assert time.monotonic() - t0 < 1.0
        got = _reply(third)
        assert got.startswith(b"HTTP/1.1 503"), got[:300]
        assert 1.0 < time.monotonic() - t0 < 5
        for sk in (*slow, third, other):
            sk.close()


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
