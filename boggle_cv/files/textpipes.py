"""Reading a pipe (a FIFO, or bash's process substitution `<(grep . list.txt)`) with a
bounded wait: the text sources of textfiles.py may be pipes, and a pipe whose writer
never writes, or never ends, must end the command with one error line, not hang it.

A pipe is opened non-blocking (a plain open of a FIFO waits for a writer forever),
then each read first waits, with poll(2), for bytes or for the writer's end, until
one deadline for the whole source: ``pipe_wait_s()`` seconds after it was opened
(``DEFAULT_PIPE_WAIT_S``, or ``$BOGGLE_CV_PIPE_WAIT_S``). Past it: WordListError
(exit 2) saying whether nothing came at all or the writer did not finish.

On Linux a FIFO opened this way before any writer reports neither data nor an end
until a writer has come (and gone), so "no writer yet" waits, as it should; a
process substitution's pipe whose writer already ended reads its bytes, then its end,
at once.
"""
from __future__ import annotations

import os
import select
import time

from ..errors import UsageError, WordListError

#: Seconds a pipe may take from its opening to its end (its writer's last byte and
#: close): `<(grep . list.txt)` takes milliseconds, `<(ssh host cat list)` seconds.
DEFAULT_PIPE_WAIT_S = 30.0
#: Environment variable that sets another wait, in seconds (0.1 to 3600).
PIPE_WAIT_ENV = "BOGGLE_CV_PIPE_WAIT_S"
_WAIT_RANGE_S = (0.1, 3600.0)


def pipe_wait_s() -> float:
    """Seconds a pipe may take to end: $BOGGLE_CV_PIPE_WAIT_S, else DEFAULT_PIPE_WAIT_S.
    UsageError (exit 2) for a value that is not a number of seconds in range."""
    from .env_settings import env_number
    low, high = _WAIT_RANGE_S
    value = env_number(PIPE_WAIT_ENV, low, high, "a number of seconds",
                       f"unset it for the default {DEFAULT_PIPE_WAIT_S:g} s")
    return DEFAULT_PIPE_WAIT_S if value is None else value


def _wait_readable(fd: int, timeout_s: float) -> bool:
    """True once `fd` has bytes or its writer's end to read, False after `timeout_s`."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(max(0, int(timeout_s * 1000 + 0.999))))
    ready, _, _ = select.select([fd], [], [], max(0.0, timeout_s))
    return bool(ready)


class PipeReader:
    """A pipe opened non-blocking (``fd``, owned: close() closes it), read as a stream
    whose every read waits at most until the deadline (opening + `wait_s` seconds).

    read(n) returns up to n bytes, b"" at the writer's end; WordListError past the
    deadline. `label` names the source in that error ("word list /dev/fd/63").
    """

    def __init__(self, fd: int, label: str, wait_s: float) -> None:
        self._fd = fd
        self._label = label
        self._wait_s = wait_s
        self._deadline = time.monotonic() + wait_s
        self._got = 0  # bytes read so far

    def read(self, n: int, /) -> bytes:
        while True:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise self._late()
            if not _wait_readable(self._fd, left):
                continue  # the deadline is checked again above
            try:
                chunk = os.read(self._fd, n)
            except BlockingIOError:  # woken, but another reader took the bytes
                continue
            self._got += len(chunk)
            return chunk

    def _late(self) -> WordListError:
        wait = f"{self._wait_s:g} s"
        hint = (f"the program writing it must finish within {wait} ({PIPE_WAIT_ENV} sets the wait), "
                "or save the list to a file")
        if self._got == 0:
            return WordListError(f"{self._label} is a pipe that nothing was written to within {wait}", hint)
        return WordListError(f"{self._label} is a pipe whose writer did not finish within {wait} "
                             f"({self._got} bytes came)", hint)

    def close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)
