"""`boggle-cv serve --workers N`: N server processes on one listening socket.

The socket is opened once; N processes are forked from the command (before any
thread, pool or connection exists in it) and each runs the whole server on that
socket, so the kernel hands every new connection to one of them: a phone's requests
may land on any process, which is why several processes need a database they all
share and live changes that cross processes (PostgreSQL: web.live_pg).

The command stays as the processes' supervisor: a process that ends while the
server is not stopping (killed, crashed) is started again, at most MAX_RESTARTS
times a minute (then the whole server stops with exit 1). SIGTERM is passed on to
every process, each ends as one server does (web.server), and the command then exits
143; Ctrl-C reaches every process of the terminal's foreground group by itself, and
the command exits 130 once they have.
"""
from __future__ import annotations

import collections
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from types import FrameType

from ..errors import UsageError

#: Restarts of crashed server processes allowed within RESTART_WINDOW_S seconds.
MAX_RESTARTS = 5
RESTART_WINDOW_S = 60.0


def run_workers(count: int, serve_one: Callable[[int], None], say: Callable[[str], None]) -> None:
    """Run serve_one(index) in `count` forked processes until they have all ended;
    then SystemExit(143) after SIGTERM, KeyboardInterrupt after Ctrl-C, SystemExit(1)
    when processes kept crashing."""
    if not hasattr(os, "fork"):
        raise UsageError("--workers above 1 needs a system that can fork (Linux, macOS)",
                         "serve with one process, or run several servers on other ports behind a proxy")
    children: dict[int, int] = {}
    stopping: list[int] = []  # the signal that stops the server, once it came

    def start(index: int) -> None:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child ends in os._exit, which coverage never sees
            os._exit(_child(serve_one, index))
        children[pid] = index

    def stop(signum: int, _frame: FrameType | None) -> None:
        stopping.append(signum)
        if signum == signal.SIGTERM:
            for pid in children:
                _kill(pid, signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    restarts: collections.deque[float] = collections.deque()
    try:
        for index in range(count):
            start(index)
        while children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            index = children.pop(pid, -1)
            if index < 0 or stopping:
                continue
            now = time.monotonic()
            while restarts and now - restarts[0] > RESTART_WINDOW_S:
                restarts.popleft()
            if len(restarts) >= MAX_RESTARTS:
                say(f"boggle-cv: error: server processes ended {MAX_RESTARTS + 1} times within "
                    f"{RESTART_WINDOW_S:g} s; stopping (see the messages above)")
                stopping.append(signal.SIGTERM)
                for other in children:
                    _kill(other, signal.SIGTERM)
                _wait_all(children)
                raise SystemExit(1)
            restarts.append(now)
            say(f"boggle-cv: warning: server process {index + 1} ended ({_how(status)}); starting it again")
            start(index)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if stopping and stopping[0] == signal.SIGINT:
        raise KeyboardInterrupt
    if stopping:
        raise SystemExit(128 + stopping[0])


def _child(serve_one: Callable[[int], None], index: int) -> int:
    """Run one server process; its exit status. SIGTERM ends it through SystemExit
    from the start (while its photo readers start too), so that what it started is
    stopped and cleaned up before it exits."""
    signal.signal(signal.SIGTERM, _exit_by_signal)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        serve_one(index)
        return 0
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    except KeyboardInterrupt:
        return 130
    except BaseException:  # noqa: BLE001 - said, then the supervisor decides
        traceback.print_exc()
        return 1
    finally:
        _exit_cleanup()
        sys.stdout.flush()
        sys.stderr.flush()


def _exit_by_signal(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _exit_cleanup() -> None:
    """What a process's exit does before os._exit skips it, as multiprocessing's own
    forked processes do: multiprocessing's finalizers (the photo readers' queues unlink
    their named semaphores; without it the resource tracker reports them leaked at
    every stop)."""
    from multiprocessing import util
    util._exit_function()  # type: ignore[attr-defined]


def _kill(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _wait_all(children: dict[int, int]) -> None:
    for pid in list(children):
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        children.pop(pid, None)


def _how(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
