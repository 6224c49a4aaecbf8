"""`boggle-cv db copy SRC DEST`: a games database moved from a SQLite file to
PostgreSQL and back, every row kept (games and standings, rooms with their photos and
word images, practice rounds, the key of the page's deals), new rows numbered after
the copied ones; a destination that holds rows, or one that is the source, is
refused (exit 2) untouched. The PostgreSQL cases skip without $BOGGLE_CV_TEST_PG."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from boggle_cv.store import database as store
from boggle_cv.practice import record
from boggle_cv.practice.record import PracticeRound
from boggle_cv.room.db import RoomDB
from boggle_cv.room.model import Room, Settings, new_code, token_hash

REPO = Path(__file__).resolve().parents[2]
BOARD = "PERS/LATG/SINE/TERS"


def _run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def _fill(db) -> str:
    store.save_round(db, "friday", BOARD, {"ann": 7, "bob": 3}, {"ann": [{"word": "pert"}]}, {"r": 1})
    store.save_round(db, "friday", BOARD, {"ann": 1, "bob": 9}, {}, {"r": 2}, photo="t.jpg", lang="fr")
    room = Room(new_code(), "friday", token_hash("t"), time.time(), Settings())
    assert RoomDB(db).create(room)

    def keep(r: Room, conn) -> None:
        RoomDB.put_photo(conn, r.code, 1, 2, b"\xff\xd8jpeg\x00bytes")
        RoomDB.put_word_image(conn, "img1", r.code, 1, "p1", b"RIFF\x00webp")
    RoomDB(db).update(room.code, keep)
    for score in (5, 12):
        record.save(db, PracticeRound("ann", 4, "en", 180, "shake", BOARD, score, 100, 3, 40, {"s": score},
                                      "modern-4", f"deal-{score}", 1000.0 + score))
    record.deal_secret(db)
    return room.code


def _contents(db, code: str) -> dict:
    room = RoomDB(db).load(code)
    return {"games": store.list_games(db), "standings": store.standings(db, "friday").to_dict(),
            "room": room.to_dict() if room else None, "photo": RoomDB(db).photo(code, 1),
            "images": RoomDB(db).word_images(code, ["img1"]),
            "practice": [r.to_dict() for r in record.history(db)], "report": record.report(db, 2),
            "secret": record.deal_secret(db)}


def test_sqlite_to_postgresql_and_back_keeps_every_row(tmp_path, pg_db):
    src = tmp_path / "laptop.sqlite3"
    code = _fill(src)
    before = _contents(src, code)
    out = _run("db", "copy", src, pg_db.url)
    assert out.returncode == 0, out.stderr
    assert "copied 1 game, 2 rounds, 4 players' scores, 1 room, 1 room photo, 1 word image, " \
           "2 practice rounds into postgresql://" in out.stderr
    assert _contents(pg_db, code) == before
    back = tmp_path / "back.sqlite3"
    out = _run("db", "copy", pg_db.url, back)
    assert out.returncode == 0, out.stderr
    assert _contents(back, code) == before
    # new rows are numbered after the copied ones, on both
    for db in (pg_db, back):
        assert store.save_round(db, "friday", BOARD, {"ann": 1}, {}, {}) == 3
        stored, _, new = record.save(db, PracticeRound("ann", 4, "en", 180, "shake", BOARD, 1, 100, 1, 40))
        assert new and stored.id == 3


def test_a_destination_with_rows_or_the_source_itself_is_refused_untouched(tmp_path):
    src, dest = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    code = _fill(src)
    store.save_round(dest, "saturday", BOARD, {"cy": 2}, {}, {})
    before = dest.read_bytes()
    out = _run("db", "copy", src, dest)
    assert out.returncode == 2 and "already holds games" in out.stderr and "Traceback" not in out.stderr
    assert dest.read_bytes() == before
    out = _run("db", "copy", src, src)
    assert out.returncode == 2 and "both the source and the destination" in out.stderr
    out = _run("db", "copy", src, "mysql://x/y")
    assert out.returncode == 2 and "DEST mysql://" in out.stderr
    out = _run("db", "copy", tmp_path / "none.sqlite3", tmp_path / "c.sqlite3")
    assert out.returncode == 7 and "no games database" in out.stderr
    assert not (tmp_path / "c.sqlite3").exists()
    fresh = tmp_path / "c.sqlite3"
    assert _run("db", "copy", src, fresh).returncode == 0
    assert _contents(fresh, code) == _contents(src, code)
