"""Rooms expire, and the room cap holds under concurrency
(RoomService and RoomDB directly, with threads)."""
from __future__ import annotations

import threading
import time

import pytest

from boggle_cv.store import database as store
from boggle_cv.errors import LimitReached, RoomNotFound
from boggle_cv.room.db import RoomDB
from boggle_cv.room.model import Room, Settings, new_code, token_hash
from boggle_cv.room.service import RoomLimits, RoomService


def _count(db) -> int:
    return RoomDB(db).count()


def test_concurrent_creates_never_pass_the_cap(games_db, dictionary):
    """60 creates at once with 190 rooms made 203 (the count ran outside the insert's
    transaction); now exactly the 10 free places are taken, on either backend."""
    db = games_db
    rooms = RoomDB(db)
    for _ in range(190):
        assert rooms.create(Room(new_code(), "r", token_hash("t"), time.time(), Settings()))
    svc = RoomService(RoomDB(db), dictionary, limits=RoomLimits(max_rooms=200))
    start = threading.Barrier(60)
    outcomes: list[str] = []

    def create() -> None:
        start.wait()
        try:
            svc.create()
            outcomes.append("made")
        except LimitReached:
            outcomes.append("full")
        except Exception as e:  # noqa: BLE001 - told in the assertion
            outcomes.append(repr(e))

    threads = [threading.Thread(target=create) for _ in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(set(outcomes)) == ["full", "made"], outcomes
    assert outcomes.count("made") == 10
    assert _count(db) == 200


def test_idle_rooms_expire_and_their_rounds_stay(games_db, dictionary):
    """200 rooms filled the server and never expired, so nobody could open a room
    again. A room without a change for idle_s is deleted (with its photos) when a
    room is made, and no longer counts against the cap; the games keep its rounds."""
    db = games_db
    svc = RoomService(RoomDB(db), dictionary, limits=RoomLimits(max_rooms=2, idle_s=3600))
    old, _ = svc.create(game="friday")
    kept, _ = svc.create()
    with pytest.raises(LimitReached):
        svc.create()
    store.save_round(db, "friday", "PERS/LATG/SINE/TERS", {"ann": 1}, {"ann": []}, {"round": 1})
    def age(conn) -> None:
        RoomDB.put_photo(conn, old.code, 1, 1, b"jpeg")
        conn.execute("UPDATE rooms SET updated_at = ? WHERE code = ?", (time.time() - 3601, old.code))
    store.write_transaction(db, age, lambda e, opening: None)
    new, _ = svc.create()  # the idle room made its place free
    with pytest.raises(RoomNotFound):
        svc.room(old.code)
    assert svc.room(kept.code) and svc.room(new.code)
    assert RoomDB(db).photo(old.code, 1) is None
    assert store.list_games(db) == ["friday"]  # its scored rounds stay: standings survive
    assert RoomDB(db).sweep(idle_s=60, now=time.time() + 120) == 2


def test_the_server_passes_its_limits_to_the_rooms(tmp_path, dictionary):
    pytest.importorskip("starlette")
    from boggle_cv.web import ServeConfig, create_app
    app = create_app(ServeConfig(db_path=tmp_path / "g.db", room_idle_s=60, max_rooms=7), dictionary=dictionary)
    limits = app.state.rooms.limits
    assert (limits.idle_s, limits.max_rooms) == (60, 7)
