"""The console script's entry point: a Ctrl-C at any moment once this module runs ends
with the one line `boggle-cv: interrupted` and exit code 130, never a traceback.

Three stretches are guarded:
  * from the first lines of the package's __init__ (when the command starts:
    boggle_cv._started_as_command; else from this module's import) until main()
    starts (runpy and the console-script wrapper still have lines to run): a SIGINT
    handler that prints the line and leaves at once (nothing is open yet);
  * importing the command line (typer, numpy, OpenCV): Python's own handler again,
    so that KeyboardInterrupt unwinds normally, caught here;
  * the command itself: caught by cli.main, and here for the few statements it runs
    before its own guard.

What no program can guard is Python's own start-up before the package's first lines
(the interpreter, site-packages and its .pth files, runpy: about 20-40 ms with an
editable install); a Ctrl-C there is Python's ("Fatal Python error:
init_import_site", or a KeyboardInterrupt traceback without a line of ours), and so
is one in the package's first two statements (`import os`, `import sys`).
"""
from __future__ import annotations

import os
import sys

# the package's __init__ set the guard already when the command started it; here it is
# set for any other caller of main() (a script importing this module first)
from . import _guard_start, _interrupted_line, _interrupted_while_starting

_guard_start(always=True)

import signal  # noqa: E402 - after the guard, on purpose


def _interrupted() -> None:
    sys.stderr.write(_interrupted_line(sys.stderr))
    _clear_unhandled_interrupt_mark()
    sys.exit(130)


def _clear_unhandled_interrupt_mark() -> None:
    """Keep exit code 130 after a handled Ctrl-C.

    CPython marks a KeyboardInterrupt that passed through exec() of a string
    (dataclasses and namedtuples make their methods that way while modules import)
    as unhandled, and then ends the process with SIGINT instead of our exit code.
    Running exec() of a string clears that mark (Python/pythonrun.c,
    run_eval_code_obj).
    """
    exec("pass")  # noqa: S102 - a constant string, see above


def main() -> None:
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        from .cli import main as cli_main
    except KeyboardInterrupt:
        _interrupted()
    try:
        cli_main()
    except KeyboardInterrupt:  # before cli.main's own guard begins
        _interrupted()
    except SystemExit as done:
        if done.code == 130:  # cli.main handled a Ctrl-C: keep its exit code (see _interrupted)
            _clear_unhandled_interrupt_mark()
        _exit_without_teardown(done.code)
        raise


def _exit_without_teardown(code: object) -> None:
    """Leave as Python would, less the interpreter's teardown; returns only when that
    is not safe (then the caller exits normally).

    Freeing every module and object at exit costs a cold `scan` about 30 ms, 8% of
    it (benchmarks/bench_scan.py), for nothing the operating system does not do
    anyway. What exit must do is still done, in Python's order: the command has
    returned (its files are written, closed and renamed into place; its worker
    pools are shut down), then stdout and stderr are flushed and the atexit
    functions run (weakref finalizers, multiprocessing's clean-up, a coverage
    tool's). Taken only for an integer exit code, with no other non-daemon thread
    alive and once the flushes succeeded (a closed pipe takes the normal way)."""
    if code is not None and not isinstance(code, int):
        return
    import threading
    if any(t is not threading.current_thread() and t.is_alive() and not t.daemon
           for t in threading.enumerate()):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    import atexit
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code or 0)
