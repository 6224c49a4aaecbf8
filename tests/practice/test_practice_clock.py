"""The practice clock: its bounds, the test clock, and words typed against it, with
a clock that never waits (a scripted player) and with real pipes (select)."""
from __future__ import annotations

import io
import os
import threading
import time

import pytest

from boggle_cv.errors import UsageError
from boggle_cv.practice.clock import (MAX_LINE_BYTES, FdLines, StreamLines, SystemClock, check_seconds, clock_from_env,
                                      clock_text, line_source, type_against_clock, usual_seconds)


def test_usual_times_follow_the_rules():
    assert usual_seconds(4) == usual_seconds(5) == 180 and usual_seconds(6) == 240
    assert check_seconds(None, 4) == 180 and check_seconds(None, 6) == 240
    assert check_seconds(2.5, 4) == 150 and check_seconds(60, 4) == 3600 and check_seconds(1 / 6, 4) == 10


@pytest.mark.parametrize("minutes", [0, 0.1, -3, 61, 180, 1e9, float("nan"), float("inf")])
def test_a_clock_of_zero_or_hours_is_refused(minutes):
    with pytest.raises(UsageError) as err:
        check_seconds(minutes, 4)
    line = err.value.one_line()
    assert "minute" in line and "\n" not in line


@pytest.mark.parametrize("seconds, text", [(180, "3:00"), (59.2, "1:00"), (0, "0:00"), (-4, "0:00"),
                                           (3600, "60:00"), (9.01, "0:10")])
def test_clock_text(seconds, text):
    assert clock_text(seconds) == text


def test_the_clock_speed_comes_from_the_environment():
    assert clock_from_env({}).speed == 1.0
    assert clock_from_env({"BOGGLE_CV_CLOCK_SPEED": "60"}).speed == 60.0
    fast = SystemClock(100.0)
    assert fast.real(180) == pytest.approx(1.8)
    t0 = fast.now()
    time.sleep(0.02)
    assert fast.now() - t0 >= 1.0  # 20 ms are 2 game seconds
    for bad in ("0", "-2", "fast", "nan", "1e6"):
        with pytest.raises(UsageError, match="BOGGLE_CV_CLOCK_SPEED"):
            clock_from_env({"BOGGLE_CV_CLOCK_SPEED": bad})


class FakeClock:
    """Game time that moves only when the scripted player waits."""

    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    def real(self, seconds: float) -> float:
        return seconds


class ScriptedPlayer:
    """Lines typed at given game seconds after the start ([(at, line)]), then the
    input ends at `eof_at` (None: never)."""

    def __init__(self, clock: FakeClock, script: list[tuple[float, str]], eof_at: float | None = None) -> None:
        self.clock, self.start = clock, clock.t
        self.script, self.eof_at = list(script), eof_at
        self.discarded = False

    def read_line(self, timeout: float) -> str | None:
        now = self.clock.t
        due = self.script[0][0] + self.start if self.script else None
        eof = self.eof_at + self.start if self.eof_at is not None else None
        nxt = min(x for x in (due, eof) if x is not None) if (due is not None or eof is not None) else None
        if nxt is None or nxt > now + timeout:
            self.clock.t = now + timeout
            return None
        self.clock.t = max(now, nxt)
        if due is not None and nxt == due:
            return self.script.pop(0)[1]
        raise EOFError

    def discard_pending(self) -> None:
        self.discarded = True


def events(log):
    return lambda event, left, count: log.append((event, round(left, 3), count))


def test_words_typed_before_the_end_count_and_after_it_not():
    clock = FakeClock()
    player = ScriptedPlayer(clock, [(5, "cat"), (70, "dog sat"), (179.5, "last"), (181, "late")])
    log: list = []
    typed = type_against_clock(player, clock, 180, events(log))
    assert typed.lines == ["cat", "dog sat", "last"] and typed.ended == "clock" and typed.seconds == 180
    assert player.discarded  # pens down: what was typed after the end is dropped
    assert clock.t - 1000.0 <= 181  # the clock did not wait for the late line
    assert [e for e in log if e[0] == "notice"] == [("notice", 60.0, 3), ("notice", 10.0, 3)]
    assert log[0] == ("prompt", 180, 0) and log[-1] == ("up", 0.0, 4)


def test_the_count_is_of_words_as_the_list_reads_them_not_of_lines():
    """"x y" and "a, b; c" add the words the report will list; a blank line or one of
    spaces and commas adds none."""
    clock = FakeClock()
    log: list = []
    player = ScriptedPlayer(clock, [(5, "x y"), (6, ""), (7, " , ;"), (8, "a, b; c"), (9, '"cat".')])
    type_against_clock(player, clock, 180, events(log))
    assert [e[2] for e in log if e[0] == "prompt"] == [0, 2, 2, 2, 5, 6]


def test_the_end_of_the_input_ends_the_round_early():
    clock = FakeClock()
    typed = type_against_clock(ScriptedPlayer(clock, [(3, "cat")], eof_at=20), clock, 180, events([]))
    assert typed.lines == ["cat"] and typed.ended == "input" and typed.seconds == pytest.approx(20)


def test_a_short_clock_has_no_minute_notice():
    clock = FakeClock()
    log: list = []
    type_against_clock(ScriptedPlayer(clock, []), clock, 30, events(log))
    assert [e[1] for e in log if e[0] == "notice"] == [10.0]


def test_pipe_lines_wait_with_a_timeout_and_end_with_the_writer():
    r, w = os.pipe()
    try:
        lines = FdLines(r)
        t0 = time.monotonic()
        assert lines.read_line(0.05) is None
        assert time.monotonic() - t0 >= 0.04
        os.write(w, "cat\ndo".encode())
        assert lines.read_line(1.0) == "cat"
        assert lines.read_line(0.05) is None  # half a line is not a line yet
        os.write(w, "g\r\n".encode() + b"\xff\xfe bad\n" + b"x" * (MAX_LINE_BYTES * 3) + b"\nend")
        assert lines.read_line(1.0) == "dog"
        assert lines.read_line(1.0) == "\ufffd\ufffd bad"
        assert lines.read_line(1.0) == "x" * MAX_LINE_BYTES
        os.close(w)
        w = -1
        assert lines.read_line(1.0) == "end"
        with pytest.raises(EOFError):
            lines.read_line(1.0)
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_a_real_pipe_against_a_fast_clock():
    """A player typing into a pipe while a 3-minute clock runs 300 times faster (0.6 s):
    the words sent in time count, the one sent after the end does not, and the round
    ends with the clock although the pipe stays open."""
    r, w = os.pipe()
    clock = SystemClock(300.0)

    def player() -> None:
        os.write(w, b"pert\n")
        time.sleep(0.05)
        os.write(w, b"last, sire\n")
        time.sleep(1.5)  # well after the end, however busy the machine
        os.write(w, b"late\n")

    thread = threading.Thread(target=player)
    try:
        thread.start()
        t0 = time.monotonic()
        typed = type_against_clock(FdLines(r), clock, 180, events([]))
        took = time.monotonic() - t0
        assert typed.lines == ["pert", "last, sire"] and typed.ended == "clock"
        assert 0.55 <= took < 10  # ended by the clock, not by the pipe (open until the player is done)
    finally:
        thread.join()
        os.close(w)
        os.close(r)


def test_streams_without_a_descriptor_are_read_line_by_line():
    src = line_source(io.StringIO("cat\ndog\n"))
    assert isinstance(src, StreamLines)
    clock = FakeClock()
    typed = type_against_clock(src, clock, 180, events([]))
    assert typed.lines == ["cat", "dog"] and typed.ended == "input"
