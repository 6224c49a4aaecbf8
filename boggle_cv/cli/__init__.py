"""The command line: one Typer app; each command lives in its own module.

Commands only parse, call the library, format and choose the exit code. Each
command module exposes `register(app)` and is named once in COMMAND_MODULES; its
docstring is its --help (paragraphs of sentences, the last one an example).
`main()` runs the app and turns our errors (boggle_cv.errors) and the command line's
own usage errors into one stderr line and their exit code.
"""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Annotated

import typer

from .. import _interrupted_line
from ..errors import BoggleError
from .help_format import HELP_OPTIONS, HelpCommand, HelpGroup
from .terminal import echo_error

app = typer.Typer(
    name="boggle-cv",
    help="A computer-vision referee for Boggle: photo of the tray in, scores out.\n\n"
         "Example: boggle-cv scan tray.jpg --player ann=ann.txt --player bob=bob.txt",
    add_completion=False,
    no_args_is_help=False,  # alone, it lists the commands (HelpGroup.parse_args)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=HelpGroup,
    context_settings={"help_option_names": HELP_OPTIONS},
)

# Command modules, in the order they appear in --help. A module that is not there
# yet (work in progress) is skipped.
COMMAND_MODULES = ("demo", "scan", "sheet", "solve", "score", "synth", "standings", "practice", "serve", "db")


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__
        typer.echo(f"boggle-cv {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """The options that come before the command."""


def help_text(doc: str) -> str:
    """A docstring as --help shows it: each paragraph's lines joined into one line,
    which the help then wraps at the terminal's width (Typer keeps a docstring's own
    line breaks, which split sentences at any other width)."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def _command_named(argv: list[str]) -> str | None:
    """The command of this process's command line when it names one (its first word
    that is not an option), else None (--help, --version, a typo: every command)."""
    word = next((a for a in argv[1:] if not a.startswith("-")), None)
    return word if word in COMMAND_MODULES else None


def _register_all() -> None:
    """Register the commands: only the one the command line names (a `scan` imports no
    other command's module: the database, the practice clock, the server's options),
    else all of them, in COMMAND_MODULES' order."""
    named = _command_named(sys.argv)
    for name in (named,) if named is not None else COMMAND_MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{name}":
                continue
            raise
        mod.register(app)
    for command in app.registered_commands:
        command.help = help_text(command.help or inspect.getdoc(command.callback) or "")
        if command.cls is None or command.cls is typer.core.TyperCommand:
            command.cls = HelpCommand


_register_all()


def _say_interrupted() -> None:
    """The one line a Ctrl-C ends the command with (boggle_cv._interrupted_line)."""
    sys.stderr.write(_interrupted_line(sys.stderr))
    sys.stderr.flush()


def main() -> None:
    """Entry point of the console script: no traceback for user errors. With --debug
    (anywhere on the command line) or BOGGLE_CV_DEBUG=1 an error's traceback is
    printed first; its one line and its exit code stay the same."""
    debug = _debug_asked()
    try:
        rc = app(standalone_mode=False, prog_name="boggle-cv")
        if rc == 130:  # typer turns Ctrl-C into Exit(130), returned silently here
            _say_interrupted()
        sys.exit(rc if isinstance(rc, int) else 0)
    except BoggleError as err:
        _traceback(debug)
        echo_error(f"boggle-cv: error: {err.one_line()}")
        sys.exit(err.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        _say_interrupted()
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except Exception as e:  # the command line's usage errors and anything unexpected
        sys.exit(_unexpected(e, debug))


def _debug_asked() -> bool:
    """--debug (taken off the command line, wherever it is) or BOGGLE_CV_DEBUG=1; the
    variable is then set for the processes the command starts (scan --jobs' workers
    keep their stderr)."""
    debug = "--debug" in sys.argv or os.environ.get("BOGGLE_CV_DEBUG") == "1"
    while "--debug" in sys.argv:
        sys.argv.remove("--debug")
    if debug:
        os.environ["BOGGLE_CV_DEBUG"] = "1"
    return debug


def _unexpected(e: Exception, debug: bool) -> int:
    """A usage error of the command line (one line, exit 2), or a bug: its line
    (after its traceback with --debug), exit 1."""
    from .usage import usage_line
    usage = usage_line(e)
    if usage is not None:
        echo_error(f"boggle-cv: error: {usage[0]}")
        return usage[1]
    _traceback(debug)
    hint = "a bug: please report it with this traceback" if debug else "rerun with --debug for details"
    echo_error(f"boggle-cv: internal error: {type(e).__name__}: {e} ({hint})")
    return 1


def _traceback(debug: bool) -> None:
    """With --debug: the traceback of the error being handled, on stderr."""
    if debug:
        import traceback
        traceback.print_exc()
        sys.stderr.flush()
