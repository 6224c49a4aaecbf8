"""A club night, measured: R rooms x P phones against a real `boggle-cv serve`
through real HTTP. A benchmark that prints figures, not a timed test.

Starts `python -m boggle_cv serve` (this checkout) on a free port of 127.0.0.1 with its
own temporary --db, then:
  * R rooms are made (each by its host, from 127.0.1.N), and P phones join each one,
    every phone from its own loopback address (127.0.N.M, N >= 2), spread over the
    first --ramp seconds; every phone opens the room's event stream and holds it;
  * each host starts the round; every phone saves its list (one more word each time)
    every --every seconds for --seconds seconds, sending the `base` revision it last
    saw (CONTRACT item 1: required after the merge; an older server ignores it); a
    409 StaleList is merged (its words kept, ours added) and sent again;
  * the R hosts upload a tray photo (samples/*.jpg, in turn) spread over the first
    minute (at most half of --seconds);
  * at the end each host locks and scores its room; every phone reads its list back.
Then every phone leaves at once (its stream reset, as phones dropping off the Wi-Fi;
--leave close: closed), a new room is asked for (the server must still answer: a
hub that holds one lock across its listeners' waits hangs here) and the server is stopped with SIGTERM.

Printed: errors by request and status, lost saves (an acknowledged word missing from
the server's final list), save latency p50/p95/max, photo to board on every phone
(from the upload's start until every phone of the room has seen a stream event of the
photo's version or later) p50/p95/max, the server's peak memory (RSS summed over its
process tree, sampled every 0.2 s, as scripts/reliability_report.py measures it), the
benchmark's own CPU, and the targets.

--hostile runs beside it: 4 slow uploads to /api/scan (1 byte every 5 s, from 4
addresses), a connection flood (3 addresses x 64 connections sending a request head 1
byte every 5 s), 4 players saving 1 MB word lists in a room of their own, and 10
event streams reset (TCP RST) at once every 5 s.

    python benchmarks/bench_club_night.py                                   # 30 x 6, 180 s
    python benchmarks/bench_club_night.py --rooms 3 --phones 3 --seconds 20  # a quick check
    python benchmarks/bench_club_night.py --hostile
    python benchmarks/bench_club_night.py --checkout ../before     # another checkout's server
    bash scripts/with-postgres.sh python benchmarks/bench_club_night.py --compare   # SQLite vs PostgreSQL x1, x2

--db postgresql runs on a new database of the server --pg (or $BOGGLE_CV_TEST_PG) names,
dropped afterwards; --processes N serves with `serve --workers N`; --compare runs 1
process on SQLite, then 1 and 2 on PostgreSQL, one after the other, and prints them
side by side with the CPU time per 1,000 acknowledged saves of the server's processes
(the photo readers apart) and of PostgreSQL's backends for that database (Linux /proc).

Targets (the 2-core machine): no error, no lost save, p95 save <= 300 ms,
photo to board on every phone p95 <= 5 s, server memory <= 600 MB; with --hostile the
table's figures within 2x of these.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import club_pg
from club_http import Answer, Connection, EventStream, json_body, reset_socket

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
from reliability_report import TreeMemory  # noqa: E402 - the project's way to measure a server

TARGETS = {"save_p95_s": 0.300, "board_p95_s": 5.0, "memory_mb": 600.0}
LETTERS = string.ascii_lowercase


# ---- the server -----------------------------------------------------------------------------

def start_server(tmp: Path, checkout: Path, db: str | None = None,
                 processes: int = 1) -> tuple[subprocess.Popen[bytes], int, Path]:
    """`python -m boggle_cv serve --port 0 --db DB --workers PROCESSES` of `checkout`
    (DB: TMP/club.sqlite3 unless given), in its own session (so that its workers can
    be stopped with it); (process, port, log)."""
    log = tmp / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(checkout) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if checkout != REPO:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave another checkout as it is
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "serve", "--port", "0",
                                 "--db", db or str(tmp / "club.sqlite3"),
                                 *(["--workers", str(processes)] if processes > 1 else [])],
                                stdout=out, stderr=subprocess.STDOUT,
                                env=env, cwd=tmp, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", log.read_text(errors="replace"))
        if m:
            return proc, int(m.group(1)), log
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    stop_server(proc)
    sys.exit("boggle-cv serve did not start:\n" + log.read_text(errors="replace")[-2000:])


def stop_server(proc: subprocess.Popen[bytes], grace_s: float = 10.0) -> float | None:
    """SIGTERM, then SIGKILL of its whole process group after `grace_s`; seconds it
    took to exit on SIGTERM (None: it had to be killed)."""
    t0 = time.monotonic()
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(grace_s)
        took: float | None = time.monotonic() - t0
    except subprocess.TimeoutExpired:
        took = None
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # its photo readers too, whatever happened
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait(5)
    return took


# ---- the table ------------------------------------------------------------------------------

@dataclass
class Tally:
    """What every request met: 'PUT words 200' -> count; latencies by kind (seconds)."""

    counts: dict[str, int] = field(default_factory=dict)
    latency: dict[str, list[float]] = field(default_factory=dict)

    def add(self, kind: str, outcome: str, seconds: float | None = None) -> None:
        key = f"{kind} {outcome}"
        self.counts[key] = self.counts.get(key, 0) + 1
        if seconds is not None and outcome.startswith("2"):
            self.latency.setdefault(kind, []).append(seconds)

    async def call(self, conn: Connection, kind: str, method: str, path: str, doc: Any = None,
                   token: str | None = None, raw: tuple[bytes, str] | None = None) -> Answer | None:
        """One request, counted; None when it never got an answer."""
        headers: dict[str, str] = {}
        body: bytes | None = None
        if raw is not None:
            body, headers["Content-Type"] = raw
        elif method in ("POST", "PUT"):
            body, headers = json_body({} if doc is None else doc)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            ans = await conn.request(method, path, body, headers)
        except asyncio.TimeoutError:
            self.add(kind, "timeout")
            return None
        except (OSError, asyncio.IncompleteReadError, ValueError) as e:
            self.add(kind, type(e).__name__)
            return None
        self.add(kind, str(ans.status), ans.seconds)
        return ans

    def errors(self) -> dict[str, int]:
        return {k: v for k, v in sorted(self.counts.items()) if not k.rsplit(" ", 1)[1].startswith("2")}


@dataclass
class Phone:
    """One player's phone: its address, token, list, the revision it last saw."""

    name: str
    ip: str
    player_id: str = ""
    token: str = ""
    words: list[str] = field(default_factory=list)
    base: int = 0
    acked: list[str] = field(default_factory=list)  # the last list the server acknowledged
    stream: EventStream | None = None
    conn: Connection | None = None
    final: list[str] | None = None  # the server's list at the end


