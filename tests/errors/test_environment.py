"""Environment failures: engines and models, output files, the games database, Ctrl-C."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from child_sigint import RESTORED

from boggle_cv.files import outputs
from boggle_cv.store import database as store
from boggle_cv.errors import OutputError, StorageError

from .conftest import BOARD, needs_model, one_error_line, run


# --- engines and models -------------------------------------------------------------------

def test_tesseract_missing_exit_3(tmp_path, small_photo):
    """PATH without tesseract: `--engine tesseract` (and both) exit 3 saying what to install."""
    env = {"PATH": str(tmp_path)}  # an empty folder: no tesseract on it
    one_error_line(run("scan", small_photo[".jpg"], "--engine", "tesseract", env=env), 3,
                   "tesseract is not installed", "apt-get install tesseract-ocr")


def _model_env(tmp_path, onnx: bytes | None, sha: str | None) -> dict:
    m = tmp_path / "reader.onnx"
    if onnx is not None:
        m.write_bytes(onnx)
    if sha is not None:
        (tmp_path / "reader.onnx.sha256").write_text(sha + "  reader.onnx\n")
    return {"BOGGLE_CV_MODEL": str(m)}


def test_model_missing_exit_3(tmp_path, small_photo):
    one_error_line(run("scan", small_photo[".jpg"], env=_model_env(tmp_path, None, None)), 3,
                   "reader model not found")


def test_model_hash_missing_exit_3(tmp_path, small_photo):
    one_error_line(run("scan", small_photo[".jpg"], env=_model_env(tmp_path, b"x" * 100, None)), 3,
                   "hash not found")


def test_model_error_is_printed_while_a_big_photo_still_decodes(tmp_path):
    """The first photo decodes on a thread (with fd 2 silenced) while the models load:
    a model error found first must still be one line on stderr, exit 3, never lost
    or a crash (before: no line, or exit 134 as the process ended inside the decoder)."""
    import cv2
    import numpy as np
    photo = tmp_path / "big.jpg"
    noise = np.random.default_rng(3).integers(0, 256, (3000, 4000, 3), dtype=np.uint8)
    cv2.imwrite(str(photo), noise, [cv2.IMWRITE_JPEG_QUALITY, 95])
    env = _model_env(tmp_path, b"x" * 100, None)
    for _ in range(3):
        one_error_line(run("scan", photo, env=env), 3, "hash not found")


def test_model_corrupt_exit_3(tmp_path, small_photo):
    """Bytes changed after the hash was written: SHA-256 mismatch, exit 3."""
    import hashlib
    good = b"\x08\x07" + bytes(200)
    env = _model_env(tmp_path, good[:-1] + b"\x01", hashlib.sha256(good).hexdigest())
    one_error_line(run("scan", small_photo[".jpg"], env=env), 3, "corrupt")


def test_model_not_onnx_exit_3(tmp_path, small_photo):
    """A file whose hash matches but is not an ONNX network: cv2.dnn refuses, exit 3."""
    import hashlib
    junk = b"this is not a network\n" * 20
    env = _model_env(tmp_path, junk, hashlib.sha256(junk).hexdigest())
    one_error_line(run("scan", small_photo[".jpg"], env=env), 3, "cannot be loaded")


@pytest.mark.parametrize("args, code", [(["--debug", "solve", "AB/CD"], 2),
                                         (["scan", "no-such.jpg", "--debug"], 4)])
def test_debug_shows_the_traceback_and_keeps_the_exit_code(tmp_path, args, code):
    """--debug, anywhere on the command line: the traceback, then the error's one line,
    and the documented exit code (not 1)."""
    out = run(*args, cwd=tmp_path)
    assert out.returncode == code, out.stderr
    assert "Traceback" in out.stderr
    assert out.stderr.splitlines()[-1].startswith("boggle-cv: error: ")


# --- output files ---------------------------------------------------------------------------

@pytest.mark.parametrize("make_path, fragment", [
    (lambda d: d / "no-such-folder" / "out.png", "No such file"),
    (lambda d: d / "a-file.txt" / "out.png", "Not a directory"),
    (lambda d: d / "folder.png", "it is a folder"),
    (lambda d: d, "it is a folder"),
    (lambda d: d / "out.gif", "unknown image type"),
])
def test_unwritable_image_path(tmp_path, make_path, fragment):
    (tmp_path / "a-file.txt").write_text("x")
    (tmp_path / "folder.png").mkdir()
    import numpy as np
    with pytest.raises(OutputError) as e:
        outputs.write_image_atomic(make_path(tmp_path), np.zeros((8, 8, 3), np.uint8))
    assert fragment in e.value.one_line() and e.value.exit_code == 7


def test_interrupted_write_leaves_nothing(tmp_path, monkeypatch):
    """Ctrl-C while the bytes are being written: no destination file, no .part file."""
    def boom(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        outputs.write_bytes_atomic(tmp_path / "out.png", b"x" * 1_000_000)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    dest = tmp_path / "out.png"
    dest.write_bytes(b"old")

    def fail(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OutputError, match="No space left"):
        outputs.write_bytes_atomic(dest, b"new" * 1000)
    assert dest.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["out.png"]


@needs_model
def test_unwritable_annotate_path_cli(tmp_path, small_photo, tray_ready):
    one_error_line(run("scan", small_photo[".jpg"], "--annotate", tmp_path / "nope" / "a.png"), 7, "cannot write")


@pytest.mark.parametrize("command", [["scan", "SAMPLES/sample-4x4-a.jpg"], ["sheet", "SAMPLES/sheets/sheet-4x4-a.jpg"],
                                     ["practice", "--photo", "SAMPLES/sample-4x4-a.jpg",
                                      "--words", "SAMPLES/sample-4x4-a.alice.txt"]])
def test_annotate_onto_a_folder_says_it_is_a_folder(tmp_path, command):
    """`--annotate FOLDER`: exit 7, the line says it is a folder (not `unknown image type`)."""
    samples = str(Path(__file__).resolve().parents[2] / "samples")
    args = [a.replace("SAMPLES", samples) for a in command]
    out = run(*args, "--annotate", tmp_path, "--db", tmp_path / "g.sqlite3") if command[0] == "practice" \
        else run(*args, "--annotate", tmp_path)
    line = one_error_line(out, 7, "it is a folder", "give a file name")
    assert "unknown image type" not in line


# --- the games database -------------------------------------------------------------------------

def test_unwritable_database(tmp_path, small_photo):
    (tmp_path / "a-file").write_text("x")
    one_error_line(run("scan", small_photo[".jpg"], "--board", BOARD, "--game", "g",
                       "--db", tmp_path / "a-file" / "games.sqlite3"), 7, "cannot create games database")
    one_error_line(run("scan", small_photo[".jpg"], "--board", BOARD, "--game", "g", "--db", tmp_path), 7,
                   "is a directory")


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_database(tmp_path, small_photo, damage):
    db = tmp_path / "games.sqlite3"
    if damage == "garbage":
        db.write_bytes(b"not a database" * 500)
    else:
        for i in range(30):
            store.save_round(db, "g", BOARD, {"ann": i}, {"ann": []}, {"pad": "x" * 3000})
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        data = db.read_bytes()
        db.write_bytes(data[:4096] + b"\xa5" * (len(data) - 4096))  # keep the header, scramble the rest
    for cmd in (("scan", small_photo[".jpg"], "--board", BOARD, "--game", "g", "--db", db),
                ("standings", "g", "--db", db)):
        one_error_line(run(*cmd), 7, "database")


def test_locked_database(tmp_path, monkeypatch):
    """Another program holds the write lock: exit 7 'locked' after the busy timeout, nothing stored."""
    db = tmp_path / "games.sqlite3"
    store.save_round(db, "g", BOARD, {"ann": 1}, {"ann": []}, {})
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.2)
    try:
        with pytest.raises(StorageError) as e:
            store.save_round(db, "g", BOARD, {"ann": 5}, {"ann": []}, {})
        assert "locked" in e.value.one_line() and e.value.exit_code == 7
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.standings(db, "g").rounds == 1


def test_interrupted_round_is_not_stored(tmp_path, monkeypatch):
    """Ctrl-C between the round's rows: the transaction is rolled back."""
    db = tmp_path / "games.sqlite3"
    store.save_round(db, "g", BOARD, {"ann": 1}, {"ann": []}, {})
    real = store.json.dumps
    calls = {"n": 0}

    def dumps(*a, **k):
        calls["n"] += 1
        if calls["n"] == 3:  # after the round row, during the players' rows
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(store.json, "dumps", dumps)
    with pytest.raises(KeyboardInterrupt):
        store.save_round(db, "g", BOARD, {"ann": 5, "bob": 6}, {"ann": [], "bob": []}, {})
    monkeypatch.setattr(store.json, "dumps", real)
    s = store.standings(db, "g")
    assert s.rounds == 1 and [p.total for p in s.players] == [1]


