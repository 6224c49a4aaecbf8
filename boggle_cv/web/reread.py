"""Sheet words read again when a round's board becomes known or changes
(docs/web.md, "Paper lists").

A sheet photographed before the board is known is read against the edition's whole
dictionary; the board's lexicon (its words and every dictionary word one edit away)
reads handwriting better. So when the board changes (the tray's photo read, a board
typed, a cell fixed), every word a sheet added that is still the reader's (nobody
confirmed or typed it; sure or doubtful) and was read against another lexicon is read
again from its stored image (48 px grey WebP) against the new board's, in the
server's photo readers, and applied in one room transaction that changes only a word
still as it was (service.apply_reread): a word a person confirmed or typed is never
changed.

`Rereads` runs these in the background, in a task group that lives with the app
(its lifespan): a handler asks with a plain call (`request`, no await), at most one
re-read runs per room, a change while one runs asks for one more after it (the first
one's results are refused if the board moved meanwhile), and a re-read's errors (and
its time limit) are logged and dropped: the room is as it was.
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import anyio.abc

log = logging.getLogger("boggle_cv.web")

#: Words read again in one call of the photo readers (a sheet photo waiting behind a
#: re-read waits for one such batch at most).
BATCH = 64
#: A re-read (plan, read, apply) that takes longer is abandoned (s).
TIMEOUT_S = 300.0


class Rereads:
    """Background re-reads of rooms' sheet words. run(code): one re-read of room
    `code` (reread_room, bound to the app's state)."""

    def __init__(self, run: Callable[[str], Awaitable[Any]], timeout_s: float = TIMEOUT_S) -> None:
        self._run, self.timeout_s = run, timeout_s
        self._group: anyio.abc.TaskGroup | None = None
        self._running: set[str] = set()
        self._again: set[str] = set()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The app's lifespan: re-reads run while the server does; at its end the
        re-reads still running are cancelled (nothing half-applied: one transaction)."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()

    def request(self, code: str) -> None:
        """Re-read room `code`'s sheet words now, or again after the one running."""
        if self._group is None:  # no lifespan (an app called without it): nothing runs in the background
            log.debug("no background tasks: room %s's sheet words are not read again", code)
            return
        if code in self._running:
            self._again.add(code)
            return
        self._running.add(code)
        self._group.start_soon(self._loop, code)

    def busy(self) -> bool:
        """True while a re-read runs or waits (tests wait for it)."""
        return bool(self._running)

    async def _loop(self, code: str) -> None:
        try:
            while True:
                self._again.discard(code)
                try:
                    with anyio.fail_after(self.timeout_s):
                        await self._run(code)
                except Exception:  # a re-read never takes the server down: logged, dropped
                    log.exception("reading room %s's sheet words again failed; they stay as they were", code)
                if code not in self._again:
                    return
        finally:
            self._running.discard(code)
            self._again.discard(code)


async def reread_room(state: Any, code: str) -> int:
    """One re-read of room `code` (state: the app's state: rooms, lexicons, web,
    room_hub): the words to read (service.reread_plan), the board's lexicon
    (sheets.Lexicons), the readings (WebState.read_words, in batches of BATCH), applied
    (service.apply_reread) and told to the room's phones; how many words were read."""
    svc = state.rooms
    plan = await anyio.to_thread.run_sync(svc.reread_plan, code)
    if plan is None:
        return 0
    lexicon = await anyio.to_thread.run_sync(state.lexicons.get, plan.board, plan.lang)
    readings: list[Any] = []
    for at in range(0, len(plan.images), BATCH):
        readings += await state.web.read_words(plan.images[at:at + BATCH], lexicon, plan.lang)
    room = await anyio.to_thread.run_sync(svc.apply_reread, code, plan, readings)
    if room is not None:
        state.room_hub.publish_room(room)
    return len(plan.items)
