"""Players' word lists: words separated by new lines, spaces, commas or semicolons,
from a file or stdin ("-").

A referee does not refuse a whole list over one stray comma:
  * accepted: UTF-8 with or without BOM (UTF-16 with a BOM too), CRLF or LF, any
    case, blank lines, several words on a line ("cat, dog; tea"), surrounding
    punctuation and quotes ('"cat".' reads as "cat");
  * kept and scored ``not_a_word`` (see scoring.STATUSES): a token that still holds
    something other than letters A-Z after trimming ("b4", "don't", "x-ray", "café");
  * cut to MAX_TOKEN letters, with a note: a longer token (no board can form it);
  * refused with one WordListError line (exit code 2): a missing file, a directory,
    a device or a socket, a pipe whose writer does not finish in time
    (textpipes.py), a binary or undecodable file, a list
    without any word (no token with a letter), a list over 1 MiB
    (textfiles.WORD_LIST), the lists of a round holding more than MAX_ROUND_ENTRIES
    entries in all.

Files are read line by line with bounded memory (textfiles.open_lines).

In an edition other than English (`lang`), a token counts as letters when its
folded form does (boggle_cv.game.folding: "été" in French, "Straße" in German); the
word itself is kept as written, and the referee folds it the same way.

Notes (tokens kept as not_a_word, tokens cut) are appended to the optional ``notes``
list as one-line strings, so that the command can print them on stderr.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from .board import MAX_WORD_LETTERS
from ..errors import UsageError, WordListError
from .folding import fold_word, is_folded_word
from .names import MAX_NAME, clean_name
from ..files.textfiles import WORD_LIST, open_lines

#: Longest token kept (letters): the most a board can spell (board.MAX_WORD_LETTERS).
MAX_TOKEN = MAX_WORD_LETTERS
#: Entries (tokens) in all the lists of one round together. A player writes a few
#: dozen words in three minutes and the best known 4x4 board holds 1,202; the cap
#: keeps the referee's memory bounded (about 0.5 KB an entry, measured) however
#: many players or lines are given.
MAX_ROUND_ENTRIES = 200_000

_LETTERS = re.compile(r"[A-Za-z]+\Z")
_SEPARATORS = re.compile(r"[\s,;]+")
# leading/trailing characters that are neither letters nor digits (quotes, dots, ...)
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def is_letters(token: str) -> bool:
    """True if `token` is only ASCII letters A-Z / a-z (a candidate word)."""
    return bool(_LETTERS.match(token))


def tokenise(line: str) -> list[str]:
    """Tokens of one line: split on spaces, commas, semicolons; edge punctuation trimmed.

    '"Cat", dog;  x-ray.' -> ['Cat', 'dog', 'x-ray']. Empty tokens are dropped.
    """
    out = []
    for raw in _SEPARATORS.split(line):
        t = _EDGES.sub("", raw)
        if t:
            out.append(t)
    return out


_TOKEN_RUNS = re.compile(r"[^\s,;]+")


def iter_tokens(text: str) -> Iterator[str]:
    """The tokens of `text`, lazily: tokenise() of each of its lines, in order (a caller
    that stops after N tokens does no more work than N tokens)."""
    for m in _TOKEN_RUNS.finditer(text):
        t = _EDGES.sub("", m.group())
        if t:
            yield t


def is_word_token(token: str, lang: str = "en") -> bool:
    """True if `token` is a candidate word of edition `lang`: letters A-Z in English
    (is_letters), letters a-z once folded in the others ("Öl" in German)."""
    return is_letters(token) if lang == "en" else is_folded_word(fold_word(token, lang))


def parse_words(lines: Iterable[str], label: str, notes: list[str] | None = None,
                max_entries: int | None = None, lang: str = "en") -> list[str]:
    """Lower-case tokens of `lines` in order (duplicates kept: scoring marks them repeated).

    Tokens that are not letters (is_word_token for edition `lang`) are kept (scored
    not_a_word) and counted in a note;
    tokens over MAX_TOKEN characters are cut, with a note. WordListError if no token
    holds a letter, or as soon as there are more than `max_entries` tokens.
    """
    words: list[str] = []
    odd: list[str] = []
    cut = 0
    for line in lines:
        for t in tokenise(line):
            if max_entries is not None and len(words) >= max_entries:
                raise WordListError(f"{label} takes the lists of this round over {MAX_ROUND_ENTRIES:,} "
                                    "entries in all, the limit", "a round's list is a few dozen words")
            if len(t) > MAX_TOKEN:
                t = t[:MAX_TOKEN]
                cut += 1
            if not is_word_token(t, lang):
                odd.append(t)
            words.append(t.lower())
    if not any(any(ch.isalpha() for ch in w) for w in words):
        raise WordListError(f"{label} holds no words", "one word per line (or separated by spaces or commas)")
    if notes is not None:
        if odd:
            shown = ", ".join(repr(t[:20]) for t in odd[:3]) + (", ..." if len(odd) > 3 else "")
            letters = "letters A-Z" if lang == "en" else f"letters A-Z once folded ({lang})"
            notes.append(f"{label}: {len(odd)} entr{'y is' if len(odd) == 1 else 'ies are'} not a word "
                         f"of {letters} ({shown}); scored as not_a_word")
        if cut:
            notes.append(f"{label}: {cut} entr{'y was' if cut == 1 else 'ies were'} longer than "
                         f"{MAX_TOKEN} characters and cut")
    return words


def read_word_list(source: str | Path, stdin: BinaryIO | None = None,
                   notes: list[str] | None = None, max_entries: int | None = MAX_ROUND_ENTRIES,
                   lang: str = "en") -> list[str]:
    """The words of a player's list; `source` "-" reads `stdin` (default sys.stdin.buffer);
    `lang`: the edition whose folding the notes judge tokens by.

    Read line by line, at most textfiles.WORD_LIST.max_bytes; WordListError (exit 2)
    for an unusable source and for more than `max_entries` entries.
    """
    with open_lines(source, WORD_LIST, stdin) as lines:
        return parse_words(lines, lines.label, notes, max_entries, lang)


def read_lists(specs: list[tuple[str, str]], stdin: BinaryIO | None = None,
               notes: list[str] | None = None, lang: str = "en") -> dict[str, list[str]]:
    """[(name, file)] (parse_player_option) -> {name: words}, in the order given.

    UsageError for two players with one name or more than one list on stdin;
    WordListError when the lists hold more than MAX_ROUND_ENTRIES entries in all
    (counted while reading, so the reading stops there).
    """
    from .names import name_key
    names = [name_key(n) for n, _ in specs]
    if len(set(names)) != len(names):
        raise UsageError("two --player options have the same name", "give each player a different NAME")
    if sum(1 for _, f in specs if f == "-") > 1:
        raise UsageError("only one player's list can come from stdin", "give the others as files")
    lists: dict[str, list[str]] = {}
    left = MAX_ROUND_ENTRIES
    for name, path in specs:
        lists[name] = read_word_list(path, stdin, notes, max_entries=left, lang=lang)
        left -= len(lists[name])
    return lists


def parse_player_option(text: str) -> tuple[str, str]:
    """"NAME=FILE" -> (name, file). WordListError (exit 2) on a bad form or name.

    The name is everything before the first "=", as names.clean_name keeps it
    (NFKC, spaces collapsed, no control or invisible characters, at most MAX_NAME);
    the file may itself contain "=".
    """
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise WordListError(f"--player {text!r} is not NAME=FILE", "e.g. --player ann=ann.txt (FILE - for stdin)")
    try:
        name = clean_name(name, "--player name")
    except UsageError as e:
        raise WordListError(f"{e.message}: {name.strip()[:MAX_NAME]!r}", e.hint) from None
    return name, path.strip()
