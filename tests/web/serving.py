"""Helpers for tests that talk to a server over real sockets: a `python -m boggle_cv
serve` subprocess, its health, and stopping it with a signal.

Timeouts are generous on purpose: a test says "answers at all within N s", never
how fast, so a loaded machine does not make it fail.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

from .conftest import REPO


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`python -m boggle_cv serve ARGS` in its own session (its own process group, as
    a terminal's Ctrl-C reaches a foreground job), stdout and stderr piped as text."""
    e = {**os.environ, **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "boggle_cv", "serve", *args], cwd=REPO, env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(port: int, proc: subprocess.Popen, deadline_s: float = 60) -> dict:
    """The server's /api/health answer once it answers (AssertionError if it exits or
    does not answer within deadline_s seconds)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited {proc.returncode}: {proc.stderr.read()}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/api/health")
            return json.loads(c.getresponse().read())
        except OSError:
            time.sleep(0.1)
    raise AssertionError("serve did not answer")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM, bound_s: float = 15) -> tuple[float, int, str]:
    """Send `sig` (SIGINT goes to the server's whole process group, as a terminal's
    Ctrl-C does) and wait for the exit: (seconds taken, exit code, stderr).
    AssertionError (after a SIGKILL) if it is still running after bound_s."""
    t0 = time.monotonic()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=bound_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(f"serve did not stop within {bound_s} s of {signal.Signals(sig).name}:\n{err[-3000:]}") \
            from None
    return time.monotonic() - t0, proc.returncode, err
