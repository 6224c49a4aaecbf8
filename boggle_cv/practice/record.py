"""The personal record: every round a player practised alone, in the games database
the room uses (table `practice_rounds`, schema 5 of boggle_cv.store.database), and what a
player's record says: the best round, the average of the last ten.

A record is per player (compared by names.name_key: "Ann" and "ann" are one
player), size, edition and clock: a best made in ten minutes is not a three-minute
best. Writes are one transaction each (BEGIN IMMEDIATE: two processes never
interleave; a kill mid-write leaves the earlier rounds and no half round: SQLite's
WAL; PostgreSQL's transactions). The database is created, or brought up to date, by
the first write (store.write_transaction); reads never create it.
A round sent twice with the same `deal` (the page retrying after a lost answer) is
stored once.
"""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..store import database as store
from ..errors import StorageError
from ..game.names import name_key
from ..store.sql import Conn, DbLocation, insert_id, tables

T = TypeVar("T")

#: How many of the latest rounds the average is taken over.
AVERAGE_OF = 10
#: Where the round came from: a virtual shake, or a real tray's photo.
SOURCES = ("shake", "tray")
_HINT_DAMAGED = "move it aside (the next round starts a new one) or choose another with --db"


@dataclass(frozen=True)
class PracticeRound:
    """One round played alone, as stored.

    seconds: the round's clock; source: "shake" or "tray"; dice: the cube set shaken
    (None for a real tray); board: its text; score: the player's points;
    max_points / board_words: every word of the board; words_scored: the player's
    words that scored; deal: the page's id of the deal (None from the command line);
    report: the round's JSON document (RoundResult.to_dict); id: set once stored.
    """

    player: str
    size: int
    lang: str
    seconds: int
    source: str
    board: str
    score: int
    max_points: int
    words_scored: int
    board_words: int
    report: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    dice: str | None = None
    deal: str | None = None
    played_at: float = 0.0
    id: int | None = None

    @property
    def share(self) -> float:
        """The share of the board's points the player found (0 on a board with none)."""
        return self.score / self.max_points if self.max_points else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form, without the report (docs/practice.md)."""
        return {"id": self.id, "played_at": round(self.played_at, 3), "score": self.score,
                "max_points": self.max_points, "share": round(self.share, 4), "words_scored": self.words_scored,
                "board_words": self.board_words, "source": self.source, "dice": self.dice, "board": self.board}


@dataclass(frozen=True)
class Record:
    """A player's record at one size, edition and clock: every round, oldest first."""

    player: str
    size: int
    lang: str
    seconds: int
    rounds: tuple[PracticeRound, ...]

    @property
    def best(self) -> PracticeRound:
        """The round with the most points (the earliest of equal ones)."""
        return max(self.rounds, key=lambda r: (r.score, -(r.id or 0)))

    @property
    def average(self) -> float:
        """The mean score of the last AVERAGE_OF rounds (fewer when fewer were played)."""
        last = self.rounds[-AVERAGE_OF:]
        return sum(r.score for r in last) / len(last)

    def to_dict(self) -> dict[str, Any]:
        best = self.best
        return {"player": self.player, "size": self.size, "lang": self.lang, "seconds": self.seconds,
                "round_count": len(self.rounds),
                "best": {"score": best.score, "id": best.id, "played_at": round(best.played_at, 3),
                         "share": round(best.share, 4)},
                "average_last_10": round(self.average, 2),
                "rounds": [r.to_dict() for r in self.rounds]}


_COLUMNS = ("id, player, size, lang, seconds, source, dice, board, score, max_points, words_scored, "
            "board_words, deal, played_at")


def _row(row: tuple[Any, ...]) -> PracticeRound:
    (rid, player, size, lang, seconds, source, dice, board, score, max_points, words_scored, board_words,
     deal, played_at) = row
    return PracticeRound(str(player), int(size), str(lang), int(seconds), str(source), str(board), int(score),
                         int(max_points), int(words_scored), int(board_words), {}, dice, deal, float(played_at),
                         int(rid))


def _rounds_of(conn: Conn, key: str, size: int, lang: str, seconds: int) -> list[PracticeRound]:
    rows = conn.execute(f"SELECT {_COLUMNS} FROM practice_rounds WHERE player_key = ? AND size = ? AND lang = ? "
                        "AND seconds = ? ORDER BY id", (key, size, lang, seconds)).fetchall()
    return [_row(r) for r in rows]


def _record(rounds: list[PracticeRound]) -> Record:
    last = rounds[-1]
    return Record(last.player, last.size, last.lang, last.seconds, tuple(rounds))


