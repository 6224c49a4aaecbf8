"""The live hub (web/live.py) and the rooms' event streams under cancellation.

Phones that drop off the Wi-Fi together reset their streams at the same moment:
their listeners are cancelled together, possibly while a change is waking them.
None of that may leave a listener registered or make a later publish (the answer
to a committed change) or close (SIGTERM) wait. Each storm runs in a thread that
the test abandons if it hangs, so a regression fails the test instead of hanging
the suite. No assertion depends on the machine's speed: only "answers at all within
N s", with N generous.
"""
from __future__ import annotations

import contextlib
import threading
import time

import anyio
import pytest

from boggle_cv.errors import RoomNotFound
from boggle_cv.web.live import RoomHub, room_events

HANG_S = 30  # a run still going after this long counts as a hang


def run_guarded(fn, *args):
    """anyio.run(fn, *args) in a daemon thread; its result, or AssertionError if it
    has not returned within HANG_S seconds (the thread is left behind)."""
    out: dict = {}

    def target() -> None:
        try:
            out["result"] = anyio.run(fn, *args)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            out["error"] = e
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(HANG_S)
    assert not t.is_alive(), f"still running after {HANG_S} s: the hub hangs"
    if "error" in out:
        raise out["error"]
    return out["result"]


async def until(check, limit_s: float = 10) -> None:
    with anyio.fail_after(limit_s):
        while not check():
            await anyio.sleep(0.001)


# ---- the storm ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 10, 250])
def test_listeners_cancelled_together_while_a_publish_wakes_them_leave_the_hub_working(n):
    async def storm() -> None:
        hub = RoomHub()
        hub.publish("A", 1, {"what": "create"}, deadline=None)
        scopes: list[anyio.CancelScope] = []

        async def listener() -> None:
            with anyio.CancelScope() as scope:
                scopes.append(scope)
                await hub.wait("A", 1, 30)

        async with anyio.create_task_group() as tg:
            for _ in range(n):
                tg.start_soon(listener)
            await until(lambda: hub.listeners("A") == n)
            hub.publish("A", 2, {"what": "join"}, deadline=None)  # wakes them ...
            for scope in scopes:  # ... as their connections are reset
                scope.cancel()
        assert hub.listeners() == 0
        with anyio.fail_after(1):
            hub.publish("A", 3, {"what": "words"}, deadline=None)  # the next change is answered
            got = await hub.wait("A", 2, 1)
        assert got == (3, {"what": "words"})
        with anyio.fail_after(1):
            hub.close()
        assert hub.listeners() == 0

    run_guarded(storm)


def test_close_returns_while_listeners_wait_and_ends_their_waits():
    async def main() -> list:
        hub = RoomHub()
        results: list = []

        async def listener(code: str) -> None:
            results.append(await hub.wait(code, 0, 30))

        async with anyio.create_task_group() as tg:
            for code in ("A", "B", "A"):
                tg.start_soon(listener, code)
            await until(lambda: hub.listeners() == 3)
            with anyio.fail_after(1):
                hub.close()
        assert await hub.wait("A", 0, 30) is None  # a listener that comes later returns at once
        return results

    assert run_guarded(main) == [None, None, None]


def test_a_cancelled_listener_removes_only_its_own_event():
    async def main() -> None:
        hub = RoomHub()
        got: list = []
        leaving = anyio.CancelScope()

        async def stays() -> None:
            got.append(await hub.wait("A", 0, 30))

        async def leaves() -> None:
            with leaving:
                await hub.wait("A", 0, 30)

        async with anyio.create_task_group() as tg:
            tg.start_soon(stays)
            tg.start_soon(leaves)
            await until(lambda: hub.listeners("A") == 2)
            leaving.cancel()
            await until(lambda: hub.listeners("A") == 1)
            hub.publish("A", 1, {"what": "join"}, deadline=None)
        assert got == [(1, {"what": "join"})]
        assert hub.listeners() == 0

    run_guarded(main)


def test_a_change_wakes_only_its_rooms_listeners_and_a_late_older_version_is_dropped():
    async def main() -> None:
        hub = RoomHub()
        woke: list = []

        async def listener(code: str) -> None:
            woke.append((code, await hub.wait(code, 0, 0.5)))

        async with anyio.create_task_group() as tg:
            tg.start_soon(listener, "A")
            tg.start_soon(listener, "B")
            await until(lambda: hub.listeners() == 2)
            assert hub.publish("A", 5, {"what": "words"}, deadline=None)
            await until(lambda: len(woke) == 1)
            assert woke == [("A", (5, {"what": "words"}))]
            assert hub.listeners("B") == 1  # B's phone was not woken
        assert woke[1] == ("B", None)  # ... and timed out
        assert not hub.publish("A", 4, {"what": "join"}, deadline=123.0)  # committed before 5, published after
        assert hub.latest("A") == (5, {"what": "words"}) and hub.deadline("A") is None

    run_guarded(main)


