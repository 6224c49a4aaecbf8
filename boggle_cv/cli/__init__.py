"""The command line: one Typer app; each command lives in its own module.

Commands only parse, call the library, format and choose the exit code.
Each command module exposes `register(app)`; `main()` runs the app and turns our
errors (boggle_cv.errors) into one stderr line and their exit code.
"""
from __future__ import annotations

import importlib
import os
import sys

import typer

from ..errors import BoggleError

app = typer.Typer(
    name="boggle-cv",
    help="A computer-vision referee for Boggle: photo of the tray in, scores out.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

# Command modules, in the order they appear in --help. A module that is not there
# yet (work in progress) is skipped.
COMMAND_MODULES = ("scan", "sheet", "solve", "score", "synth", "standings", "practice", "serve")


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{name}":
                continue
            raise
        mod.register(app)


_register_all()


def main() -> None:
    """Entry point of the console script: no traceback for user errors."""
    debug = "--debug" in sys.argv or os.environ.get("BOGGLE_CV_DEBUG") == "1"
    if "--debug" in sys.argv:
        sys.argv.remove("--debug")
    try:
        rc = app(standalone_mode=False)
        if rc == 130:  # typer turns Ctrl-C into Exit(130), returned silently here
            typer.echo("boggle-cv: interrupted", err=True)
        sys.exit(rc if isinstance(rc, int) else 0)
    except BoggleError as err:
        if debug:
            raise
        typer.echo(f"boggle-cv: error: {err.one_line()}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("boggle-cv: interrupted", err=True)
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        typer.echo("boggle-cv: aborted", err=True)
        sys.exit(130)
    except Exception as e:  # click usage errors and anything unexpected
        code = _click_error(e)
        if code is not None:
            sys.exit(code)
        if debug:
            raise
        typer.echo(f"boggle-cv: internal error: {type(e).__name__}: {e} (rerun with --debug for details)", err=True)
        sys.exit(1)


def _click_error(e: Exception) -> int | None:
    """Print a click/Typer error (bad option, bad choice, out of range) as one line
    on stderr and return its exit code (2 for usage); None for any other exception."""
    import click
    usage_errors: tuple[type[Exception], ...] = (click.exceptions.UsageError,)
    click_errors: tuple[type[Exception], ...] = (click.exceptions.ClickException,)
    try:  # typer >= 0.2x raises its vendored click's exceptions
        from typer._click import exceptions as vendored  # type: ignore[import-not-found,unused-ignore]
        usage_errors += (vendored.UsageError,)
        click_errors += (vendored.ClickException,)
    except ImportError:
        pass
    if isinstance(e, usage_errors):
        ctx = getattr(e, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        typer.echo(f"boggle-cv: error: {e.format_message()}{where}", err=True)  # type: ignore[attr-defined]
        return 2
    if isinstance(e, click_errors):
        typer.echo(f"boggle-cv: error: {e.format_message()}", err=True)  # type: ignore[attr-defined]
        return int(e.exit_code)  # type: ignore[attr-defined]
    return None
