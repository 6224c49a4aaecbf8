"""Text as a terminal shows it: prose wrapped at word boundaries, never mid-word.

A line wider than the screen is broken by the terminal wherever the edge falls
("bi|g-1979"); the command line wraps its prose itself, at the terminal's width when
the stream is a terminal and at WIDTH columns when it is a file or a pipe (a file
read later, in a pager or an editor, reads as well as the screen). A continued line
keeps its first line's indent, plus CONTINUED columns. A word longer than the width
(a path) is not cut. An error stays one line off a terminal (a script reads it
whole) and is wrapped like prose on one.
"""
from __future__ import annotations

import os
import re
import sys
import textwrap
from typing import TextIO

import typer

#: Columns of text written to a file or a pipe, or to a terminal that does not say its size.
WIDTH = 80
#: The narrowest a wrap goes, whatever the terminal says.
NARROWEST = 20
#: Extra indent of a wrapped line's continuation.
CONTINUED = 2


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def columns(stream: TextIO | None = None) -> int:
    """The width to wrap `stream`'s prose at (stdout by default): the terminal's
    columns (at least NARROWEST), else WIDTH."""
    stream = stream if stream is not None else sys.stdout
    if not is_terminal(stream):
        return WIDTH
    try:
        width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return WIDTH
    return max(width, NARROWEST) if width > 0 else WIDTH  # 0: a terminal that never said its size


#: An option and its value, which a wrap keeps on one line (`--seed 4333943822600587279`,
#: `--fix r2c3=W`, `--bonus rRcC`): a value with a digit, =, / or a capital letter.
OPTION_VALUE = re.compile(r"(?<!\S)(--[a-z][a-z-]*) (?=\S*[0-9=/A-Z])")
#: An install command, which a wrap keeps whole (copied as it is: `pip install 'boggle-cv[web]'`).
INSTALL = re.compile(r"\b(?:pip|apt-get) install \S+")
#: A lone symbol (`*`, `=`, `-`), which a wrap keeps with the word after it (`* = common`).
LONE_SYMBOL = re.compile(r"(?<!\S)([^\w\s]+) (?=\S)")
#: Joins what must not be broken while wrapping (textwrap breaks only at ASCII
#: whitespace); a private-use character, in no text the command prints.
KEEP = "\ue000"


def wrap(text: str, width: int) -> str:
    """`text` with every line wider than `width` broken at spaces: each continuation
    indented as its line, plus CONTINUED columns; an option stays with its value,
    a lone symbol with the word after it, an install command whole.
    Lines within `width` are kept as they are (a board's rows, a table's columns)."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        kept = OPTION_VALUE.sub(lambda m: m.group(1) + KEEP, INSTALL.sub(lambda m: m.group(0).replace(" ", KEEP), line))
        kept = LONE_SYMBOL.sub(lambda m: m.group(1) + KEEP, kept)
        parts = [part.replace(KEEP, " ") for part in textwrap.wrap(
            kept, width, subsequent_indent=indent + " " * CONTINUED, break_long_words=False,
            break_on_hyphens=False)] or [line]
        parts[-1] += line[len(line.rstrip(" ")):]  # a prompt keeps its space before the answer
        out += parts
    return "\n".join(out)


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print prose on stdout (stderr with `err`), wrapped at that stream's columns."""
    stream = sys.stderr if err else sys.stdout
    typer.echo(wrap(text, columns(stream)), err=err, nl=nl)


def echo_error(line: str) -> None:
    """Print an error's line on stderr: one line for a script, wrapped on a terminal."""
    typer.echo(wrap(line, columns(sys.stderr)) if is_terminal(sys.stderr) else line, err=True)
