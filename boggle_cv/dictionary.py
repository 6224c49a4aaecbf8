"""Word lists for the solver and the referee.

A `Dictionary` is a letter graph (a trie, or its minimised form, a DAWG) stored as
one flat `dict[int, int]`:

    key   = (state << 5) | letter          letter = ord(ch) - ord("a"), 0..25
    value = (child << 2) | (common << 1) | terminal

State 1 is the root; state 0 is the single state without outgoing edges (every
word that is not a prefix of another ends there), so `value >> 2 == 0` tells the
solver that there is nothing below. `terminal` says the letters so far spell a
word; `common` says that word is common (SCOWL size <= 50 for the default list).
Because the flags sit on edges, minimising the trie into a DAWG keeps them exact.

The default dictionary ships precompiled (boggle_cv/data/default-dict.bin, made by
scripts/build_dictionary.py from Debian's `scowl`): loading it is two `frombytes`
and one `dict(zip(...))`, well under 100 ms (benchmarks/bench_dictionary.py).
A user list (`--dict PATH`) is built at load time (about 1 s per 200k words).

Words are lower-case ASCII a-z; a "q" must be followed by "u" (the Qu face).
"""
from __future__ import annotations

import array
import functools
import json
import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable, Iterator

from .errors import WordListError
from .textfiles import DICTIONARY, open_lines

ROOT = 1
SINK = 0
TERMINAL = 1
COMMON = 2
MAGIC = b"BOGDAWG1"
DEFAULT_BIN = "default-dict.bin"
DEFAULT_META = "default-dict.json"

_WORD_RE = re.compile(r"[a-z]+\Z")
_BAD_Q_RE = re.compile(r"q(?!u)")


def normalise_word(text: str) -> str | None:
    """The dictionary form of one line ("Queen\\r" -> "queen"), or None if not a word.

    A word is ASCII letters only (no spaces, digits, apostrophes, hyphens, accents)
    and every q is followed by u (any other Q can never be formed on a board).
    """
    w = text.strip().lower()
    if not w or not _WORD_RE.match(w) or _BAD_Q_RE.search(w):
        return None
    return w


@dataclass
class Dictionary:
    """A word graph (see module docstring) plus where it came from.

    edges: the flat transition table; word_count: number of words;
    source: a label for reports; skipped: lines of the source that were not words.
    """

    edges: dict[int, int]
    word_count: int
    source: str = "default"
    skipped: int = 0
    meta: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return self.word_count

    def lookup(self, word: str) -> int | None:
        """Flags (TERMINAL | COMMON bits) of the last edge of `word`, None if no such path."""
        state, v = ROOT, None
        get = self.edges.get
        for ch in word:
            o = ord(ch) - 97
            if not 0 <= o < 26:
                return None
            v = get((state << 5) | o)
            if v is None:
                return None
            state = v >> 2
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
        state = ROOT
        get = self.edges.get
        for ch in prefix.lower():
            v = get((state << 5) | (ord(ch) - 97)) if "a" <= ch <= "z" else None
            if v is None:
                return False
            state = v >> 2
        return True

    def words(self) -> Iterator[str]:
        """Every word in alphabetical order (slow: walks the whole graph; for tests/tools)."""
        children: dict[int, list[tuple[int, int]]] = {}
        for k, v in self.edges.items():
            children.setdefault(k >> 5, []).append((k & 31, v))
        for lst in children.values():
            lst.sort()

        def walk(state: int, prefix: str) -> Iterator[str]:
            for letter, v in children.get(state, ()):
                w = prefix + chr(97 + letter)
                if v & TERMINAL:
                    yield w
                if v >> 2:
                    yield from walk(v >> 2, w)

        yield from walk(ROOT, "")


def build_edges(words: Iterable[str], common: Iterable[str] | set[str] = (),
                minimise: bool = True) -> tuple[dict[int, int], int]:
    """Build the flat edge table of (see module docstring) from normalised words.

    words: lower-case a-z words (duplicates fine); common: the subset flagged common.
    minimise: merge equal sub-graphs (DAWG, ~3x fewer edges; slower to build).
    Returns (edges, word_count).
    """
    common = set(common)
    root: dict = {}
    count = 0
    for w in sorted(set(words)):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node["$"] = (TERMINAL | COMMON) if w in common else TERMINAL
        count += 1
    edges: dict[int, int] = {}
    register: dict[tuple, int] = {}
    next_id = [2]

    sys_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(sys_limit, 10_000))
    try:
        def number(node: dict) -> int:
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
    keys = array.array("I")
    vals = array.array("I")
    keys.frombytes(data[16:16 + 4 * n])
    vals.frombytes(data[16 + 4 * n:])
    if sys.byteorder == "big":
        keys.byteswap()
        vals.byteswap()
    # tolist() first: zip over two lists is faster than over two arrays
    return Dictionary(dict(zip(keys.tolist(), vals.tolist())), count, source)


@functools.lru_cache(maxsize=1)
def load_default() -> Dictionary:
    """The shipped English dictionary (SCOWL-based; see boggle_cv/data/default-dict.json).

    Cached: the first call costs < 100 ms, later calls nothing.
    """
    pkg = resources.files("boggle_cv") / "data"
    try:
        data = (pkg / DEFAULT_BIN).read_bytes()
    except (FileNotFoundError, OSError):
        from .errors import EngineMissingError
        raise EngineMissingError("the default dictionary is missing from the package",
                                 "reinstall boggle-cv or run scripts/build_dictionary.py") from None
    d = load_compiled(data, "default")
    try:
        d.meta = json.loads((pkg / DEFAULT_META).read_text(encoding="utf-8"))
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


def load_word_list(path: Path | str, common_from: Dictionary | None = None) -> Dictionary:
    """A Dictionary from any one-word-per-line file (UTF-8, optional BOM, CRLF, any case).

    Lines that are not words (see normalise_word) are skipped and counted in
    `.skipped`. A word is flagged common if `common_from` (default: none) has it
    flagged common. The file is read line by line (textfiles.open_lines: at most
    textfiles.DICTIONARY.max_bytes, regular files only). Raises WordListError for a
    missing/binary/non-UTF-8/oversized file, one without any word, or one whose
    word graph would pass MAX_LIST_GRAPH_LETTERS.
    """
    words: set[str] = set()
    skipped = 0
    with open_lines(path, DICTIONARY) as lines:
        for line in lines:
            if not line.strip():
                continue
            w = normalise_word(line)
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


def from_words(words: Iterable[str], common: Iterable[str] = (), source: str = "list") -> Dictionary:
    """A Dictionary from words in any case (non-words dropped silently; for tests and tools)."""
    norm = [w for w in (normalise_word(x) for x in words) if w]
    cn = [w for w in (normalise_word(x) for x in common) if w]
    edges, count = build_edges(norm, cn, minimise=False)
    return Dictionary(edges, count, source)
