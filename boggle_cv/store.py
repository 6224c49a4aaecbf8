"""Games and rounds, kept in a SQLite database.

A *game* is a named series of rounds (e.g. "friday"); a *round* is one scanned or
typed board with the players' scores. Every write is one transaction: a crash or a
Ctrl-C never leaves half a round stored.

Default location: $BOGGLE_CV_DB if set, else $XDG_DATA_HOME/boggle-cv/games.sqlite3
(XDG_DATA_HOME defaults to ~/.local/share).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .errors import StorageError

SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 5.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    created_at REAL NOT NULL,
    photo TEXT,
    board TEXT NOT NULL,
    report TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS round_players (
    round_id INTEGER NOT NULL REFERENCES rounds(id),
    player TEXT NOT NULL,
    score INTEGER NOT NULL,
    words TEXT NOT NULL,
    PRIMARY KEY (round_id, player)
);
"""


def default_db_path() -> Path:
    """Where games live when --db is not given (see module docstring)."""
    env = os.environ.get("BOGGLE_CV_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "boggle-cv" / "games.sqlite3"


@dataclass(frozen=True)
class PlayerStanding:
    """One player's totals over a game's rounds."""

    player: str
    total: int
    rounds: int
    best_round: int
    reached_target_in_round: int | None = None  # 1-based round number, or None


@dataclass(frozen=True)
class Standings:
    """A game's standings; players sorted by total, best first."""

    game: str
    rounds: int
    players: list[PlayerStanding] = field(default_factory=list)
    target: int | None = None
    first_to_target: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rounds": self.rounds,
            "target": self.target,
            "first_to_target": self.first_to_target,
            "players": [p.__dict__ for p in self.players],
        }


def _connect(path: Path, create: bool) -> sqlite3.Connection:
    path = Path(path)
    if path.is_dir():
        raise StorageError(f"games database {path} is a directory", "pass a file path with --db")
    if not create and not path.exists():
        raise StorageError(f"no games database at {path}", "store a round first with scan/score --game NAME")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL") if create else None
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        return conn
    except sqlite3.DatabaseError as e:
        raise StorageError(f"cannot use games database {path}: {e}",
                           "check the file is a boggle-cv database and is writable, or choose another with --db") from None
    except OSError as e:
        raise StorageError(f"cannot create games database {path}: {e.strerror or e}",
                           "choose a writable place with --db") from None


def save_round(db_path: Path, game: str, board_text: str, scores: dict[str, int],
               words: dict[str, list[dict[str, Any]]], report: dict[str, Any],
               photo: str | None = None) -> int:
    """Store one round atomically; returns its 1-based number within the game.

    scores: player -> points this round; words: player -> [{word, status, points}].
    """
    if not game or not game.strip():
        raise StorageError("empty game name", "give --game a name such as 'friday'")
    conn = _connect(db_path, create=True)
    try:
        conn.execute("BEGIN IMMEDIATE")
        number = insert_round(conn, game, board_text, scores, words, report, photo)
        conn.execute("COMMIT")
        return number
    except sqlite3.OperationalError as e:
        _rollback(conn)
        if "locked" in str(e) or "busy" in str(e):
            raise StorageError(f"games database {db_path} is locked by another program",
                               "close the other boggle-cv and try again") from None
        raise StorageError(f"cannot write games database {db_path}: {e}", "check it is writable") from None
    except sqlite3.DatabaseError as e:
        _rollback(conn)
        raise StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one") from None
    except BaseException:
        _rollback(conn)
        raise
    finally:
        conn.close()


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the games tables in this connection's database if they are missing."""
    conn.executescript(_SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def insert_round(conn: sqlite3.Connection, game: str, board_text: str, scores: dict[str, int],
                 words: dict[str, list[dict[str, Any]]], report: dict[str, Any], photo: str | None = None) -> int:
    """Insert one round inside the caller's open transaction; its 1-based number in the game."""
    conn.execute("INSERT OR IGNORE INTO games(name, created_at) VALUES (?, ?)", (game, time.time()))
    game_id = conn.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()[0]
    cur = conn.execute(
        "INSERT INTO rounds(game_id, created_at, photo, board, report) VALUES (?, ?, ?, ?, ?)",
        (game_id, time.time(), photo, board_text, json.dumps(report, sort_keys=True)))
    round_id = cur.lastrowid
    for player, score in scores.items():
        conn.execute("INSERT INTO round_players(round_id, player, score, words) VALUES (?, ?, ?, ?)",
                     (round_id, player, int(score), json.dumps(words.get(player, []))))
    return int(conn.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", (game_id,)).fetchone()[0])


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def list_games(db_path: Path) -> list[str]:
    """Names of the stored games, oldest first."""
    conn = _connect(db_path, create=False)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM games ORDER BY created_at, id")]
    except sqlite3.DatabaseError as e:
        raise StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one") from None
    finally:
        conn.close()


def standings(db_path: Path, game: str, target: int | None = None) -> Standings:
    """Totals per player over the game's rounds, and who reached `target` first.

    The first to reach the target is decided by round: the player(s) whose running
    total first reaches it; if several reach it in the same round, the higher total
    wins, and equal totals are all listed.
    """
    conn = _connect(db_path, create=False)
    try:
        row = conn.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()
        if row is None:
            raise StorageError(f"no game named {game!r} in {db_path}", "list games with `boggle-cv standings --list`")
        rows = conn.execute(
            "SELECT r.id, rp.player, rp.score FROM rounds r JOIN round_players rp ON rp.round_id = r.id "
            "WHERE r.game_id = ? ORDER BY r.id", (row[0],)).fetchall()
        n_rounds = conn.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", (row[0],)).fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one") from None
    finally:
        conn.close()
    return _tally(game, rows, int(n_rounds), target)


def _tally(game: str, rows: Iterable[tuple[int, str, int]], n_rounds: int, target: int | None) -> Standings:
    order: list[int] = []
    per_round: dict[int, dict[str, int]] = {}
    for rid, player, score in rows:
        if rid not in per_round:
            order.append(rid)
            per_round[rid] = {}
        per_round[rid][player] = score
    totals: dict[str, int] = {}
    counts: dict[str, int] = {}
    best: dict[str, int] = {}
    reached: dict[str, int] = {}
    first: list[str] = []
    for number, rid in enumerate(order, start=1):
        for player, score in per_round[rid].items():
            totals[player] = totals.get(player, 0) + score
            counts[player] = counts.get(player, 0) + 1
            best[player] = max(best.get(player, score), score)
        if target is not None:
            for player, total in totals.items():
                if total >= target and player not in reached:
                    reached[player] = number
            if not first:
                now = [p for p, r in reached.items() if r == number]
                if now:
                    top = max(totals[p] for p in now)
                    first = sorted(p for p in now if totals[p] == top)
    players = sorted(
        (PlayerStanding(p, totals[p], counts[p], best[p], reached.get(p)) for p in totals),
        key=lambda s: (-s.total, s.player))
    return Standings(game, n_rounds, players, target, first)
