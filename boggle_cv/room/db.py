"""Rooms kept in the games database (`--db`: a SQLite file or a PostgreSQL
database), so that a restarted server resumes every room and its current round, and
every server process of one database sees the same rooms.

Each room is one JSON document (room.model.Room) in table ``rooms``; a round's
photo preview is a BLOB in ``room_photos``, the handwriting of each word a sheet
photo added (a small WebP, by a random id that the room's document names) a BLOB in
``room_word_images`` (the tables are part of the games
database's schema, boggle_cv.store.database, which opens, creates and migrates the file). Every change is one transaction that
reads the room, applies the change and writes it back with its version bumped
(SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock on the room's code: two
servers or threads never interleave a change). Scoring
writes the games database's round and the room in the same transaction, so a
round is stored exactly once however often the host taps "score" or a crash
interrupts.

Rooms expire: a room without a change for the server's idle time is deleted with its
photos and word images whenever a room is created (inside that transaction, before the live rooms
are counted against the cap); the rounds it scored stay in the games tables.
"""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import TypeVar, cast

from ..store import database as store
from ..errors import LimitReached, StorageError
from ..store.sql import Conn, DbLocation, as_location, notify
from .model import Room


T = TypeVar("T")

#: The channel on which a committed change of a room is announced to every server
#: process of the database (PostgreSQL's LISTEN/NOTIFY): "CODE VERSION", no data.
ROOMS_CHANNEL = "boggle_cv_rooms"


class Unchanged(Exception):
    """Raised by a change given to RoomDB.update that finds nothing to do once it holds
    the room: nothing is written (no version bump, no notice); update returns the room
    as stored and `value`."""

    def __init__(self, value: object = None) -> None:
        super().__init__("unchanged")
        self.value = value


