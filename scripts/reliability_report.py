#!/usr/bin/env python
"""Reliability figures: hostile and oversized inputs, run as users run them.

Every case runs `python -m boggle_cv ...` as its own process under a small parent
that reports the child's peak resident memory (getrusage RUSAGE_CHILDREN), with a
time limit. A case is *handled* when it ends with the expected exit code and, for an
error, exactly one `boggle-cv: error:` line and no traceback (plus the case's own
check: a file left untouched, a folder not made, ...). The page is measured with
`boggle-cv serve` on a free port: 20 concurrent uploads of a 12-megapixel JPEG (made
here by upscaling samples/sample-4x4-a.jpg into a temporary folder), the server's
memory summed over its processes (resident, and proportional: PSS shares the pages
the workers have in common), sampled every 50 ms.

    python scripts/reliability_report.py            # all areas, a few minutes
    python scripts/reliability_report.py --base ../base   # also time the page of another checkout
    python scripts/reliability_report.py --areas lists,page -v

Targets: no input makes `scan` exceed 400 MB or the server 600 MB.
Area "room" (scripts/room_hostile.py): the room's hostile cases, each on a
real server: lone surrogates and control characters wherever text comes in, nested
JSON, truthy strings, cross-site simple requests, stale saves, slow uploads against a
player's photo, 1 MB saves against another room's, a connection flood, a stream
storm, SIGTERM with streams open.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "sample-4x4-a.jpg"
SHARED_WORDS = REPO.parent / "shared" / "words"
BOARD = "PERS/LATG/SINE/TERS"
SCAN_TARGET_MB = 400
SERVER_TARGET_MB = 600

_PARENT = (
    "import json, resource, subprocess, sys\n"
    "p = subprocess.run(sys.argv[2:], stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr, timeout=float(sys.argv[1]))\n"
    "sys.stderr.write('\\n@@peak ' + json.dumps([p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n"
)


@dataclass
class Outcome:
    rc: int
    out: str
    err: str
    peak_mb: float
    seconds: float


def run_case(args: list[str], root: Path, stdin: Any = subprocess.DEVNULL, timeout: float = 120,
             env: dict[str, str] | None = None, prefix: list[str] | None = None) -> Outcome:
    """Run boggle-cv ARGS from checkout `root`; rc -9 if it ran past `timeout`."""
    e = {**os.environ, "PYTHONPATH": str(root), **(env or {})}
    e.pop("BOGGLE_CV_DEBUG", None)
    cmd = [*(prefix or []), sys.executable, "-c", _PARENT, str(timeout), sys.executable, "-m", "boggle_cv", *args]
    kw: dict[str, Any] = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, env=e, cwd=tempfile.gettempdir(), timeout=timeout + 30, **kw)
    except subprocess.TimeoutExpired:
        return Outcome(-9, "", "timed out", 0.0, time.perf_counter() - t0)
    secs = time.perf_counter() - t0
    err = p.stderr.decode("utf-8", "replace")
    head, sep, tail = err.rpartition("\n@@peak ")
    if not sep:
        return Outcome(-9, "", err[-300:] or "timed out", 0.0, secs)
    rc, kb = json.loads(tail)
    return Outcome(rc, p.stdout.decode("utf-8", "replace"), head, kb / 1024, secs)


def one_line_error(o: Outcome) -> bool:
    lines = [ln for ln in o.err.splitlines() if ln.startswith("boggle-cv: error:")]
    return len(lines) == 1 and "Traceback" not in o.err


@dataclass
class Case:
    area: str
    name: str
    args: list[str]
    expect: int
    stdin: Any = subprocess.DEVNULL
    fragment: str = ""
    check: Callable[[Outcome], bool] | None = None
    timeout: float = 120
    env: dict[str, str] | None = None
    prefix: list[str] | None = None
    scan: bool = False  # held to the scan memory target


@dataclass
class Result:
    case: Case
    outcome: Outcome
    handled: bool
    why: str = ""


@dataclass
class Inputs:
    """Files the cases use, made in a temporary folder."""

    d: Path
    files: dict[str, Path] = field(default_factory=dict)

    def __getitem__(self, k: str) -> Path:
        return self.files[k]


# ---- inputs ---------------------------------------------------------------------------

def _png_bomb(w: int, h: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes((w + 7) // 8)
    z = zlib.compressobj(9)
    body = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def _tiff(w: int, h: int) -> bytes:
    z = bytes(1000)
    entries = [(256, 4, w), (257, 4, h), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 8 + 2 + 12 * 9 + 4),
               (277, 3, 1), (278, 4, h), (279, 4, len(z))]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", t, k, 1, v) if k == 4 else struct.pack("<HHIHH", t, k, 1, v, 0)
        for t, k, v in entries) + struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + z


def _webp_claiming(w: int, h: int) -> bytes:
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (120, 130, 140)).save(buf, "WEBP", lossless=True)
    d = bytearray(buf.getvalue())
    rest = int.from_bytes(d[21:25], "little") & ~((1 << 28) - 1)
    d[21:25] = ((w - 1) | ((h - 1) << 14) | rest).to_bytes(4, "little")
    return bytes(d)


def make_inputs(d: Path, areas: set[str]) -> Inputs:
    import cv2
    import numpy as np
    from PIL import Image
    inp = Inputs(d)
    f = inp.files
    rng = random.Random(17)

    def put(name: str, data: bytes | str) -> Path:
        p = d / name
        p.write_bytes(data.encode() if isinstance(data, str) else data)
        f[name] = p
        return p

    put("ok.txt", "rats\nstar\n")
    fifo = d / "fifo"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        f["fifo"] = fifo
    if "lists" in areas:
        with open(d / "big50.txt", "wb") as fh:
            block = b"replastering\n" * 80_000
            for _ in range(50_000_000 // len(block) + 1):
                fh.write(block)
        f["big50.txt"] = d / "big50.txt"
        line = b"replastering\n"
        put("at_limit.txt", line * ((1 << 20) // len(line)))
        put("over_limit.txt", line * ((1 << 20) // len(line) + 1))
        put("tsar.txt", b"tsar\n" * ((1 << 20) // 5))
        put("long_lines.txt", "\n".join("".join(rng.choice("abcdefgh") for _ in range(10_000)) for _ in range(100)))
        put("many_lines.txt", "\n".join("".join(rng.choice("abcdefghilmnoprstu") for _ in range(rng.randint(3, 9)))
                                        for _ in range(100_000)))
        put("max_entries.txt", b"a\n" * 200_000)
        put("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00")
        put("latin1.txt", b"caf\xe9\n")
    if "dictionaries" in areas:
        put("dict9m.txt", b"cat\n" * (9 * (1 << 20) // 4))
        words = ["".join(rng.choice("abcdefghijklmnoprstvwxyz") for _ in range(30)) for _ in range(30_000)]
        put("dict_graph_over.txt", "\n".join(words))
        near = ["".join(rng.choice("abcdefghijklmnoprstuvwy") for _ in range(rng.randint(5, 6))) for _ in range(320_000)]
        put("dict_graph_near.txt", "\n".join(near))
        long_near = ["".join(rng.choice("abcdefghijklmnoprstvwxyz") for _ in range(30)) for _ in range(23_300)]
        put("dict_graph_near_long.txt", "\n".join(long_near))
    img = cv2.imread(str(SAMPLE))
    small = cv2.resize(img, (700, 700), interpolation=cv2.INTER_AREA)
    if "photos" in areas or "outputs" in areas:
        cv2.imwrite(str(d / "self.jpg"), small)
        f["self.jpg"] = d / "self.jpg"
    if "photos" in areas:
        pil = Image.fromarray(small[:, :, ::-1].copy())
        for fmt, ext in (("JPEG", "jpg"), ("PNG", "png"), ("WEBP", "webp"), ("TIFF", "tif"), ("BMP", "bmp"),
                         ("GIF", "gif"), ("PPM", "ppm"), ("JPEG2000", "jp2")):
            p = d / f"format.{ext}"
            pil.save(p, fmt)
            f[f"format.{ext}"] = p
        rgba = np.dstack([cv2.resize(img, (5656, 4243), interpolation=cv2.INTER_LINEAR),
                          np.full((4243, 5656), 255, np.uint8)]).astype(np.uint16) * 257
        cv2.imwrite(str(d / "rgba16_24mp.png"), rgba)
        f["rgba16_24mp.png"] = d / "rgba16_24mp.png"
        del rgba
        flat = np.full((5477, 7302, 3), 120, np.uint8)
        flat[: 5477 // 2] = 60
        cv2.imwrite(str(d / "prog444_40mp.jpg"), flat, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_QUALITY, 50,
                                                        cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                                                        cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])
        f["prog444_40mp.jpg"] = d / "prog444_40mp.jpg"
        cv2.imwrite(str(d / "png_40mp.png"), flat)
        f["png_40mp.png"] = d / "png_40mp.png"
        del flat
        bmp = np.full((4743, 6324, 3), 100, np.uint8)  # 30 MP: a 90 MB file held while decoding
        cv2.imwrite(str(d / "bmp_30mp.bmp"), bmp)
        f["bmp_30mp.bmp"] = d / "bmp_30mp.bmp"
        del bmp
        grey = np.full((10_000, 10_000), 90, np.uint8)
        grey[3000:7000, 3000:7000] = 160
        cv2.imwrite(str(d / "jpeg_100mp.jpg"), grey, [cv2.IMWRITE_JPEG_QUALITY, 40])
        f["jpeg_100mp.jpg"] = d / "jpeg_100mp.jpg"
        del grey
    if "bombs" in areas:
        z = bytes(1000)
        put("bomb.ppm", b"P6\n100000 100000\n255\n" + z)
        put("bomb.pgm", b"P5\n100000 100000\n255\n" + z)
        put("bomb.pfm", b"Pf\n100000 100000\n-1.0\n" + z)
        put("bomb.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n" + z)
        info = struct.pack("<IiiHHIIiiII", 40, 100_000, 100_000, 1, 24, 0, 0, 2835, 2835, 0, 0)
        put("bomb.bmp", b"BM" + struct.pack("<IHHI", 54 + len(z), 0, 0, 54) + info + z)
        put("bomb.gif", b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0, 0, 0) + b","
            + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x02\x02\x44\x01\x00;")
        put("bomb.tif", _tiff(100_000, 100_000))
        put("bomb16k.webp", _webp_claiming(16383, 16383))
        import io
        buf = io.BytesIO()
        Image.new("RGB", (8000, 8000), (120, 130, 140)).save(buf, "WEBP", quality=10)
        put("real64mp.webp", buf.getvalue())
        put("bomb.png", _png_bomb(20_000, 20_000))
        buf = io.BytesIO()
        Image.new("L", (8000, 6000), 90).save(buf, "JPEG", quality=30, progressive=True)
        put("prog48mp.jpg", buf.getvalue())
    if "databases" in areas:
        conn = sqlite3.connect(d / "foreign.sqlite3")
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep')")
        conn.commit()
        conn.close()
        f["foreign.sqlite3"] = d / "foreign.sqlite3"
        put("empty.sqlite3", b"")
        put("garbage.sqlite3", b"not a database" * 500)
        put("a-file", "x")
    return inp


# ---- cases ----------------------------------------------------------------------------

def _unchanged(path: Path) -> Callable[[Outcome], bool]:
    before = path.read_bytes() if path.exists() else None

    def check(_: Outcome) -> bool:
        return (path.read_bytes() if path.exists() else None) == before
    return check


_FSIZE = ("import resource, subprocess, sys\nresource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))\n"
          "sys.exit(subprocess.run(sys.argv[1:]).returncode)\n")


def cases(inp: Inputs, areas: set[str]) -> list[Case]:
    f = inp.files
    d = inp.d
    out: list[Case] = []
    ok = str(f["ok.txt"])
    if "lists" in areas:
        L = "lists"
        out += [
            Case(L, "/dev/zero as a list", ["score", BOARD, "-p", "a=/dev/zero"], 2, fragment="not a regular file"),
            Case(L, "stdin < /dev/zero", ["score", BOARD, "-p", "a=-"], 2, stdin="/dev/zero"),
            Case(L, "stdin < /dev/urandom", ["score", BOARD, "-p", "a=-"], 2, stdin="/dev/urandom"),
            Case(L, "FIFO as a list", ["score", BOARD, "-p", f"a={f['fifo']}"], 2, fragment="FIFO", timeout=30),
            Case(L, "50 MB list", ["score", BOARD, "-p", f"a={f['big50.txt']}"], 2, fragment="1 MiB"),
            Case(L, "50 MB list on stdin", ["score", BOARD, "-p", "a=-"], 2, stdin=str(f["big50.txt"]),
                 fragment="1 MiB"),
            Case(L, "list of 1 MiB + 1 line", ["score", BOARD, "-p", f"a={f['over_limit.txt']}"], 2, fragment="1 MiB"),
            Case(L, "list at the 1 MiB limit", ["score", BOARD, "-p", f"a={f['at_limit.txt']}", "--json"], 0),
            Case(L, "ten players, 1 MiB lists", ["score", BOARD,
                                                 *[a for i in range(10) for a in ("-p", f"p{i}={f['tsar.txt']}")]],
                 2, fragment="200,000 entries"),
            Case(L, "100 lines of 10,000 characters", ["score", BOARD, "-p", f"a={f['long_lines.txt']}", "--json"], 0),
            Case(L, "100,000 lines", ["score", BOARD, "-p", f"a={f['many_lines.txt']}", "--json"], 0),
            Case(L, "200,000 entries (the round's limit)", ["score", BOARD, "-p", f"a={f['max_entries.txt']}", "--json"],
                 0),
            Case(L, "scan with 200,000 entries", ["scan", str(SAMPLE), "-p", f"a={f['max_entries.txt']}", "--json"], 0,
                 scan=True),
            Case(L, "binary list", ["score", BOARD, "-p", f"a={f['binary.txt']}"], 2, fragment="binary"),
            Case(L, "Latin-1 list", ["score", BOARD, "-p", f"a={f['latin1.txt']}"], 2, fragment="UTF-8"),
        ]
    if "dictionaries" in areas:
        D = "dictionaries"
        out += [
            Case(D, "--dict /dev/zero", ["score", BOARD, "-p", f"a={ok}", "--dict", "/dev/zero"], 2,
                 fragment="not a regular file"),
            Case(D, "--dict FIFO", ["solve", BOARD, "--dict", str(f["fifo"])], 2, fragment="FIFO", timeout=30),
            Case(D, "--dict of 9 MiB", ["solve", BOARD, "--dict", str(f["dict9m.txt"])], 2, fragment="8 MiB"),
            Case(D, "--dict whose graph is too large", ["solve", BOARD, "--dict", str(f["dict_graph_over.txt"])], 2,
                 fragment="too large"),
            Case(D, "scan --dict near the graph limit (short)", ["scan", str(SAMPLE), "--dict",
                                                                  str(f["dict_graph_near.txt"]), "-p", f"a={ok}",
                                                                  "--json"], 0, scan=True, timeout=240),
            Case(D, "scan --dict near the graph limit (long)", ["scan", str(SAMPLE), "--dict",
                                                                 str(f["dict_graph_near_long.txt"]), "-p", f"a={ok}",
                                                                 "--json"], 0, scan=True, timeout=240),
        ]
        for name in ("enable2k.txt", "yawl.txt"):
            if (SHARED_WORDS / name).is_file():
                out.append(Case(D, f"scan --dict {name} (../shared)", ["scan", str(SAMPLE), "--dict",
                                                                         str(SHARED_WORDS / name), "--json"], 0,
                                scan=True, timeout=240))
    if "photos" in areas:
        P = "photos"
        for ext in ("jpg", "png", "webp", "tif", "bmp", "gif", "ppm", "jp2"):
            out.append(Case(P, f"{ext.upper()} 700 px", ["scan", str(f[f"format.{ext}"]), "--json"], 0, scan=True))
        out += [
            Case(P, "16-bit RGBA PNG, 24 MP", ["scan", str(f["rgba16_24mp.png"]), "--json"], 0, scan=True,
                 timeout=300),
            Case(P, "progressive 4:4:4 JPEG, 40 MP (flat)", ["scan", str(f["prog444_40mp.jpg"]), "--json"], 5,
                 scan=True, timeout=300),
            Case(P, "PNG, 40 MP (flat)", ["scan", str(f["png_40mp.png"]), "--json"], 5, scan=True, timeout=300),
            Case(P, "BMP, 30 MP, 90 MB file (flat)", ["scan", str(f["bmp_30mp.bmp"]), "--json"], 5, scan=True,
                 timeout=300),
            Case(P, "baseline JPEG, 100 MP", ["scan", str(f["jpeg_100mp.jpg"]), "--json"], 5, scan=True, timeout=300),
        ]
    if "bombs" in areas:
        B = "bombs"
        for name in ("bomb.ppm", "bomb.pgm", "bomb.pfm", "bomb.hdr", "bomb.bmp", "bomb.gif", "bomb.tif",
                     "bomb16k.webp", "real64mp.webp", "bomb.png", "prog48mp.jpg"):
            out.append(Case(B, name, ["scan", str(f[name]), "--json"], 4, scan=True))
    if "databases" in areas:
        B = "databases"
        fo = f["foreign.sqlite3"]
        out += [
            Case(B, "standings on a foreign SQLite file", ["standings", "g", "--db", str(fo)], 7,
                 fragment="not a boggle-cv", check=_unchanged(fo)),
            Case(B, "standings --list on a foreign file", ["standings", "--list", "--db", str(fo)], 7,
                 check=_unchanged(fo)),
            Case(B, "scan --game into a foreign file", ["scan", str(SAMPLE), "--board", BOARD, "--game", "g", "--db",
                                                        str(fo)], 7, check=_unchanged(fo)),
            Case(B, "standings --list on a 0-byte file", ["standings", "--list", "--db", str(f["empty.sqlite3"])], 0,
                 check=lambda o: f["empty.sqlite3"].stat().st_size == 0),
            Case(B, "standings on garbage", ["standings", "g", "--db", str(f["garbage.sqlite3"])], 7),
            Case(B, "--db under a file", ["scan", str(SAMPLE), "--board", BOARD, "--game", "g", "--db",
                                          str(f["a-file"] / "x.db")], 7, fragment="not a directory"),
        ]
    if "outputs" in areas:
        O = "outputs"
        me = f["self.jpg"]
        hard = d / "hard.jpg"
        if not hard.exists():
            os.link(me, hard)
        coll = d / "self_1_gray.png"
        coll.write_bytes(me.read_bytes())
        out += [
            Case(O, "--annotate onto the photo", ["scan", str(me), "--annotate", str(me)], 7, check=_unchanged(me)),
            Case(O, "--annotate onto a hard link", ["scan", str(me), "--annotate", str(hard)], 7, check=_unchanged(me)),
            Case(O, "--db onto the photo", ["scan", str(me), "--board", BOARD, "--game", "g", "--db", str(me)], 7,
                 check=_unchanged(me)),
            Case(O, "--db onto a word list", ["scan", str(me), "--board", BOARD, "-p", f"a={ok}", "--game", "g", "--db",
                                              ok], 7, check=_unchanged(f["ok.txt"])),
            Case(O, "--debug-dir over an input", ["scan", str(me), str(coll), "--debug-dir", str(d)], 7,
                 check=_unchanged(coll)),
            Case(O, "--debug-dir FILE", ["scan", str(me), "--debug-dir", str(f["ok.txt"])], 7,
                 fragment="not a directory"),
            Case(O, "--debug-dir on a full disk", ["scan", str(d / "format.png") if "format.png" in f else str(me),
                                                   "--board", BOARD, "--annotate", str(d / "ann.png"), "--debug-dir",
                                                   str(d / "dbg")], 7, prefix=[sys.executable, "-c", _FSIZE],
                 check=lambda o: not (d / "dbg").exists()),
            Case(O, "--fix one cell twice", ["scan", str(me), "--board", BOARD, "--fix", "r1c1=W", "--fix", "r1c1=M"],
                 2, fragment="two different faces"),
            Case(O, "--bonus ''", ["score", BOARD, "-p", f"a={ok}", "--bonus", ""], 2, fragment="empty"),
            Case(O, "Cyrillic E in a board", ["solve", "P\u0415RS/LATG/SINE/TERS"], 2, fragment="U+0415"),
        ]
    return out


def run_cases(all_cases: list[Case], root: Path, verbose: bool) -> list[Result]:
    results = []
    for c in all_cases:
        stdin: Any = c.stdin
        fh = None
        if isinstance(stdin, str):
            fh = open(stdin, "rb")
            stdin = fh
        try:
            o = run_case(c.args, root, stdin=stdin, timeout=c.timeout, env=c.env, prefix=c.prefix)
        finally:
            if fh is not None:
                fh.close()
        why = ""
        if o.rc != c.expect:
            why = f"exit {o.rc}, expected {c.expect}"
        elif c.expect != 0 and not one_line_error(o):
            why = "not one error line"
        elif c.fragment and c.fragment.lower() not in o.err.lower():
            why = f"no {c.fragment!r} in the error"
        elif c.check is not None and not c.check(o):
            why = "its check failed"
        elif c.scan and o.peak_mb > SCAN_TARGET_MB:
            why = f"peak {o.peak_mb:.0f} MB over {SCAN_TARGET_MB}"
        r = Result(c, o, not why, why)
        results.append(r)
        if verbose:
            line = next((ln for ln in o.err.splitlines() if ln.startswith("boggle-cv: error:")), "")
            print(f"  {'ok ' if r.handled else 'BAD'} {c.area:<12} {c.name:<40} exit {o.rc:<3} {o.peak_mb:6.0f} MB "
                  f"{o.seconds:5.1f} s  {why or line[18:110]}", flush=True)
    return results


# ---- signals ----------------------------------------------------------------------------

def before_our_code(err: str) -> bool:
    """A traceback of Python's own start-up: it failed before any line of boggle-cv ran
    (its init errors, runpy, or no frame in boggle_cv/ but the editable-install finder)."""
    if "init_import_site" in err or "init_sys_streams" in err or "Could not import runpy module" in err:
        return True
    frames = [ln for ln in err.splitlines() if ln.strip().startswith("File ")]
    return bool(frames) and "KeyboardInterrupt" in err and not any(
        "boggle_cv" in ln and "__editable__" not in ln for ln in frames)


def before_the_package_guard(err: str, guard_line: int) -> bool:
    """A traceback whose frames of ours are only boggle_cv/__init__.py's lines up to its
    SIGINT guard's call at `guard_line` (docs/errors.md, "Known gaps")."""
    ours = [ln for ln in err.splitlines() if ln.strip().startswith("File ") and "boggle_cv" in ln
            and "__editable__" not in ln]
    return bool(ours) and all("__init__.py" in ln and ", line " in ln
                              and int(ln.split(", line ")[1].split(",")[0]) <= guard_line for ln in ours)


