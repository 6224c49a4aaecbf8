"""The practice clock: how long a round lasts, and words typed against it.

A round lasts the size's usual time (RULES.md: 3 minutes, 4 on 6x6) or what the
player chose, from MIN_SECONDS to MAX_SECONDS. Time comes from a `Clock`:
`now()` in game seconds and `real(s)`, how many real seconds `s` game seconds last,
so that a test (or a demo) runs a three-minute round in a moment
(`$BOGGLE_CV_CLOCK_SPEED`: time runs that many times faster) and a unit test drives
a `Clock` of its own with no waiting at all.

`type_against_clock` reads lines from a `LineSource` until the time is up or the
input ends: `FdLines` waits on a file descriptor with select(2) (a terminal, a
pipe), `StreamLines` reads any text stream (no wait possible: it ends with the
stream).
"""
from __future__ import annotations

import os
import select
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from ..errors import UsageError

#: The shortest and longest clock of a practice round, in seconds (the room's timer
#: takes the same range).
MIN_SECONDS = 10
MAX_SECONDS = 3600
#: Seconds left at which the player is told the time (a minute, ten seconds).
NOTICES = (60, 10)
#: Environment variable: game time runs this many times faster (1 to 10000; tests, demos).
SPEED_ENV = "BOGGLE_CV_CLOCK_SPEED"
_SPEED_RANGE = (1.0, 10_000.0)
#: Longest line a player may type (bytes); the rest of a longer one is dropped.
MAX_LINE_BYTES = 4096
#: Most bytes read from the player during one round (a list of a round is a few KB).
MAX_INPUT_BYTES = 1024 * 1024


def usual_seconds(size: int) -> int:
    """The size's usual clock (RULES.md): 3 minutes, 4 on a 6x6 board."""
    return 240 if size >= 6 else 180


def clock_text(seconds: float) -> str:
    """180 -> "3:00", 59.2 -> "1:00" (whole seconds, rounded up), 3600 -> "60:00"."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def check_seconds(minutes: float | None, size: int) -> int:
    """The round's clock in whole seconds: `minutes` (None: the size's usual time).
    UsageError (exit 2) for a clock of zero, below MIN_SECONDS or above MAX_SECONDS."""
    if minutes is None:
        return usual_seconds(size)
    if minutes != minutes or minutes in (float("inf"), float("-inf")):
        raise UsageError(f"--minutes {minutes} is not a number of minutes", "e.g. --minutes 3 or --minutes 2.5")
    seconds = round(minutes * 60)
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise UsageError(f"a clock of {minutes:g} minute{'s' if minutes != 1 else ''} is not a round",
                         f"the clock runs from {MIN_SECONDS} seconds (--minutes {MIN_SECONDS / 60:.2f}) "
                         f"to {MAX_SECONDS // 60} minutes; the usual time is {usual_seconds(size) // 60}")
    return seconds


class Clock(Protocol):
    """Where a round's time comes from."""

    def now(self) -> float:
        """Game seconds from any fixed origin, never going back."""

    def real(self, seconds: float) -> float:
        """How many real seconds `seconds` game seconds last."""


@dataclass(frozen=True)
class SystemClock:
    """time.monotonic, `speed` times faster (1: real time)."""

    speed: float = 1.0

    def now(self) -> float:
        return time.monotonic() * self.speed

    def real(self, seconds: float) -> float:
        return seconds / self.speed


def clock_from_env(environ: dict[str, str] | None = None) -> SystemClock:
    """The clock of a command: real time, or $BOGGLE_CV_CLOCK_SPEED times faster.
    UsageError (exit 2) for a value that is not a speed from 1 to 10000."""
    from ..files.env_settings import env_number
    low, high = _SPEED_RANGE
    speed = env_number(SPEED_ENV, low, high, "a speed", "unset it: the clock then runs in real time", environ)
    if speed is None:
        return SystemClock()
    return SystemClock(speed)


class LineSource(Protocol):
    """Lines the player types."""

    def read_line(self, timeout: float) -> str | None:
        """The next line (without its end), None when `timeout` real seconds passed
        first; EOFError at the end of the input."""

    def discard_pending(self) -> None:
        """Drop what was typed and not yet read (the time is up: pens down)."""


