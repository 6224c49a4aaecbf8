"""The processes the tests start take a Ctrl-C as a user's command does.

A shell that starts a job in the background without job control (`nohup python -m
pytest &`, a script's `cmd &`) starts it with SIGINT ignored, and every process it
starts inherits that: a test that sends SIGINT to a `boggle-cv` it started would see
it ignored (exit 0, not 130). The command keeps an ignored SIGINT, as every program
should (a background job is meant to outlive the terminal's Ctrl-C); so the tests
give the processes they start SIGINT's default back, whatever started the tests:
`preexec_fn=default_sigint` (subprocess, pexpect), or `**RESTORED` for subprocess.
"""
from __future__ import annotations

import signal
from typing import Any


def default_sigint() -> None:
    """In the child, before it runs its program: SIGINT's default action (Python
    then installs its own handler, as in a terminal's foreground job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: Keyword arguments of subprocess.run / Popen that start the child with SIGINT's default.
RESTORED: dict[str, Any] = {"preexec_fn": default_sigint} if hasattr(signal, "SIGINT") else {}
