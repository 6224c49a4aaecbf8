#!/usr/bin/env python3
"""Time `boggle_cv.game.solver.find_words` (the search under `solve`) side by side with the textbook method, on the same
dice-rolled boards and the same words, in one process.

Usage: python benchmarks/bench_solver.py [--boards N] [--repeat R] [--dict PATH] [--where]

The textbook method (`textbook_solve` below) is the plain pure-Python Boggle solver:
a nested-dict trie (one dict per node, keyed by letter, the word itself stored at
its end), neighbour lists, a bitmask of used cells and one recursive call per cell
entered. It only collects the set of words (no paths, no common flags, no sorting),
so it does strictly less than `solve`, which returns sorted FoundWord objects with
one path each.

Boards: dice.roll(set, seed) for seeds 0..N-1 of the 4x4 modern, 5x5 Big Boggle 1979
and 6x6 Super Big Boggle sets (the last has two-letter faces and a blank). For each
board both solvers run R times, alternating which goes first; a board's time is its
best of R. Printed per size: the median over boards of each solver's time (ms per
board) and the ratio ours / textbook of those medians; the word sets of the two are
checked equal on every board.
--where: also print where `solve`'s time goes on the 4x4 boards.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.game.board import Board, face_letters  # noqa: E402
from boggle_cv.game.dice import roll  # noqa: E402
from boggle_cv.game.dictionary import Dictionary, load_default, load_word_list  # noqa: E402
from boggle_cv.game.solver import FoundWord, default_min_length  # noqa: E402
from boggle_cv.game.solver import find_words as solve  # noqa: E402

SETS = (("4x4", "modern-4"), ("5x5", "big-1979"), ("6x6", "super-big-6"))
END = "$"  # the key under which a trie node stores the word that ends there


def build_trie(words: Any) -> dict[str, Any]:
    """A nested-dict trie: node[letter] -> child node; node["$"] -> the word ending here."""
    root: dict[str, Any] = {}
    for w in words:
        node = root
        for ch in w:
            nxt = node.get(ch)
            if nxt is None:
                nxt = node[ch] = {}
            node = nxt
        node[END] = w
    return root


def board_tables(board: Board) -> tuple[list[str], list[list[tuple[int, int, str]]]]:
    """Per flat cell index: its letters ("" for a blank), and (neighbour, its bit, its
    letters) for the neighbours that are not blank: the textbook's neighbour lists."""
    n = board.size
    faces = [face_letters(board.face(r, c)) for r in range(n) for c in range(n)]
    nbrs = [[(rr * n + cc, 1 << (rr * n + cc), faces[rr * n + cc])
             for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
             if 0 <= rr < n and 0 <= cc < n and (rr, cc) != (r, c) and faces[rr * n + cc]]
            for r in range(n) for c in range(n)]
    return faces, nbrs


def descend(node: dict[str, Any] | None, letters: str) -> dict[str, Any] | None:
    """The trie node after `letters` (a two-letter face), or None."""
    for ch in letters:
        if node is None:
            return None
        node = node.get(ch)
    return node


def textbook_solve(board: Board, trie: dict[str, Any], min_len: int) -> set[str]:
    """The set of trie words of at least `min_len` letters on the board (the textbook way)."""
    faces, nbrs = board_tables(board)
    found: set[str] = set()

    def enter(i: int, node: dict[str, Any], used: int) -> None:
        word = node.get(END)
        if word is not None and len(word) >= min_len:
            found.add(word)
        for j, bit, f in nbrs[i]:
            if used & bit:
                continue
            child = node.get(f)
            if child is None:
                if len(f) == 1:
                    continue
                child = descend(node, f)     # a two-letter face: Qu, Th, In, ...
                if child is None:
                    continue
            enter(j, child, used | bit)

    for i, f in enumerate(faces):
        if f:
            node = descend(trie, f)
            if node is not None:
                enter(i, node, 1 << i)
    return found


