"""Every dictionary word on a board, with one path each.

A path is a tuple of (row, col) cells, each adjoining the previous one (8
directions), no cell twice. A face's letters all count: "Qu" and the two-letter
faces add two letters to a word; a blank cell blocks every path.

Which path: the first in lexicographic order of flat cell indices (row * n + col),
i.e. the one a depth-first search that tries cells and neighbours in index order
finds first.

How it is fast (benchmarks/bench_solver.py): the search is breadth-first and
vectorised with numpy: all paths of one length at a time, as arrays (last cell,
dictionary table entry, used-cell bit mask, path as a byte string of cell + 1).
Every face is one symbol of the dictionary's transition table
(boggle_cv.game.dictionary: the two-letter faces have their own columns, a blank a
column without edges), so one step of every path is one gather from the table
with a (paths x 8 neighbours) index array, one test against the used-cell masks
and one flatnonzero. The paths of 1..3 cells do not depend on the board: they are
precomputed per board size, so the first three steps are gathers only. A
vectorised step costs about as much for 3 paths as for 300, so once few paths are
left (TAIL_PATHS) the rest is searched depth-first in plain Python. Words are made
once at the end, from the byte paths of the terminal entries (a byte translation
table, then the two-letter faces put back), and each word keeps its
lexicographically first path (one sort of word + path bytes). Without two-letter
faces a word has as many letters as its path has cells, so shorter paths are not
kept at all. What runs in Python per word is the building of the FoundWord tuples
from lists made by numpy.
"""
from __future__ import annotations

import functools
from itertools import repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .board import BLANK, Board
from .dictionary import COMMON, DEAD, ROOT, SYMBOLS, TERMINAL, WIDTH, Dictionary, load_default

PRECOMPUTED_STEPS = 3   # paths of 1..3 cells are made once per board size, not searched
TAIL_PATHS = 24         # with this many live paths or fewer, finish depth-first in Python
MAX_NEIGHBOURS = 8

IntArray = npt.NDArray[np.int64]
_tuple_new = tuple.__new__


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


class _Level(NamedTuple):
    """All simple paths of k cells on an empty board, in lexicographic order."""

    parent: IntArray          # (P,) row of the path's first k-1 cells in the previous level
    last: IntArray            # (P,) its last cell
    path: npt.NDArray[np.bytes_]   # (P,) the cells + 1 as bytes
    used: IntArray            # (P,) bit mask of its cells


class _Geometry(NamedTuple):
    """Board-independent tables of an n x n board; flat cell index i = row * n + col."""

    nbr: IntArray             # (N, 8) neighbour indices in increasing order, padded with N
    bit: IntArray             # (N + 1,) 1 << i; 0 for the padding index N
    cell_byte: npt.NDArray[np.bytes_]   # (N + 1,) bytes([i + 1]); b"" for N
    levels: tuple[_Level, ...]          # paths of 1..PRECOMPUTED_STEPS cells
    rc: npt.NDArray[np.object_]         # (N + 1,) (row, col) of cell byte i + 1 at index i + 1
    adjacent: tuple[tuple[int, ...], ...]   # per cell, its neighbours in increasing order