def signal_cases(root: Path, n: int, verbose: bool) -> tuple[int, int, dict[str, int]]:
    """n SIGINTs at random moments of the first 300 ms of `solve`, plus one between the
    entry point's import and main(): (tried, handled, kinds). Python's own start-up
    errors (before any boggle-cv code) are counted apart and not held against us."""
    rng = random.Random(5)
    init_lines = (root / "boggle_cv" / "__init__.py").read_text(encoding="utf-8").splitlines()
    guard_line = init_lines.index("_guard_start()") + 1 if "_guard_start()" in init_lines else 0
    kinds: dict[str, int] = {}
    handled = 0
    env = {**os.environ, "PYTHONPATH": str(root)}
    code = ("import os, signal, time\nfrom boggle_cv.entry import main\nos.kill(os.getpid(), signal.SIGINT)\n"
            "time.sleep(1)\nmain()\n")
    p = subprocess.run([sys.executable, "-c", code, "solve", BOARD], capture_output=True, text=True, env=env,
                       cwd=tempfile.gettempdir(), timeout=60)
    ok = p.returncode == 130 and p.stderr == "boggle-cv: interrupted\n"
    kinds["between import and main: " + ("one line, 130" if ok else "traceback")] = 1
    handled += ok
    for _ in range(n):
        p2 = subprocess.Popen([sys.executable, "-m", "boggle_cv", "solve", BOARD], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=tempfile.gettempdir())
        delay = rng.uniform(0.0, 0.3)
        time.sleep(delay)
        p2.send_signal(signal.SIGINT)
        _, err = p2.communicate(timeout=60)
        if before_our_code(err):
            kind, good = "Python's own start-up (before boggle-cv)", True
        elif before_the_package_guard(err, guard_line):
            kind, good = "traceback in the package's first two statements (the documented gap)", False
        elif p2.returncode == 130 and err == "boggle-cv: interrupted\n":
            kind, good = "one line, 130", True
        elif p2.returncode == 0:
            kind, good = "finished first", True
        elif p2.returncode == -signal.SIGINT and err == "":
            kind, good = "killed before Python's handler", True
        else:
            kind, good = f"exit {p2.returncode}: {err.strip().splitlines()[-1][:60] if err.strip() else ''}", False
            if verbose:
                print(f"  signals      NOT HANDLED after {delay:.3f} s:\n{err[-3000:]}")
        kinds[kind] = kinds.get(kind, 0) + 1
        handled += good
    if verbose:
        for k, v in kinds.items():
            print(f"  signals      {v:3d} x {k}")
    return n + 1, handled, kinds


