"""`boggle-cv db copy SRC DEST`: every row of one games database into another, each
a SQLite file or a PostgreSQL database (moving a table's laptop file to a hosted
server, or a hosted database back to a file).

The destination must hold no boggle-cv rows yet (it is made or brought up to date
first: store_schema.prepare); the copy is one write transaction of the destination
read from one snapshot of the source, so it lands whole or not at all. Rows keep
their ids (rounds stay numbered in their games, a room's word images stay its own),
and the meta key that signs the page's practice deals comes along. A source on an
older schema is copied column by column: what it lacks takes the destination's
default. The source is only read.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import database as store
from ..errors import StorageError, UsageError
from .sql import Conn, DbLocation, PgUrl, renumber, tables

#: The tables, in an order in which every reference points to a row already copied.
ORDER = ("games", "rounds", "round_players", "rooms", "room_photos", "room_word_images", "practice_rounds")
#: Tables whose `id` numbers itself (the destination's next id is set after the copy).
NUMBERED = ("games", "rounds", "practice_rounds")
BATCH = 500


@dataclass(frozen=True)
class Copied:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    def summary(self) -> str:
        return ", ".join(f"{n} {table}" for table, n in self.rows.items())


def copy(src: DbLocation, dest: DbLocation) -> Copied:
    """Copy every row of `src` into the empty games database `dest` (module docstring).
    UsageError when both are one database or `dest` already holds rows; StorageError
    when either cannot be read or written."""
    if _same(src, dest):
        raise UsageError(f"{src} is both the source and the destination", "copy into another database")
    if not store.exists(src):
        raise StorageError(f"no games database at {src}", "give the database to copy from")

    def read(source: Conn) -> Copied:
        present = tables(source)
        if not present:
            raise StorageError(f"{src} holds no games yet", "nothing to copy")
        return store.write_transaction(dest, lambda target: _copy_all(source, target, present, dest),
                                       lambda e, opening: None)
    return store.read_transaction(src, read, lambda: Copied({}), lambda e: None)


def _copy_all(source: Conn, target: Conn, present: set[str], dest: DbLocation) -> Copied:
    for table in ORDER:
        if target.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None:
            raise UsageError(f"{dest} already holds {table}: copy only into an empty database",
                             "give a new file or an empty PostgreSQL database as DEST")
    rows: dict[str, int] = {}
    for table in ORDER:
        rows[table] = _copy_table(source, target, table) if table in present else 0
        if table in NUMBERED:
            renumber(target, table)
    for key, value in source.execute("SELECT key, value FROM meta WHERE key <> 'schema_version'").fetchall():
        target.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, value))
    return Copied(rows)


def _copy_table(source: Conn, target: Conn, table: str) -> int:
    cursor = source.execute(f"SELECT * FROM {table}")
    source_columns = [d[0] for d in cursor.description]
    target_columns = {d[0] for d in target.execute(f"SELECT * FROM {table} LIMIT 0").description}
    keep = [i for i, c in enumerate(source_columns) if c in target_columns]
    names = ", ".join(source_columns[i] for i in keep)
    insert = f"INSERT INTO {table}({names}) VALUES ({', '.join('?' for _ in keep)})"
    count = 0
    while True:
        batch = cursor.fetchmany(BATCH)
        if not batch:
            return count
        target.executemany(insert, [tuple(_plain(row[i]) for i in keep) for row in batch])
        count += len(batch)


def _plain(value: Any) -> Any:
    """A value as both drivers take it (psycopg may hand back a memoryview for bytea)."""
    return bytes(value) if isinstance(value, memoryview) else value


def _same(a: DbLocation, b: DbLocation) -> bool:
    if isinstance(a, PgUrl) or isinstance(b, PgUrl):
        return a == b
    from ..files.outputs import same_file
    return same_file(a, b)

