"""The room's hostile cases, for scripts/reliability_report.py (area "room").

Each case runs against a real `python -m boggle_cv serve` of a checkout and says
whether the server handled it, with what it saw. The expected answers (docs/web.md,
"Limits" and "The room API"): a lone surrogate anywhere text comes in, a name with
control characters, JSON nested 100k deep, truthy strings for booleans: 400 (and the
room stays readable); cross-site simple requests: refused (403, or 415 for a body
that is not JSON); a save on a stale revision: 409 StaleList, nothing replaced; four
slow /api/scan uploads (1 byte every 5 s) do not hold a player's tray photo; four
senders of 1 MB word saves keep another room's saves p95 <= 0.6 s; a full room's
sheet photos sent at once are all answered, no list loses a word, and
another room's saves keep p95 <= 0.6 s; a flood of 3 x 64
dribbling connections leaves room for other addresses; 10 event streams reset at
once leave the server answering; SIGTERM with streams open ends it within 2 s.

Cases that would leave the server unusable (floods, resets) run last.
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
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

BOARD = "PERS/LATG/SINE/TERS"
Result = tuple[str, bool, str]


def start(root: Path, db: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`python -m boggle_cv serve --port 0` of `root` in its own session; (process, port)."""
    log = db.with_suffix(".log")
    env = {**os.environ, "PYTHONPATH": str(root)}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "serve", "--port", "0", "--db", str(db)],
                                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=db.parent,
                                start_new_session=True)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        text = log.read_text(errors="replace")
        if "serving on http://127.0.0.1:" in text:
            return proc, int(text.split("serving on http://127.0.0.1:", 1)[1].split("/", 1)[0])
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    stop(proc)
    raise RuntimeError("serve did not start: " + log.read_text(errors="replace")[-1500:])


def stop(proc: subprocess.Popen[bytes], grace_s: float = 10.0) -> float | None:
    """SIGTERM; seconds to exit (None: killed after `grace_s`, with its process group)."""
    t0 = time.monotonic()
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(grace_s)
        took: float | None = time.monotonic() - t0
    except subprocess.TimeoutExpired:
        took = None
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait(5)
    return took


