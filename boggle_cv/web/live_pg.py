"""Live changes across server processes: PostgreSQL's LISTEN/NOTIFY feeding this
process's RoomHub (web.live), when the games database is a PostgreSQL one.

Every committed change of a room is announced on room.db.ROOMS_CHANNEL as
"CODE VERSION" (no data: a room's contents never travel through the channel). Each
process listens on one connection of its own; for a room whose streams it holds and
whose version it has not published yet, it reads the room once and publishes it to
its hub, which wakes those streams (the phones then fetch the room as usual).

A notification can be lost (the connection dropped, the server restarted): after
(re)connecting, and every CATCH_UP_S ($BOGGLE_CV_CATCH_UP_S: catch_up_seconds), the
process asks the versions of every room it holds streams of in one query and reads
the rooms that moved. A lost notification costs at most that delay, never a change.
On SQLite there is one server process and nothing to listen to (running() does
nothing).
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Mapping

import anyio

from ..errors import BoggleError, RoomNotFound
from ..room.db import ROOMS_CHANNEL
from ..room.model import Room
from ..store.sql import DbLocation, PgUrl
from .live import RoomHub

#: Seconds between two askings of the watched rooms' versions (the default of
#: $BOGGLE_CV_CATCH_UP_S).
CATCH_UP_S = 5.0
CATCH_UP_ENV = "BOGGLE_CV_CATCH_UP_S"
_CATCH_UP_RANGE_S = (0.1, 86400.0)
#: Seconds between two tries to connect again after the connection was lost.
RECONNECT_S = 1.0

log = logging.getLogger("boggle_cv.web")

ReadRoom = Callable[[str], Room]


def catch_up_seconds(environ: Mapping[str, str] | None = None) -> float:
    """The seconds between two catch-ups: $BOGGLE_CV_CATCH_UP_S, else CATCH_UP_S.
    UsageError (exit 2) for a value that is not a number of seconds in range."""
    from ..files.env_settings import env_number
    low, high = _CATCH_UP_RANGE_S
    value = env_number(CATCH_UP_ENV, low, high, "a number of seconds",
                       f"unset it for the default {CATCH_UP_S:g} s", environ)
    return CATCH_UP_S if value is None else value


@contextlib.asynccontextmanager
async def running(db: DbLocation, hub: RoomHub, read_room: ReadRoom) -> AsyncIterator[None]:
    """Listen for other processes' changes while the server runs (PostgreSQL only)."""
    if not isinstance(db, PgUrl):
        yield
        return
    async with anyio.create_task_group() as tg:
        tg.start_soon(listen, db, hub, read_room, catch_up_seconds())
        try:
            yield
        finally:
            tg.cancel_scope.cancel()


async def listen(db: PgUrl, hub: RoomHub, read_room: ReadRoom, catch_up_s: float = CATCH_UP_S) -> None:
    """Until cancelled: LISTEN on ROOMS_CHANNEL and bring the hub's watched rooms up to
    date on every notification, after every (re)connection and every catch_up_s."""
    import psycopg
    said = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(db.url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {ROOMS_CHANNEL}")
                if said:
                    log.warning("live changes from other processes: listening again")
                said = False
                await catch_up(conn, hub, read_room)
                while True:
                    async for notice in conn.notifies(timeout=catch_up_s):
                        code, _, version = notice.payload.partition(" ")
                        if version.isdigit() and hub.listeners(code) and int(version) > hub.version(code):
                            await refresh(hub, read_room, code)
                    await catch_up(conn, hub, read_room)
        except psycopg.Error as e:
            if not said:
                log.warning("live changes from other processes: %s; trying again every %g s (streams are "
                            "told of this process's changes meanwhile)", str(e).strip().splitlines()[0]
                            if str(e).strip() else type(e).__name__, RECONNECT_S)
                said = True
            await anyio.sleep(RECONNECT_S)


async def catch_up(conn: object, hub: RoomHub, read_room: ReadRoom) -> None:
    """Read again the watched rooms whose stored version is ahead of the hub's."""
    codes = hub.watched()
    if not codes:
        return
    cursor = await conn.execute("SELECT code, version FROM rooms WHERE code = ANY(%s)", (codes,))  # type: ignore[attr-defined]
    for code, version in await cursor.fetchall():
        if int(version) > hub.version(code):
            await refresh(hub, read_room, str(code))


async def refresh(hub: RoomHub, read_room: ReadRoom, code: str) -> None:
    """Read the room (in a worker thread) and publish it to the hub."""
    try:
        room = await anyio.to_thread.run_sync(read_room, code)
    except RoomNotFound:
        return
    except BoggleError as e:  # the database busy or away: the next notice or catch-up tries again
        log.warning("live changes from other processes: cannot read room %s: %s", code, e.one_line())
        return
    hub.publish_room(room)
