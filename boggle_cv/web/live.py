"""Live changes of rooms: one hub per server that wakes the listeners of a room when
its version moves, and the server-sent-events stream built on it.

The stream carries no secrets (a room's version, what changed and who did it): a
phone then fetches the room with its own token. A phone that loses the stream
(EventSource reconnects by itself) or cannot open one polls the room instead.

Design (docs/web.md, "The live stream"): every waiting listener owns one
anyio.Event, kept in its room's set; publish() and close() are plain functions that
set events (no await, no lock), so a publisher can never wait on a listener, and a
listener that is cancelled (its phone dropped off the Wi-Fi) removes only its own
event in a `finally`. The hub also keeps each room's round deadline, as published
with the room, so a stream sleeps until then without reading the database; at the
deadline one listener of the room (the one that claims the expiry) locks the lists
and publishes the change, which wakes the others.
"""
from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from ..errors import BoggleError, RoomNotFound

if TYPE_CHECKING:
    from ..room.model import Room

#: Seconds between keep-alive comments (proxies and phones drop silent streams).
KEEPALIVE_S = 15.0
#: Seconds a stream waits past the deadline before it locks the lists (and the least
#: it waits between two tries, so that a clock that disagrees cannot make it spin).
AFTER_DEADLINE_S = 0.05
#: Seconds before the lists are tried again when locking them failed (the database
#: busy or out of reach): the streams stay open meanwhile.
EXPIRY_RETRY_S = 1.0
#: Rooms the hub remembers with no listener (the least recently changed are
#: forgotten first; a new stream tells the hub its room again).
MAX_IDLE_ROOMS = 4096

Change = tuple[int, dict[str, Any]]


@dataclass
class _Room:
    """What the hub knows of one room: the latest published version and change, the
    round's deadline at that version (epoch seconds, None while no clock runs),
    whether a listener is locking the lists now, and the waiting listeners' events."""

    version: int = 0
    change: dict[str, Any] = field(default_factory=dict)
    deadline: float | None = None
    expiring: bool = False
    retry_at: float = 0.0
    waiting: set[anyio.Event] = field(default_factory=set)


class RoomHub:
    """The rooms' latest versions and their waiting listeners, for one event loop.

    Not thread-safe: every method is called from the server's event loop (handlers
    publish after their worker thread has committed). Nothing here awaits while
    holding shared state, so no listener or publisher can block another.
    """

    def __init__(self, max_idle_rooms: int = MAX_IDLE_ROOMS) -> None:
        self._rooms: OrderedDict[str, _Room] = OrderedDict()
        self.max_idle_rooms = max_idle_rooms
        self.closing = False

    def publish(self, code: str, version: int, change: dict[str, Any], *, deadline: float | None) -> bool:
        """Room `code` is at `version` after `change`; `deadline` is its round's deadline
        (epoch s) when a clock runs, else None. Wakes the room's listeners when the
        version is newer than the hub knew (an older one, published late, is dropped);
        True then."""
        room = self._room(code)
        if version <= room.version:
            return False
        room.version, room.change, room.deadline = version, change, deadline
        self._rooms.move_to_end(code)
        _wake(room)
        return True

    def publish_room(self, room: Room) -> None:
        """Tell `room`'s live streams of a committed change (its version, last change
        and, while its round's clock runs, the deadline)."""
        r = room.round
        self.publish(room.code, room.version, room.last_change, deadline=r.deadline if r.phase == "playing" else None)

    def close(self) -> None:
        """The server is stopping: every listener returns at once and its stream ends."""
        self.closing = True
        for room in self._rooms.values():
            _wake(room)

    def latest(self, code: str) -> Change | None:
        """The room's latest published (version, change), None if none was."""
        room = self._rooms.get(code)
        return None if room is None or room.version == 0 else (room.version, room.change)

    def deadline(self, code: str) -> float | None:
        """The round's deadline (epoch s) at the latest published version, or None."""
        room = self._rooms.get(code)
        return None if room is None else room.deadline

    def version(self, code: str) -> int:
        """The room's latest published version (0 if none was)."""
        room = self._rooms.get(code)
        return 0 if room is None else room.version

    def watched(self) -> list[str]:
        """The rooms that have waiting listeners now."""
        return [code for code, room in self._rooms.items() if room.waiting]

    def listeners(self, code: str | None = None) -> int:
        """Listeners waiting now (in one room, or in all)."""
        rooms = self._rooms.values() if code is None else [self._rooms[code]] if code in self._rooms else []
        return sum(len(r.waiting) for r in rooms)

    def claim_expiry(self, code: str) -> bool:
        """True for the one caller that may lock the room's lists now (until it calls
        release_expiry); False while another caller holds the claim, or until the
        retry time of a failed lock."""
        room = self._rooms.get(code)
        if room is None or room.expiring or anyio.current_time() < room.retry_at:
            return False
        room.expiring = True
        return True

    def retry_in(self, code: str) -> float:
        """Seconds until the room's lists may be tried again after a failed lock (0: now)."""
        room = self._rooms.get(code)
        return 0.0 if room is None else max(0.0, room.retry_at - anyio.current_time())

    def expiring(self, code: str) -> bool:
        """Whether a listener is locking the room's lists now."""
        room = self._rooms.get(code)
        return room is not None and room.expiring

    def release_expiry(self, code: str, failed: bool = False) -> None:
        """End a claim (whether or not the lists were locked); the room's listeners
        look again, so that another takes over if the lock did not happen (failed:
        the lock raised; no claim is granted for EXPIRY_RETRY_S)."""
        room = self._rooms.get(code)
        if room is not None:
            room.expiring = False
            if failed:
                room.retry_at = anyio.current_time() + EXPIRY_RETRY_S
            _wake(room)

    async def wait(self, code: str, after: int, timeout: float) -> Change | None:
        """The room's (version, change) once its version passes `after`; None after
        `timeout` seconds, when the hub closes, or when woken with nothing newer (the
        round's deadline or its expiry claim changed: the caller looks again)."""
        room = self._room(code)
        if not self.closing and room.version <= after:
            event = anyio.Event()
            room.waiting.add(event)
            try:
                with anyio.move_on_after(timeout):
                    await event.wait()
            finally:  # runs on cancellation too; touches this listener's event only
                room.waiting.discard(event)
        if self.closing or room.version <= after:
            return None
        return room.version, room.change

    def _room(self, code: str) -> _Room:
        """The room's entry, made (after forgetting idle rooms) if the hub had none."""
        room = self._rooms.get(code)
        if room is None:
            self._forget_idle()
            room = self._rooms[code] = _Room()
        return room

    def _forget_idle(self) -> None:
        """Make room for one more entry: forget the least recently changed rooms that
        nobody listens to, beyond max_idle_rooms."""
        extra = len(self._rooms) + 1 - self.max_idle_rooms
        if extra <= 0:
            return
        idle = [c for c, r in self._rooms.items() if not r.waiting and not r.expiring]
        for code in idle[:extra]:
            del self._rooms[code]


