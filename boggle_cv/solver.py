"""Every dictionary word on a board, with one path each.

A path is a tuple of (row, col) cells, each adjoining the previous one (8
directions), no cell twice. A face's letters all count: "Qu" and the two-letter
faces add two letters to a word; a blank cell blocks every path.

How it is fast (benchmarks/bench_solver.py): cells are flattened to indices
0..N*N-1 with precomputed neighbour lists (blanks removed) and bit masks; the
dictionary is one flat dict keyed `(state << 5) | letter` (boggle_cv.dictionary),
so a step is one shift-or and one dict.get; a step into a state with no outgoing
edges is not recursed into; the word string is built only when a terminal edge is
reached (from the path, not carried along).
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from .board import BLANK, Board
from .dictionary import ROOT, Dictionary, TERMINAL, COMMON, load_default


class FoundWord(NamedTuple):
    """A word on the board: lower-case letters, one path of (row, col), common flag."""

    word: str
    path: tuple[tuple[int, int], ...]
    common: bool

    @property
    def length(self) -> int:
        """Letters, counting Qu and two-letter faces as two."""
        return len(self.word)


def default_min_length(size: int) -> int:
    """3 on 3x3 and 4x4, 4 on 5x5 and 6x6 (RULES.md)."""
    return 3 if size <= 4 else 4


@functools.lru_cache(maxsize=8)
def _geometry(n: int) -> tuple[list[int], list[tuple[int, ...]], list[tuple[int, int]]]:
    """For an n x n board, by flat index i = row * n + col: bit 1 << i, the up-to-8
    neighbour indices, and (row, col)."""
    bits = [1 << i for i in range(n * n)]
    nbrs = []
    for i in range(n * n):
        r, c = divmod(i, n)
        nbrs.append(tuple(rr * n + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                          if 0 <= rr < n and 0 <= cc < n and (rr, cc) != (r, c)))
    return bits, nbrs, [divmod(i, n) for i in range(n * n)]


def solve(board: Board, dictionary: Dictionary | None = None,
          min_length: int | None = None) -> list[FoundWord]:
    """Every word of the dictionary with at least `min_length` letters on the board.

    Returns FoundWord sorted alphabetically, one (the first found) path each.
    dictionary: default `load_default()`; min_length: default by board size.
    """
    d = dictionary if dictionary is not None else load_default()
    n = board.size
    min_len = default_min_length(n) if min_length is None else max(1, int(min_length))
    flat = [board.face(r, c) for r in range(n) for c in range(n)]
    letters = [f.lower() if f != BLANK else "" for f in flat]
    # single-letter faces: their letter code; multi-letter faces: -1 (slow path); blank: unused
    code = [ord(s) - 97 if len(s) == 1 else -1 for s in letters]
    multi = [tuple(ord(ch) - 97 for ch in s) for s in letters]
    bits, all_nbrs, rc = _geometry(n)
    if BLANK in flat:
        nbrs = [tuple(j for j in js if flat[j] != BLANK) for js in all_nbrs]
    else:
        nbrs = all_nbrs
    get = d.edges.get
    found: dict[str, tuple[tuple[int, ...], int]] = {}
    path = [0] * (n * n + 1)

    def hit(depth: int, v: int) -> None:
        p = path[:depth]
        w = "".join([letters[k] for k in p])
        if w not in found:
            found[w] = (p, v)

    def step(j: int, state: int) -> int | None:
        """Walk the letters of a multi-letter face; the last edge's value or None."""
        v = None
        for o in multi[j]:
            v = get((state << 5) | o)
            if v is None:
                return None
            state = v >> 2
        return v

    # per cell: (neighbour, its bit, its letter code or -1) -- one tuple unpack per step
    nb3 = [tuple((j, bits[j], code[j]) for j in nbrs[i]) for i in range(n * n)]

    def visit(i: int, s5: int, mask: int, depth: int, length: int,
              nb3=nb3, get=get, path=path, min_len=min_len, letters=letters, found=found) -> None:
        # path[depth - 1] == i already; s5 is (state after cell i) << 5
        for j, bj, o in nb3[i]:
            if mask & bj:
                continue
            if o >= 0:
                v = get(s5 | o)
                if v is None:
                    continue
                ln = length + 1
            else:
                v = step(j, s5 >> 5)
                if v is None:
                    continue
                ln = length + len(multi[j])
            path[depth] = j
            if v & 1 and ln >= min_len:
                p = path[:depth + 1]
                w = "".join([letters[k] for k in p])
                if w not in found:
                    found[w] = (p, v)
            if v > 3:
                visit(j, (v >> 2) << 5, mask | bj, depth + 1, ln)

    def visit_single(i: int, s5: int, mask: int, depth: int,
                     nb3=nb3, get=get, path=path, min_len=min_len, letters=letters,
                     found=found) -> None:
        # visit() for boards whose faces are all single letters: length == depth
        for j, bj, o in nb3[i]:
            if mask & bj:
                continue
            v = get(s5 | o)
            if v is None:
                continue
            path[depth] = j
            if v & 1 and depth >= min_len - 1:
                p = path[:depth + 1]
                w = "".join([letters[k] for k in p])
                if w not in found:
                    found[w] = (p, v)
            if v > 3:
                visit_single(j, (v >> 2) << 5, mask | bj, depth + 1)

    single = all(c >= 0 for c, f in zip(code, flat) if f != BLANK)
    for i in range(n * n):
        if flat[i] == BLANK:
            continue
        v = step(i, ROOT) if code[i] < 0 else get((ROOT << 5) | code[i])
        if v is None:
            continue
        path[0] = i
        ln = len(multi[i])
        if v & TERMINAL and ln >= min_len:
            hit(1, v)
        if v > 3:
            if single:
                visit_single(i, (v >> 2) << 5, bits[i], 1)
            else:
                visit(i, (v >> 2) << 5, bits[i], 1, ln)

    return [FoundWord(w, tuple([rc[k] for k in p]), bool(v & COMMON))
            for w, (p, v) in sorted(found.items())]


def find_paths(board: Board, word: str, limit: int = 10_000) -> list[tuple[tuple[int, int], ...]]:
    """Every path (up to `limit`) that spells `word` (any case) on the board; [] if none.

    Used by scoring to pick the best path when bonus cells or the challenge cube
    make paths differ in value.
    """
    n = board.size
    target = word.lower()
    letters = {(r, c): board.face(r, c).lower() for r, c in board.cells() if board.face(r, c) != BLANK}
    out: list[tuple[tuple[int, int], ...]] = []

    def walk(cell: tuple[int, int], pos: int, path: list[tuple[int, int]]) -> None:
        if len(out) >= limit:
            return
        if pos == len(target):
            out.append(tuple(path))
            return
        r, c = cell
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                nb = (rr, cc)
                if nb in letters and nb not in path and target.startswith(letters[nb], pos):
                    path.append(nb)
                    walk(nb, pos + len(letters[nb]), path)
                    path.pop()

    for cell, s in letters.items():
        if target.startswith(s):
            walk(cell, len(s), [cell])
    _ = n
    return out