# ---- the page -----------------------------------------------------------------------------

def _tree(pid: int) -> list[int]:
    out = [pid]
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return out
    for k in kids:
        out += _tree(int(k))
    return out


def _mem_kb(pid: int, key: str, rollup: bool) -> int:
    try:
        text = Path(f"/proc/{pid}/{'smaps_rollup' if rollup else 'status'}").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


class TreeMemory:
    """Samples the resident (RSS) and proportional (PSS) memory of a process and all its
    descendants every `every_s`; keeps the largest sums."""

    def __init__(self, pid: int, every_s: float = 0.05) -> None:
        self.pid, self.every_s = pid, every_s
        self.rss_mb = self.pss_mb = 0.0
        self.procs = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            pids = _tree(self.pid)
            self.procs = max(self.procs, len(pids))
            self.rss_mb = max(self.rss_mb, sum(_mem_kb(p, "VmRSS", False) for p in pids) / 1024)
            if i % 4 == 0 and Path("/proc/self/smaps_rollup").exists():
                self.pss_mb = max(self.pss_mb, sum(_mem_kb(p, "Pss", True) for p in pids) / 1024)
            i += 1
            self._stop.wait(self.every_s)

    def __enter__(self) -> "TreeMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(port: int, body: bytes, ctype: str = "image/jpeg", timeout: float = 300) -> tuple[int, float]:
    t0 = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("POST", "/api/scan", body=body, headers={"Content-Type": ctype})
    r = c.getresponse()
    r.read()
    c.close()
    return r.status, time.perf_counter() - t0


