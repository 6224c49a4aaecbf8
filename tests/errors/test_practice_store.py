"""The practice record under attack: two processes writing at once, a process killed
in the middle of a write (at a chosen moment and at random ones), a locked
database, a full disk, a damaged or foreign file, a read-only one, Ctrl-C in a
round, a flood of typed words. Each ends with one line and a documented exit code
(docs/errors.md), and the record keeps every round stored before (SQLite's
integrity check passes)."""
from __future__ import annotations

import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from child_sigint import RESTORED

from boggle_cv.practice import record
from boggle_cv.practice.record import PracticeRound

from .conftest import REPO, one_error_line

BOARD = "PERS/LATG/SINE/TERS"

# A child that stores rounds: argv = repo, db, first score, how many, [pause]. With
# "pause" it stops inside the transaction of its last round (after the insert,
# before the commit), says so in db + ".inside", and waits to be killed.
_WRITER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from boggle_cv.practice import record
from boggle_cv.practice.record import PracticeRound
db, first, count = Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
pause = len(sys.argv) > 5
real = record._rounds_of
for i in range(count):
    if pause and i == count - 1:
        def stuck(*a, **k):
            Path(str(db) + ".inside").write_text("1")
            time.sleep(600)
        record._rounds_of = stuck
    record.save(db, PracticeRound("ann", 4, "en", 180, "shake", "PERS/LATG/SINE/TERS", first + i, 4165, 1, 1202,
                                  {"words": ["x" * 50] * 200}, "modern-4"))
    print(first + i, flush=True)
"""


def env_for(db: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.pop("BOGGLE_CV_DEBUG", None)
    e.update({"BOGGLE_CV_DB": str(db), **extra})
    return e


def practice(db: Path, *args, stdin: str = "pert\nlast\n", timeout: float = 120, prefix: list[str] | None = None):
    return subprocess.run([*(prefix or []), sys.executable, "-m", "boggle_cv", "practice", *map(str, args)],
                          capture_output=True, text=True, input=stdin, env=env_for(db), timeout=timeout)


def writer(db: Path, first: int, count: int, pause: bool = False) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _WRITER, str(REPO), str(db), str(first), str(count),
                             *(["pause"] if pause else [])], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def scores(db: Path) -> list[int]:
    rec = record.record(db, "ann", 4, "en", 180)
    return [] if rec is None else [r.score for r in rec.rounds]


def intact(db: Path) -> bool:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


def seed_rounds(db: Path, values: list[int]) -> None:
    for v in values:
        record.save(db, PracticeRound("ann", 4, "en", 180, "shake", BOARD, v, 4165, 1, 1202, {}, "modern-4"))


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    db = tmp_path / "g.db"
    seed_rounds(db, [0])  # the database exists: the writers race on rounds, not on its creation
    procs = [writer(db, 1000 * k, 25) for k in range(1, 5)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    got = scores(db)
    assert sorted(got) == sorted([0] + [1000 * k + i for k in range(1, 5) for i in range(25)])
    assert intact(db)


def test_two_practice_commands_at_once_are_both_recorded(tmp_path):
    db = tmp_path / "g.db"
    procs = [subprocess.Popen([sys.executable, "-m", "boggle_cv", "practice", "--seed", str(s), "--name", "ann"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env_for(db)) for s in (1, 2)]
    for p in procs:
        out, err = p.communicate("tea eat ate tale\n", timeout=180)
        assert p.returncode == 0, err
    rec = record.record(db, "ann", 4, "en", 180)
    assert rec is not None and len(rec.rounds) == 2 and intact(db)


def test_a_kill_inside_the_write_keeps_the_earlier_rounds(tmp_path):
    """SIGKILL after the insert and before the commit: the database stays valid, the
    three rounds before are kept, the killed one is not there, and the next write works."""
    db = tmp_path / "g.db"
    p = writer(db, 1, 4, pause=True)
    marker = Path(str(db) + ".inside")
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert p.poll() is None, p.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    assert intact(db)
    assert scores(db) == [1, 2, 3]
    seed_rounds(db, [9])
    assert scores(db) == [1, 2, 3, 9] and intact(db)


def test_kills_at_random_moments_never_lose_a_stored_round(tmp_path):
    """A writer killed at random moments, five times (a fixed seed: the same moments
    on every run): each time the database is valid and holds every round it held."""
    db = tmp_path / "g.db"
    rng = random.Random(34)
    kept: list[int] = []
    for attempt in range(5):
        p = writer(db, 1000 * attempt, 10_000)
        time.sleep(0.3 + rng.random() * 0.7)  # it has started writing (a cold start is about 0.3 s)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
        assert intact(db)
        now = scores(db)
        assert now[:len(kept)] == kept
        kept = now
    assert len(kept) > 0


def test_a_locked_database_is_one_line_and_the_round_is_shown(tmp_path):
    db = tmp_path / "g.db"
    seed_rounds(db, [7, 8])
    locker = sqlite3.connect(db, timeout=0.1, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        out = practice(db, "--seed", "3", "--name", "ann")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    one_error_line(out, 7, "is locked by another program")
    assert "This round was NOT recorded" in out.stdout and "ann: " in out.stdout
    assert scores(db) == [7, 8] and intact(db)


_FSIZE = """
import resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # a larger file: EFBIG, as on a full disk
sys.exit(subprocess.run(sys.argv[1:]).returncode)
"""


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="POSIX only")
def test_a_full_disk_is_one_line_and_keeps_the_record(tmp_path):
    db = tmp_path / "g.db"
    seed_rounds(db, [4, 5])
    before = db.read_bytes()
    out = practice(db, "--seed", "3", "--name", "ann", prefix=[sys.executable, "-c", _FSIZE])
    line = one_error_line(out, 7)
    assert "full" in line or "disk" in line or "write" in line, line
    assert scores(db) == [4, 5] and intact(db)
    assert db.read_bytes()[:100] == before[:100]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign", "zeroed-header"])
def test_a_damaged_or_foreign_file_is_refused_before_the_round_untouched(tmp_path, damage):
    db = tmp_path / "g.db"
    seed_rounds(db, list(range(30)))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = db.read_bytes()
    if damage == "garbage":
        db.write_bytes(os.urandom(len(data)))
    elif damage == "truncated":
        db.write_bytes(data[:len(data) // 3])
    elif damage == "zeroed-header":
        db.write_bytes(b"\0" * 100 + data[100:])
    else:
        db.unlink()
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE photos (x)")
        conn.commit()
        conn.close()
    before = db.read_bytes()
    out = practice(db, "--seed", "3")
    line = one_error_line(out, 7)
    assert any(w in line for w in ("damaged", "not a boggle-cv games database", "malformed")), line
    assert "Practice:" not in out.stderr  # refused before the player plays
    assert db.read_bytes() == before
    hist = practice(db, "--history")
    one_error_line(hist, 7)


# The command as another user (when the tests run as root, who can write anywhere):
# everything it needs is loaded first, by running the same command once as root on a
# copy of the database with its output thrown away (the interpreter's own files may be
# where that user cannot read: a Python under /root), then the user changes, then the
# command runs for real.
_AS_NOBODY = """
import contextlib, io, os, shutil, sys, tempfile
sys.path.insert(0, sys.argv[1])
import boggle_cv.cli
args = ["boggle-cv", "practice", *sys.argv[2:]]
if os.getuid() == 0:
    real = os.environ["BOGGLE_CV_DB"]
    with tempfile.TemporaryDirectory() as warm:
        os.environ["BOGGLE_CV_DB"] = os.path.join(warm, "warm.db")
        shutil.copy(real, os.environ["BOGGLE_CV_DB"])
        stdin, sys.stdin, sys.argv = sys.stdin, io.StringIO("pert\\n"), list(args)
        with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            try:
                boggle_cv.cli.main()
            except SystemExit:
                pass
        sys.stdin = stdin
        os.environ["BOGGLE_CV_DB"] = real
    os.setgid(65534)
    os.setuid(65534)
