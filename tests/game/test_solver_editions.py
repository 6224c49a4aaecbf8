"""Each edition's shipped dictionary through the solver: 100 random boards per language
against a plain search over the same word list.

The plain search knows nothing of the transition table: it takes the dictionary's
words once (Dictionary.words(), a walk of the graph), keeps them as a sorted Python
list, and walks each board cell by cell, cutting a path when no word starts with its
letters (bisect). Points come from the standard table written out here. Boards are
rolled from the edition's cube set (French, Italian) or drawn letter by letter with
the frequency of letters in the edition's own words (German, Spanish, Dutch: no set).
"""
from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter

import pytest

from boggle_cv.game import dice
from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import load_default
from boggle_cv.game.scoring import Rules, solve

BOARDS = 100
MIN_LENGTH = {"it": 4}          # the edition's shortest word on 4x4 (docs/editions.md)
TABLE = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}  # RULES.md standard table; 8 letters or more: 11


def plain_points(word: str, min_len: int) -> int:
    n = len(word)
    return 0 if n < min_len else TABLE.get(n, 11)


def boards_of(lang: str, words: list[str]) -> list[Board]:
    sets = dice.sets_of_size(4, lang)
    if sets:
        return [dice.roll(sets[0], seed) for seed in range(BOARDS)]
    freq = Counter("".join(words[::7]))
    letters, weights = zip(*sorted(freq.items()))
    rng = random.Random(23)
    out = []
    for _ in range(BOARDS):
        faces = ["Qu" if ch == "q" else ch.upper() for ch in rng.choices(letters, weights, k=16)]
        out.append(Board(tuple(tuple(faces[r * 4:r * 4 + 4]) for r in range(4))))
    return out


def plain_search(board: Board, words: list[str], min_len: int) -> dict[str, int]:
    """word -> points of every word of `words` (sorted) with a path on the board."""
    n = board.size
    faces = [board.face(r, c).lower() for r in range(n) for c in range(n)]
    found: dict[str, int] = {}

    def starts(prefix: str) -> bool:
        i = bisect_left(words, prefix)
        return i < len(words) and words[i].startswith(prefix)

    def visit(i: int, used: set[int], prefix: str) -> None:
        if not starts(prefix):
            return
        i_word = bisect_left(words, prefix)
        if words[i_word] == prefix and len(prefix) >= min_len:
            found[prefix] = plain_points(prefix, min_len)
        r, c = divmod(i, n)
        for rr in range(max(0, r - 1), min(n, r + 2)):
            for cc in range(max(0, c - 1), min(n, c + 2)):
                j = rr * n + cc
                if j not in used:
                    visit(j, used | {j}, prefix + faces[j])

    for i in range(n * n):
        visit(i, {i}, faces[i])
    return found


@pytest.mark.parametrize("lang", ["fr", "de", "es", "it", "nl"])
def test_shipped_dictionary_solves_as_the_plain_search(lang):
    d = load_default(lang)
    words = list(d.words())
    assert words == sorted(words) and len(words) == len(d)
    rules = Rules(size=4, lang=lang)
    assert rules.min_letters == MIN_LENGTH.get(lang, 3)
    total = 0
    for board in boards_of(lang, words):
        got = {w.word: w.points for w in solve(board, d, rules=rules)}
        want = plain_search(board, words, MIN_LENGTH.get(lang, 3))
        assert got == want, (lang, board.to_text())
        total += len(got)
    assert total > 20 * BOARDS  # boards of real letters hold words