def test_rooms_nobody_listens_to_are_forgotten_beyond_the_cap():
    async def main() -> None:
        hub = RoomHub(max_idle_rooms=2)
        async with anyio.create_task_group() as tg:
            tg.start_soon(hub.wait, "A", 0, 30)
            await until(lambda: hub.listeners("A") == 1)
            for code in ("B", "C", "D"):
                hub.publish(code, 1, {"what": "create"}, deadline=None)
            assert hub.latest("A") is None and hub.listeners("A") == 1  # listened to: kept
            assert hub.latest("B") is None and hub.latest("D") == (1, {"what": "create"})
            hub.close()

    run_guarded(main)


# ---- the stream ---------------------------------------------------------------------------------

def _events(chunks: list[str]) -> list[int]:
    return [int(c.split("id: ")[1].split("\n")[0]) for c in chunks if c.startswith("event: room")]


async def _listen(hub: RoomHub, code: str, version: int, expire, until_version: int, out: list[str],
                  **kw) -> None:
    async with contextlib.aclosing(room_events(hub, code, version, expire, **kw)) as stream:
        async for chunk in stream:
            out.append(chunk)
            if _events(out) and _events(out)[-1] >= until_version:
                return


def test_at_the_deadline_one_listener_locks_the_lists_and_every_stream_announces_it():
    async def main() -> tuple[int, list[list[str]]]:
        hub = RoomHub()
        hub.publish("A", 3, {"what": "start"}, deadline=time.time() + 0.3)
        calls = []

        async def expire() -> None:  # what the events handler does: lock in a worker thread, then publish
            calls.append(1)
            await anyio.sleep(0.05)
            hub.publish("A", 4, {"what": "lock", "by": "timer"}, deadline=None)

        outs: list[list[str]] = [[] for _ in range(5)]
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                for out in outs:
                    tg.start_soon(_listen, hub, "A", 3, expire, 4, out)
        return len(calls), outs

    calls, outs = run_guarded(main)
    assert calls == 1
    for out in outs:
        assert _events(out) == [3, 4] and '"by": "timer"' in out[-1]


def test_a_lock_that_did_not_happen_is_tried_again_by_a_listener():
    async def main() -> tuple[int, list[list[str]]]:
        hub = RoomHub()
        hub.publish("A", 3, {"what": "start"}, deadline=time.time() + 0.1)
        calls = []

        async def expire() -> None:
            calls.append(1)
            if len(calls) == 2:  # the first time, the database did not find the round due yet
                hub.publish("A", 4, {"what": "lock", "by": "timer"}, deadline=None)

        outs: list[list[str]] = [[] for _ in range(3)]
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                for out in outs:
                    tg.start_soon(_listen, hub, "A", 3, expire, 4, out)
        return len(calls), outs

    calls, outs = run_guarded(main)
    assert calls == 2 and all(_events(out) == [3, 4] for out in outs)


def test_the_stream_ends_when_the_hub_closes_or_the_room_is_gone():
    async def main() -> tuple[list[str], list[str]]:
        hub = RoomHub()
        hub.publish("A", 1, {"what": "create"}, deadline=None)
        hub.publish("B", 1, {"what": "start"}, deadline=time.time() - 1)

        async def gone() -> None:
            raise RoomNotFound("no room with that code")

        a: list[str] = []
        b: list[str] = []
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                tg.start_soon(_listen, hub, "A", 1, gone, 99, a)
                tg.start_soon(_listen, hub, "B", 1, gone, 99, b)  # past its deadline: expire() says gone
                await until(lambda: hub.listeners("A") == 1)
                hub.close()
        return a, b

    a, b = run_guarded(main)
    assert a[0].startswith("retry:") and _events(a) == [1] and _events(b) == [1]


def test_a_silent_stream_sends_keep_alive_comments():
    async def main() -> list[str]:
        hub = RoomHub()
        out: list[str] = []

        async def nothing() -> None:
            pass

        with anyio.move_on_after(20):
            async with contextlib.aclosing(room_events(hub, "A", 1, nothing, keepalive_s=0.05)) as stream:
                async for chunk in stream:
                    out.append(chunk)
                    if out.count(": keep-alive\n\n") == 2:
                        break
        return out

    assert run_guarded(main).count(": keep-alive\n\n") == 2


