"""Where a sheet's words are lost: each true word of a composed sheet (its box known:
scripts/compose_sheets.py) matched with the words read (boggle_cv.read_sheet: each
with its box, photo px) by how much their boxes overlap, and given one cause.

    attribute(truth, quads, reads) -> Losses(words=[cause per true word], extras=[...])

A read box and a true box are linked when their overlap covers at least LINK of the
smaller one. A true word is then
  right         one read box, not crossed out, the word read right;
  misread       one read box holding the whole word (COVER of it), read wrong: the
                word reader's loss, not the layout's;
  cut           one read box holding under COVER of the word (a piece of it was left
                out: dropped as a mark, a speck, the paper's edge), read wrong;
  split         two or more read boxes inside it (one word cut at a gap);
  merged        its read box also holds another true word (two words, or two lines,
                read as one);
  false strike  one read box, read as crossed out (the composer strikes nothing);
  strike missed one read box, not read as crossed out, of a word its writer struck
                (rendered sheets only);
  missed        no read box over it (its ink lost, or dropped as a mark).
A read box linked to no true word is an extra: "fragment" (page edge, specks,
ruling) - as are the other pieces of a split word ("split piece"). Each extra
records whether it was flagged (a confident extra is a confident error).

Without boxes (../shared/tools/compose_sheets.py writes none) `align` matches the
two sequences instead - the words read in writing order with the true words in
their order (both run down each column, columns left to right) - by the cheapest
edit script of one-to-one pairs, splits (one true word, two reads), merges (two
true words, one read), misses (cost 1) and extras (0.9), a pair costing the letters
its spellings (reading or free reading, the nearer) differ by over the true word's
length, a split or a merge 0.5 more: the same causes, from the text alone
("cut" cannot be told from "misread" there, and is counted as misread).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

LINK = 0.5    # overlap / the smaller box's area: the two boxes are one word's
COVER = 0.75  # share of the true box a lone read box must cover to have the whole word
CAUSES = ("right", "misread", "cut", "split", "merged", "false strike", "strike missed", "missed")


@dataclass
class Losses:
    """words: one cause (CAUSES) per true word, in order; extras: one (kind,
    flagged) per read box that is not a true word's (kind: "fragment" or "split piece")."""

    words: list[str] = field(default_factory=list)
    extras: list[tuple[str, bool]] = field(default_factory=list)


def _area(q: np.ndarray) -> float:
    return abs(float(cv2.contourArea(q.astype(np.float32))))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex quads (4, 2)."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter)


def attribute(truth: Sequence[str], quads: Sequence[Sequence[Sequence[float]]], reads: Sequence[Any],
              struck: Sequence[bool] = ()) -> Losses:
    """truth: the true words (folded a-z); quads: their boxes (4 (x, y) photo px each);
    reads: the words read (each with .word, .box 4 points, .crossed_out, .flagged);
    struck: which true words their writer crossed out (rendered sheets): one read
    crossed out is right (whatever its reading), one read not crossed out is
    "strike missed"."""
    tq = [np.asarray(q, np.float64).reshape(4, 2) for q in quads]
    rq = [np.asarray(r.box, np.float64).reshape(4, 2) for r in reads]
    ta, ra = [_area(q) for q in tq], [_area(q) for q in rq]
    inter = np.array([[_overlap(t, r) for r in rq] for t in tq]).reshape(len(tq), len(rq))
    smaller = np.minimum(np.array(ta)[:, None], np.array(ra)[None, :])
    link = inter >= LINK * np.maximum(smaller, 1.0)
    out = Losses()
    split_pieces: list[int] = []
    for i, t in enumerate(truth):
        js = [int(j) for j in np.nonzero(link[i])[0]]
        if not js:
            out.words.append("missed")
        elif any(link[:, j].sum() > 1 for j in js):
            out.words.append("merged")
        elif len(js) > 1:
            out.words.append("split")
            best = max(js, key=lambda j: inter[i, j])
            split_pieces += [j for j in js if j != best]
        else:
            r = reads[js[0]]
            if i < len(struck) and struck[i]:
                out.words.append("right" if r.crossed_out else "strike missed")
            elif r.crossed_out:
                out.words.append("false strike")
            elif r.word == t:
                out.words.append("right")
            elif inter[i, js[0]] >= COVER * ta[i]:
                out.words.append("misread")
            else:
                out.words.append("cut")
    for j, r in enumerate(reads):
        if not link[:, j].any() and not r.crossed_out:
            out.extras.append(("fragment", bool(r.flagged)))
    out.extras += [("split piece", bool(reads[j].flagged)) for j in split_pieces if not reads[j].crossed_out]
    return out


