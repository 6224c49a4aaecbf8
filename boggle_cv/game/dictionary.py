"""Word lists for the solver and the referee.

A word list is a letter graph (a trie, or its minimised form, a DAWG). It is built
as one flat `dict[int, int]` of edges (`build_edges`, the compiled file's form):

    key   = (state << 5) | letter          letter = ord(ch) - ord("a"), 0..25
    value = (child << 2) | (common << 1) | terminal

State 1 is the root; state 0 is the single state without outgoing edges (every
word that is not a prefix of another ends there). `terminal` says the letters so
far spell a word; `common` says that word is common (SCOWL size <= 50 for the
default list). Because the flags sit on edges, minimising the trie keeps them exact.

A `Dictionary` holds the graph as a dense transition table for the solver's
vectorised search: `table` is a flat int32 array of `(states + 1) * WIDTH` entries,
row `s` (entries `s * WIDTH ... s * WIDTH + WIDTH - 1`) holding state s's edges by
symbol: 0..25 the letters, 26..31 the two-letter faces An Er He In Qu Th (the two
edges in one step, so every face is one symbol), 32 (`DEAD`) never an edge (blank
cells). An entry is -1 (no edge) or `(child * WIDTH << 2) | (common << 1) | terminal`:
the child's row offset, so `(value >> 2) + symbol` indexes the next entry. Row 0 is
the sink (all -1); the last row is all -1 too.

The default dictionary ships precompiled (boggle_cv/data/default-dict.bin, made by
scripts/build_dictionary.py from Debian's `scowl`): loading it is one `frombuffer`
of the edge arrays and a few array operations that fill the table, no Python object
per edge: about 10 ms in-process, 20 ms in a fresh process (page faults of the new
table), 0.4x the former flat dict's load (benchmarks/bench_dictionary.py).
A user list (`--dict PATH`) is built at load time (about 1 s per 200k words).

Words are lower-case ASCII a-z; a "q" must be followed by "u" (the Qu face).

Other editions (boggle_cv.game.editions): `load_default(lang)` loads
boggle_cv/data/<lang>-dict.bin, built the same way by scripts/build_dictionary.py
from each language's registry package (docs/editions.md); their words are stored
folded (boggle_cv.game.folding: "été" as "ete", "Straße" as "strasse"), and a `--dict`
list is folded by the edition in force (`load_word_list(path, lang=...)`).
"""
from __future__ import annotations

import array
import functools
import json
import re
import sys
from dataclasses import InitVar, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import numpy.typing as npt

from .board import TWO_LETTER_FACES
from ..errors import WordListError
from .folding import fold_word
from ..files.textfiles import DICTIONARY, open_lines

ROOT = 1
SINK = 0
TERMINAL = 1
COMMON = 2
MAGIC = b"BOGDAWG1"
DEFAULT_BIN = "default-dict.bin"
DEFAULT_META = "default-dict.json"
LETTERS = 26
SYMBOLS = {**{chr(97 + i): i for i in range(LETTERS)},
           **{f.lower(): LETTERS + k for k, f in enumerate(TWO_LETTER_FACES)}}
DEAD = LETTERS + len(TWO_LETTER_FACES)   # 32: the symbol of a blank cell, never an edge
WIDTH = DEAD + 1                         # table entries per state

_WORD_RE = re.compile(r"[a-z]+\Z")
_BAD_Q_RE = re.compile(r"q(?!u)")


def normalise_word(text: str, lang: str = "en") -> str | None:
    """The dictionary form of one line ("Queen\\r" -> "queen"), or None if not a word.

    A word is ASCII letters only (no spaces, digits, apostrophes, hyphens) and every
    q is followed by u (any other Q can never be formed on a board). In English an
    accented line is no word ("café"); in the other editions (lang "fr", "de", ...)
    the line is folded first (folding.fold_word: "Été" -> "ete", "Öl" -> "oel").
    """
    w = text.strip().lower() if lang == "en" else fold_word(text, lang)
    if not w or not _WORD_RE.match(w) or _BAD_Q_RE.search(w):
        return None
    return w