def _storage_error(path: DbLocation, err: sqlite3.Error, writing: bool) -> StorageError:
    text = str(err)
    if "locked" in text or "busy" in text:
        return StorageError(f"games database {path} is locked by another program",
                            "close the other program and try again", code="storage.busy")
    if isinstance(err, sqlite3.OperationalError) and writing:
        return StorageError(f"cannot write games database {path}: {text}",
                            "free some disk space, or check the file and its folder are writable")
    return StorageError(f"games database {path} is damaged: {text}", _HINT_DAMAGED)


def _write(path: DbLocation, fn: Callable[[Conn], T]) -> T:
    """fn(conn) in one write transaction of the database at `path` (created or
    brought up to date first); StorageError (exit 7) for anything SQLite refuses,
    after rolling back."""
    return store.write_transaction(path, fn, lambda e, _opening: _storage_error(path, e, writing=True))


def _read(path: DbLocation, fn: Callable[[Conn], T], empty: T) -> T:
    """fn(conn) on a read-only connection (one snapshot); `empty` when the database
    does not exist yet, holds no tables, or has no practice table."""
    def read(conn: Conn) -> T:
        return fn(conn) if "practice_rounds" in tables(conn) else empty
    return store.read_transaction(path, read, lambda: empty, lambda e: _storage_error(path, e, writing=False))


def save(path: DbLocation, played: PracticeRound) -> tuple[PracticeRound, Record, bool]:
    """Store one round and read the player's record in the same transaction:
    (the round as stored, with its id; the record, this round included; True when it
    was stored now, False when a round of the same `deal` was stored before, which is
    then the one returned)."""
    path = path
    if played.source not in SOURCES:
        raise ValueError(f"unknown source {played.source!r}")

    def insert(conn: Conn) -> tuple[PracticeRound, Record, bool]:
        key = name_key(played.player)
        if played.deal is not None:
            row = conn.execute(f"SELECT {_COLUMNS} FROM practice_rounds WHERE deal = ?", (played.deal,)).fetchone()
            if row is not None:
                before = _row(row)
                return before, _record(_rounds_of(conn, name_key(before.player), before.size, before.lang,
                                                  before.seconds)), False
        at = played.played_at or time.time()
        stored_id = insert_id(
            conn, "INSERT INTO practice_rounds(player, player_key, size, lang, seconds, source, dice, board, score, "
            "max_points, words_scored, board_words, deal, played_at, report) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (played.player, key, played.size, played.lang, played.seconds, played.source, played.dice,
             played.board, played.score, played.max_points, played.words_scored, played.board_words,
             played.deal, at, json.dumps(played.report, sort_keys=True)))
        stored = PracticeRound(played.player, played.size, played.lang, played.seconds, played.source,
                               played.board, played.score, played.max_points, played.words_scored,
                               played.board_words, played.report, played.dice, played.deal, at,
                               stored_id)
        return stored, _record(_rounds_of(conn, key, played.size, played.lang, played.seconds)), True
    return _write(path, insert)


def record(path: DbLocation, player: str, size: int, lang: str, seconds: int) -> Record | None:
    """The player's record at that size, edition and clock (read-only), None before
    their first round there."""
    def read(conn: Conn) -> Record | None:
        rounds = _rounds_of(conn, name_key(player), size, lang, seconds)
        return _record(rounds) if rounds else None
    return _read(path, read, None)


def history(path: DbLocation, player: str | None = None) -> list[Record]:
    """Every record (read-only), or one player's: by player (as first written), size,
    edition and clock."""
    def read(conn: Conn) -> list[Record]:
        where, args = ("WHERE player_key = ?", (name_key(player),)) if player is not None else ("", ())
        rows = conn.execute(f"SELECT {_COLUMNS}, player_key FROM practice_rounds {where} ORDER BY id",
                            args).fetchall()
        groups: dict[tuple[str, int, str, int], list[PracticeRound]] = {}
        for row in rows:
            r = _row(row[:-1])
            groups.setdefault((str(row[-1]), r.size, r.lang, r.seconds), []).append(r)
        return [_record(rounds) for rounds in groups.values()]
    return _read(path, read, [])


def report(path: DbLocation, round_id: int) -> dict[str, Any] | None:
    """The stored JSON document of one round (read-only), None if there is none."""
    def read(conn: Conn) -> dict[str, Any] | None:
        row = conn.execute("SELECT report FROM practice_rounds WHERE id = ?", (round_id,)).fetchone()
        return json.loads(row[0]) if row else None
    return _read(path, read, None)


#: The meta key of the secret the page's deals are signed with (web.practice).
SECRET_KEY = "practice_deal_key"


def deal_secret(path: DbLocation) -> bytes:
    """The database's secret for signing the page's deals (made by the first call, in
    the `meta` table: a deal dealt before a restart of the server is still good)."""
    import secrets

    def get(conn: Conn) -> bytes:
        conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                     (SECRET_KEY, secrets.token_hex(32)))
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (SECRET_KEY,)).fetchone()
        return bytes.fromhex(str(row[0]))
    return _write(path, get)