class RoomDB:
    """The rooms of one database file. Connections are opened per operation (no
    state shared between threads)."""

    def __init__(self, path: DbLocation | str) -> None:
        self.path = as_location(path)

    def _run(self, what: str, fn: Callable[[Conn], T], write: bool, empty: Callable[[], T] | None = None,
             lock: str = "rooms") -> T:
        """fn(conn) in one transaction (write: store.write_transaction, with the schema
        brought up to date first and, on PostgreSQL, the advisory lock `lock` held);
        a read of a database without tables answers empty()."""
        if write:
            return store.write_transaction(self.path, fn, lambda e, opening: None if opening else self._error(what, e),
                                           lock=lock)
        return store.read_transaction(self.path, fn, empty or (lambda: fn(_NoTables())), lambda e: self._error(what, e))

    def _error(self, what: str, e: sqlite3.Error) -> StorageError | None:
        """What SQLite refused, as the room's StorageError (None: not a database error)."""
        if isinstance(e, sqlite3.OperationalError):
            if "locked" in str(e) or "busy" in str(e):
                return StorageError(f"the database {self.path} is busy", "try again in a moment", code="storage.busy")
            return StorageError(f"cannot {what} in {self.path}: {e}", "check the file is writable")
        if isinstance(e, sqlite3.DatabaseError):
            return StorageError(f"cannot {what} in {self.path}: {e}", "move the file aside")
        return None

    def create(self, room: Room, max_rooms: int | None = None, idle_s: float | None = None) -> bool:
        """Insert a new room; False if its code is taken (the caller picks another).

        In the same transaction, first: rooms without a change for idle_s seconds are
        deleted (sweep), then the live rooms are counted and LimitReached is raised
        when there are max_rooms already (two servers or threads cannot both pass)."""
        def insert(conn: Conn) -> bool:
            now = time.time()
            if idle_s is not None:
                _sweep(conn, now - idle_s)
            if max_rooms is not None:
                row = conn.execute("SELECT COUNT(*) FROM rooms").fetchone()
                if row is not None and int(row[0]) >= max_rooms:
                    raise LimitReached(f"this server already holds {max_rooms} rooms",
                                       "wait until one is idle for a day, or ask whoever runs it to start "
                                       "a fresh database with --db", code="server.rooms_full",
                                       params={"max": max_rooms})
            if conn.execute("SELECT 1 FROM rooms WHERE code = ?", (room.code,)).fetchone():
                return False
            conn.execute("INSERT INTO rooms(code, doc, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                         (room.code, json.dumps(room.to_dict()), room.version, now, now))
            return True
        return self._run("create a room", insert, write=True)

    def load(self, code: str) -> Room | None:
        def read(conn: Conn) -> Room | None:
            row = conn.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
            return Room.from_dict(json.loads(row[0])) if row else None
        return self._run("read a room", read, write=False)

    def sweep(self, idle_s: float, now: float | None = None) -> int:
        """Delete the rooms without a change for idle_s seconds (at `now`, Unix seconds)
        with their photos; how many. Their scored rounds stay in the games tables."""
        return self._run("delete idle rooms", lambda conn: _sweep(conn, (now or time.time()) - idle_s), write=True)

    def count(self) -> int:
        def rows(conn: Conn) -> int:
            row = conn.execute("SELECT COUNT(*) FROM rooms").fetchone()
            return int(row[0]) if row else 0
        return self._run("count rooms", rows, write=False)

    def update(self, code: str, change: Callable[[Room, Conn], T]) -> tuple[Room, T]:
        """Apply change(room, conn) in one transaction and store the room with its
        version bumped (announced on ROOMS_CHANNEL at the commit); (room, what change returned). The change may raise to
        abort (nothing is written; Unchanged: nothing to do, the room returned as it
        is) and may write other tables through conn."""
        def apply(conn: Conn) -> tuple[Room, T]:
            row = conn.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None:
                raise LookupError(code)
            room = Room.from_dict(json.loads(row[0]))
            try:
                out = change(room, conn)
            except Unchanged as nothing:
                return Room.from_dict(json.loads(row[0])), cast(T, nothing.value)
            room.version += 1
            conn.execute("UPDATE rooms SET doc = ?, version = ?, updated_at = ? WHERE code = ?",
                         (json.dumps(room.to_dict()), room.version, time.time(), code))
            notify(conn, ROOMS_CHANNEL, f"{code} {room.version}")
            return room, out
        return self._run("change a room", apply, write=True, lock=f"room:{code}")

    @staticmethod
    def put_photo(conn: Conn, code: str, round_number: int, version: int, jpeg: bytes) -> None:
        """Store a round's photo preview (inside an update's transaction)."""
        conn.execute("INSERT INTO room_photos(code, round, version, jpeg) VALUES (?, ?, ?, ?) "
                     "ON CONFLICT (code, round) DO UPDATE SET version = excluded.version, jpeg = excluded.jpeg",
                     (code, round_number, version, jpeg))

    @staticmethod
    def drop_photos(conn: Conn, code: str) -> None:
        """Delete every round photo of room `code` (a new game starts at round 1 again)."""
        conn.execute("DELETE FROM room_photos WHERE code = ?", (code,))

    def photo(self, code: str, round_number: int) -> tuple[int, bytes] | None:
        def read(conn: Conn) -> tuple[int, bytes] | None:
            row = conn.execute("SELECT version, jpeg FROM room_photos WHERE code = ? AND round = ?",
                               (code, round_number)).fetchone()
            return (int(row[0]), bytes(row[1])) if row else None
        return self._run("read a photo", read, write=False)

    # ---- word images (the handwriting of the words a sheet added: room.service) ----------------
    @staticmethod
    def put_word_image(conn: Conn, image_id: str, code: str, round_number: int, player: str,
                       data: bytes) -> None:
        """Store one word's image (inside an update's transaction)."""
        conn.execute("INSERT INTO room_word_images(id, code, round, player, image) VALUES (?, ?, ?, ?, ?)",
                     (image_id, code, round_number, player, data))

    @staticmethod
    def word_image_bytes(conn: Conn, code: str, round_number: int, player: str) -> int:
        """The bytes of the images one player holds in one round (inside a transaction)."""
        row = conn.execute("SELECT COALESCE(SUM(LENGTH(image)), 0) FROM room_word_images "
                           "WHERE code = ? AND round = ? AND player = ?", (code, round_number, player)).fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def drop_word_images(conn: Conn, code: str, ids: Iterable[str] = (),
                         before_round: int | None = None) -> None:
        """Delete images of room `code` (inside an update's transaction): those of `ids`,
        and (before_round) every image of a round before that one."""
        conn.executemany("DELETE FROM room_word_images WHERE id = ? AND code = ?", [(i, code) for i in ids])
        if before_round is not None:
            conn.execute("DELETE FROM room_word_images WHERE code = ? AND round < ?", (code, before_round))

    def word_images(self, code: str, ids: Iterable[str]) -> dict[str, bytes]:
        """Images of room `code` by id (one read; an id not stored is left out)."""
        wanted = list(dict.fromkeys(ids))

        def read(conn: Conn) -> dict[str, bytes]:
            out: dict[str, bytes] = {}
            for image_id in wanted:
                row = conn.execute("SELECT image FROM room_word_images WHERE id = ? AND code = ?",
                                   (image_id, code)).fetchone()
                if row:
                    out[image_id] = bytes(row[0])
            return out
        return self._run("read words' images", read, write=False)

    def word_image(self, code: str, image_id: str, player: str) -> bytes | None:
        def read(conn: Conn) -> bytes | None:
            row = conn.execute("SELECT image FROM room_word_images WHERE id = ? AND code = ? AND player = ?",
                               (image_id, code, player)).fetchone()
            return bytes(row[0]) if row else None
        return self._run("read a word's image", read, write=False)


class _NoTables:
    """Stands in for a connection to a database that has no tables yet: every query
    finds nothing (reads of a new file create nothing)."""

    rowcount = 0
    description = None

    def execute(self, *_args: object) -> _NoTables:
        return self

    def executemany(self, *_args: object) -> _NoTables:
        return self

    def fetchone(self) -> None:
        return None

    def fetchall(self) -> list[object]:
        return []

    def fetchmany(self, *_args: object) -> list[object]:
        return []


def _sweep(conn: Conn, before: float) -> int:
    """Delete the rooms last changed before `before` (Unix seconds), their photos and word images."""
    conn.execute("DELETE FROM room_photos WHERE code IN (SELECT code FROM rooms WHERE updated_at < ?)", (before,))
    conn.execute("DELETE FROM room_word_images WHERE code IN (SELECT code FROM rooms WHERE updated_at < ?)",
                 (before,))
    return int(conn.execute("DELETE FROM rooms WHERE updated_at < ?", (before,)).rowcount)


