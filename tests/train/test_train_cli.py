"""`python -m boggle_cv.train`: the Typer command line (runs without torch)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from boggle_cv.train.__main__ import EXIT_USAGE, PROG, main


def test_help_lists_every_option(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for opt in ("--boards", "--out", "--seed", "--n-synth", "--real-copies", "--jitter", "--real-degrade",
                "--holdout", "--steps", "--minutes", "--batch", "--width", "--real-share",
                "--scene-photos", "--scene-share", "--threads", "--cache"):
        assert opt in out


@pytest.mark.parametrize("argv,says", [
    ([], "--boards"),
    (["--boards", "/nonexistent/boards"], "does not exist"),
    (["--boards", ".", "--steps", "many"], "--steps"),
    (["--boards", ".", "--real-share", "0.7", "--scene-share", "0.5"], "more than 1"),
    (["--boards", ".", "--bogus"], "--bogus"),
])
def test_usage_error_is_one_line_and_exit_2(capsys, argv, says):
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{PROG}: error:") and says in err


def test_module_runs_as_a_program():
    r = subprocess.run([sys.executable, "-m", "boggle_cv.train", "--boards", "/nonexistent/boards"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