sys.argv = args
boggle_cv.cli.main()
"""


@pytest.mark.skipif(not hasattr(os, "setuid"), reason="POSIX permissions")
def test_a_read_only_database_shows_the_record_and_refuses_the_round():
    """The file and its folder read-only (as on a read-only mount; as another user
    when the tests run as root): --history reads it; a round is one line, exit 7,
    the record unchanged."""
    import shutil
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="boggle-practice-ro-"))
    folder.chmod(0o755)
    db = folder / "g.db"
    seed_rounds(db, [6])
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")  # readable without a -shm file
    conn.close()
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        def as_nobody(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-c", _AS_NOBODY, str(REPO), *args], capture_output=True,
                                  text=True, env={**env_for(db), "HOME": str(folder)}, timeout=120, input=stdin)
        hist = as_nobody("--history", "--name", "ann")
        assert hist.returncode == 0, hist.stderr
        assert "ann, 4x4 English, 3:00: 1 round, best 6" in hist.stdout
        out = as_nobody("--seed", "3", "--name", "ann", stdin="pert last\n")
        one_error_line(out, 7, "cannot write")
        assert "NOT recorded" in out.stdout
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    assert scores(db) == [6]
    shutil.rmtree(folder)


def test_ctrl_c_in_a_round_records_nothing(tmp_path):
    db = tmp_path / "g.db"
    seed_rounds(db, [3])
    p = subprocess.Popen([sys.executable, "-m", "boggle_cv", "practice", "--seed", "2", "--name", "ann"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env_for(db), **RESTORED)
    p.stdin.write("pert\n")
    p.stdin.flush()
    deadline = time.monotonic() + 120
    err = ""
    while "Practice:" not in err:  # the round is on (the board is shown)
        assert time.monotonic() < deadline and p.poll() is None
        err += os.read(p.stderr.fileno(), 4096).decode()
    p.send_signal(signal.SIGINT)
    out, rest = p.communicate(timeout=60)
    assert p.returncode == 130 and (err + rest).strip().endswith("boggle-cv: interrupted")
    assert "Traceback" not in err + rest and out == ""
    assert scores(db) == [3] and intact(db)


def test_a_flood_of_typed_words_is_bounded(tmp_path):
    """6 MB piped in: the round reads at most 1 MiB, counts the first 2,000 words, and
    is recorded; one line of 1 MB keeps its first 4 KB."""
    db = tmp_path / "g.db"
    out = practice(db, "--seed", "2", "--name", "ann", "--json", stdin="tea eat ate\n" * 500_000)
    assert out.returncode == 0, out.stderr[-500:]
    assert "the first 2,000 count" in out.stderr
    import json
    doc = json.loads(out.stdout)
    assert len(doc["round"]["players"][0]["words"]) == 2000 and doc["stored"]
    out = practice(db, "--seed", "2", "--name", "ann", "--json", stdin="tea " * 250_000)
    assert out.returncode == 0, out.stderr[-500:]
    assert len(json.loads(out.stdout)["round"]["players"][0]["words"]) == 4096 // 4
