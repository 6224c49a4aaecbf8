"""A progress bar on stderr that stays out of the way of every other line.

`progress_bar(what, total)` draws one line on stderr (`scanning 2/5 ━━━━━━────── 40%
0:03`) when stderr is a terminal and there is something to count; nothing at all
otherwise, so a log, a pipe and a file never hold one. While the bar is up, the
process's stdout and stderr go through `ClearFirst`: before any text reaches the
screen the bar's line is erased, and once the text has ended its line the bar is
drawn again below it. A report, an error or a warning printed meanwhile starts on a
clean line, and the bar is gone when the block ends (or is left by an error or a
Ctrl-C). The bar is drawn by the thread that counts and by a clock thread (the
seconds go on while one photo takes long), one at a time under one lock.
"""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from .terminal import columns, is_terminal

#: Seconds between two redraws of the clock.
TICK_S = 0.5
#: Characters of the bar itself when the terminal is too narrow for a longer one.
SHORTEST_BAR = 10
#: Erase the cursor's line and go to its start.
ERASE = "\r\x1b[2K"


class Bar:
    """One line of progress on the terminal `out` (stderr): what, done/total, a bar,
    the share done and the time since it began. Callers hold `lock` around draw and
    clear (ClearFirst and the clock thread do)."""

    def __init__(self, what: str, total: int, out: TextIO) -> None:
        self.what, self.total, self.done = what, total, 0
        self.out = out
        self.lock = threading.RLock()
        self.start = time.monotonic()
        self.drawn = False
        self.mid_line = False  # some text ended without its newline: the bar waits for it
        unicode = "utf" in (getattr(out, "encoding", "") or "").lower()
        self.full, self.empty = ("\u2501", "\u2500") if unicode else ("#", "-")

    def line(self) -> str:
        """The bar's text, one column narrower than the terminal (no wrap at its edge)."""
        seconds = int(time.monotonic() - self.start)
        share = self.done / self.total if self.total else 1.0
        head = f"{self.what} {self.done}/{self.total} "
        tail = f" {share:4.0%}  {seconds // 60}:{seconds % 60:02d}"
        width = max(min(40, columns(self.out) - 1 - len(head) - len(tail)), SHORTEST_BAR)
        filled = round(width * share)
        return (head + self.full * filled + self.empty * (width - filled) + tail)[:columns(self.out) - 1]

    def draw(self) -> None:
        if self.mid_line:
            return
        self.out.write(ERASE + self.line())
        self.out.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            self.out.write(ERASE)
            self.out.flush()
            self.drawn = False


class ClearFirst:
    """A text stream (stdout or stderr) that erases `bar` before writing to the
    terminal and draws it again once the text ends its line. A stream that is not a
    terminal (stdout sent to a file) is written as it is: the screen does not see it."""

    def __init__(self, stream: TextIO, bar: Bar) -> None:
        self._stream = stream
        self._bar = bar
        self._on_screen = is_terminal(stream)

    def write(self, text: str) -> int:
        if not self._on_screen or not isinstance(text, str):
            return self._stream.write(text)
        with self._bar.lock:
            self._bar.clear()
            written = self._stream.write(text)
            self._stream.flush()
            if text:
                self._bar.mid_line = not text.endswith("\n")
            self._bar.draw()
            return written

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, errors, fileno, isatty, buffer...
        return getattr(self._stream, name)


@contextmanager
def progress_bar(what: str, total: int) -> Iterator[Callable[[int, int], None]]:
    """A progress callback (done, total). With stderr a terminal and `total` > 0 the
    bar is drawn (module docstring); otherwise the callback does nothing."""
    err = sys.stderr
    if not is_terminal(err) or total <= 0:
        yield lambda done, total: None
        return
    bar = Bar(what, total, err)
    stop = threading.Event()
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ClearFirst(sys.stdout, bar), ClearFirst(sys.stderr, bar)
    clock = threading.Thread(target=_tick, args=(bar, stop), name="progress-clock", daemon=True)

    def update(done: int, total: int) -> None:
        with bar.lock:
            bar.done, bar.total = done, total
            bar.draw()

    try:
        with bar.lock:
            bar.draw()
        clock.start()
        yield update
    finally:
        stop.set()
        with bar.lock:
            sys.stdout, sys.stderr = streams
            bar.clear()
        if clock.is_alive():
            clock.join()


def _tick(bar: Bar, stop: threading.Event) -> None:
    """Redraw the bar every TICK_S seconds (its clock) until `stop` is set."""
    while not stop.wait(TICK_S):
        with bar.lock:
            if not stop.is_set():
                bar.draw()
