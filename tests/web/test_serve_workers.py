"""`boggle-cv serve --workers N`: N processes on one port, refused on a SQLite file
(exit 2, one line); on PostgreSQL every process answers, one killed is started again,
and SIGTERM stops them all (exit 143)."""
from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from .conftest import REPO  # noqa: E402
from .serving import free_port, request, serve, stop, wait_health  # noqa: E402


def test_several_processes_on_a_sqlite_file_are_refused(tmp_path):
    out = subprocess.run([sys.executable, "-m", "boggle_cv", "serve", "--port", "0", "--workers", "2", "--db",
                          str(tmp_path / "g.db")], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--workers 2 needs a PostgreSQL database" in lines[0], out.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf", "nan"])
def test_a_wrong_catch_up_interval_is_one_line_before_anything_starts(tmp_path, value):
    import os
    env = {**os.environ, "BOGGLE_CV_CATCH_UP_S": value}
    out = subprocess.run([sys.executable, "-m", "boggle_cv", "serve", "--port", "0", "--db", str(tmp_path / "g.db")],
                         cwd=REPO, capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 2, out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"BOGGLE_CV_CATCH_UP_S={value!r} is not a number of seconds from 0.1 to 86400" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_the_catch_up_interval_comes_from_the_environment():
    from boggle_cv.web.live_pg import CATCH_UP_S, catch_up_seconds
    assert catch_up_seconds({}) == catch_up_seconds({"BOGGLE_CV_CATCH_UP_S": " "}) == CATCH_UP_S
    assert catch_up_seconds({"BOGGLE_CV_CATCH_UP_S": "0.5"}) == 0.5
    assert catch_up_seconds({"BOGGLE_CV_CATCH_UP_S": "3600"}) == 3600.0


def _children(pid: int) -> list[int]:
    """The server processes the command started (Linux: /proc)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    if not path.exists():
        pytest.skip("no /proc children list on this system")
    return [int(c) for c in path.read_text().split()]


def test_every_process_serves_one_killed_is_started_again_and_sigterm_stops_all(pg_db):
    port = free_port()
    proc = serve("--port", str(port), "--workers", "2", "--db", pg_db.url)
    try:
        wait_health(port, proc)
        first = _children(proc.pid)
        assert len(first) == 2
        status, made = request(port, "POST", "/api/rooms", {"game": "friday"})
        assert status == 201
        for _ in range(20):  # any process answers about any room
            assert request(port, "GET", f"/api/rooms/{made['code']}", token=made["host_token"])[0] == 200
        import os
        os.kill(first[0], signal.SIGKILL)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            now = _children(proc.pid)
            if len(now) == 2 and first[0] not in now:
                break
            time.sleep(0.2)
        assert len(now) == 2 and first[0] not in now, now
        wait_health(port, proc)
        took, code, err = stop(proc, signal.SIGTERM, bound_s=30)
    finally:
        if proc.poll() is None:
            stop(proc)
    assert code == 143, err
    assert err.count("share this port") == 1, err  # said by the command once, whatever its processes did
    # the killed process's semaphores are its resource tracker's to clean up (and it says so); every
    # process stopped by SIGTERM, starting or serving, cleans up its own
    assert err.count("leaked semaphore") <= 1, err
    assert re.search(r"server process [12] ended \(killed by SIGKILL\); starting it again", err), err
    assert "Traceback" not in err