# --- Ctrl-C -------------------------------------------------------------------------------------

def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _interrupt_when(proc, ready, limit_s: float = 60) -> None:
    t0 = time.monotonic()
    while proc.poll() is None and not ready() and time.monotonic() - t0 < limit_s:
        time.sleep(0.05)
    assert proc.poll() is None, "finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)


def _check_interrupted(proc, folder: Path, before: set) -> None:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines == ["boggle-cv: interrupted"], err
    assert out == ""
    assert {p.name for p in folder.iterdir()} == before  # no output, no .part, no database


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_ctrl_c_while_loading_a_big_dictionary(tmp_path, small_photo):
    """SIGINT mid-scan (building a 300k-word --dict, near the graph limit): exit 130,
    one line, nothing written."""
    import random
    rng = random.Random(3)
    (tmp_path / "big-dict.txt").write_text("\n".join(
        "".join(rng.choice("abcdefghijklmnoprstuvwy") for _ in range(rng.randint(5, 6))) for _ in range(300_000)))
    before = {p.name for p in tmp_path.iterdir()}
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "scan", str(small_photo[".jpg"]), "--board", BOARD,
                             "--dict", str(tmp_path / "big-dict.txt"), "--game", "g",
                             "--db", str(tmp_path / "games.sqlite3"), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **RESTORED)
    _interrupt_when(proc, lambda: _rss_mb(proc.pid) > 150)  # imports done, building the graph
    _check_interrupted(proc, tmp_path, before)


def test_ctrl_c_while_reading_cubes(tmp_path, small_photo, tray_ready):
    """SIGINT while tesseract reads the cubes: exit 130, one line, no --annotate file, no round."""
    import shutil
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed")
    before = {p.name for p in tmp_path.iterdir()}
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "scan", str(small_photo[".jpg"]),
                             "--engine", "tesseract", "--annotate", str(tmp_path / "out.png"), "--game", "g",
                             "--db", str(tmp_path / "games.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **RESTORED)

    def tesseract_running() -> bool:
        kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        return kids.exists() and kids.read_text().strip() != ""
    _interrupt_when(proc, tesseract_running)
    _check_interrupted(proc, tmp_path, before)