@dataclass
class Dictionary:
    """A word graph as a transition table (see module docstring), plus where it came from.

    Built from a flat edge dict: `Dictionary(edges, word_count, source, skipped)`;
    or from a ready table: `Dictionary(None, word_count, source, table=table)`.
    word_count: number of words; source: a label for reports; skipped: lines of the
    source that were not words.
    """

    edges: InitVar[dict[int, int] | None]
    word_count: int
    source: str = "default"
    skipped: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    table: npt.NDArray[np.int32] = field(default_factory=lambda: _empty_table(), repr=False)

    def __post_init__(self, edges: dict[int, int] | None) -> None:
        if edges is not None:
            keys = np.fromiter(edges.keys(), dtype=np.int64, count=len(edges))
            vals = np.fromiter(edges.values(), dtype=np.int64, count=len(edges))
            self.table = table_from_edges(keys, vals)

    def __len__(self) -> int:
        return self.word_count

    def _walk(self, letters: str) -> int | None:
        """The table entry of the last edge of `letters` (lower-case), None if no such path."""
        t = self.table
        row, v = ROOT * WIDTH, -1
        for ch in letters:
            o = ord(ch) - 97
            if not 0 <= o < LETTERS:
                return None
            v = int(t[row + o])
            if v < 0:
                return None
            row = v >> 2
        return v if letters else None

    def lookup(self, word: str) -> int | None:
        """Flags (TERMINAL | COMMON bits) of the last edge of `word`, None if no such path."""
        v = self._walk(word)
        return None if v is None else v & 3

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        f = self.lookup(word.lower())
        return f is not None and bool(f & TERMINAL)

    def is_common(self, word: str) -> bool:
        """True if `word` is in the dictionary and flagged common."""
        f = self.lookup(word.lower())
        return f is not None and f == TERMINAL | COMMON

    def has_prefix(self, prefix: str) -> bool:
        """True if some word starts with `prefix`."""
        return not prefix or self._walk(prefix.lower()) is not None

    def words(self) -> Iterator[str]:
        """Every word in alphabetical order (slow: walks the whole graph; for tests/tools)."""
        t = self.table.reshape(-1, WIDTH)[:, :LETTERS]
        rows, letters = np.nonzero(t >= 0)
        children: dict[int, list[tuple[int, int]]] = {}
        for r, o, v in zip(rows.tolist(), letters.tolist(), t[rows, letters].tolist()):
            children.setdefault(r * WIDTH, []).append((o, v))

        def walk(row: int, prefix: str) -> Iterator[str]:
            for letter, v in children.get(row, ()):
                w = prefix + chr(97 + letter)
                if v & TERMINAL:
                    yield w
                if v >> 2:
                    yield from walk(v >> 2, w)

        yield from walk(ROOT * WIDTH, "")


def _empty_table() -> npt.NDArray[np.int32]:
    return np.full(2 * WIDTH, -1, dtype=np.int32)


