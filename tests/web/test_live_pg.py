"""live_pg: another process's change of a room reaches this process's hub through
PostgreSQL's NOTIFY, and a change whose notification was lost is caught up within
catch_up_s. Skipped without $BOGGLE_CV_TEST_PG."""
from __future__ import annotations

import time

import anyio
import pytest

from boggle_cv.room.db import RoomDB
from boggle_cv.room.model import Room, Settings, new_code, token_hash
from boggle_cv.web.live import RoomHub
from boggle_cv.web.live_pg import listen

pytest.importorskip("psycopg")


def _room(db) -> Room:
    room = Room(new_code(), "friday", token_hash("t"), time.time(), Settings())
    assert RoomDB(db).create(room)
    return room


def _read(db):
    def read(code: str) -> Room:
        room = RoomDB(db).load(code)
        assert room is not None
        return room
    return read


async def _changes(db, room: Room, catch_up_s: float, changes) -> list[int]:
    """The versions this process's hub sees after each of `changes` (another process's
    changes, made one after another, each once the hub saw the one before), listened
    for with `listen(..., catch_up_s)`; at most 20 s each."""
    hub = RoomHub()
    hub.publish(room.code, room.version, {"what": "create"}, deadline=None)
    seen: list[int] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(listen, db, hub, _read(db), catch_up_s)

        async def watch() -> None:  # a stream of this process
            version = room.version
            while len(seen) < len(changes):
                got = await hub.wait(room.code, version, 20)
                assert got is not None, "no change reached the hub"
                version = got[0]
                seen.append(version)
        tg.start_soon(watch)
        for k, change in enumerate(changes):
            await anyio.to_thread.run_sync(change, db)
            with anyio.fail_after(20):
                while len(seen) <= k:
                    await anyio.sleep(0.01)
        tg.cancel_scope.cancel()
    return seen


def _rename(code: str):
    """Another process's change, through RoomDB: it notifies."""
    def change(db) -> None:
        def rename(room: Room, _conn) -> None:
            room.game = "saturday"
        RoomDB(db).update(code, rename)
    return change


def _silently(code: str):
    """Another process's change whose notice is lost (no NOTIFY)."""
    def change(db) -> None:
        import psycopg
        with psycopg.connect(db.url, autocommit=True) as conn:
            conn.execute("UPDATE rooms SET version = version + 1, doc = jsonb_set(doc::jsonb, '{version}', "
                         "to_jsonb(version + 1))::text WHERE code = %s", (code,))
    return change


# How a change arrives is told by what can deliver it, not by the clock (a busy machine
# delays both ways). The first change may come with the listener's first catch-up (made
# once it listens); the second then comes with its notification when the next catch-up
# is an hour away, and only with the periodic catch-up when it was made without one.

def test_a_notified_change_reaches_the_hub(pg_db):
    room = _room(pg_db)
    got = anyio.run(_changes, pg_db, room, 3600.0, [_rename(room.code), _rename(room.code)])
    assert got == [room.version + 1, room.version + 2]


def test_a_change_whose_notice_is_lost_is_caught_up(pg_db):
    room = _room(pg_db)
    got = anyio.run(_changes, pg_db, room, 0.5, [_rename(room.code), _silently(room.code)])
    assert got == [room.version + 1, room.version + 2]