class Client:
    """JSON requests to the server from one loopback address; (status, doc, seconds);
    status 0 when no answer came within the timeout."""

    def __init__(self, port: int, src: str = "127.0.0.1", timeout: float = 10.0) -> None:
        self.port, self.src, self.timeout = port, src, timeout

    def __call__(self, method: str, path: str, doc: Any = None, token: str | None = None,
                 raw: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any, float]:
        h = {"Content-Type": "application/json"} if method in ("POST", "PUT", "DELETE") else {}
        h.update(headers or {})
        if token:
            h["Authorization"] = f"Bearer {token}"
        body = raw if raw is not None else (json.dumps(doc).encode() if method in ("POST", "PUT") else None)
        if body is None and method in ("POST", "PUT"):
            body = b"{}"
        t0 = time.monotonic()
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout, source_address=(self.src, 0))
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            data = r.read()
        except OSError:
            return 0, None, time.monotonic() - t0
        finally:
            c.close()
        try:
            got = json.loads(data) if data else None
        except ValueError:
            got = None
        return r.status, got, time.monotonic() - t0

    def raw_get(self, path: str, token: str) -> tuple[int, str]:
        """GET a non-JSON answer (an image): (status, content type); (0, "") without one."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout, source_address=(self.src, 0))
        try:
            c.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            r = c.getresponse()
            r.read()
            return r.status, r.getheader("Content-Type") or ""
        except OSError:
            return 0, ""
        finally:
            c.close()


def _room(c: Client, names: list[str]) -> tuple[str, str, dict[str, tuple[str, str]]]:
    """A room with players, its round started: (code, host token, {name: (id, token)})."""
    st, doc, _ = c("POST", "/api/rooms", {"seconds": None})
    if st != 201:
        raise RuntimeError(f"POST /api/rooms answered {st}")
    code, host = doc["code"], doc["host_token"]
    players = {}
    for n in names:
        st, d, _ = c("POST", f"/api/rooms/{code}/players", {"name": n})
        if st != 201:
            raise RuntimeError(f"join {n!r} answered {st}")
        players[n] = (d["player_id"], d["token"])
    c("POST", f"/api/rooms/{code}/rounds", {}, host)
    return code, host, players


def lone_surrogates(c: Client) -> Result:
    code, host, players = _room(c, ["Ann"])
    pid, tok = players["Ann"]
    bad = "Eve\ud800"
    got = [
        c("POST", "/api/rooms", {"game": bad})[0],
        c("POST", f"/api/rooms/{code}/players", {"name": bad})[0],
        c("PUT", f"/api/rooms/{code}/players/{pid}", {"name": bad}, tok)[0],
        c("PUT", f"/api/rooms/{code}/players/{pid}/words", {"words": ["pert", bad], "base": 0}, tok)[0],
        c("POST", "/api/score", {"board": BOARD, "players": [{"name": bad, "words": ["pert"]}]})[0],
        c("POST", "/api/rounds", {"board": BOARD, "game": "g", "players": [{"name": bad, "words": ["pert"]}]})[0],
    ]
    view = c("GET", f"/api/rooms/{code}", token=host)[0]
    return ("a lone surrogate in game, name, rename, word, /api/score, /api/rounds",
            all(s == 400 for s in got) and view == 200, f"{got}, then the room: {view}")


def control_names(c: Client) -> Result:
    code, _, _ = _room(c, [])
    got = [c("POST", f"/api/rooms/{code}/players", {"name": n})[0]
           for n in ("Ann\u200b", "A\x7fnn", "Ann\u202e", "Ann\x85", "Ann\u2066")]
    return "names with DEL, C1, bidi, zero-width characters", all(s == 400 for s in got), str(got)


def nested_json(c: Client) -> Result:
    depth = 100_000
    st = c("POST", "/api/rooms", raw=b"[" * depth + b"]" * depth)[0]
    st2 = c("POST", "/api/score", raw=b'{"board": ' + b"[" * depth + b"]" * depth + b"}")[0]
    return "JSON nested 100,000 deep", st == 400 and st2 == 400, f"{st}, /api/score {st2}"


def truthy_strings(c: Client) -> Result:
    code, host, _ = _room(c, ["Ann"])
    got = [c("POST", f"/api/rooms/{code}/rounds", {"discard": "no"}, host)[0],
           c("POST", f"/api/rooms/{code}/rounds", {"wait": "yes"}, host)[0],
           c("POST", f"/api/rooms/{code}/rounds", {"discard": 1}, host)[0]]
    phase = (c("GET", f"/api/rooms/{code}", token=host)[1] or {}).get("room", {}).get("round", {}).get("number")
    return ('"discard": "no", "wait": "yes", "discard": 1', all(s == 400 for s in got) and phase == 1,
            f"{got}, still round {phase}")


def cross_site(c: Client) -> Result:
    before = c("GET", "/api/health")[0]
    got = [c("POST", "/api/rooms", raw=b"", headers={"Content-Type": "text/plain"})[0],
           c("POST", "/api/rooms", {}, headers={"Origin": "http://evil.example"})[0],
           c("POST", "/api/rooms", {}, headers={"Sec-Fetch-Site": "cross-site"})[0],
           c("POST", "/api/score", raw=json.dumps({"board": BOARD, "players": []}).encode(),
             headers={"Content-Type": "text/plain"})[0]]
    same = c("POST", "/api/rooms", {}, headers={"Origin": f"http://127.0.0.1:{c.port}",
                                                "Sec-Fetch-Site": "same-origin"})[0]
    return ("cross-site simple requests (text/plain, Origin, Sec-Fetch-Site)",
            before == 200 and all(s in (403, 415) for s in got) and same == 201,
            f"{got}; same origin: {same}")


def screen_and_games(c: Client) -> Result:
    """The table screen's pass only reads; a new game is the host's, from a scored round,
    never cross-site; a target is a whole number or null."""
    code, host, _ = _room(c, ["Ann"])  # its round 1 is playing
    key = ((c("GET", f"/api/rooms/{code}", token=host)[1] or {}).get("room") or {}).get("you", {}).get("screen_key")
    reads = c("GET", f"/api/rooms/{code}", token=key)[0]
    writes = [c("POST", f"/api/rooms/{code}/games", {}, key)[0], c("POST", f"/api/rooms/{code}/rounds/current/lock", {}, key)[0],
              c("PUT", f"/api/rooms/{code}/settings", {"target": 100}, key)[0]]
    playing = c("POST", f"/api/rooms/{code}/games", {}, host)[0]
    cross = c("POST", f"/api/rooms/{code}/games", {}, host, headers={"Sec-Fetch-Site": "cross-site"})[0]
    targets = [c("PUT", f"/api/rooms/{code}/settings", {"target": t}, host)[0] for t in ("50", True, 0, None)]
    ok = reads == 200 and all(s == 401 for s in writes) and playing == 409 and cross == 403 \
        and targets == [400, 400, 400, 200]
    return ("the table screen's pass writes nothing; new games; targets", ok,
            f"screen reads {reads}, writes {writes}; new game while playing {playing}, cross-site {cross}; "
            f"targets '50', true, 0, null: {targets}")


def stale_save(c: Client) -> Result:
    code, host, players = _room(c, ["Ann"])
    pid, tok = players["Ann"]
    path = f"/api/rooms/{code}/players/{pid}/words"
    first = c("PUT", path, {"words": ["pert", "last"], "base": 0}, tok)[0]
    st, doc, _ = c("PUT", path, {"words": ["rest"], "base": 0}, tok)
    missing = c("PUT", path, {"words": ["rest"]}, tok)[0]
    view = c("GET", f"/api/rooms/{code}", token=tok)[1] or {}
    words = next((p.get("words") for p in view.get("room", {}).get("players", []) if p.get("id") == pid), None)
    current = (doc or {}).get("current", {}) if isinstance(doc, dict) else {}
    ok = (first, st, missing) == (200, 409, 400) and words == ["pert", "last"] and current.get("revision") == 1
    return ("a save on a stale revision, a save without one", ok,
            f"{first}, stale {st} ({(doc or {}).get('kind') if isinstance(doc, dict) else doc}), no base {missing}; "
            f"server list {words}")


def _dribble(port: int, src: str, head: bytes, stop: threading.Event, every_s: float) -> None:
    """A connection sending `head`, then one byte of body every `every_s`, until `stop`."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(src, 0))
        s.sendall(head)
        while not stop.wait(every_s):
            s.sendall(b"\xff")
    except OSError:
        return
    finally:
        try:
            s.close()
        except (OSError, UnboundLocalError):
            pass