@functools.lru_cache(maxsize=8)
def _geometry(n: int) -> _Geometry:
    """The tables of an n x n board (read-only arrays; cached)."""
    size = n * n
    nbr = np.full((size, MAX_NEIGHBOURS), size, dtype=np.int64)
    adjacent = []
    for i in range(size):
        r, c = divmod(i, n)
        js = [rr * n + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
              if 0 <= rr < n and 0 <= cc < n and (rr, cc) != (r, c)]
        nbr[i, :len(js)] = js
        adjacent.append(js)
    bit = np.array([1 << i for i in range(size)] + [0], dtype=np.int64)
    cell_byte = np.array([bytes([i + 1]) for i in range(size)] + [b""], dtype="S1")
    paths: list[tuple[int, ...]] = [(i,) for i in range(size)]
    levels = [_Level(np.zeros(size, dtype=np.int64), np.arange(size, dtype=np.int64),
                     cell_byte[:size].copy(), bit[:size].copy())]
    for k in range(2, PRECOMPUTED_STEPS + 1):
        longer, parent = [], []
        for pi, p in enumerate(paths):
            for j in adjacent[p[-1]]:
                if j not in p:
                    longer.append(p + (j,))
                    parent.append(pi)
        levels.append(_Level(np.array(parent, dtype=np.int64),
                             np.array([p[-1] for p in longer], dtype=np.int64),
                             np.array([bytes([j + 1 for j in p]) for p in longer], dtype=f"S{k}"),
                             np.array([sum(1 << j for j in p) for p in longer], dtype=np.int64)))
        paths = longer
    rc = np.empty(size + 1, dtype=object)
    rc[:] = [None] + [divmod(i, n) for i in range(size)]
    geometry = _Geometry(nbr, bit, cell_byte, tuple(levels), rc, tuple(map(tuple, adjacent)))
    for a in (nbr, bit, cell_byte, rc, *(x for lv in levels for x in lv)):
        a.setflags(write=False)
    return geometry


def find_words(board: Board, dictionary: Dictionary | None = None,
               min_length: int | None = None) -> list[FoundWord]:
    """Every word of the dictionary with at least `min_length` letters on the board.

    Returns FoundWord sorted alphabetically, one path each (the lexicographically
    first; see the module docstring). dictionary: default `load_default()`;
    min_length: default by board size.
    """
    d = dictionary if dictionary is not None else load_default()
    n = board.size
    min_len = default_min_length(n) if min_length is None else max(1, int(min_length))
    g = _geometry(n)
    faces = [f.lower() if f != BLANK else "" for row in board.faces for f in row]
    symbol = np.array([SYMBOLS[f] if f else DEAD for f in faces] + [DEAD], dtype=np.int64)
    multi = any(len(f) > 1 for f in faces)
    # without two-letter faces a word has as many letters as its path has cells, so
    # shorter paths need not be kept
    paths_found, entries_found = _search(d.table, g, symbol, 1 if multi else min_len)
    return _words(faces, g, paths_found, entries_found, min_len if multi else 0)


def _search(table: npt.NDArray[np.int32], g: _Geometry, symbol: IntArray,
            min_cells: int) -> tuple[list[npt.NDArray[np.bytes_]], list[npt.NDArray[np.int32]]]:
    """Every path that spells a dictionary prefix: per length, the byte paths and their
    table entries (-1 where a precomputed path spells none); only the paths of at
    least `min_cells` cells are returned, all are searched."""
    paths_found: list[npt.NDArray[np.bytes_]] = []
    entries_found: list[npt.NDArray[np.int32]] = []
    v = np.empty(0, dtype=np.int32)
    level = g.levels[0]
    for k, level in enumerate(g.levels):
        # a -1 entry stays -1: (-1 >> 2) + symbol indexes row 0 (the sink) or the last row
        row = (v[level.parent] >> 2) if k else np.int64(ROOT * WIDTH)
        v = table[row + symbol[level.last]]
        if k + 1 >= min_cells:
            paths_found.append(level.path)
            entries_found.append(v)
    live = (v >= 0).nonzero()[0]
    cell, used, paths, v = level.last[live], level.used[live], level.path[live], v[live]
    nbr, bit, cell_byte = g.nbr, g.bit, g.cell_byte
    cells = len(g.levels)
    while len(v):
        if len(v) <= TAIL_PATHS:
            _tail(table, g, symbol.tolist(), cell.tolist(), v.tolist(), used.tolist(), paths.tolist(),
                  min_cells, paths_found, entries_found)
            break
        cells += 1
        nb = nbr[cell]                                          # (paths, 8)
        step = table[(v >> 2)[:, None] + symbol[nb]]            # the sink row and DEAD give -1
        bits = bit[nb]
        ok = ((step >= 0) & ((used[:, None] & bits) == 0)).ravel().nonzero()[0]
        parent = ok >> 3                                        # ok = parent * 8 + neighbour slot
        v = step.take(ok)
        used = used[parent] | bits.take(ok)
        cell = nb.take(ok)
        paths = np.strings.add(paths[parent], cell_byte[cell])
        if cells >= min_cells:
            paths_found.append(paths)
            entries_found.append(v)
    return paths_found, entries_found