def textbook_solve_paths(board: Board, trie: dict[str, Any], min_len: int,
                         common: set[str]) -> list[FoundWord]:
    """The textbook method giving what `solve` gives: every word with the first path
    the search meets (the path travels with the recursion as a tuple) and its common
    flag, sorted. The same search as textbook_solve, plus the bookkeeping of a path."""
    faces, nbrs = board_tables(board)
    cells = [(r, c) for r in range(board.size) for c in range(board.size)]
    found: dict[str, tuple[tuple[int, int], ...]] = {}

    def enter(i: int, node: dict[str, Any], used: int, path: tuple[tuple[int, int], ...]) -> None:
        word = node.get(END)
        if word is not None and len(word) >= min_len and word not in found:
            found[word] = path
        for j, bit, f in nbrs[i]:
            if used & bit:
                continue
            child = node.get(f)
            if child is None:
                if len(f) == 1:
                    continue
                child = descend(node, f)
                if child is None:
                    continue
            enter(j, child, used | bit, path + (cells[j],))

    for i, f in enumerate(faces):
        if f:
            node = descend(trie, f)
            if node is not None:
                enter(i, node, 1 << i, (cells[i],))
    return [FoundWord(w, p, w in common) for w, p in sorted(found.items())]


def side_by_side(boards: list[Board], d: Dictionary, trie: dict[str, Any], common: set[str],
                 repeat: int) -> tuple[list[float], list[float], list[float]]:
    """Per board: best-of-`repeat` seconds of solve, textbook_solve and
    textbook_solve_paths (the order rotating between boards and repeats)."""
    ours_t, book_t, full_t = [], [], []
    for k, b in enumerate(boards):
        ml = default_min_length(b.size)
        best = [float("inf")] * 3
        results: list[Any] = [None] * 3
        runs = (lambda: solve(b, d), lambda: textbook_solve(b, trie, ml),
                lambda: textbook_solve_paths(b, trie, ml, common))
        for r in range(repeat):
            for which in [(k + r + i) % 3 for i in range(3)]:
                t0 = time.perf_counter()
                results[which] = runs[which]()
                best[which] = min(best[which], time.perf_counter() - t0)
        if {w.word for w in results[0]} != results[1]:
            raise SystemExit(f"word sets differ on board {b}")
        if results[0] != results[2]:
            raise SystemExit(f"words, paths or flags differ from the textbook's on board {b}")
        ours_t.append(best[0])
        book_t.append(best[1])
        full_t.append(best[2])
    return ours_t, book_t, full_t


def where_the_time_goes(d: Dictionary, n_boards: int) -> None:
    from boggle_cv.game.dictionary import from_words
    boards = [roll("modern-4", s) for s in range(n_boards)]
    empty = from_words(["zzzzzz"])
    t0 = time.perf_counter()
    for b in boards:
        solve(b, empty)
    setup = (time.perf_counter() - t0) / len(boards)
    t0 = time.perf_counter()
    words = sum(len(solve(b, d)) for b in boards)
    total = (time.perf_counter() - t0) / len(boards)
    print(f"where the time goes (4x4, mean per board {total * 1e3:.3f} ms): per-board set-up "
          f"(an empty search) {setup * 1e3:.3f} ms; {words / len(boards):.0f} words a board")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dict", type=Path)
    ap.add_argument("--where", action="store_true")
    args = ap.parse_args()
    d = load_word_list(args.dict) if args.dict else load_default()
    words_all = list(d.words())
    trie = build_trie(words_all)
    common = {w for w in words_all if d.is_common(w)}
    print(f"dictionary: {d.source}, {len(d):,} words; {args.boards} boards per size, "
          f"best of {args.repeat} each; Python {sys.version.split()[0]}")
    print("textbook: the word set only; textbook+paths: the same output as solve (a path and the "
          "common flag per word, sorted)")
    print("size set           solve ms  textbook ms  ratio  textbook+paths ms  ratio  words/board")
    for label, name in SETS:
        boards = [roll(name, s) for s in range(args.boards)]
        ours_t, book_t, full_t = side_by_side(boards, d, trie, common, args.repeat)
        mo, mb, mf = statistics.median(ours_t), statistics.median(book_t), statistics.median(full_t)
        words = statistics.mean(len(solve(b, d)) for b in boards)
        print(f"{label}  {name:12s} {mo * 1e3:8.3f}  {mb * 1e3:11.3f}  {mo / mb:5.2f}  {mf * 1e3:17.3f}  "
              f"{mo / mf:5.2f}  {words:11.0f}")
    if args.where:
        where_the_time_goes(d, args.boards)


if __name__ == "__main__":
    main()
