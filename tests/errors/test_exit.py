"""The console script leaves without the interpreter's teardown (entry._exit_without_teardown)
yet does all that exit must: every byte of output, the exit code, the atexit functions."""
from __future__ import annotations

import json
import subprocess
import sys

from .conftest import BOARD

_RUN = ("import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
        "from boggle_cv.entry import main\n"
        "main()\n")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, timeout=120)


def test_output_is_whole_and_atexit_functions_run():
    p = _run("solve", BOARD, "--json")
    assert p.returncode == 0, p.stderr
    words = json.loads(p.stdout)["words"]          # a long document, every byte of it
    assert len(words) > 20
    assert p.stderr == "atexit ran\n"


def test_error_exit_codes_are_kept():
    p = _run("solve", "not a board")
    assert p.returncode == 2
    assert p.stderr.startswith("boggle-cv: error:") and p.stderr.endswith("atexit ran\n")


def test_a_live_thread_takes_the_normal_exit():
    """A non-daemon thread still running: Python's own exit (which waits for it)."""
    code = ("import threading, time, sys\n"
            "threading.Thread(target=lambda: (time.sleep(0.3), sys.stderr.write('thread done\\n'))).start()\n"
            + _RUN)
    p = subprocess.run([sys.executable, "-c", code, "solve", BOARD], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0
    assert "thread done" in p.stderr and "atexit ran" in p.stderr