# ---- over a real socket -------------------------------------------------------------------------

def test_streams_reset_together_leave_every_change_answered(tmp_path, scanner_factory, dictionary):
    """Ten streams reset at the same moment leave every later change answered (a lock
    held across the listeners' waits would leave them unanswered, and SIGTERM ignored)."""
    from boggle_cv.web import ServeConfig, create_app

    from .conftest import LiveServer
    from .serving import open_streams, read_until, request, storms

    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), scanner_factory, dictionary)
    hub = app.state.room_hub
    with LiveServer(app) as live:
        status, doc = request(live.port, "POST", "/api/rooms")
        assert status == 201
        code = doc["code"]
        held = open_streams(live.port, code, 1)[0]  # a phone that stays
        read_until(held, b'"what": "hello"')
        storms(live.port, code, doc["host_token"])  # phones dropping off the Wi-Fi together, each change answered
        assert request(live.port, "POST", "/api/rooms", timeout=10)[0] == 201  # answered at all
        assert request(live.port, "POST", f"/api/rooms/{code}/players", {"name": "Ann"}, timeout=10)[0] == 201
        read_until(held, b'"what": "join"')  # the phone that stayed hears the change
        end = time.monotonic() + 10
        while hub.listeners(code) != 1 and time.monotonic() < end:  # the reset streams left the hub
            time.sleep(0.05)
        assert hub.listeners(code) == 1
        held.close()


def test_at_a_real_rounds_deadline_the_lists_are_locked_once_and_every_phone_hears_it(tmp_path, scanner_factory,
                                                                                       dictionary):
    from boggle_cv.room.db import RoomDB
    from boggle_cv.room.service import RoomLimits, RoomService
    from boggle_cv.web import ServeConfig, create_app

    from .conftest import LiveServer
    from .serving import open_streams, read_until, request

    class Counting(RoomService):
        expires: list[tuple[float, bool]] = []  # (when, locked); views call it too

        def expire(self, code):
            got = super().expire(code)
            self.expires.append((self.clock(), got is not None))
            return got

    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), scanner_factory, dictionary)
    svc = app.state.rooms = Counting(RoomDB(tmp_path / "g.db"), dictionary, limits=RoomLimits(seconds=(1, 3600)))
    with LiveServer(app) as live:
        status, doc = request(live.port, "POST", "/api/rooms", {"seconds": None})
        assert status == 201
        code, host = doc["code"], doc["host_token"]
        phones = open_streams(live.port, code, 5)
        for s in phones:
            read_until(s, b'"what": "hello"')
        assert request(live.port, "POST", f"/api/rooms/{code}/rounds", {"seconds": 1}, host)[0] == 201
        for s in phones:
            got = read_until(s, b'"by": "timer"', timeout=20)  # nobody tapped: the stream locked the lists
            assert got.count(b"event: room") == 2  # the start, then the lock
        r = svc.room(code).round
        assert r.phase == "locked" and r.locked_by == "timer"
        # one stream locked them; the four others did not even ask the database
        assert [locked for when, locked in svc.expires if when >= r.deadline] == [True]
        for s in phones:
            s.close()


def test_a_lock_that_raises_keeps_every_stream_open_and_is_tried_again():
    """A lock at the deadline that raised (the database busy for longer than its
    timeout) ended the stream that tried it in the middle of its chunked body: the
    phone's client read a protocol error (httpx: RemoteProtocolError). Now the stream
    goes on and the lock is tried again after EXPIRY_RETRY_S."""
    from boggle_cv.errors import StorageError
    from boggle_cv.web import live

    async def main() -> tuple[list[float], list[list[str]]]:
        hub = RoomHub()
        hub.publish("A", 3, {"what": "start"}, deadline=time.time() + 0.05)
        calls: list[float] = []

        async def expire() -> None:
            calls.append(anyio.current_time())
            if len(calls) == 1:
                raise StorageError("the database is busy", "try again in a moment", code="storage.busy")
            hub.publish("A", 4, {"what": "lock", "by": "timer"}, deadline=None)

        outs: list[list[str]] = [[] for _ in range(3)]
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                for out in outs:
                    tg.start_soon(_listen, hub, "A", 3, expire, 4, out)
        return calls, outs

    calls, outs = run_guarded(main)
    assert len(calls) == 2 and calls[1] - calls[0] >= live.EXPIRY_RETRY_S * 0.9
    assert all(_events(out) == [3, 4] for out in outs)