def _wake(room: _Room) -> None:
    for event in room.waiting:
        event.set()


async def room_events(hub: RoomHub, code: str, version: int, expire: Callable[[], Awaitable[None]],
                      clock: Callable[[], float] = time.time,
                      keepalive_s: float = KEEPALIVE_S) -> AsyncIterator[str]:
    """The text/event-stream of one listener: the current version first, then each
    change; a keep-alive comment after `keepalive_s` seconds of silence. At the
    round's deadline (the hub's, compared with `clock`, epoch s) one listener of the
    room calls expire(), which locks the lists if they are due and publishes the
    room to the hub; every listener then announces the change. A lock that fails
    (the database busy or out of reach: a BoggleError) is tried again after
    EXPIRY_RETRY_S, and the stream goes on: an exception here would end the response
    in the middle of its chunked body, which a client reads as a protocol error
    (httpx: RemoteProtocolError). Ends when the hub closes or the room is gone."""
    yield "retry: 2000\n\n"
    yield _event(version, {"what": "hello"})
    ping_at = anyio.current_time() + keepalive_s
    while not hub.closing:
        due = hub.deadline(code)
        wait = ping_at - anyio.current_time()
        if due is not None and not hub.expiring(code):
            wait = min(wait, max(AFTER_DEADLINE_S, due - clock() + AFTER_DEADLINE_S, hub.retry_in(code)))
        got = await hub.wait(code, version, max(0.0, wait))
        if hub.closing:
            return  # the server is stopping; EventSource reconnects to the next one
        if got is not None:
            version = got[0]
            yield _event(*got)
            ping_at = anyio.current_time() + keepalive_s
            continue
        due = hub.deadline(code)
        if due is not None and clock() >= due and hub.claim_expiry(code):
            failed = False
            try:
                await expire()
            except RoomNotFound:
                return  # the room is gone: the phone's reconnection is told so (404)
            except BoggleError:
                failed = True  # the lists are locked by the next try, here or in another listener
            finally:
                hub.release_expiry(code, failed)
        if anyio.current_time() >= ping_at:
            yield ": keep-alive\n\n"
            ping_at = anyio.current_time() + keepalive_s


def _event(version: int, change: dict[str, Any]) -> str:
    return f"event: room\nid: {version}\ndata: {json.dumps({'version': version, 'change': change})}\n\n"
