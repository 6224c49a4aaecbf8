"""A family or a club behind one public address (a router's NAT, a club's Wi-Fi): the
server's connection caps per address (web/limits.py) must never refuse them, and must
still hold a flood from one address (tests/web/test_limits.py holds the rest).

- an address at its cap makes way with its longest-idle keep-alive connection (a
  browser reopens one when it needs it): a table's next page loads;
- an address whose connections are all busy (live streams) is refused, 429;
- a burst of new connections (a table's pages loading) is served;
- practice rounds have an allowance of their own, sized for a club practising side by
  side (scripts storing rounds through /api/rounds keep theirs);
- in real browsers (chromium, one context a device, every one from 127.0.0.1): a host's
  laptop, a TV showing the table screen and 8 phones that open the join link at once
  play a round with the default limits, and no answer is refused. Before these caps
  (24 connections an address), 7 of the 8 phones stayed blank: their page's scripts
  were refused (benchmarks/bench_one_address.py measures both; docs/hosting.md).
"""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .phones import CHROMIUM, LAPTOP, PHONE, Phones  # noqa: E402
from .test_limits import Served, _closed_within  # noqa: E402


def _served(tmp_path, dictionary, **limits: Any) -> Served:
    config = ServeConfig(db_path=tmp_path / "g.db", header_timeout_s=30, keep_alive_s=30, **limits)
    return Served(create_app(config, None, dictionary), config)