@dataclass
class Room:
    index: int
    host_ip: str
    code: str = ""
    host_token: str = ""
    phones: list[Phone] = field(default_factory=list)
    photo_start: float | None = None
    photo_version: int | None = None
    photo_status: str = ""
    scored: bool = False


def own_entry(room_doc: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next((p for p in room_doc.get("players", []) if p.get("id") == player_id), {})


def new_word(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(4, 9)))


class ClubNight:
    def __init__(self, args: argparse.Namespace, port: int, photos: list[bytes]) -> None:
        self.a, self.port, self.photos = args, port, photos
        self.tally = Tally()
        self.rng = random.Random(args.seed)
        self.rooms = [Room(i, f"127.0.1.{i + 1}") for i in range(args.rooms)]
        n = 0
        for room in self.rooms:
            for j in range(args.phones):
                room.phones.append(Phone(f"P{j + 1}", f"127.0.{2 + n // 250}.{1 + n % 250}"))
                n += 1

    def conn(self, ip: str) -> Connection:
        return Connection("127.0.0.1", self.port, ip)

    async def set_up(self, room: Room) -> None:
        """The host makes the room; its phones join and open their streams."""
        await asyncio.sleep(self.a.ramp * room.index / max(1, len(self.rooms)))
        host = self.conn(room.host_ip)
        ans = await self.tally.call(host, "POST rooms", "POST", "/api/rooms",
                                    {"game": f"club-{room.index + 1}", "seconds": None})
        if ans is None or ans.status != 201:
            return
        doc = ans.json()
        room.code, room.host_token = doc["code"], doc["host_token"]
        for phone in room.phones:
            phone.conn = self.conn(phone.ip)
            ans = await self.tally.call(phone.conn, "POST players", "POST", f"/api/rooms/{room.code}/players",
                                        {"name": phone.name})
            if ans is None or ans.status != 201:
                continue
            doc = ans.json()
            phone.player_id, phone.token = doc["player_id"], doc["token"]
            phone.base = int(own_entry(doc.get("room", {}), phone.player_id).get("revision", 0))
            phone.stream = EventStream("127.0.0.1", self.port, phone.ip, f"/api/rooms/{room.code}/events")
            asyncio.get_running_loop().create_task(phone.stream.run())
        host.close()

    async def save(self, room: Room, phone: Phone) -> None:
        """One save of the phone's whole list with its base; a 409 StaleList is merged
        (the server's words kept, ours added) and sent once more."""
        assert phone.conn is not None
        for _ in range(2):
            sent = list(phone.words)
            ans = await self.tally.call(phone.conn, "PUT words", "PUT",
                                        f"/api/rooms/{room.code}/players/{phone.player_id}/words",
                                        {"words": sent, "base": phone.base}, phone.token)
            if ans is None:
                return
            if ans.status == 200:
                entry = own_entry(ans.json().get("room", {}), phone.player_id)
                phone.base = int(entry["revision"]) if "revision" in entry else phone.base + 1
                phone.acked = sent
                return
            doc = ans.json() if ans.body.startswith(b"{") else {}
            current = doc.get("current") if isinstance(doc, dict) else None
            if ans.status != 409 or not isinstance(current, dict):
                return
            phone.words = list(dict.fromkeys(list(current.get("words", [])) + phone.words))
            phone.base = int(current.get("revision", phone.base))

    async def play(self, room: Room, end: float) -> None:
        """Start the round; every phone saves every --every seconds until `end`."""
        if not room.code:
            return
        host = self.conn(room.host_ip)
        await self.tally.call(host, "POST rounds", "POST", f"/api/rooms/{room.code}/rounds", {},
                              room.host_token)
        host.close()

        async def phone_loop(phone: Phone) -> None:
            await asyncio.sleep(self.rng.uniform(0, self.a.every))
            while time.monotonic() < end:
                phone.words.append(new_word(self.rng))
                t = time.monotonic()
                await self.save(room, phone)
                await asyncio.sleep(max(0.0, self.a.every - (time.monotonic() - t)))
        await asyncio.gather(*(phone_loop(p) for p in room.phones if p.token))

    async def photo(self, room: Room, at: float) -> None:
        """The host uploads the tray photo at `at` (monotonic)."""
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        if not room.code:
            return
        host = self.conn(room.host_ip)
        room.photo_start = time.monotonic()
        ans = await self.tally.call(host, "POST photo", "POST", f"/api/rooms/{room.code}/rounds/current/photo",
                                    token=room.host_token,
                                    raw=(self.photos[room.index % len(self.photos)], "image/jpeg"))
        host.close()
        room.photo_status = "none" if ans is None else str(ans.status)
        if ans is not None and ans.status == 200:
            room.photo_version = int(ans.json()["room"]["version"])

    async def finish(self, room: Room) -> None:
        """Lock, make sure there is a board (typed when the photo failed), score, then a new game; every
        phone reads its list back."""
        if not room.code:
            return
        host = self.conn(room.host_ip)
        base = f"/api/rooms/{room.code}"
        await self.tally.call(host, "POST lock", "POST", base + "/rounds/current/lock", {}, room.host_token)
        if room.photo_version is None:
            await self.tally.call(host, "PUT board", "PUT", base + "/rounds/current/board",
                                  {"board": "PERS/LATG/SINE/TERS"}, room.host_token)
        ans = await self.tally.call(host, "POST score", "POST", base + "/rounds/current/score", {},
                                    room.host_token)
        room.scored = ans is not None and ans.status == 200


        async def read_back(phone: Phone) -> None:
            assert phone.conn is not None
            ans = await self.tally.call(phone.conn, "GET room", "GET", base, token=phone.token)
            if ans is not None and ans.status == 200:
                phone.final = list(own_entry(ans.json()["room"], phone.player_id).get("words") or [])
        await asyncio.gather(*(read_back(p) for p in room.phones if p.token and p.conn is not None))
        if room.scored:  # the table plays on: a new game with the same players
            await self.tally.call(host, "POST game", "POST", base + "/games", {}, room.host_token)
        host.close()

    async def set_up_all(self) -> None:
        await asyncio.gather(*(self.set_up(r) for r in self.rooms))
        await asyncio.sleep(0.5)  # the last streams get their hello

    async def play_all(self) -> float:
        """The round in every room, photos and scores; seconds it took."""
        start = time.monotonic()
        end = start + self.a.seconds
        window = min(self.a.photo_window, self.a.seconds / 2)
        photo_tasks = [asyncio.create_task(self.photo(r, start + window * (i + self.rng.random()) / len(self.rooms)))
                       for i, r in enumerate(self.rooms)]
        await asyncio.gather(*(self.play(r, end) for r in self.rooms), *photo_tasks)
        await asyncio.gather(*(self.finish(r) for r in self.rooms))
        return time.monotonic() - start