def make_upload(d: Path, side: int = 3464) -> Path:
    """samples/sample-4x4-a.jpg upscaled to side x side (3464: 12 MP) with sensor-like
    noise, saved as a phone would (JPEG quality 95): a realistic upload of a few MB."""
    import cv2
    import numpy as np
    img = cv2.imread(str(SAMPLE))
    big = cv2.resize(img, (side, side), interpolation=cv2.INTER_CUBIC).astype(np.int16)
    big += np.random.default_rng(0).normal(0, 6, big.shape).astype(np.int16)
    p = d / f"upload_{side}.jpg"
    cv2.imwrite(str(p), big.clip(0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 95])
    return p


def _concurrently(port: int, body: bytes, n: int) -> list[tuple[int, float]]:
    results: list[tuple[int, float]] = []
    lock = threading.Lock()

    def one() -> None:
        r = _post(port, body)
        with lock:
            results.append(r)
    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    return results


def make_slow(d: Path) -> Path:
    """A 12 MP photo of a blurred noisy wall: no board, so every last-resort search of
    the tray finder runs before it is refused (the slowest kind of photo)."""
    import cv2
    import numpy as np
    rng = np.random.default_rng(1)
    wall = cv2.GaussianBlur(rng.normal(150, 30, (3000, 4000, 3)).clip(0, 255).astype(np.uint8), (0, 0), 2)
    p = d / "slow_12mp.jpg"
    cv2.imwrite(str(p), wall, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return p


def slow_first(port: int, slow: bytes, body: bytes, n: int = 5) -> tuple[float, float]:
    """Send the slow photo, then n photos at once: (slow photo's time, worst of the n)."""
    out: list[float] = []
    t = threading.Thread(target=lambda: out.append(_post(port, slow)[1]))
    t.start()
    time.sleep(0.3)
    rest = _concurrently(port, body, n)
    t.join(600)
    return (out[0] if out else float("nan")), max(s for _, s in rest)


def measure_page(root: Path, photo: Path, inp: Inputs | None, n: int = 20, verbose: bool = False,
                 big: Path | None = None, slow: Path | None = None) -> dict[str, Any]:
    """Start `boggle-cv serve` from `root`, upload `photo` n times at once; then (when
    `inp` is given) the hostile page cases. Latencies, statuses, tree memory."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(root)}
    db = Path(tempfile.mkdtemp(prefix="rel-page-")) / "g.db"
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tempfile.gettempdir())
    res: dict[str, Any] = {}
    try:
        end = time.monotonic() + 120
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/api/health")
                if c.getresponse().status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"serve did not start: {proc.stderr.read() if proc.stderr else ''}")
            time.sleep(0.2)
        time.sleep(2)  # workers loading their models
        body = photo.read_bytes()
        _post(port, body)  # warm
        with TreeMemory(proc.pid) as mem:
            t0 = time.perf_counter()
            results = _concurrently(port, body, n)
            wall = time.perf_counter() - t0
        lat = sorted(s for _, s in results)
        res.update(statuses=sorted({st for st, _ in results}), ok=sum(st == 200 for st, _ in results), n=n,
                   median_s=statistics.median(lat), worst_s=lat[-1], wall_s=wall, rss_mb=mem.rss_mb,
                   pss_mb=mem.pss_mb, procs=mem.procs)
        if slow is not None:
            res["slow_first"] = slow_first(port, slow.read_bytes(), body)
        if big is not None:
            with TreeMemory(proc.pid) as mem24:
                r24 = _concurrently(port, big.read_bytes(), 6)
            res["big"] = dict(ok=sum(st == 200 for st, _ in r24), n=len(r24), rss_mb=mem24.rss_mb,
                              pss_mb=mem24.pss_mb, worst_s=max(s for _, s in r24))
        if inp is not None:
            res["hostile"] = page_cases(port, inp, proc.pid, verbose)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(db.parent, ignore_errors=True)
    return res


def page_cases(port: int, inp: Inputs, pid: int, verbose: bool) -> list[tuple[str, bool, str]]:
    """Hostile requests to a running page: (name, handled, detail)."""
    f = inp.files
    out: list[tuple[str, bool, str]] = []

    def record(name: str, good: bool, detail: str) -> None:
        out.append((name, good, detail))
        if verbose:
            print(f"  {'ok ' if good else 'BAD'} page         {name:<40} {detail}", flush=True)

    with TreeMemory(pid) as mem:
        for name, ctype, want in (("bomb16k.webp", "image/webp", 422), ("bomb.bmp", "image/bmp", 422),
                                  ("bomb.tif", "image/tiff", 422), ("bomb.png", "image/png", 422),
                                  ("real64mp.webp", "image/webp", 422), ("bomb.ppm", "image/x-portable-pixmap", 415)):
            if name in f:
                st, s = _post(port, f[name].read_bytes(), ctype)
                record(f"upload {name}", st == want, f"{st} in {s:.1f} s")
        # a request head that never ends, and a body at one byte a second
        heads = []
        for _ in range(20):
            sk = socket.create_connection(("127.0.0.1", port), timeout=30)
            sk.sendall(b"POST /api/scan HTTP/1.1\r\nHost: x\r\n")
            heads.append(sk)
        t0 = time.monotonic()
        closed = 0
        for sk in heads:
            sk.settimeout(max(0.1, 20 - (time.monotonic() - t0)))
            try:
                closed += sk.recv(100) == b""
            except (socket.timeout, ConnectionResetError):
                closed += 0
            sk.close()
        record("20 connections sending half a head", closed == 20, f"{closed} closed within {time.monotonic() - t0:.0f} s")
        sk = socket.create_connection(("127.0.0.1", port), timeout=30)
        sk.sendall(b"POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n")
        t0 = time.monotonic()
        got = b""
        sk.settimeout(1.0)
        while time.monotonic() - t0 < 200 and b"\r\n" not in got:
            try:
                sk.sendall(b"\xff")
                got += sk.recv(100)
            except socket.timeout:
                pass
            except OSError:
                break
        sk.close()
        record("upload at one byte a second", got.startswith(b"HTTP/1.1 408"),
               f"{got[:12].decode(errors='replace')!r} after {time.monotonic() - t0:.0f} s")
        from boggle_cv.web.config import ServeConfig
        per_client = ServeConfig(db_path=Path("x")).max_connections_per_client
        many = []
        for _ in range(per_client + 20):
            try:
                many.append(socket.create_connection(("127.0.0.1", port), timeout=10))
            except OSError:
                break
        time.sleep(0.5)
        refused = 0
        for sk in many:
            sk.settimeout(0.05)
            try:
                refused += sk.recv(12).startswith(b"HTTP/1.1 429")
            except (socket.timeout, OSError):
                pass
        for sk in many:
            sk.close()
        record(f"{per_client + 20} connections from one address", refused == len(many) - per_client,
               f"{refused} answered 429")
    out.append(("memory", True, f"{mem.rss_mb:.0f} MB RSS, {mem.pss_mb:.0f} MB PSS"))
    return out


# ---- report ---------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--areas", default="lists,dictionaries,photos,bombs,databases,outputs,signals,page,room")
    ap.add_argument("--base", type=Path, help="another checkout whose page is timed the same way, side by side")
    ap.add_argument("--uploads", type=int, default=20)
    ap.add_argument("--signals", type=int, default=30)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    areas = set(args.areas.split(","))
    t_start = time.perf_counter()
    d = Path(tempfile.mkdtemp(prefix="boggle-rel-"))
    try:
        inp = make_inputs(d, areas | ({"bombs"} if "page" in areas else set()))
        results = run_cases(cases(inp, areas), REPO, args.verbose)
        print(f"\nboggle-cv reliability report ({REPO.name}, {time.strftime('%Y-%m-%d %H:%M')}, "
              f"{os.cpu_count()} CPUs)")
        print(f"{'area':<13}{'tried':>6}{'handled':>9}   worst peak (scan target {SCAN_TARGET_MB} MB)")
        bad = 0
        for area in ("lists", "dictionaries", "photos", "bombs", "databases", "outputs"):
            rs = [r for r in results if r.case.area == area]
            if not rs:
                continue
            worst = max(rs, key=lambda r: r.outcome.peak_mb)
            h = sum(r.handled for r in rs)
            bad += len(rs) - h
            print(f"{area:<13}{len(rs):>6}{h:>9}   {worst.outcome.peak_mb:5.0f} MB  ({worst.case.name})")
            for r in rs:
                if not r.handled:
                    print(f"{'':13}  NOT HANDLED: {r.case.name}: {r.why}")
        if "signals" in areas:
            tried, handled, kinds = signal_cases(REPO, args.signals, args.verbose)
            bad += tried - handled
            print(f"{'signals':<13}{tried:>6}{handled:>9}   " + "; ".join(f"{v} {k}" for k, v in kinds.items()))
        if "page" in areas:
            photo = make_upload(d)
            big = make_upload(d, 4899)
            slow = make_slow(d)
            mb = photo.stat().st_size / 1e6
            page = measure_page(REPO, photo, inp, args.uploads, args.verbose, big, slow)
            hostile = page.pop("hostile", [])
            handled = sum(g for n, g, _ in hostile if n != "memory")
            tried = sum(1 for n, _, _ in hostile if n != "memory")
            bad += tried - handled + (page["n"] - page["ok"])
            mem = next((det for n, _, det in hostile if n == "memory"), "")
            print(f"{'page':<13}{tried + page['n']:>6}{handled + page['ok']:>9}   "
                  f"hostile requests: {mem}")
            print(f"\npage: {page['n']} concurrent uploads of a 12 MP JPEG ({mb:.1f} MB): {page['ok']} answered 200; "
                  f"latency median {page['median_s']:.1f} s, worst {page['worst_s']:.1f} s (all in {page['wall_s']:.1f} s); "
                  f"server {page['rss_mb']:.0f} MB RSS / {page['pss_mb']:.0f} MB PSS over {page['procs']} processes "
                  f"(target {SERVER_TARGET_MB} MB)")
            b24 = page.get("big")
            if b24:
                bad += b24["n"] - b24["ok"]
                print(f"page: 6 concurrent uploads of a 24 MP JPEG ({big.stat().st_size / 1e6:.1f} MB, decoded at full "
                      f"size): {b24['ok']} answered 200, worst {b24['worst_s']:.1f} s; server {b24['rss_mb']:.0f} MB RSS / "
                      f"{b24['pss_mb']:.0f} MB PSS")
            sf = page.get("slow_first")
            if sf:
                print(f"page: a 12 MP photo without a board sent first ({sf[0]:.1f} s), then 5 photos at once: "
                      f"the 5 done within {sf[1]:.1f} s")
            if args.base:
                b = measure_page(args.base.resolve(), photo, None, args.uploads, False, None, slow)
                print(f"page, {args.base}: {b['ok']}/{b['n']} answered 200; latency median {b['median_s']:.1f} s, "
                      f"worst {b['worst_s']:.1f} s (all in {b['wall_s']:.1f} s); server {b['rss_mb']:.0f} MB RSS / "
                      f"{b['pss_mb']:.0f} MB PSS over {b['procs']} processes")
                bsf = b.get("slow_first")
                if bsf:
                    print(f"page, {args.base}: the photo without a board first ({bsf[0]:.1f} s), then 5 photos: "
                          f"the 5 done within {bsf[1]:.1f} s")
        if "room" in areas:
            from room_hostile import room_cases  # the room's hostile cases
            room = room_cases(REPO, (REPO / "samples" / "sample-4x4-a.jpg").read_bytes(), args.verbose)
            handled = sum(g for _, g, _ in room)
            bad += len(room) - handled
            print(f"{'room':<13}{len(room):>6}{handled:>9}")
            for name, good, detail in room:
                if not good:
                    print(f"{'':13}  NOT HANDLED: {name}: {detail}")
        scan_peaks = [r.outcome.peak_mb for r in results if r.case.scan]
        if scan_peaks:
            print(f"\nworst scan peak: {max(scan_peaks):.0f} MB (target {SCAN_TARGET_MB} MB); "
                  f"{'every case handled' if not bad else f'{bad} case(s) NOT handled'}; "
                  f"{time.perf_counter() - t_start:.0f} s in all")
        return 1 if bad else 0
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
