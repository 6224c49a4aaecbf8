"""The console script's entry point: a Ctrl-C at any moment once this module runs ends
with the one line `boggle-cv: interrupted` and exit code 130, never a traceback.

Three stretches are guarded:
  * from this module's import until main() starts (the console-script wrapper still
    has a line to run between them): a SIGINT handler that prints the line and leaves
    at once (nothing is open yet);
  * importing the command line (typer, numpy, OpenCV): Python's own handler again,
    so that KeyboardInterrupt unwinds normally, caught here;
  * the command itself: caught by cli.main, and here for the few statements it runs
    before its own guard.

What no program can guard is Python's own start-up before this module (the
interpreter, site-packages and its .pth files: about 20-40 ms with an editable
install); a Ctrl-C there is Python's ("Fatal Python error: init_import_site").
"""
from __future__ import annotations

import os  # os and sys come loaded with the interpreter, like the C module _signal
import sys

# `signal` builds enums when imported (about 1 ms with no guard yet); its C module is
# there from the interpreter's start (elsewhere, `signal` itself will do)
_csignal = sys.modules.get("_signal") or __import__("signal")


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """SIGINT before main(): nothing to clean up, so say it and leave."""
    try:
        sys.stderr.write("boggle-cv: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def _guard_start() -> None:
    try:
        if _csignal.getsignal(_csignal.SIGINT) is _csignal.default_int_handler:
            _csignal.signal(_csignal.SIGINT, _interrupted_while_starting)
    except (ValueError, OSError):  # not the main thread (imported by a library user)
        pass


_guard_start()

import signal  # noqa: E402 - after the guard, on purpose


def _interrupted() -> None:
    sys.stderr.write("boggle-cv: interrupted\n")
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
