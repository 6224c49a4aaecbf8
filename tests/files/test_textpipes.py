"""Pipes as text sources (boggle_cv/files/textpipes.py): a FIFO or a process
substitution is read with a bounded wait instead of being refused; a writer that
never writes or never finishes ends in one WordListError after the wait.

Before: open_lines refused every FIFO ("is a FIFO (named pipe), not a regular file"),
so these tests failed with that error."""
from __future__ import annotations

import os
import threading
import time

import pytest

from boggle_cv.errors import UsageError, WordListError
from boggle_cv.files.textfiles import DICTIONARY, WORD_LIST, TextLimit, open_lines
from boggle_cv.files.textpipes import DEFAULT_PIPE_WAIT_S, PIPE_WAIT_ENV, pipe_wait_s

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")

#: The wait of the tests where a writer fails; the others keep the default 30 s, so
#: that a loaded machine (a writer thread scheduled late) cannot fail them.
WAIT_S = 1.0


@pytest.fixture()
def fifo(tmp_path, monkeypatch):
    monkeypatch.delenv(PIPE_WAIT_ENV, raising=False)
    path = tmp_path / "list.fifo"
    os.mkfifo(path)
    return path


@pytest.fixture()
def short_wait(monkeypatch):
    monkeypatch.setenv(PIPE_WAIT_ENV, str(WAIT_S))


@pytest.fixture()
def held_open(fifo):
    """The FIFO with a writer that holds it open and never closes it (a reader of ours
    held too, so that the writer's open and writes need no thread): (path, write fd)."""
    keep = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    w = os.open(fifo, os.O_WRONLY)
    yield fifo, w
    os.close(w)
    os.close(keep)


class Writer(threading.Thread):
    """Opens the FIFO for writing (blocks until the reader opens it), writes `parts`
    with `pause_s` between them, then closes it."""

    def __init__(self, path, parts: list[bytes], pause_s: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.path, self.parts, self.pause_s = path, parts, pause_s
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY)
            try:
                for i, part in enumerate(self.parts):
                    if i:
                        time.sleep(self.pause_s)
                    os.write(fd, part)
            finally:
                os.close(fd)
        except BrokenPipeError:  # the reader gave up first: expected in the over-limit case
            pass
        except BaseException as e:  # noqa: BLE001 - reported by the test
            self.error = e


def read_all(source, limit: TextLimit = WORD_LIST) -> list[str]:
    with open_lines(source, limit) as lines:
        return list(lines)


def test_a_fifo_is_read_as_its_writer_writes(fifo):
    w = Writer(fifo, [b"cats\ndo", b"gs\r\noxen"], pause_s=0.2)
    w.start()
    assert read_all(fifo) == ["cats", "dogs", "oxen"]
    w.join(5)
    assert w.error is None


def test_a_fifo_whose_writer_comes_late_is_waited_for(fifo):
    def late() -> None:
        time.sleep(0.3)
        Writer(fifo, [b"rune\n"]).run()
    threading.Thread(target=late, daemon=True).start()
    assert read_all(fifo) == ["rune"]


def test_a_dictionary_may_be_a_fifo_too(fifo):
    Writer(fifo, [b"PERT\nlast\n"]).start()
    assert read_all(fifo, DICTIONARY) == ["PERT", "last"]


def test_no_writer_ends_after_the_wait(fifo, short_wait):
    t0 = time.monotonic()
    with pytest.raises(WordListError, match=r"is a pipe that nothing was written to within 1 s") as e:
        read_all(fifo)
    took = time.monotonic() - t0
    assert WAIT_S <= took < WAIT_S + 5, took
    assert PIPE_WAIT_ENV in (e.value.hint or "")


def test_a_writer_that_never_finishes_ends_after_the_wait(held_open, short_wait):
    fifo, w = held_open
    os.write(w, b"cats\ndogs\n")
    t0 = time.monotonic()
    with pytest.raises(WordListError, match=r"writer did not finish within 1 s \(10 bytes came\)"):
        read_all(fifo)
    assert time.monotonic() - t0 < WAIT_S + 5


def test_a_writer_that_opens_and_never_writes_ends_after_the_wait(held_open, short_wait):
    with pytest.raises(WordListError, match="nothing was written to within 1 s"):
        read_all(held_open[0])


def test_a_fifo_over_the_limit_stops_at_the_limit(fifo):
    limit = TextLimit("word list", 100, "a test", "smaller")
    w = Writer(fifo, [b"x\n" * 40] * 1000)
    w.start()
    with pytest.raises(WordListError, match="larger than 100 bytes"):
        read_all(fifo, limit)
    w.join(5)
    assert not w.is_alive()


def test_process_substitution_pipe_already_ended_is_read_at_once(monkeypatch):
    """bash's `<(printf ...)`: /dev/fd/N, an anonymous pipe whose writer may have ended
    (empty or not) before the list is opened: its end is seen at once, no waiting."""
    monkeypatch.setenv(PIPE_WAIT_ENV, "30")
    for data, want in ((b"cat\ndog\n", ["cat", "dog"]), (b"", [])):
        r, w = os.pipe()
        os.write(w, data)
        os.close(w)
        try:
            t0 = time.monotonic()
            assert read_all(f"/dev/fd/{r}") == want
            assert time.monotonic() - t0 < 2
        finally:
            os.close(r)


def test_the_wait_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(PIPE_WAIT_ENV, raising=False)
    assert pipe_wait_s() == DEFAULT_PIPE_WAIT_S
    monkeypatch.setenv(PIPE_WAIT_ENV, "2.5")
    assert pipe_wait_s() == 2.5
    for bad in ("soon", "0", "-1", "nan", "1e9"):
        monkeypatch.setenv(PIPE_WAIT_ENV, bad)
        with pytest.raises(UsageError, match=PIPE_WAIT_ENV):
            pipe_wait_s()
