"""Games and rounds, kept in the games database: a SQLite file, or a PostgreSQL
database (a postgresql:// URL given to --db: store_pg; store_sql says what differs).

A *game* is a named series of rounds (e.g. "friday"); a *round* is one scanned or
typed board with the players' scores. Every write is one transaction: a crash or a
Ctrl-C never leaves half a round stored.

Reading and writing are apart:
  * reads (list_games, standings) open the file read-only (SQLite URI mode=ro, or
    immutable=1 when even that needs a write, as on a read-only mount): they never
    create, migrate or change anything, so a read-only or shared file can be read;
  * writes (save_round; store_rounds.remove_round) create the database on first use and bring an older schema
    up to SCHEMA_VERSION (MIGRATIONS), inside the round's own transaction;
  * a file that is not a boggle-cv database (a SQLite file with other tables, one
    made by a newer boggle-cv) is refused, read or write, without being touched.
    An empty file counts as an empty database.

On PostgreSQL the same holds, with the server's transactions (store_pg).

Default location: $BOGGLE_CV_DB if set, else the user's data folder (default_db_path).
"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from ..errors import BoggleError, RepeatedRoundError, StorageError, UsageError
from .schema import SCHEMA_VERSION, TABLES, prepare, schema_version
from .sql import Conn, DbLocation, PgUrl, as_location, insert_id, optional_location, parse_location, tables

__all__ = ["SCHEMA_VERSION", "TABLES", "Conn", "DbLocation", "PgUrl", "optional_location", "prepare",
           "schema_version"]

T = TypeVar("T")

BUSY_TIMEOUT_S = 5.0
APP_DIR = "boggle-cv"
DB_NAME = "games.sqlite3"

_MOVE_HINT = "choose another file with --db (or $BOGGLE_CV_DB)"


def default_db_path() -> DbLocation:
    """Where games live when --db is not given.

    $BOGGLE_CV_DB if set (a path, or a postgresql:// URL: store_sql.parse_location);
    else the user's data folder, as platformdirs.user_data_dir
    names it: $XDG_DATA_HOME/boggle-cv (default ~/.local/share/boggle-cv) on Linux and
    other Unix systems, ~/Library/Application Support/boggle-cv on macOS,
    %LOCALAPPDATA%\\boggle-cv on Windows; the file is games.sqlite3.
    """
    env = os.environ.get("BOGGLE_CV_DB")
    if env:
        return parse_location(env, "BOGGLE_CV_DB")
    return data_dir() / DB_NAME


def exists(db: DbLocation) -> bool:
    """Whether the database may hold anything: a file that exists, or any PostgreSQL URL."""
    db = as_location(db)
    return db.exists() if isinstance(db, Path) else True


def data_dir(platform: str = sys.platform) -> Path:
    """The user's data folder for boggle-cv on `platform` (see default_db_path)."""
    home = Path(os.path.expanduser("~"))
    if platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / APP_DIR
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_DIR
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base_dir = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".local" / "share"
    return base_dir / APP_DIR


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


def _check_path(path: Path, writing: bool) -> None:
    """StorageError for a folder given as the database, or (writing) a file where a
    folder of its path should be."""
    if path.is_dir():
        raise StorageError(f"games database {path} is a directory", "pass a file path with --db")
    if writing:
        for parent in path.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise StorageError(f"cannot create games database {path}: {parent} is a file, not a directory",
                                       _MOVE_HINT)
                break


def open_read(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to an existing database, or None when it holds no tables
    yet (an empty file). Never writes to the file or beside it."""
    path = Path(path)
    _check_path(path, writing=False)
    if not path.exists():
        raise StorageError(f"no games database at {path}", "store a round first with `boggle-cv scan PHOTO --game NAME`")
    uri = path.absolute().as_uri()
    last: sqlite3.Error | None = None
    for mode in ("mode=ro", "mode=ro&immutable=1"):
        conn = sqlite3.connect(f"{uri}?{mode}", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            if schema_version(conn, path) is None:
                conn.close()
                return None
            return conn
        except sqlite3.OperationalError as e:
            conn.close()
            last = e
            if "locked" in str(e) or "busy" in str(e):
                raise StorageError(f"games database {path} is locked by another program",
                                   "close the other boggle-cv and try again") from None
            if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
                break
            # a WAL database in a place we cannot write (a read-only mount, an immutable
            # file) cannot get its -shm file: read it as immutable, since nobody can be
            # writing to it either
        except BaseException:
            conn.close()
            raise
    raise StorageError(f"cannot read games database {path}: {last}", "check the file can be read") from None


def open_write(path: Path) -> sqlite3.Connection:
    """A connection for one write transaction; the caller runs BEGIN IMMEDIATE, then
    prepare. Refuses a foreign file before anything is written to it."""
    path = Path(path)
    _check_path(path, writing=True)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except OSError as e:
        raise StorageError(f"cannot create games database {path}: {e.strerror or e}",
                           "choose a writable place with --db") from None
    try:
        if schema_version(conn, path) is None:
            conn.execute("PRAGMA journal_mode = WAL")  # new database: readers never wait for a writer
        conn.execute("PRAGMA foreign_keys = ON")
        return conn
    except BaseException:
        conn.close()
        raise


def save_round(db_path: DbLocation, game: str, board_text: str, scores: dict[str, int],
               words: dict[str, list[dict[str, Any]]], report: dict[str, Any],
               photo: str | None = None, lang: str = "en", fingerprint: str | None = None,
               replace: bool = False) -> int:
    """Store one round atomically; returns its 1-based number within the game.

    scores: player -> points this round; words: player -> [{word, status, points}];
    lang: the round's edition (boggle_cv.game.editions code); fingerprint: what makes it
    the same round (insert_round: a repeat is refused, or replaced with `replace`).
    Creates the database (or migrates an older one) in the same transaction.
    """
    if not game or not game.strip():
        raise StorageError("empty game name", "give --game a name such as 'friday'")
    return write_transaction(db_path, lambda conn: insert_round(
        conn, game, board_text, scores, words, report, photo, lang, fingerprint, replace), write_error(db_path))


def write_error(db_path: DbLocation) -> Callable[[sqlite3.Error, bool], StorageError | None]:
    """How a write's SQLite refusals read (write_transaction's `error`)."""

    def error(e: sqlite3.Error, opening: bool) -> StorageError | None:
        if not isinstance(e, sqlite3.DatabaseError):
            return None
        if opening:
            return StorageError(f"cannot use games database {db_path}: {e}", "check the file is a boggle-cv "
                                "database and is writable, or choose another with --db")
        if isinstance(e, sqlite3.OperationalError) and ("locked" in str(e) or "busy" in str(e)):
            return StorageError(f"games database {db_path} is locked by another program",
                                "close the other boggle-cv and try again")
        if isinstance(e, sqlite3.OperationalError):
            return StorageError(f"cannot write games database {db_path}: {e}", "check it is writable")
        return StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one")
    return error


def write_transaction(path: DbLocation, fn: Callable[[Conn], T],
                      error: Callable[[sqlite3.Error, bool], StorageError | None], lock: str | None = None) -> T:
    """fn(conn) in one write transaction of the database at `path`, made or brought up
    to date first (prepare) in the same transaction. A file: BEGIN IMMEDIATE, and what
    SQLite refuses is rolled back and raised as error(e, opening) (opening: the file
    could not be opened), or as it is where that gives None. PostgreSQL: store_pg,
    serialised with the other writes that name the same `lock`."""
    path = as_location(path)
    if isinstance(path, PgUrl):
        from . import postgres as store_pg
        return store_pg.transaction(path, fn, write=True, lock=lock)
    try:
        conn = open_write(path)
    except sqlite3.Error as e:
        raise (error(e, True) or e) from None
    try:
        conn.execute("BEGIN IMMEDIATE")
        prepare(conn, path)
        out = fn(conn)
        conn.execute("COMMIT")
        return out
    except BaseException as e:
        _rollback(conn)
        mapped = error(e, False) if isinstance(e, sqlite3.Error) else None
        if mapped is None:
            raise
        raise mapped from None
    finally:
        conn.close()


def read_transaction(path: DbLocation, fn: Callable[[Conn], T], empty: Callable[[], T],
                     error: Callable[[sqlite3.Error], StorageError | None],
                     missing: BoggleError | None = None) -> T:
    """fn(conn) on one read-only snapshot of the database at `path`; empty() when it
    holds no tables yet, or (a file) does not exist, unless `missing` is given, which
    is raised then. Reads never create, migrate or change anything. What SQLite refuses
    is raised as error(e) (as it is where that gives None)."""
    path = as_location(path)
    if isinstance(path, PgUrl):
        from . import postgres as store_pg
        return store_pg.transaction(path, fn, write=False, empty=empty)
    if not path.exists() and not path.is_symlink():
        if missing is not None:
            raise missing
        return empty()
    try:
        conn = open_read(path)
    except sqlite3.Error as e:
        raise (error(e) or e) from None
    if conn is None:
        return empty()
    try:
        conn.execute("BEGIN")  # one snapshot for every query of fn
        return fn(conn)
    except sqlite3.Error as e:
        mapped = error(e)
        if mapped is None:
            raise
        raise mapped from None
    finally:
        conn.close()


def insert_round(conn: Conn, game: str, board_text: str, scores: dict[str, int],
                 words: dict[str, list[dict[str, Any]]], report: dict[str, Any], photo: str | None = None,
                 lang: str = "en", fingerprint: str | None = None, replace: bool = False) -> int:
    """Insert one round inside the caller's open transaction (the database at
    SCHEMA_VERSION: see prepare); its 1-based number in the game. A round of the game
    with the same `fingerprint` is refused (RepeatedRoundError), or with `replace`
    overwritten in place (it keeps its number)."""
    conn.execute("INSERT INTO games(name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                 (game, time.time()))
    game_id = conn.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()[0]
    same = conn.execute("SELECT id FROM rounds WHERE game_id = ? AND fingerprint = ? ORDER BY id",
                        (game_id, fingerprint)).fetchone() if fingerprint else None
    if same is not None and not replace:
        raise repeated_round(game, round_number(conn, game_id, same[0]))
    values = (time.time(), photo, board_text, json.dumps(report, sort_keys=True), lang, fingerprint)
    if same is not None:
        round_id = same[0]
        conn.execute("UPDATE rounds SET created_at = ?, photo = ?, board = ?, report = ?, lang = ?, fingerprint = ? "
                     "WHERE id = ?", (*values, round_id))
        conn.execute("DELETE FROM round_players WHERE round_id = ?", (round_id,))
    else:
        round_id = insert_id(conn, "INSERT INTO rounds(game_id, created_at, photo, board, report, lang, fingerprint) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, *values))
    for player, score in scores.items():
        conn.execute("INSERT INTO round_players(round_id, player, score, words) VALUES (?, ?, ?, ?)",
                     (round_id, player, int(score), json.dumps(words.get(player, []))))
    return round_number(conn, game_id, round_id)


def repeated_round(game: str, number: int) -> RepeatedRoundError:
    """The refusal of a repeated round, naming the round it repeats."""
    return RepeatedRoundError(f"this photo with these lists is already round {number} of game {game!r}",
                              f"add --replace to replace it, or remove it: boggle-cv standings {game} --remove {number}")


def round_number(conn: Conn, game_id: int, round_id: int | None) -> int:
    """A round's 1-based number in its game (rounds count in the order stored)."""
    return int(conn.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ? AND id <= ?",
                            (game_id, round_id)).fetchone()[0])


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def read_connection(db_path: Path) -> sqlite3.Connection | None:
    try:
        return open_read(Path(db_path))
    except sqlite3.DatabaseError as e:
        raise StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one") from None