class FdLines:
    """Lines from a file descriptor (a terminal, a pipe), each read waited for with
    select(2) so that the clock can end the round while the player types. Bytes are
    UTF-8 (a bad byte becomes U+FFFD); a line over MAX_LINE_BYTES keeps its start;
    past MAX_INPUT_BYTES in all, the input counts as ended."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buf = b""
        self._eof = False
        self._total = 0

    def _take_line(self) -> str | None:
        end = self._buf.find(b"\n")
        if end < 0:
            if self._eof and self._buf:
                end = len(self._buf)
            else:
                return None
        raw, self._buf = self._buf[:end], self._buf[end + 1:]
        return raw[:MAX_LINE_BYTES].decode("utf-8", "replace").rstrip("\r")

    def read_line(self, timeout: float) -> str | None:
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._eof:
                raise EOFError
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            self._total += len(chunk)
            if not chunk or self._total > MAX_INPUT_BYTES:
                self._eof = True
            else:
                self._buf += chunk  # bounded by MAX_INPUT_BYTES; each line is cut when taken

    def discard_pending(self) -> None:
        self._buf = b""
        try:
            import termios
            if os.isatty(self.fd):
                termios.tcflush(self.fd, termios.TCIFLUSH)
        except (ImportError, OSError):
            pass


class StreamLines:
    """Lines of a text stream without a descriptor to wait on (a test's StringIO): no
    time limit can stop a read, so the round ends with the stream or the clock,
    checked between lines."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._total = 0

    def read_line(self, timeout: float) -> str | None:
        line = self.stream.readline(MAX_LINE_BYTES)
        self._total += len(line)
        if not line or self._total > MAX_INPUT_BYTES:
            raise EOFError
        return line.rstrip("\r\n")

    def discard_pending(self) -> None:
        pass


def line_source(stream: TextIO) -> LineSource:
    """FdLines on the stream's descriptor where select(2) can wait on it (POSIX),
    StreamLines otherwise."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return StreamLines(stream)
    if os.name != "posix":
        return StreamLines(stream)
    return FdLines(fd)


@dataclass
class Typed:
    """What the player typed in one round: the lines in order, why the typing ended
    ("clock": the time was up; "input": the input ended first, Ctrl-D), and the game
    seconds it took."""

    lines: list[str] = field(default_factory=list)
    ended: str = "clock"
    seconds: float = 0.0


#: show(event, seconds_left, words_so_far): "prompt" (ready for a line), "notice" (a
#: minute or ten seconds left), "up" (the time is up).
Show = Callable[[str, float, int], None]


def words_on(line: str) -> int:
    """How many entries a typed line adds to the player's list: its tokens, as the
    list is read (``wordlists.tokenise``: "cat, dog" two, a blank line none)."""
    from ..game.wordlists import tokenise
    return len(tokenise(line))


def type_against_clock(source: LineSource, clock: Clock, seconds: float, show: Show) -> Typed:
    """Read lines until `seconds` of `clock` have passed or the input ends; tells
    `show` when to prompt, when a notice is due and when the time is up, with the
    words typed so far (``words_on``: the entries the list will hold)."""
    start = clock.now()
    words = 0
    end = start + seconds
    notices = sorted((n for n in NOTICES if n < seconds), reverse=True)
    typed = Typed()
    show("prompt", seconds, 0)
    while True:
        left = end - clock.now()
        if left <= 0:
            break
        while notices and notices[0] >= left:  # passed already (a slow line)
            notices.pop(0)
        mark = notices[0] if notices else 0.0
        try:
            line = source.read_line(clock.real(left - mark))
        except EOFError:
            typed.ended, typed.seconds = "input", min(seconds, clock.now() - start)
            return typed
        left = end - clock.now()
        if line is not None and left > 0:
            typed.lines.append(line)
            words += words_on(line)
            show("prompt", left, words)
        elif line is None and notices and left > 0 and left <= notices[0] + 1e-6:
            notices.pop(0)
            show("notice", left, words)
    source.discard_pending()
    typed.seconds = float(seconds)
    show("up", 0.0, words)
    return typed