def table_from_edges(keys: npt.NDArray[np.int64], vals: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    """The transition table (module docstring) of the flat edges `keys` -> `vals`.

    Letters go in columns 0..25; each two-letter face gets the two edges in one
    entry; the last row stays all -1. Raises WordListError if the graph is too big
    for int32 entries.
    """
    if len(keys) == 0:
        return _empty_table()
    states = int(max(keys.max() >> 5, vals.max() >> 2)) + 1
    if (states + 1) * WIDTH * 4 >= 2 ** 31:
        raise WordListError(f"word list too big: {states:,} graph states", "use a smaller list")
    t = np.full((states + 1) * WIDTH, -1, dtype=np.int32)
    rows = (keys >> 5) * WIDTH
    letters = keys & 31
    t[rows + letters] = ((vals >> 2) * WIDTH << 2) | (vals & 3)
    starts = np.zeros(32, dtype=bool)
    starts[[ord(f[0].lower()) - 97 for f in TWO_LETTER_FACES]] = True
    sub = np.flatnonzero(starts[letters])          # the edges of a two-letter face's first letter
    letters, rows, vals = letters[sub], rows[sub], vals[sub]
    for k, face in enumerate(TWO_LETTER_FACES):
        a, b = (ord(ch) - 97 for ch in face.lower())
        first = letters == a
        both = t[((vals[first] >> 2) * WIDTH) + b]  # then the second letter's edge
        t[rows[first] + LETTERS + k] = both
    return t


def build_edges(words: Iterable[str], common: Iterable[str] | set[str] = (),
                minimise: bool = True) -> tuple[dict[int, int], int]:
    """Build the flat edge table of (see module docstring) from normalised words.

    words: lower-case a-z words (duplicates fine); common: the subset flagged common.
    minimise: merge equal sub-graphs (DAWG, ~3x fewer edges; slower to build).
    Returns (edges, word_count).
    """
    common = set(common)
    root: dict[str, Any] = {}
    count = 0
    for w in sorted(set(words)):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node["$"] = (TERMINAL | COMMON) if w in common else TERMINAL
        count += 1
    edges: dict[int, int] = {}
    register: dict[tuple[tuple[int, int], ...], int] = {}
    next_id = [2]

    sys_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(sys_limit, 10_000))
    try:
        def number(node: dict[str, Any]) -> int:
            # children first, so a node's signature names its children's final ids
            items = []
            for ch in sorted(k for k in node if k != "$"):
                child = node[ch]
                flags = child.get("$", 0)
                cid = number(child) if len(child) > (1 if "$" in child else 0) else SINK
                items.append((ord(ch) - 97, (cid << 2) | flags))
            sig = tuple(items)
            if minimise and sig in register:
                return register[sig]
            sid = next_id[0]
            next_id[0] += 1
            if minimise:
                register[sig] = sid
            for letter, v in items:
                edges[(sid << 5) | letter] = v
            return sid

        top = number(root)
    finally:
        sys.setrecursionlimit(sys_limit)
    # renumber so that the root is state 1
    if top != ROOT:
        edges = _swap_states(edges, top, ROOT)
    return edges, count


def _swap_states(edges: dict[int, int], a: int, b: int) -> dict[int, int]:
    def m(s: int) -> int:
        return b if s == a else a if s == b else s
    return {(m(k >> 5) << 5) | (k & 31): (m(v >> 2) << 2) | (v & 3) for k, v in edges.items()}


def save_compiled(path: Path, edges: dict[int, int], word_count: int) -> None:
    """Write the compact binary form: MAGIC, uint32 LE edge count and word count, keys, values."""
    keys = array.array("I", edges.keys())
    vals = array.array("I", edges.values())
    if sys.byteorder == "big":
        keys.byteswap()
        vals.byteswap()
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(len(keys).to_bytes(4, "little") + word_count.to_bytes(4, "little"))
        f.write(keys.tobytes())
        f.write(vals.tobytes())


def load_compiled(data: bytes, source: str) -> Dictionary:
    """Read the form written by save_compiled. Raises WordListError if corrupt."""
    if data[:8] != MAGIC or len(data) < 16:
        raise WordListError(f"{source}: not a compiled boggle-cv dictionary",
                            "rebuild it with scripts/build_dictionary.py")
    n = int.from_bytes(data[8:12], "little")
    count = int.from_bytes(data[12:16], "little")
    if len(data) != 16 + 8 * n:
        raise WordListError(f"{source}: compiled dictionary is truncated",
                            "rebuild it with scripts/build_dictionary.py")
    keys = np.frombuffer(data, dtype="<u4", count=n, offset=16).astype(np.int64)
    vals = np.frombuffer(data, dtype="<u4", count=n, offset=16 + 4 * n).astype(np.int64)
    return Dictionary(None, count, source, table=table_from_edges(keys, vals))


def load_default(lang: str = "en") -> Dictionary:
    """The shipped dictionary of edition `lang` (English: SCOWL-based, see
    boggle_cv/data/default-dict.json; others: boggle_cv/data/<lang>-dict.json).

    Cached per edition (`load_edition`): the first call costs a few ms (reading the
    file, filling the table), later calls nothing. UsageError for an unknown
    edition; EngineMissingError when the file is missing from the package.
    """
    from .editions import get_edition
    return load_edition(get_edition(lang).code)


