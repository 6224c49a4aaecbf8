"""The command line's own usage errors as one plain line, and the list of commands.

Click's messages ("No such option: --frobnicate (Possible options: --strict)") become
a line that names the command and what it has not ("scan has no option
--frobnicate"), with a "did you mean" only when a name is close to what was typed
(a typo, not any name that shares a few letters). Works with the click package
(Typer up to 0.25) and with Typer's own copy of it (0.26 on): the exception classes
are found through typer.BadParameter's bases.
"""
from __future__ import annotations

import difflib
import re
from typing import Any

import typer

#: How alike a name must be to what was typed to be offered (difflib's ratio, the
#: names without their dashes): a typo (--stirct, --jsn, scna), not a stranger.
CLOSE = 0.75
#: Options every command has besides its own (cli.main takes --debug).
ALWAYS = ("-h", "--help", "--debug")


def click_exceptions() -> tuple[type[Exception], type[Exception]]:
    """(UsageError, ClickException) of the click that this Typer raises: the click
    package up to Typer 0.25, Typer's own copy of it from 0.26 on, where click need not
    be installed at all. Both are bases of typer.BadParameter in every version."""
    bases = typer.BadParameter.__mro__
    usage = next(c for c in bases if c.__name__ == "UsageError")
    click_exception = next(c for c in bases if c.__name__ == "ClickException")
    return usage, click_exception


def closest(typed: str, names: list[str]) -> str | None:
    """The name most like `typed` when it is close enough (CLOSE), else None."""
    bare = {name.lstrip("-"): name for name in names}
    found = difflib.get_close_matches(typed.lstrip("-"), list(bare), n=1, cutoff=CLOSE)
    return bare[found[0]] if found else None


def no_such_option(option: str, ctx: Any) -> str:
    """`scan has no option --stirct: did you mean --strict?` (the suggestion only
    when close), else a pointer to the command's help."""
    command = ctx.command if ctx is not None else None
    names = [*ALWAYS, *(o for p in getattr(command, "params", []) for o in (*p.opts, *p.secondary_opts))]
    path = ctx.command_path if ctx is not None else "boggle-cv"
    who = path.split(" ", 1)[1] if " " in path else path
    near = closest(option, names)
    if near is not None and near != option:
        return f"{who} has no option {option}: did you mean {near}?"
    return f"{who} has no option {option} (see '{path} -h')"


def no_such_command(name: str, commands: list[str]) -> str:
    """`boggle-cv has no command 'scna': did you mean scan?`, else the commands."""
    near = closest(name, commands)
    if near is not None:
        return f"boggle-cv has no command {name!r}: did you mean {near}?"
    return f"boggle-cv has no command {name!r} (its commands: {', '.join(commands)})"


def usage_line(e: Exception) -> tuple[str, int] | None:
    """A click error as (our one line, exit code); None for any other exception.
    A usage error is exit 2 and points to the command's help. Click's line breaks and
    tabs (the list after "Choose from:") become single spaces."""
    usage, click_exception = click_exceptions()
    if not isinstance(e, click_exception):
        return None
    ctx = getattr(e, "ctx", None)
    if type(e).__name__ == "NoSuchOption":
        return no_such_option(str(getattr(e, "option_name", "")), ctx), 2
    message = " ".join(re.split(r"\s*[\n\t]\s*", e.format_message().strip()))  # type: ignore[attr-defined]
    if isinstance(e, usage):
        where = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        return f"{message}{where}", 2
    return message, int(e.exit_code)  # type: ignore[attr-defined]