# ---- hostile clients ------------------------------------------------------------------------

class Hostile:
    """The hostile clients beside the table; counts what each met."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.tally = Tally()
        self.stop = asyncio.Event()
        self.notes: dict[str, int] = {}

    def note(self, key: str) -> None:
        self.notes[key] = self.notes.get(key, 0) + 1

    async def _raw(self, ip: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port, local_addr=(ip, 0)), 30)

    async def dribble(self, ip: str, head: bytes, kind: str) -> None:
        """One connection sending `head` one byte every 5 s; reopened when the server
        ends it."""
        while not self.stop.is_set():
            try:
                reader, writer = await self._raw(ip)
            except (OSError, asyncio.TimeoutError) as e:
                self.note(f"{kind}: connect {type(e).__name__}")
                await self._pause(5)
                continue
            self.note(f"{kind}: opened")
            try:
                for i in range(len(head)):
                    if self.stop.is_set():
                        break
                    writer.write(head[i:i + 1])
                    await writer.drain()
                    try:
                        got = await asyncio.wait_for(reader.read(200), 5.0)
                    except asyncio.TimeoutError:
                        continue
                    m = re.match(rb"HTTP/1\.1 (\d+)", got)
                    self.note(f"{kind}: answered {m.group(1).decode() if m else 'closed'}")
                    break
            except OSError as e:
                self.note(f"{kind}: {type(e).__name__}")
            finally:
                writer.close()
            await self._pause(1)

    async def _pause(self, s: float) -> None:
        try:
            await asyncio.wait_for(self.stop.wait(), s)
        except asyncio.TimeoutError:
            pass

    async def big_room(self) -> tuple[str, list[tuple[Connection, str, str]]]:
        """A room of 4 players for the 1 MB saves, its round started: (code, players)."""
        host = Connection("127.0.0.1", self.port, "127.0.9.1")
        ans = await self.tally.call(host, "hostile POST rooms", "POST", "/api/rooms", {"seconds": None})
        if ans is None or ans.status != 201:
            return "", []
        code, htok = ans.json()["code"], ans.json()["host_token"]
        players = []
        for i in range(4):
            c = Connection("127.0.0.1", self.port, f"127.0.9.{10 + i}")
            a = await self.tally.call(c, "hostile POST players", "POST", f"/api/rooms/{code}/players",
                                      {"name": f"Big{i}"})
            if a is not None and a.status == 201:
                players.append((c, a.json()["player_id"], a.json()["token"]))
        await self.tally.call(host, "hostile POST rounds", "POST", f"/api/rooms/{code}/rounds", {}, htok)
        host.close()
        return code, players

    async def big_saves(self, code: str, players: list[tuple[Connection, str, str]]) -> None:
        """Each player of the big room saves a 1 MB list again and again."""
        rng = random.Random(3)
        text = " ".join(new_word(rng) for _ in range(140_000))[:1_000_000 - 100]

        async def sender(c: Connection, pid: str, tok: str) -> None:
            base = 0
            while not self.stop.is_set():
                a = await self.tally.call(c, "hostile PUT 1 MB words", "PUT", f"/api/rooms/{code}/players/{pid}/words",
                                          {"words": text, "base": base}, tok)
                if a is not None and a.status == 200:
                    base = int(own_entry(a.json()["room"], pid).get("revision", base + 1))
                elif a is not None and a.status == 409 and a.body.startswith(b"{"):
                    base = int((a.json().get("current") or {}).get("revision", base))
                await self._pause(0.5)
        await asyncio.gather(*(sender(*p) for p in players))

    async def stream_resets(self, codes: list[str]) -> None:
        """Every 5 s: 10 streams opened (head read), then all reset at once."""
        n = 0
        while not self.stop.is_set() and codes:
            socks = []
            for i in range(10):
                try:
                    s = socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                                 source_address=(f"127.0.8.{1 + i}", 0))
                    s.sendall(f"GET /api/rooms/{codes[(n + i) % len(codes)]}/events HTTP/1.1\r\n"
                              "Host: x\r\nAccept: text/event-stream\r\n\r\n".encode())
                    socks.append(s)
                except OSError as e:
                    self.note(f"stream resets: connect {type(e).__name__}")
            await asyncio.to_thread(self._read_heads, socks)
            for s in socks:
                reset_socket(s)
            self.note("stream resets: rounds of 10")
            n += 10
            await self._pause(5)

    def _read_heads(self, socks: list[socket.socket]) -> None:
        for s in socks:
            try:
                s.settimeout(5)
                s.recv(4096)
            except OSError:
                self.note("stream resets: no head")

    async def run(self, codes: list[str]) -> None:
        big_code, big_players = await self.big_room()
        head = (b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\n"
                b"Content-Length: 100000\r\n\r\n")
        tasks = [self._slow_upload(f"127.0.7.{1 + i}", head) for i in range(4)]
        tasks += [self.dribble(f"127.0.6.{1 + a}", b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n", "flood")
                  for a in range(3) for _ in range(64)]
        tasks.append(self.big_saves(big_code, big_players))
        tasks.append(self.stream_resets(codes))
        await asyncio.gather(*tasks)

    async def _slow_upload(self, ip: str, head: bytes) -> None:
        """The head at once, then the body 1 byte every 5 s."""
        while not self.stop.is_set():
            try:
                reader, writer = await self._raw(ip)
                writer.write(head)
                await writer.drain()
            except (OSError, asyncio.TimeoutError) as e:
                self.note(f"slow upload: connect {type(e).__name__}")
                await self._pause(5)
                continue
            self.note("slow upload: opened")
            try:
                while not self.stop.is_set():
                    writer.write(b"\xff")
                    await writer.drain()
                    try:
                        got = await asyncio.wait_for(reader.read(200), 5.0)
                    except asyncio.TimeoutError:
                        continue
                    m = re.match(rb"HTTP/1\.1 (\d+)", got)
                    self.note(f"slow upload: answered {m.group(1).decode() if m else 'closed'}")
                    break
            except OSError as e:
                self.note(f"slow upload: {type(e).__name__}")
            finally:
                writer.close()
            await self._pause(1)


# ---- figures --------------------------------------------------------------------------------

def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0-1) of xs by nearest rank (the smallest value with at least
    q of them at or below it); NaN when empty."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def report(night: ClubNight, hostile: Hostile | None, mem: TreeMemory, played_s: float,
           after: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    phones = [p for r in night.rooms for p in r.phones]
    joined = [p for p in phones if p.token]
    lost = [p for p in joined if p.final is not None and not set(p.acked) <= set(p.final)]
    unread = [p for p in joined if p.final is None and p.acked]
    saves = night.tally.latency.get("PUT words", [])
    boards = []
    for r in night.rooms:
        if r.photo_version is None or r.photo_start is None:
            continue
        seen = [p.stream.first_at(r.photo_version) if p.stream else None for p in r.phones if p.token]
        boards.append(None if any(s is None for s in seen) else max(s for s in seen if s is not None) - r.photo_start)
    board_s = [b for b in boards if b is not None]
    streams = [p.stream for p in joined if p.stream]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    errors = night.tally.errors()
    fig: dict[str, Any] = {
        "config": {"rooms": args.rooms, "phones": args.phones, "seconds": args.seconds, "every_s": args.every,
                   "hostile": bool(hostile)},
        "phones_joined": len(joined), "phones": len(phones),
        "errors": errors,
        "requests_sent_again": sum(p.conn.retried for p in joined if p.conn),
        "saves_ok": len(saves), "saves_sent": sum(v for k, v in night.tally.counts.items() if k.startswith("PUT words")),
        "lost_saves": len(lost), "lists_not_read_back": len(unread),
        "save_s": {"p50": pct(saves, 0.5), "p95": pct(saves, 0.95), "max": max(saves, default=float("nan"))},
        "photos": {r.photo_status: sum(1 for x in night.rooms if x.photo_status == r.photo_status) for r in night.rooms},
        "photo_to_board_s": {"p50": pct(board_s, 0.5), "p95": pct(board_s, 0.95),
                             "max": max(board_s, default=float("nan")),
                             "never_on_every_phone": sum(1 for b in boards if b is None)},
        "scored": sum(r.scored for r in night.rooms),
        "streams": {"held": sum(1 for s in streams if s.opened), "reopened": sum(max(0, s.opened - 1) for s in streams),
                    "dropped": sum(s.dropped for s in streams),
                    "refused": _merge(s.refused for s in streams),
                    "events": sum(len(s.events) for s in streams)},
        "server_memory_mb": {"rss_peak": round(mem.rss_mb, 1), "pss_peak": round(mem.pss_mb, 1),
                             "processes": mem.procs},
        "played_s": round(played_s, 1),
        "bench_cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        **after,
    }
    if hostile is not None:
        fig["hostile"] = {"requests": hostile.tally.counts, "connections": dict(sorted(hostile.notes.items()))}
    fig["targets"] = {
        "no error": not errors and fig["phones_joined"] == len(phones),
        "no lost save": not lost and not unread,
        "p95 save <= 300 ms": fig["save_s"]["p95"] <= TARGETS["save_p95_s"] * (2 if hostile else 1),
        "photo to board p95 <= 5 s": bool(board_s) and fig["photo_to_board_s"]["p95"] <= TARGETS["board_p95_s"]
        * (2 if hostile else 1) and fig["photo_to_board_s"]["never_on_every_phone"] == 0,
        "server memory <= 600 MB": mem.rss_mb <= TARGETS["memory_mb"] * (2 if hostile else 1),
        "answers after the phones leave": after.get("new_room_after_s") is not None,
    }
    return fig


def _merge(dicts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def ms(s: float) -> str:
    """Seconds as milliseconds; 'n/a' for NaN (nothing measured)."""
    return "n/a" if s != s else f"{s * 1000:.0f} ms"


def sec(s: float) -> str:
    return "n/a" if s != s else f"{s:.2f} s"


def show(fig: dict[str, Any]) -> None:
    c = fig["config"]
    print(f"club night: {c['rooms']} rooms x {c['phones']} phones, {c['seconds']:g} s of saves every "
          f"{c['every_s']:g} s{', hostile clients beside it' if c['hostile'] else ''} "
          f"({fig['played_s']} s played)")
    print(f"  phones joined      {fig['phones_joined']} of {fig['phones']}")
    print(f"  errors by status   {json.dumps(fig['errors']) if fig['errors'] else 'none'}")
    print(f"  saves              {fig['saves_ok']} acknowledged of {fig['saves_sent']} sent; "
          f"lost saves: {fig['lost_saves']} phones"
          + (f" ({fig['lists_not_read_back']} lists could not be read back)" if fig['lists_not_read_back'] else ""))
    s = fig["save_s"]
    print(f"  save latency       p50 {ms(s['p50'])}, p95 {ms(s['p95'])}, max {ms(s['max'])}")
    b = fig["photo_to_board_s"]
    print(f"  photos             {json.dumps(fig['photos'])}; photo to board on every phone: p50 {sec(b['p50'])}, "
          f"p95 {sec(b['p95'])}, max {sec(b['max'])}, never {b['never_on_every_phone']}")
    print(f"  scored             {fig['scored']} of {c['rooms']} rooms")
    st = fig["streams"]
    print(f"  streams            {st['held']} held, {st['reopened']} reopened, {st['dropped']} dropped, "
          f"refused {json.dumps(st['refused'])}, {st['events']} events")
    m = fig["server_memory_mb"]
    print(f"  server memory      peak {m['rss_peak']:.0f} MB RSS ({m['pss_peak']:.0f} MB PSS) over "
          f"{m['processes']} processes")
    print(f"  after the phones   new room answered in "
          f"{'NEVER (hung)' if fig.get('new_room_after_s') is None else sec(fig['new_room_after_s'])}; "
          f"SIGTERM to exit: {'killed after 10 s' if fig.get('exit_s') is None else sec(fig['exit_s'])}; "
          f"server log: {fig.get('log_tracebacks', 0)} tracebacks")
    print(f"  benchmark's CPU    {fig['bench_cpu_s']} s; {fig['requests_sent_again']} requests sent again "
          "on a fresh connection (the server had closed an idle keep-alive one)")
    if "hostile" in fig:
        print(f"  hostile requests   {json.dumps(fig['hostile']['requests'])}")
        print(f"  hostile conns      {json.dumps(fig['hostile']['connections'])}")
    print("  targets            " + "; ".join(f"{k}: {'ok' if v else 'MISSED'}" for k, v in fig["targets"].items()))


async def after_phones_leave(night: ClubNight, reset: bool) -> dict[str, Any]:
    """Every phone leaves at once (its stream reset, or closed); then a new room must
    be answered within the request timeout."""
    for r in night.rooms:
        for p in r.phones:
            if p.stream:
                p.stream.stop(reset)
            if p.conn:
                p.conn.close()
    await asyncio.sleep(0.5)
    conn = night.conn("127.0.1.250")
    t = time.monotonic()
    ans = await night.tally.call(conn, "POST rooms (after)", "POST", "/api/rooms", {"seconds": None})
    conn.close()
    return {"new_room_after_s": time.monotonic() - t if ans is not None and ans.status == 201 else None}


async def main_async(args: argparse.Namespace, port: int, photos: list[bytes]) -> dict[str, Any]:
    night = ClubNight(args, port, photos)
    await night.set_up_all()
    hostile = Hostile(port) if args.hostile else None
    hostile_task = None
    if hostile is not None:
        hostile_task = asyncio.create_task(hostile.run([r.code for r in night.rooms if r.code]))
    played = await night.play_all()
    if hostile is not None and hostile_task is not None:
        hostile.stop.set()
        try:
            await asyncio.wait_for(hostile_task, 15)
        except asyncio.TimeoutError:
            hostile_task.cancel()
    after = await after_phones_leave(night, args.leave == "reset")
    return {"night": night, "hostile": hostile, "played": played, "after": after}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=30, help="rooms (one host each)")
    ap.add_argument("--phones", type=int, default=6, help="phones per room")
    ap.add_argument("--seconds", type=float, default=180.0, help="seconds of saving (the round)")
    ap.add_argument("--every", type=float, default=2.0, help="seconds between a phone's saves")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds over which the rooms are made and joined")
    ap.add_argument("--photo-window", type=float, default=60.0,
                    help="seconds over which the photos arrive (at most half of --seconds)")
    ap.add_argument("--hostile", action="store_true", help="run the hostile clients beside the table")
    ap.add_argument("--leave", choices=["reset", "close"], default="reset",
                    help="how the phones end their streams at the end: TCP reset (phones dropping off the "
                         "Wi-Fi together) or a plain close")
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                    help="the games database: a SQLite file, or a new database on the --pg server")
    ap.add_argument("--processes", type=int, default=1, help="server processes (serve --workers)")
    ap.add_argument("--pg", default=os.environ.get("BOGGLE_CV_TEST_PG"),
                    help="PostgreSQL server URL for --db postgresql (default: $BOGGLE_CV_TEST_PG)")
    ap.add_argument("--compare", action="store_true",
                    help="run 1 process on SQLite, then 1 and 2 processes on PostgreSQL, and print them side by side")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--checkout", type=Path, default=REPO,
                    help="serve the code of this checkout (default: the one holding this script)")
    args = ap.parse_args()
    if args.rooms < 1 or args.phones < 1 or args.rooms * args.phones > 250 * 200:
        sys.exit("--rooms and --phones must be at least 1")
    photos = [p.read_bytes() for p in sorted((REPO / "samples").glob("*.jpg"))]
    if not photos:
        sys.exit("no samples/*.jpg to upload")
    runs = [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)] if args.compare else [(args.db, args.processes)]
    if any(db == "postgresql" for db, _ in runs) and not args.pg:
        sys.exit("--db postgresql needs a server: --pg URL (or $BOGGLE_CV_TEST_PG: scripts/with-postgres.sh)")
    figs = [run_one(args, photos, db, processes) for db, processes in runs]
    if len(figs) > 1:
        show_side_by_side(figs)
    if args.json:
        args.json.write_text(json.dumps(figs if len(figs) > 1 else figs[0], indent=1, default=str))


def run_one(args: argparse.Namespace, photos: list[bytes], db: str, processes: int) -> dict[str, Any]:
    """One club night against a fresh server on `db` with `processes` processes."""
    tmp = Path(tempfile.mkdtemp(prefix="club-night-"))
    url, name = club_pg.fresh_database(args.pg) if db == "postgresql" else (None, "")
    proc, port, log = start_server(tmp, args.checkout.resolve(), url, processes)
    exit_s: float | None = None
    try:
        cpu0, pg0 = club_pg.server_cpu(proc.pid), club_pg.postgres_cpu(name) if name else 0.0
        with TreeMemory(proc.pid, every_s=0.2) as mem:
            got = asyncio.run(main_async(args, port, photos))
        cpu1, pg1 = club_pg.server_cpu(proc.pid), club_pg.postgres_cpu(name) if name else 0.0
        exit_s = stop_server(proc)
        text = log.read_text(errors="replace")
        after = {**got["after"], "exit_s": exit_s, "log_tracebacks": text.count("Traceback")}
        fig = report(got["night"], got["hostile"], mem, got["played"], after, args)
        fig["config"].update(db=db, processes=processes)
        fig["cpu_s"] = {"server": round(cpu1["server"] - cpu0["server"], 2),
                        "readers": round(cpu1["readers"] - cpu0["readers"], 2), "postgres": round(pg1 - pg0, 2)}
        show(fig)
        return fig
    finally:
        if proc.poll() is None:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)
        if name:
            club_pg.drop_database(args.pg, name)


def show_side_by_side(figs: list[dict[str, Any]]) -> None:
    """The runs of --compare in one table; CPU per 1,000 acknowledged saves (the
    photo readers' CPU apart: it is the photos', not the saves')."""
    print("\n| configuration | p95 save | errors | streams ended badly | photo to board p95 | "
          "server CPU / 1,000 saves | PostgreSQL CPU / 1,000 saves |")
    print("|---|---|---|---|---|---|---|")
    for f in figs:
        c, st, per = f["config"], f["streams"], 1000 / max(1, f["saves_ok"])
        bad = st["dropped"] + sum(st["refused"].values())
        pg = f"{f['cpu_s']['postgres'] * per:.2f} s" if c["db"] == "postgresql" else "-"
        print(f"| {c['processes']} process{'es' if c['processes'] > 1 else ''}, {c['db']} | "
              f"{ms(f['save_s']['p95'])} | {sum(f['errors'].values()) if f['errors'] else 0} | {bad} | "
              f"{sec(f['photo_to_board_s']['p95'])} | {f['cpu_s']['server'] * per:.2f} s | {pg} |")


if __name__ == "__main__":
    main()