def slow_scans_vs_a_photo(c: Client, photo: bytes) -> Result:
    stop = threading.Event()
    head = (b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\n"
            b"Content-Length: 100000\r\n\r\n")
    threads = [threading.Thread(target=_dribble, args=(c.port, f"127.0.31.{i + 1}", head, stop, 5.0), daemon=True)
               for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    try:
        code, _, players = _room(c, ["Ann"])
        tok = players["Ann"][1]
        slow = Client(c.port, "127.0.32.1", timeout=150)
        st, _, s = slow("POST", f"/api/rooms/{code}/rounds/current/photo", token=tok, raw=photo,
                        headers={"Content-Type": "image/jpeg"})
    finally:
        stop.set()
    return "4 slow /api/scan uploads, then a player's tray photo", st == 200 and s <= 30, f"{st} in {s:.1f} s"


def sheets_at_once(c: Client, sheet: bytes, players: int = 12, seconds_cap: float = 120.0) -> Result:
    """Every player of a room sends a sheet photo at the same moment (the sheet
    upload shares the photo readers), while a player of another room keeps saving words:
    each sheet is answered (200, or a clear 503 to retry), no word of anyone's list is
    lost, every word a sheet added keeps its handwriting (an image id in the view, the
    image served as WebP), and the other room's saves keep p95 <= 0.6 s."""
    c = Client(c.port, "127.0.38.1", timeout=60)  # an address of its own: room creation is rate-limited
    code, _, ps = _room(c, [f"P{i}" for i in range(players)])
    other, _, mine = _room(c, ["Ann"])
    typed = {name: [f"typed{i}"] for i, name in enumerate(ps)}
    for name, (pid, tok) in ps.items():
        c("PUT", f"/api/rooms/{code}/players/{pid}/words", {"words": typed[name], "base": 0}, tok)
    results: dict[str, tuple[int, float]] = {}

    def send(i: int, name: str, pid: str, tok: str) -> None:
        cl = Client(c.port, f"127.0.36.{i + 1}", timeout=seconds_cap)
        st, _, took = cl("POST", f"/api/rooms/{code}/players/{pid}/sheet?round=1", token=tok, raw=sheet,
                         headers={"Content-Type": "image/jpeg"})
        results[name] = (st, took)
    threads = [threading.Thread(target=send, args=(i, n, *ids), daemon=True) for i, (n, ids) in enumerate(ps.items())]
    for t in threads:
        t.start()
    pid, tok = mine["Ann"]
    ann = Client(c.port, "127.0.37.1", timeout=30)
    lat: list[float] = []
    base = 0
    while any(t.is_alive() for t in threads) and len(lat) < 2000:
        st, _, took = ann("PUT", f"/api/rooms/{other}/players/{pid}/words", {"words": ["pert", "last", "slat"][: base % 3 + 1],
                                                                                 "base": base}, tok)
        lat.append(took)
        base += st == 200
        time.sleep(0.1)
    for t in threads:
        t.join(seconds_cap)
    lost, inkless = [], []
    for name, (pid_, tok_) in ps.items():
        st, doc, _ = c("GET", f"/api/rooms/{code}", token=tok_)
        room = (doc or {}).get("room") or {} if st == 200 else {}
        me: dict[str, Any] = next((p for p in room.get("players", []) if p.get("id") == pid_), {})
        words = set(me.get("words") or [])
        if not set(typed[name]) <= words or (results.get(name, (0, 0))[0] == 200 and len(words) < 2):
            lost.append(name)
        images: dict[str, str] = me.get("images") or {}
        if results.get(name, (0, 0))[0] == 200:
            ink = c.raw_get(f"/api/rooms/{code}/players/{pid_}/images/{next(iter(images.values()), 'none')}", tok_)
            if set(images) != words - set(typed[name]) or ink != (200, "image/webp"):
                inkless.append(name)
    statuses = sorted(st for st, _ in results.values())
    p95 = sorted(lat)[int(0.95 * (len(lat) - 1))] if lat else 99.0
    slowest = max((took for _, took in results.values()), default=0.0)
    ok = (len(results) == players and set(statuses) <= {200, 503} and 200 in statuses and not lost and not inkless
          and p95 <= 0.6)
    read = statuses.count(200)
    return (f"{players} sheet photos at once in one room, another room saving", ok,
            f"sheets {statuses} (slowest {slowest:.1f} s), lists kept {players - len(lost)}/{players}, "
            f"handwriting kept {read - len(inkless)}/{read}, other room's saves p95 {1000 * p95:.0f} ms over {len(lat)}")


def big_saves(c: Client, seconds: float = 10.0) -> Result:
    """Its rooms made from an address of their own: the cases before it spend 127.0.0.1's
    allowance of rooms (10 at once)."""
    tables = Client(c.port, "127.0.32.1", timeout=c.timeout)
    code, _, players = _room(tables, [f"Big{i}" for i in range(4)])
    other, _, mine = _room(tables, ["Ann"])
    text = " ".join("replastering" for _ in range(76_000))[:990_000]
    stop = threading.Event()
    big_status: dict[int, int] = {}

    def sender(i: int, pid: str, tok: str) -> None:
        cl = Client(c.port, f"127.0.33.{i + 1}", timeout=60)
        base = 0
        while not stop.is_set():
            st, doc, _ = cl("PUT", f"/api/rooms/{code}/players/{pid}/words", {"words": text, "base": base}, tok)
            big_status[st] = big_status.get(st, 0) + 1
            if st == 200:
                base += 1
            elif st == 409 and isinstance(doc, dict):
                base = int((doc.get("current") or {}).get("revision", base))
    threads = [threading.Thread(target=sender, args=(i, *p), daemon=True) for i, p in enumerate(players.values())]
    for t in threads:
        t.start()
    pid, tok = mine["Ann"]
    ann = Client(c.port, "127.0.34.1", timeout=30)
    lat: list[float] = []
    statuses: dict[int, int] = {}
    words: list[str] = []
    base, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        words.append(f"word{'abcdefghij'[len(words) % 10]}")
        st, _, s = ann("PUT", f"/api/rooms/{other}/players/{pid}/words", {"words": words, "base": base}, tok)
        statuses[st] = statuses.get(st, 0) + 1
        if st == 200:
            base += 1
            lat.append(s)
        time.sleep(0.5)
    stop.set()
    for t in threads:
        t.join(70)
    lat.sort()
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("inf")
    return ("4 senders of 1 MB word saves: another room's saves", statuses.get(200, 0) == sum(statuses.values())
            and p95 <= 0.6, f"p95 {p95 * 1000:.0f} ms, statuses {statuses}; the 1 MB saves {big_status}")


def connection_flood(c: Client) -> Result:
    stop = threading.Event()
    threads = [threading.Thread(target=_dribble, args=(c.port, f"127.0.35.{a + 1}", b"GET /api/health HTTP/1.1\r\n",
                                                       stop, 5.0), daemon=True)
               for a in range(3) for _ in range(64)]
    for t in threads:
        t.start()
    time.sleep(2.0)
    try:
        got = [Client(c.port, f"127.0.36.{i + 1}", timeout=15)("GET", "/api/health")[0] for i in range(20)]
    finally:
        stop.set()
    return ("3 addresses x 64 dribbling connections, then 20 requests", all(s == 200 for s in got),
            f"{sum(s == 200 for s in got)} of 20 answered 200 ({sorted(set(got))})")


def stream_storm(c: Client, rounds: int = 5) -> Result:
    """Rounds of 10 event streams reset together while a change is being answered (the
    old hub hung in such a storm), then a new room and a change must still answer.
    A table of its own (its own loopback addresses): the earlier cases have spent
    127.0.0.1's room-creation allowance."""
    table = Client(c.port, "127.0.39.1", timeout=10)
    code, host, _ = _room(table, ["Ann"])
    for r in range(rounds):
        socks = []
        for i in range(10):
            s = socket.create_connection(("127.0.0.1", c.port), timeout=10,
                                         source_address=(f"127.0.37.{i + 1}", 0))
            s.sendall(f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
                      .encode())
            socks.append(s)
        for s in socks:
            try:
                s.recv(4096)
            except OSError:
                pass
        change = threading.Thread(target=table, args=("PUT", f"/api/rooms/{code}/settings", {"target": 50 + r}, host))
        change.start()
        for s in socks:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
        change.join(timeout=15)
    st, _, took = Client(c.port, "127.0.38.1", timeout=10)("POST", "/api/rooms", {"seconds": None})
    st2, _, took2 = table("PUT", f"/api/rooms/{code}/settings", {"target": 99}, host)
    ok = st == 201 and took <= 5 and st2 == 200 and took2 <= 5
    return (f"{rounds} rounds of 10 event streams reset during a change, then a new room and a change", ok,
            f"{st} in {took:.1f} s, {st2} in {took2:.1f} s")


def shutdown_with_streams(root: Path, tmp: Path) -> Result:
    proc, port = start(root, tmp / "shutdown.sqlite3")
    socks: list[socket.socket] = []
    try:
        code, _, _ = _room(Client(port), ["Ann"])
        for i in range(5):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            s.recv(4096)
            socks.append(s)
        took = stop(proc, grace_s=10)
    finally:
        for s in socks:
            s.close()
        if proc.poll() is None:
            stop(proc)
    return ("SIGTERM with 5 streams open", took is not None and took <= 2,
            "killed after 10 s" if took is None else f"exited in {took:.1f} s")


def room_cases(root: Path, photo: bytes, verbose: bool = False, sheet: bytes | None = None) -> list[Result]:
    """Every case against a fresh server of `root` (the last one on a server of its own)."""
    tmp = Path(tempfile.mkdtemp(prefix="rel-room-"))
    out: list[Result] = []
    sheet = sheet if sheet is not None else (root / "samples" / "sheets" / "sheet-4x4-a.jpg").read_bytes()

    def record(res: Result) -> None:
        out.append(res)
        if verbose:
            print(f"  {'ok ' if res[1] else 'BAD'} room         {res[0]:<62} {res[2]}", flush=True)

    proc, port = start(root, tmp / "room.sqlite3")
    try:
        c = Client(port)
        cases: list[tuple[str, Callable[[], Result]]] = [
            ("lone surrogates", lambda: lone_surrogates(c)), ("control names", lambda: control_names(c)),
            ("nested JSON", lambda: nested_json(c)), ("truthy strings", lambda: truthy_strings(c)),
            ("cross-site", lambda: cross_site(c)), ("stale save", lambda: stale_save(c)),
            ("screen and games", lambda: screen_and_games(c)),
            ("slow scans vs a photo", lambda: slow_scans_vs_a_photo(c, photo)), ("big saves", lambda: big_saves(c)),
            ("sheets at once", lambda: sheets_at_once(c, sheet)),
            ("connection flood", lambda: connection_flood(c)), ("stream storm", lambda: stream_storm(c))]
        for name, case in cases:
            try:
                record(case())
            except Exception as e:  # noqa: BLE001 - a case that could not run is not handled
                record((name, False, f"could not run: {type(e).__name__}: {e}"))
    finally:
        stop(proc)
    try:
        record(shutdown_with_streams(root, tmp))
    except Exception as e:  # noqa: BLE001
        record(("SIGTERM with 5 streams open", False, f"could not run: {type(e).__name__}: {e}"))
    return out