def _damaged(db_path: DbLocation) -> Callable[[sqlite3.Error], StorageError | None]:
    def error(e: sqlite3.Error) -> StorageError | None:
        if not isinstance(e, sqlite3.DatabaseError):
            return None
        return StorageError(f"games database {db_path} is damaged: {e}", "move it aside and start a new one")
    return error


def _no_database(db_path: DbLocation) -> StorageError:
    return StorageError(f"no games database at {db_path}", "store a round first with scan/score --game NAME")


def list_games(db_path: DbLocation) -> list[str]:
    """Names of the stored games, oldest first (read-only; see module docstring)."""
    def read(conn: Conn) -> list[str]:
        if "games" not in tables(conn):
            return []
        return [r[0] for r in conn.execute("SELECT name FROM games ORDER BY created_at, id").fetchall()]
    return read_transaction(db_path, read, list, _damaged(db_path), _no_database(db_path))


def unknown_game(db_path: DbLocation, game: str, names: list[str]) -> UsageError:
    """A game name that is not stored (a usage error, exit 2): the line names the games
    that are (the first ten)."""
    if not names:
        return UsageError(f"no game named {game!r}: no games are stored in {db_path} yet",
                          "store a round with `boggle-cv scan PHOTO --game NAME`")
    known = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    return UsageError(f"no game named {game!r}; the games in {db_path}: {known}", "give one of these names")


def standings(db_path: DbLocation, game: str, target: int | None = None) -> Standings:
    """Totals per player over the game's rounds, and who reached `target` first.

    The first to reach the target is decided by round: the player(s) whose running
    total first reaches it; if several reach it in the same round, the higher total
    wins, and equal totals are all listed. Read-only (see module docstring).
    """
    def read(conn: Conn) -> Standings:
        if not {"games", "rounds", "round_players"} <= tables(conn):
            raise unknown_game(db_path, game, [])
        row = conn.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()
        if row is None:
            raise unknown_game(db_path, game, [r[0] for r in conn.execute(
                "SELECT name FROM games ORDER BY created_at, id").fetchall()])
        rows = conn.execute(
            "SELECT r.id, rp.player, rp.score FROM rounds r JOIN round_players rp ON rp.round_id = r.id "
            "WHERE r.game_id = ? ORDER BY r.id, rp.player", (row[0],)).fetchall()
        n_rounds = conn.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", (row[0],)).fetchone()[0]
        return _tally(game, rows, int(n_rounds), target)

    def nothing() -> Standings:
        raise unknown_game(db_path, game, [])
    return read_transaction(db_path, read, nothing, _damaged(db_path), unknown_game(db_path, game, []))


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
