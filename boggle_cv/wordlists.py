"""Players' word lists: one word per line, from a file or stdin ("-").

Accepted: UTF-8 with or without BOM, CRLF or LF, any case, blank lines (skipped),
surrounding spaces. Refused with one WordListError line (exit code 2): a missing
file, a directory, a binary or non-UTF-8 file, a line that is not one word of
letters (spaces inside, digits, punctuation), a list without any word.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import BinaryIO

from .dictionary import decode_text, read_lines
from .errors import WordListError

_LETTERS = re.compile(r"[A-Za-z]+\Z")


def parse_words(lines: list[str], label: str) -> list[str]:
    """Lower-case words of `lines` in order (duplicates kept: scoring marks them repeated)."""
    words = []
    for i, line in enumerate(lines, start=1):
        w = line.strip()
        if not w:
            continue
        if not _LETTERS.match(w):
            raise WordListError(f"{label}, line {i}: {w[:40]!r} is not a word",
                                "one word of letters A-Z per line")
        words.append(w.lower())
    if not words:
        raise WordListError(f"{label} holds no words", "one word per line")
    return words


def read_word_list(source: str | Path, stdin: BinaryIO | None = None) -> list[str]:
    """The words of a player's list; `source` "-" reads `stdin` (default sys.stdin.buffer)."""
    if str(source) == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return parse_words(decode_text(stream.read(), "word list on stdin"), "word list on stdin")
    lines = read_lines(source, "word list")
    return parse_words(lines, f"word list {source}")


def parse_player_option(text: str) -> tuple[str, str]:
    """"NAME=FILE" -> (name, file). UsageError-compatible WordListError on a bad form."""
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise WordListError(f"--player {text!r} is not NAME=FILE", "e.g. --player ann=ann.txt (FILE - for stdin)")
    return name.strip(), path.strip()
