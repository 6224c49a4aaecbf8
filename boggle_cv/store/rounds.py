"""A game's stored rounds, one at a time: the round a fingerprint was stored as
(`scan --game` refuses or replaces a repeat), and removing a round
(`boggle-cv standings NAME --remove N`). The transactions are boggle_cv.store.database's, on
either backend.
"""
from __future__ import annotations

from ..errors import StorageError, UsageError
from .database import _damaged, read_transaction, round_number, write_error, write_transaction
from .sql import Conn, DbLocation, tables


def remove_round(db_path: DbLocation, game: str, number: int) -> int:
    """Remove round `number` (1-based, as standings count them) of `game`, in one
    transaction; the rounds left. The later rounds' numbers go down by one.
    StorageError when there is no such game, UsageError when it has no such round."""
    def remove(conn: Conn) -> int:
        row = conn.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()
        if row is None:
            raise StorageError(f"no game named {game!r} in {db_path}", "list games with `boggle-cv standings --list`")
        ids = [r[0] for r in conn.execute("SELECT id FROM rounds WHERE game_id = ? ORDER BY id", (row[0],)).fetchall()]
        if not 1 <= number <= len(ids):
            raise UsageError(f"game {game!r} has {len(ids)} round(s): there is no round {number}",
                             f"give a round from 1 to {len(ids)}" if ids else "store a round first")
        conn.execute("DELETE FROM round_players WHERE round_id = ?", (ids[number - 1],))
        conn.execute("DELETE FROM rounds WHERE id = ?", (ids[number - 1],))
        return len(ids) - 1

    def nothing() -> int:
        raise StorageError(f"no games database at {db_path}", "store a round first with scan --game NAME")
    read_transaction(db_path, lambda conn: 0, nothing, _damaged(db_path),
                     StorageError(f"no games database at {db_path}", "store a round first with scan --game NAME"))
    return write_transaction(db_path, remove, write_error(db_path))


def stored_round(db_path: DbLocation, game: str, fingerprint: str) -> int | None:
    """The number of the round of `game` stored with `fingerprint`, or None (also
    when there is no database yet, or it predates fingerprints). Read-only."""
    def read(conn: Conn) -> int | None:
        if "rounds" not in tables(conn):
            return None
        try:
            row = conn.execute("SELECT r.game_id, r.id FROM rounds r JOIN games g ON g.id = r.game_id "
                               "WHERE g.name = ? AND r.fingerprint = ? ORDER BY r.id", (game, fingerprint)).fetchone()
        except Exception as e:  # a database from before fingerprints: no round repeats it
            if "fingerprint" in str(e):
                return None
            raise
        return round_number(conn, row[0], row[1]) if row else None
    return read_transaction(db_path, read, lambda: None, _damaged(db_path))