def _dist(a: str, b: str) -> float:
    """Levenshtein distance of a (the true word) and b over a's length."""
    from boggle_cv.vision.handwriting.reading import edit_distance
    return edit_distance(a, b) / max(len(a), 1)


def align(truth: Sequence[str], reads: Sequence[Any]) -> Losses:
    """The causes of `attribute` from the text and order alone (module doc)."""
    def d(t: str, rs: Sequence[Any]) -> float:
        return min(_dist(t, "".join(str(r.word) for r in rs)), _dist(t, "".join(str(r.free) for r in rs)))

    n, m = len(truth), len(reads)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    step: list[list[tuple[int, int]]] = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            c = cost[i][j]
            if c == inf:
                continue
            moves = [((1, 0), 1.0), ((0, 1), 0.9)]
            if i < n and j < m:
                moves.append(((1, 1), d(truth[i], reads[j:j + 1])))
            if i < n and j + 1 < m:
                moves.append(((1, 2), d(truth[i], reads[j:j + 2]) + 0.5))
            if i + 1 < n and j < m:
                moves.append(((2, 1), d(truth[i] + truth[i + 1], reads[j:j + 1]) + 0.5))
            for (di, dj), k in moves:
                if i + di <= n and j + dj <= m and c + k < cost[i + di][j + dj]:
                    cost[i + di][j + dj], step[i + di][j + dj] = c + k, (di, dj)
    out = Losses()
    i, j = n, m
    causes: list[str] = []
    extras: list[tuple[str, bool]] = []
    while i or j:
        di, dj = step[i][j]
        i, j = i - di, j - dj
        if (di, dj) == (1, 0):
            causes.append("missed")
        elif (di, dj) == (0, 1):
            if not reads[j].crossed_out:
                extras.append(("fragment", bool(reads[j].flagged)))
        elif (di, dj) == (2, 1):
            causes += ["merged", "merged"]
        elif (di, dj) == (1, 2):
            causes.append("split")
            extras.append(("split piece", bool(reads[j].flagged and reads[j + 1].flagged)))
        else:
            r = reads[j]
            causes.append("false strike" if r.crossed_out else "right" if r.word == truth[i] else "misread")
    out.words = causes[::-1]
    out.extras = extras[::-1]
    return out


def table(by_set: dict[str, Losses]) -> str:
    """The causes (true words) and the extras (read boxes) per set, as a text table."""
    sets = sorted(by_set)
    rows = [f"{'cause':<14}" + "".join(f"{s:>16}" for s in sets) + f"{'all':>10}"]
    for c in CAUSES:
        n = [by_set[s].words.count(c) for s in sets]
        rows.append(f"{c:<14}" + "".join(f"{k:>16}" for k in n) + f"{sum(n):>10}")
    tot = [len(by_set[s].words) for s in sets]
    rows.append(f"{'true words':<14}" + "".join(f"{k:>16}" for k in tot) + f"{sum(tot):>10}")
    for kind in ("fragment", "split piece"):
        n = [sum(1 for k, _ in by_set[s].extras if k == kind) for s in sets]
        u = [sum(1 for k, f in by_set[s].extras if k == kind and not f) for s in sets]
        rows.append(f"{'+' + kind:<14}" + "".join(f"{f'{a} ({b} unfl.)':>16}" for a, b in zip(n, u))
                    + f"{f'{sum(n)} ({sum(u)})':>10}")
    return "\n".join(rows)
