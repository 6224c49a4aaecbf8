"""What the room page needs of the server beyond the room API: the join link names
the LAN address under --host 0.0.0.0, Ctrl-C stops a server whose phones hold the
live stream open, each round's photo has its own address (no stale cache), and a
phone's last save, in flight when the host locks the lists, still counts."""
from __future__ import annotations

import http.client
import json
import subprocess
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from boggle_cv.web.server import SHUTDOWN_GRACE_S, lan_address  # noqa: E402
from boggle_cv.errors import RoundStateError  # noqa: E402
from boggle_cv.room.db import RoomDB  # noqa: E402
from boggle_cv.room.model import BoardState, Room, Round  # noqa: E402
from boggle_cv.room.service import RoomService  # noqa: E402
from boggle_cv.room.view import room_view  # noqa: E402

from .serving import free_port as _free_port, serve as _serve, wait_health as _wait_health  # noqa: E402


def _post(port: int, path: str, body: dict) -> dict:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    res = c.getresponse()
    assert res.status == 201
    return json.loads(res.read())


def _stop(proc: subprocess.Popen) -> tuple[float, str]:
    t0 = time.monotonic()
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("serve did not stop within 15 s") from None
    return time.monotonic() - t0, err


def test_join_link_names_the_lan_address_when_serving_the_network(tmp_path):
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no LAN address")
    port = _free_port()
    proc = _serve("--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "g.db"))
    try:
        _wait_health(port, proc)
        doc = _post(port, "/api/rooms", {})  # the host's page opened on 127.0.0.1
    finally:
        _stop(proc)
    assert doc["join_url"] == f"http://{lan}:{port}/?room={doc['code']}"


def test_serve_stops_while_a_phone_holds_the_live_stream(tmp_path):
    port = _free_port()
    proc = _serve("--port", str(port), "--db", str(tmp_path / "g.db"))
    try:
        _wait_health(port, proc)
        code = _post(port, "/api/rooms", {})["code"]
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", f"/api/rooms/{code}/events")
        res = stream.getresponse()
        assert res.status == 200 and b"event: room" in res.read1(4096) + res.read1(4096)
    except BaseException:
        _stop(proc)
        raise
    took, err = _stop(proc)
    stream.close()
    assert took < SHUTDOWN_GRACE_S - 1, f"Ctrl-C took {took:.1f} s with a live stream open"  # it ended the stream
    assert "Traceback" not in err and "ERROR" not in err


def test_each_rounds_photo_has_its_own_address():
    scan = {"board": {"faces": [list("ABC"), list("DEF"), list("GHI")], "cells": [], "rotation": 0}}
    room = Room("ABCDEFG", "g", "x", 0.0)
    urls = []
    for number in (1, 2):
        room.round = Round(number, "playing", board=BoardState(scan=scan, photo_version=1))
        urls.append(room_view(room, True, None, 0.0)["round"]["board"]["photo_url"])
    assert urls[0] != urls[1]  # the photo is cached by the phone under its address


def test_a_save_in_flight_when_the_host_locks_still_counts(tmp_path, dictionary):
    now = [1000.0]
    svc = RoomService(RoomDB(tmp_path / "g.db"), dictionary, clock=lambda: now[0])
    room, host = svc.create(seconds=None)
    _, ann, token = svc.join(room.code, "Ann")
    svc.start(room.code, host)
    svc.put_words(room.code, ann.id, token, ["rest"], base=0)
    svc.lock(room.code, host)
    now[0] += svc.limits.grace_s - 0.5  # the phone's debounced save lands just after the lock
    svc.put_words(room.code, ann.id, token, ["rest", "pest"], base=1)
    assert svc.room(room.code).round.lists[ann.id] == ["rest", "pest"]
    now[0] += 1.0
    with pytest.raises(RoundStateError):
        svc.put_words(room.code, ann.id, token, ["rest", "pest", "last"], base=2)