def _tail(table: npt.NDArray[np.int32], g: _Geometry, symbol: list[int], cells: list[int],
          entries: list[int], useds: list[int], paths: list[bytes], min_cells: int,
          paths_found: list[npt.NDArray[np.bytes_]], entries_found: list[npt.NDArray[np.int32]]) -> None:
    """The rest of the search from a few live paths, depth-first in plain Python
    (cheaper than a vectorised step for a handful of paths); appends what it finds."""
    adjacent = g.adjacent
    found_paths: list[bytes] = []
    found_entries: list[int] = []

    def visit(i: int, row: int, used: int, path: bytes) -> None:
        for j in adjacent[i]:
            if used >> j & 1:
                continue
            e = int(table.item(row + symbol[j]))
            if e < 0:
                continue
            p = path + bytes((j + 1,))
            if len(p) >= min_cells:
                found_paths.append(p)
                found_entries.append(e)
            if e >> 2:
                visit(j, e >> 2, used | 1 << j, p)

    for i, e, used, path in zip(cells, entries, useds, paths):
        visit(i, e >> 2, used, path)
    if found_paths:
        paths_found.append(np.array(found_paths, dtype=np.bytes_))
        entries_found.append(np.array(found_entries, dtype=np.int32))


def _words(faces: list[str], g: _Geometry, paths_found: list[npt.NDArray[np.bytes_]],
           entries_found: list[npt.NDArray[np.int32]], min_len: int) -> list[FoundWord]:
    """The FoundWord list of the terminal entries: words of >= min_len letters (0: no
    test), each with its lexicographically first path, alphabetical."""
    if not entries_found:
        return []
    v = np.concatenate(entries_found)
    hit = ((v >= 0) & ((v & TERMINAL) != 0)).nonzero()[0]
    if not len(hit):
        return []
    paths = np.concatenate(paths_found)[hit]
    v = v[hit]
    # the letters of each path: a cell byte -> its letter, or a placeholder (upper case)
    # for a two-letter face, replaced by the face's letters afterwards
    letter = np.zeros(len(faces) + 2, dtype=np.uint8)
    multi = set()
    for i, f in enumerate(faces):
        if len(f) == 1:
            letter[i + 1] = ord(f)
        elif f:
            letter[i + 1] = ord(f[0].upper())
            multi.add(f)
    width = paths.dtype.itemsize
    words = letter[paths.view(np.uint8)].view(f"S{width}")
    for f in sorted(multi):
        words = np.strings.replace(words, f[0].upper().encode(), f.encode())
    if min_len > 1:
        keep = (np.strings.str_len(words) >= min_len).nonzero()[0]
        paths, words, v = paths[keep], words[keep], v[keep]
    # one sort: the word, then its path (cell bytes 1..36 sort before letters, so a
    # word sorts before its extensions); the first row of each word wins
    order = np.strings.add(words, paths).argsort()
    words = words[order]
    first = np.empty(len(words), dtype=bool)
    first[:1] = True
    np.not_equal(words[1:], words[:-1], out=first[1:])
    order = order[first]
    if not len(order):
        return []
    cells = paths[order].view(np.uint8).reshape(len(order), -1)
    nonzero = cells != 0
    all_rc = tuple(g.rc[cells[nonzero]].tolist())     # every path's (row, col) in one tuple
    ends = nonzero.sum(axis=1).cumsum().tolist()
    path_tuples = [all_rc[a:b] for a, b in zip([0] + ends[:-1], ends)]
    return list(map(_tuple_new, repeat(FoundWord), zip(
        b"\n".join(words[first].tolist()).decode("ascii").split("\n"),
        path_tuples,
        ((v[order] & COMMON) != 0).tolist())))


def find_paths(board: Board, word: str, limit: int = 10_000) -> list[tuple[tuple[int, int], ...]]:
    """Every path (up to `limit`) that spells `word` (any case) on the board; [] if none.

    Used by scoring to pick the best path when bonus cells or the challenge cube
    make paths differ in value.
    """
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
    return out
