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


def test_a_notified_change_and_a_lost_one_both_reach_the_hub(pg_db):
    import psycopg
    room = _room(pg_db)

    def rename(r: Room, _conn) -> None:
        r.game = "saturday"

    async def main() -> list[tuple[int, float]]:
        hub = RoomHub()
        hub.publish(room.code, room.version, {"what": "create"}, deadline=None)
        seen: list[tuple[int, float]] = []
        async with anyio.create_task_group() as tg:
            tg.start_soon(listen, pg_db, hub, _read(pg_db), 0.5)

            async def watch() -> None:  # a stream of this process
                version = room.version
                while len(seen) < 2:
                    got = await hub.wait(room.code, version, 10)
                    assert got is not None, "no change reached the hub"
                    version = got[0]
                    seen.append((version, time.monotonic()))
            tg.start_soon(watch)
            await anyio.sleep(0.3)  # listening
            t0 = time.monotonic()
            await anyio.to_thread.run_sync(RoomDB(pg_db).update, room.code, rename)  # another process's change
            with anyio.fail_after(10):
                while len(seen) < 1:
                    await anyio.sleep(0.01)
            seen[0] = (seen[0][0], seen[0][1] - t0)
            t1 = time.monotonic()
            with psycopg.connect(pg_db.url, autocommit=True) as conn:  # a change whose notice is lost
                conn.execute("UPDATE rooms SET version = version + 1, doc = jsonb_set(doc::jsonb, '{version}', "
                             "to_jsonb(version + 1))::text WHERE code = %s", (room.code,))
            with anyio.fail_after(10):
                while len(seen) < 2:
                    await anyio.sleep(0.01)
            seen[1] = (seen[1][0], seen[1][1] - t1)
            tg.cancel_scope.cancel()
        return seen

    seen = anyio.run(main)
    assert [v for v, _ in seen] == [room.version + 1, room.version + 2]
    assert seen[0][1] < 1.0  # notified
    assert seen[1][1] < 0.5 + 1.0  # caught up within catch_up_s
