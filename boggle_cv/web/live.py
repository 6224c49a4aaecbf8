"""Live changes of rooms: one hub per server that wakes every listener of a room when
its version moves, and the server-sent-events stream built on it.

The stream carries no secrets (a room's version, what changed and who did it): a
phone then fetches the room with its own token. A phone that loses the stream
(EventSource reconnects by itself) or cannot open one polls the room instead.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn


class RoomHub:
    """Versions of the rooms changed since the server started, and their waiters."""

    def __init__(self) -> None:
        self._versions: dict[str, tuple[int, dict[str, Any]]] = {}
        self._changed = asyncio.Condition()
        self.closing = False

    async def close(self) -> None:
        """The server is stopping: every listener returns at once and its stream ends."""
        async with self._changed:
            self.closing = True
            self._changed.notify_all()

    async def publish(self, code: str, version: int, change: dict[str, Any]) -> None:
        async with self._changed:
            if version > self._versions.get(code, (0, {}))[0]:
                self._versions[code] = (version, change)
            self._changed.notify_all()

    async def wait(self, code: str, after: int, timeout: float) -> tuple[int, dict[str, Any]] | None:
        """The room's (version, change) once its version passes `after`; None on timeout
        or when the hub closes."""
        def newer() -> bool:
            return self.closing or self._versions.get(code, (0, {}))[0] > after
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(newer), timeout)
            except asyncio.TimeoutError:
                return None
            return None if self.closing else self._versions[code]


#: Seconds between keep-alive comments (proxies and phones drop silent streams).
KEEPALIVE_S = 15.0


async def room_events(hub: RoomHub, code: str, version: int, deadline: Callable[[], Awaitable[float | None]],
                      expire: Callable[[], Awaitable[tuple[int, dict[str, Any]] | None]],
                      clock: Callable[[], float] = time.time) -> AsyncIterator[str]:
    """The text/event-stream of one listener: the current version first, then each
    change; at the round's deadline the lists are locked (expire()) and announced."""
    yield "retry: 2000\n\n"
    yield _event(version, {"what": "hello"})
    while True:
        due = await deadline()
        wait = KEEPALIVE_S if due is None else max(0.05, min(KEEPALIVE_S, due - clock() + 0.05))
        got = await hub.wait(code, version, wait)
        if hub.closing:
            return  # the server is stopping; EventSource reconnects to the next one
        if got is None and due is not None and clock() >= due:
            got = await expire()
        if got is None:
            yield ": keep-alive\n\n"
            continue
        version = got[0]
        yield _event(version, got[1])


def _event(version: int, change: dict[str, Any]) -> str:
    return f"event: room\nid: {version}\ndata: {json.dumps({'version': version, 'change': change})}\n\n"


def server_ending_streams(config: uvicorn.Config, hub: RoomHub) -> uvicorn.Server:
    """A uvicorn server that ends the rooms' live streams when it stops (Ctrl-C):
    uvicorn waits for open responses, and a phone's stream never ends by itself."""
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            await hub.close()
            await super().shutdown(sockets)

    return _Server(config)