def _get(sock: socket.socket, path: str = "/api/health") -> bytes:
    """One keep-alive GET on an open connection: the answer's head and body."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    sock.settimeout(15)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head


def test_a_full_address_makes_way_with_its_longest_idle_connection(tmp_path, dictionary):
    with _served(tmp_path, dictionary, max_connections_per_client=4) as s:
        idle = []
        for _ in range(4):
            sk = s.connect()
            assert _get(sk).startswith(b"HTTP/1.1 200")
            idle.append(sk)
            time.sleep(0.05)  # the first is the longest idle
        fifth = s.connect()
        assert _get(fifth).startswith(b"HTTP/1.1 200")      # not refused: an idle one made way
        assert _closed_within(idle[0], 5) == b""             # the longest idle, closed without a word
        for sk in idle[1:]:
            assert _get(sk).startswith(b"HTTP/1.1 200")      # the others still serve
        for sk in (*idle, fifth):
            sk.close()


def test_an_address_whose_connections_are_all_busy_is_refused(tmp_path, dictionary):
    with _served(tmp_path, dictionary, max_connections_per_client=3) as s:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=15)
        c.request("POST", "/api/rooms", body=b"{}", headers={"Content-Type": "application/json"})
        code = json.loads(c.getresponse().read())["code"]
        c.close()
        streams = []
        for _ in range(3):  # three live streams: busy, never idle
            sk = s.connect()
            sk.sendall(f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            sk.settimeout(15)
            assert sk.recv(4096).startswith(b"HTTP/1.1 200")
            streams.append(sk)
        extra = s.connect()
        assert _closed_within(extra, 5).startswith(b"HTTP/1.1 429")
        for sk in streams:
            sk.close()


def test_a_burst_of_new_connections_is_served(tmp_path, dictionary):
    """A table's pages loading at once open many connections, their requests still on the
    way: under the cap none is refused for it."""
    with _served(tmp_path, dictionary, max_connections_per_client=12) as s:
        burst = [s.connect() for _ in range(12)]
        for sk in burst:
            assert _get(sk).startswith(b"HTTP/1.1 200")
        for sk in burst:
            sk.close()


def test_practice_rounds_have_an_allowance_of_their_own(tmp_path, dictionary, scanner_factory):
    from starlette.testclient import TestClient
    config = ServeConfig(db_path=tmp_path / "g.db", practice_burst=2, practice_per_hour=1, rounds_burst=1,
                         rounds_per_hour=1)
    with TestClient(create_app(config, scanner_factory, dictionary)) as c:
        deals = [c.post("/api/practice/deals", json={"size": 4}).json()["deal"] for _ in range(3)]
        got = [c.post("/api/practice/rounds", json={"deal": d, "name": f"p{k}", "words": "tea"}).status_code
               for k, d in enumerate(deals)]
        assert got == [201, 201, 429]  # two at once (practice_burst), not one (rounds_burst)
        body = {"board": "PERS/LATG/SINE/TERS", "players": [{"name": "ann", "words": "rest"}], "game": "friday"}
        assert c.post("/api/rounds", json=body).status_code == 201  # the scripts' allowance is apart
    defaults = ServeConfig(db_path=tmp_path / "x.db")
    assert defaults.practice_burst >= 30 and defaults.practice_per_hour >= 30 * 60 / 3  # 30 players, 3-minute rounds


@pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")
def test_a_family_behind_one_address_is_never_refused(tmp_path, dictionary):
    """A host's laptop, a TV and 8 phones, all from 127.0.0.1, with the default limits:
    every phone opens the join link at the same moment, joins and plays a round; no
    answer is 429 or 503, and the address never holds more than its cap."""
    pytest.importorskip("playwright.sync_api")
    from playwright import sync_api

    from .phones import ARGS
    config = ServeConfig(db_path=tmp_path / "g.db")
    refused: list[str] = []
    peak = {"held": 0}
    with Served(create_app(config, None, dictionary), config) as s, sync_api.sync_playwright() as pw:
        per_host = s.server.config.http_protocol_class.per_host
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                peak["held"] = max(peak["held"], sum(len(v) for v in list(per_host.values())))
                time.sleep(0.005)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        devices = Phones(browser, f"http://127.0.0.1:{s.port}")
        try:
            def watched(name: str, device: dict[str, Any]) -> Any:
                page = devices.open(name, device=device)
                page.on("response", lambda r: refused.append(f"{name} {r.status} {r.url}")
                        if r.status in (429, 503) else None)
                return page

            host = watched("host", LAPTOP)
            host.goto(devices.base_url + "/")
            host.wait_for_selector("body[data-ready]")
            host.click("#create")
            host.wait_for_selector("#join-link[href*='?room=']")
            link = host.get_attribute("#join-link", "href")
            tv = watched("tv", {"viewport": {"width": 1920, "height": 1080}})
            tv.goto(devices.base_url + host.get_attribute("#screen-link", "href"))
            phones = [watched(f"phone{k}", PHONE) for k in range(8)]
            for page in phones:  # the QR code scanned around the table at once
                page.goto(link, wait_until="commit")
            for k, page in enumerate(phones):
                page.wait_for_selector("#join:not([hidden])")
                page.fill("#join-name", f"Player {k}")
                page.click("#join-form button[type=submit]")
            for page in phones:
                page.wait_for_selector("#room[data-phase=waiting] #words-section:not([hidden])")
            host.click("#start")
            for k, page in enumerate(phones):
                page.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
                page.fill("textarea.words-box", "rest\nlast" if k % 2 else "tern\npert")
            for page in phones:
                page.wait_for_selector(".save-state[data-state=saved]:has-text('· 2 words')")
            host.click("#lock")
            host.wait_for_selector("#room[data-phase=locked]")
            host.click("#type-board summary")
            host.fill("#board-input", "PERS/LATG/SINE/TERS")
            host.click("#board-form button[type=submit]")
            host.wait_for_selector("#board .cell >> nth=15")
            host.click("#score")
            for page in (*phones, host):
                page.wait_for_selector("#room[data-phase=scored] #winner")
            tv.wait_for_selector("#screen[data-step=scored] #ts-podium")
        finally:
            stop.set()
            sampler.join()
            for page in devices.pages.values():
                page.context.close()
            browser.close()
    assert refused == []
    assert devices.problems == []
    assert 10 <= peak["held"] <= config.max_connections_per_client, peak
