"""Rooms kept in SQLite, in the games database file (`--db`), so that a restarted
server resumes every room and its current round.

Each room is one JSON document (room.model.Room) in table ``rooms``; a round's
photo preview is a BLOB in ``room_photos``. Every change is one transaction that
reads the room, applies the change and writes it back with its version bumped
(``BEGIN IMMEDIATE``: two servers or threads never interleave a change). Scoring
writes the games database's round and the room in the same transaction, so a
round is stored exactly once however often the host taps "score" or a crash
interrupts.
"""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import StorageError
from .model import Room

BUSY_TIMEOUT_S = 10.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS room_photos (
    code TEXT NOT NULL,
    round INTEGER NOT NULL,
    version INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (code, round)
);
"""
T = TypeVar("T")


class RoomDB:
    """The rooms of one database file. Connections are opened per operation (no
    state shared between threads)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._ready = False

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            if not self._ready:
                from .. import store
                conn.execute("PRAGMA journal_mode = WAL")
                conn.executescript(_SCHEMA)
                store.ensure_schema(conn)  # a scored round goes into the games tables
                self._ready = True
            return conn
        except sqlite3.DatabaseError as e:
            raise StorageError(f"cannot use the rooms in {self.path}: {e}",
                               "check the file is a boggle-cv database and is writable") from None
        except OSError as e:
            raise StorageError(f"cannot open {self.path}: {e.strerror or e}", "choose a writable --db") from None

    def _run(self, what: str, fn: Callable[[sqlite3.Connection], T], write: bool) -> T:
        conn = self._connect()
        try:
            if write:
                conn.execute("BEGIN IMMEDIATE")
            out = fn(conn)
            if write:
                conn.execute("COMMIT")
            return out
        except sqlite3.OperationalError as e:
            _rollback(conn, write)
            if "locked" in str(e) or "busy" in str(e):
                raise StorageError(f"the database {self.path} is busy", "try again in a moment") from None
            raise StorageError(f"cannot {what} in {self.path}: {e}", "check the file is writable") from None
        except sqlite3.DatabaseError as e:
            _rollback(conn, write)
            raise StorageError(f"cannot {what} in {self.path}: {e}", "move the file aside") from None
        except BaseException:
            _rollback(conn, write)
            raise
        finally:
            conn.close()

    def create(self, room: Room) -> bool:
        """Insert a new room; False if its code is taken (the caller picks another)."""
        def insert(conn: sqlite3.Connection) -> bool:
            if conn.execute("SELECT 1 FROM rooms WHERE code = ?", (room.code,)).fetchone():
                return False
            now = time.time()
            conn.execute("INSERT INTO rooms(code, doc, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                         (room.code, json.dumps(room.to_dict()), room.version, now, now))
            return True
        return self._run("create a room", insert, write=True)

    def load(self, code: str) -> Room | None:
        def read(conn: sqlite3.Connection) -> Room | None:
            row = conn.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
            return Room.from_dict(json.loads(row[0])) if row else None
        return self._run("read a room", read, write=False)

    def count(self) -> int:
        return int(self._run("count rooms", lambda c: c.execute("SELECT COUNT(*) FROM rooms").fetchone()[0], False))

    def update(self, code: str, change: Callable[[Room, sqlite3.Connection], T]) -> tuple[Room, T]:
        """Apply change(room, conn) in one transaction and store the room with its
        version bumped; (room, what change returned). The change may raise to
        abort (nothing is written) and may write other tables through conn."""
        def apply(conn: sqlite3.Connection) -> tuple[Room, T]:
            row = conn.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None:
                raise LookupError(code)
            room = Room.from_dict(json.loads(row[0]))
            out = change(room, conn)
            room.version += 1
            conn.execute("UPDATE rooms SET doc = ?, version = ?, updated_at = ? WHERE code = ?",
                         (json.dumps(room.to_dict()), room.version, time.time(), code))
            return room, out
        return self._run("change a room", apply, write=True)

    @staticmethod
    def put_photo(conn: sqlite3.Connection, code: str, round_number: int, version: int, jpeg: bytes) -> None:
        """Store a round's photo preview (inside an update's transaction)."""
        conn.execute("INSERT OR REPLACE INTO room_photos(code, round, version, jpeg) VALUES (?, ?, ?, ?)",
                     (code, round_number, version, jpeg))

    def photo(self, code: str, round_number: int) -> tuple[int, bytes] | None:
        def read(conn: sqlite3.Connection) -> tuple[int, bytes] | None:
            row = conn.execute("SELECT version, jpeg FROM room_photos WHERE code = ? AND round = ?",
                               (code, round_number)).fetchone()
            return (int(row[0]), bytes(row[1])) if row else None
        return self._run("read a photo", read, write=False)


def _rollback(conn: sqlite3.Connection, write: bool) -> None:
    if write:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
