"""The games database on a PostgreSQL server (``--db postgresql://...``).

psycopg 3 with its connection pool: one pool per database and process (POOL_SIZE
connections at most), one transaction per read or write, in autocommit-free blocks
(``connection.transaction()``). Writes see the schema made or brought up to date
first (store_schema.prepare under an advisory lock, so two processes never migrate at
once; a process checks it once and remembers), and serialise on a named advisory lock
(``pg_advisory_xact_lock``: a room's changes on its code, everything else on one
name), which gives the same guarantee as SQLite's BEGIN IMMEDIATE where it matters
(a room read, changed and written back by two processes never loses a change) without
making rooms wait for each other. Waiting for a lock ends after LOCK_TIMEOUT_S
(storage.busy).

A connection lost before the transaction commits (the server restarted, a pooled
connection gone stale) is retried on a fresh one, RETRIES times; one lost while it
commits cannot say whether the write landed and is refused (StorageError), never
dropped silently.
"""
from __future__ import annotations

import atexit
import hashlib
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from ..errors import StorageError
from .schema import SCHEMA_VERSION, prepare, schema_version
from .sql import Cursor, PgUrl, to_pg

T = TypeVar("T")

POOL_SIZE = 10
CONNECT_TIMEOUT_S = 5.0
LOCK_TIMEOUT_S = 5.0
RETRIES = 2
#: The advisory lock of writes that name none, and the one taken to migrate.
GLOBAL_LOCK = "boggle-cv"
SCHEMA_LOCK = "boggle-cv:schema"

_POOLS: dict[str, Any] = {}
_READY: set[str] = set()
_GUARD = threading.Lock()
_HINT = "check the PostgreSQL server is running and the URL given to --db (or $BOGGLE_CV_DB)"


class PgConn:
    """A psycopg connection inside a transaction, spoken to in SQLite's SQL (store_sql.Conn)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        cursor: Cursor = self.raw.execute(to_pg(sql), tuple(parameters))
        return cursor

    def executemany(self, sql: str, seq_of_parameters: Iterable[Sequence[Any]], /) -> Cursor:
        cursor = self.raw.cursor()
        rows = [tuple(p) for p in seq_of_parameters]
        if rows:
            cursor.executemany(to_pg(sql), rows)
        out: Cursor = cursor
        return out


def lock_key(name: str) -> int:
    """The 64-bit advisory lock key of a lock's name (the same in every process)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def _psycopg() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise StorageError("a postgresql:// database needs psycopg and psycopg_pool, which are not installed",
                           "pip install 'boggle-cv[postgres]'") from None
    return psycopg


def pool(db: PgUrl) -> Any:
    """The process's connection pool for `db` (opened on first use)."""
    _psycopg()
    from psycopg_pool import ConnectionPool
    with _GUARD:
        found = _POOLS.get(db.url)
        if found is None:
            found = ConnectionPool(db.url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT_S,
                                   kwargs={"connect_timeout": int(CONNECT_TIMEOUT_S)}, open=True,
                                   name="boggle-cv")
            _POOLS[db.url] = found
    return found


def close_pools() -> None:
    """Close every pool of this process (at exit; and after a fork, in the child)."""
    with _GUARD:
        pools = list(_POOLS.values())
        _POOLS.clear()
        _READY.clear()
    for p in pools:
        p.close(timeout=1.0)


atexit.register(close_pools)


def unreachable(db: PgUrl) -> StorageError:
    """Why `db` cannot be reached, asked once without the pool (its timeout says only that)."""
    psycopg = _psycopg()
    try:
        psycopg.connect(db.url, connect_timeout=int(CONNECT_TIMEOUT_S)).close()
        reason = f"no free connection within {CONNECT_TIMEOUT_S:g} s"
    except psycopg.Error as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return StorageError(f"cannot reach the games database {db}: {reason}", _HINT, code="storage.busy")


def check(db: PgUrl) -> None:
    """At a server's start: psycopg installed, the server reachable and the database
    empty or boggle-cv's at a version this one reads; StorageError otherwise. One
    plain connection, closed again (no pool: the server may fork after this)."""
    psycopg = _psycopg()
    try:
        with psycopg.connect(db.url, connect_timeout=int(CONNECT_TIMEOUT_S)) as raw:
            with raw.transaction():
                schema_version(PgConn(raw), db)
    except psycopg.OperationalError:
        raise unreachable(db) from None
    except psycopg.Error as e:
        raise StorageError(f"cannot read the games database {db}: {_first_line(e)}", _HINT) from None


def transaction(db: PgUrl, fn: Callable[[PgConn], T], write: bool, lock: str | None = None,
                empty: Callable[[], T] | None = None) -> T:
    """fn(conn) in one transaction of `db`. write: the schema brought up to date first,
    then the advisory lock `lock` (GLOBAL_LOCK when None) held to the commit. A read
    (write False) of a database without tables answers empty() (when given) and
    creates nothing; a foreign or newer database is refused either way."""
    psycopg = _psycopg()
    from psycopg_pool import PoolTimeout
    for attempt in range(RETRIES + 1):
        committing = False
        try:
            with pool(db).connection() as raw:
                with raw.transaction():
                    conn = PgConn(raw)
                    conn.execute(f"SET LOCAL lock_timeout = '{int(LOCK_TIMEOUT_S * 1000)}ms'")
                    if write:
                        _ready(conn, db)
                        conn.execute("SELECT pg_advisory_xact_lock(?)", (lock_key(lock or GLOBAL_LOCK),))
                    elif db.url not in _READY:
                        version = schema_version(conn, db)
                        if version is None and empty is not None:
                            return empty()
                        if version == SCHEMA_VERSION:
                            _READY.add(db.url)
                    out = fn(conn)
                    committing = True
                return out
        except PoolTimeout:
            raise unreachable(db) from None
        except psycopg.errors.LockNotAvailable:
            raise StorageError(f"the games database {db} is busy", "try again in a moment",
                               code="storage.busy") from None
        except psycopg.OperationalError as e:
            if committing:
                raise StorageError(f"the connection to the games database {db} was lost while a change was "
                                   "committed: it may not be stored", "try again", code="storage.busy") from None
            if attempt == RETRIES:
                raise StorageError(f"the games database {db} is not answering: {_first_line(e)}", _HINT,
                                   code="storage.busy") from None
        except psycopg.Error as e:
            raise StorageError(f"the games database {db} refused a change: {_first_line(e)}", _HINT) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _ready(conn: PgConn, db: PgUrl) -> None:
    """The schema at SCHEMA_VERSION: made or migrated under SCHEMA_LOCK (the first
    writes of a process); once a process has seen it current it asks no more."""
    if db.url in _READY:
        return
    if schema_version(conn, db) == SCHEMA_VERSION:
        _READY.add(db.url)
        return
    conn.execute("SELECT pg_advisory_xact_lock(?)", (lock_key(SCHEMA_LOCK),))
    prepare(conn, db)  # remembered once a later transaction finds it committed


def forget_schema() -> None:
    """Check the schema again on the next write (tests that swap a database's tables)."""
    with _GUARD:
        _READY.clear()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