@functools.lru_cache(maxsize=8)
def load_edition(lang: str) -> Dictionary:
    """load_default's cached loader, by canonical edition code ("en", "fr", ...)."""
    from .editions import get_edition
    stem = get_edition(lang).dictionary
    pkg = resources.files("boggle_cv") / "data"
    try:
        data = (pkg / f"{stem}.bin").read_bytes()
    except (FileNotFoundError, OSError):
        from ..errors import EngineMissingError
        what = "the default dictionary" if stem == "default-dict" else f"the {lang} dictionary ({stem}.bin)"
        raise EngineMissingError(f"{what} is missing from the package",
                                 "reinstall boggle-cv or run scripts/build_dictionary.py") from None
    d = load_compiled(data, "default" if lang == "en" else f"default-{lang}")
    try:
        d.meta = json.loads((pkg / f"{stem}.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError, ValueError):
        d.meta = {}
    return d


#: Most letters the word graph of a --dict list may hold, counting the letters that
#: words share at their start once ("cat" and "cats": 4). Memory grows with it
#: (build_edges: about 375 bytes a letter while it builds), so this bounds what any
#: list can cost: ENABLE2K needs 389,308, YAWL 586,602; a longer list is refused.
MAX_LIST_GRAPH_LETTERS = 700_000


def graph_letters(sorted_words: list[str]) -> int:
    """Letters of the trie of `sorted_words` (sorted, distinct): each word adds the
    letters after the beginning it shares with the word before it."""
    total = 0
    prev = ""
    for w in sorted_words:
        n = min(len(w), len(prev))
        k = 0
        while k < n and w[k] == prev[k]:
            k += 1
        total += len(w) - k
        prev = w
    return total


def load_word_list(path: Path | str, common_from: Dictionary | None = None, lang: str = "en") -> Dictionary:
    """A Dictionary from any one-word-per-line file (UTF-8, optional BOM, CRLF, any case).

    Lines are folded by edition `lang` (normalise_word: a French list's "été" is
    "ete"; a list of another language works, folded the edition's way).
    Lines that are not words (see normalise_word) are skipped and counted in
    `.skipped`. A word is flagged common if `common_from` (default: none) has it
    flagged common. The file is read line by line (textfiles.open_lines: at most
    textfiles.DICTIONARY.max_bytes; a regular file or a pipe, read with a bounded wait). Raises WordListError for a
    missing/binary/non-UTF-8/oversized file, one without any word, or one whose
    word graph would pass MAX_LIST_GRAPH_LETTERS.
    """
    words: set[str] = set()
    skipped = 0
    with open_lines(path, DICTIONARY) as lines:
        for line in lines:
            if not line.strip():
                continue
            w = normalise_word(line, lang)
            if w is None:
                skipped += 1
                continue
            words.add(w)
            if len(words) > MAX_LIST_GRAPH_LETTERS:  # every distinct word adds a letter at least
                raise _too_many_letters(path, len(words), at_least=True)
    if not words:
        raise WordListError(f"dictionary {path} holds no words ({skipped} lines skipped)",
                            "give a file with one word per line")
    ordered = sorted(words)
    del words
    letters = graph_letters(ordered)
    if letters > MAX_LIST_GRAPH_LETTERS:
        raise _too_many_letters(path, letters, at_least=False)
    common = [w for w in ordered if common_from is not None and common_from.is_common(w)]
    edges, count = build_edges(ordered, common, minimise=False)
    return Dictionary(edges, count, str(path), skipped)


def _too_many_letters(path: Path | str, letters: int, at_least: bool) -> WordListError:
    more = "at least " if at_least else ""
    return WordListError(f"dictionary {path} is too large: its word graph needs {more}{letters:,} letters, "
                         f"the limit is {MAX_LIST_GRAPH_LETTERS:,} (YAWL needs 586,602)",
                         "give a smaller word list, or leave out --dict")


def from_words(words: Iterable[str], common: Iterable[str] = (), source: str = "list",
               lang: str = "en") -> Dictionary:
    """A Dictionary from words in any case, folded by edition `lang` (non-words
    dropped silently; for tests and tools)."""
    norm = [w for w in (normalise_word(x, lang) for x in words) if w]
    cn = [w for w in (normalise_word(x, lang) for x in common) if w]
    edges, count = build_edges(norm, cn, minimise=False)
    return Dictionary(edges, count, source)
