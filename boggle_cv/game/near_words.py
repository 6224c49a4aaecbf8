"""Words near a word: a lexicon entry folded to a-z, every string one edit away, and
a board's lexicon (its words and every dictionary word one edit from one), what a
player may have meant or written. Shared by the handwriting reader and the game's
sheet lexicon."""
from __future__ import annotations

import unicodedata
from collections.abc import Container, Iterable

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Longest candidate considered (Boggle words; DHSD names are up to 10 letters + ß).
MAX_LEN = 20


def fold_candidate(word: str) -> str:
    """A lexicon entry folded to a-z (lower case, ß -> ss, accents dropped); '' when
    anything else remains."""
    w = word.strip().lower().replace("ß", "ss")
    w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    return w if w.isascii() and w.isalpha() and len(w) <= MAX_LEN else ""


def clean_lexicon(lexicon: Iterable[str]) -> list[str]:
    """Folded, de-duplicated candidates (order of first appearance)."""
    seen: dict[str, None] = {}
    for w in lexicon:
        f = fold_candidate(w)
        if f:
            seen.setdefault(f, None)
    return list(seen)


def one_edit(word: str) -> set[str]:
    """Every a-z string one edit (insert, delete, substitute a letter) away from `word`."""
    out: set[str] = set()
    for i in range(len(word) + 1):
        for c in LETTERS:
            out.add(word[:i] + c + word[i:])
            if i < len(word):
                out.add(word[:i] + c + word[i + 1:])
        if i < len(word):
            out.add(word[:i] + word[i + 1:])
    out.discard(word)
    out.discard("")
    return out


def board_lexicon(board_words: Iterable[str], dictionary: Container[str]) -> list[str]:
    """The board's words plus every ``dictionary`` word one edit (insert, delete,
    substitute a letter) away from one of them: what a player may have meant or
    written. Board words first, then the neighbours sorted."""
    board = clean_lexicon(board_words)
    near: set[str] = set()
    for w in board:
        near |= {n for n in one_edit(w) if n in dictionary}
    near -= set(board)
    return board + sorted(near)
