"""Find the written words of a flattened, upright sheet, in writing order.

    find_words(ink)  ->  [WordBox, ...]  columns left to right, lines top to bottom,
                                         words left to right
    crop_word(flat, ink, word) -> BGR uint8 crop of one word, ruling painted out

Coordinates are flat-image pixels (x, y) (paper.Paper.flat). The steps:
  1. letters: the ink's blobs (a small closing joins a broken stroke); specks dropped;
  2. lines: a long, one-pixel-high closing joins the blobs that share rows; a piece
     of a letter alone on its rows (a descender's tail) joins the line it touches;
  3. words: within a line, a gap wider than WORD_GAP letter heights splits words (a
     space, or a comma: a small blob low on the line at a word's end is punctuation
     and left out of it);
  4. not words: a blob no wider than MARK_ASPECT of its height (a score "3", a
     tick, a numbering "1.") is a mark, not a word; so is anything on the paper's
     border band (the paper's edge, a shadow);
  5. crossed out: a straight stroke over STRIKE_SPAN of the word's width through its
     middle band (tried at the STRIKE_SLANTS), with letters on both sides of it;
  6. columns: a gutter (no ink from top to bottom, wider than GUTTER letter heights)
     splits the page into columns, each holding at least two lines; a column of
     short groups (nine in ten under SCORE_ASPECT heights wide: scores written
     beside each word) is marks, not words.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..stages import DebugSink
from .ink import BORDER, Ink

U8 = npt.NDArray[np.uint8]

WORD_GAP = 0.5       # letter heights: a wider gap inside a line separates two words
JOIN_GAP = 0.9       # letter heights: ... and a gap under this may still lie inside one (read both ways)
STRIKE_ENDS = 1      # a strike runs past the letters at this many ends (of 2)
PUNCT_INK = 0.07     # line heights squared: a comma's ink is less (a script 's' has more)
COMMA_GAP = 0.3      # line heights: after a comma's tail, a gap this wide separates words
PUNCT_GAP = 0.3      # line heights: ... after a comma or stop of its own (a word never holds one)
BASE_ROWS = 0.35     # a blob's baseline: its last row inked at least this share of its busiest
MARK_ASPECT = 0.9    # a group no wider than this times its height is a mark, not a word
STRIKE_SPAN = 0.9    # share of a word's width a strike-through covers (it runs end to end)
STRIKE_RUN = 0.6     # ... of which this much at least inside the word's box (turned by a slant)
STRIKE_SLANTS = (0.0, -2.5, 2.5, -5.0, 5.0, -10.0, 10.0)  # degrees a strike is looked for at
STRIKE_SIDES = 0.3   # ... with letters on each side of it (off its edge) over this share of its length
SCORE_ASPECT = 1.6   # a column whose groups are (but a tenth) no wider than this is marks
GUTTER = 2.5         # letter heights: a wider all-blank band between columns
SIDE_GAP = 0.3       # letter heights: blobs of two lines this close side by side join the lines
SIDE_DROP = 0.75     # letter heights: ... when their centres are no further apart than this
SIDE_SPAN = 2.0      # letter heights: ... and the joined line is no taller than this
PIECE_INK = 0.25     # letter heights squared: a "line" with less ink than this is a piece of a letter
PIECE_WIDTH = 1.0    # letter heights: ... and narrower than this
PIECE_REACH = 0.3    # letter heights: ... and joins the line whose ink is this close to it


@dataclass(frozen=True)
class WordBox:
    """One written word on the flat image: x0, y0, x1, y1 (px, end exclusive),
    crossed_out (struck through by its writer), line and column (0-based), joinable
    (it follows the word before it on its line across a gap under JOIN_GAP letter
    heights: the two may be one scrawled word, read.read_sheet reads it both ways)."""

    x0: int
    y0: int
    x1: int
    y1: int
    crossed_out: bool = False
    line: int = 0
    column: int = 0
    joinable: bool = False


@dataclass(frozen=True)
class _Blob:
    x0: int
    y0: int
    x1: int
    y1: int
    area: int = 0  # ink pixels

    @property
    def h(self) -> int:
        return self.y1 - self.y0

    @property
    def w(self) -> int:
        return self.x1 - self.x0


def _blobs(mask: U8, pen: float) -> list[_Blob]:
    k = max(1, int(pen * 0.08))
    joined = cv2.dilate(mask, np.ones((k, k), np.uint8)) if k > 1 else mask
    n, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out = []
    min_area = max(6.0, (pen * 0.12) ** 2)
    for x, y, w, h, a in stats[1:]:
        if a < min_area:
            continue
        out.append(_Blob(int(x), int(y), int(x + w), int(y + h), int(a)))
    return out


def _lines(mask: U8, blobs: list[_Blob], pen: float) -> list[list[_Blob]]:
    """Blobs grouped by text line: a long horizontal closing of their core rows."""
    h, w = mask.shape
    band = np.zeros((h, w), np.uint8)
    for b in blobs:  # each blob's middle half: ascenders and descenders do not bridge lines
        q = max(b.h // 4, 0)
        band[b.y0 + q:b.y1 - q if b.y1 - q > b.y0 + q else b.y0 + 1, b.x0:b.x1] = 255
    reach = max(3, int(pen * 2.5))
    joined = cv2.dilate(band, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, 1)))
    n, labels = cv2.connectedComponents(joined, connectivity=8)
    groups: dict[int, list[_Blob]] = {}
    for b in blobs:
        cy = (b.y0 + b.y1) // 2
        lab = int(labels[cy, (b.x0 + b.x1) // 2])
        if lab == 0:  # a dot or an accent: the line just below it
            below = labels[cy:min(cy + int(pen * 1.2), h), (b.x0 + b.x1) // 2]
            hit = below[below > 0]
            lab = int(hit[0]) if len(hit) else -1 - len(groups)
        groups.setdefault(lab, []).append(b)
    lines = _attach_pieces(_join_side_by_side(list(groups.values()), pen), pen)
    return [sorted(g, key=lambda b: b.x0) for g in lines]


def _attach_pieces(lines: list[list[_Blob]], pen: float) -> list[list[_Blob]]:
    """A "line" that is only a piece of ink (under PIECE_INK letter heights squared
    of ink, narrower than PIECE_WIDTH letter heights: a descender's tail cut from its
    letter by a fast pen, an accent) joins the line it touches: a blob of that line
    within PIECE_REACH letter heights of it, across and down; the nearest such line
    by centre. Left alone, it is read as a word of its own and cuts its word in two."""
    if len(lines) < 2:
        return lines
    def extent(ln: list[_Blob]) -> tuple[int, int, int, int]:
        return min(b.x0 for b in ln), min(b.y0 for b in ln), max(b.x1 for b in ln), max(b.y1 for b in ln)
    boxes = [extent(ln) for ln in lines]
    piece = [sum(b.area for b in ln) < PIECE_INK * pen * pen and bx[2] - bx[0] < PIECE_WIDTH * pen
             for ln, bx in zip(lines, boxes)]
    reach = PIECE_REACH * pen
    target: dict[int, int] = {}
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        if not piece[i]:
            continue
        best, best_d = -1, float("inf")
        for j, ln in enumerate(lines):
            if j == i or piece[j]:
                continue
            touching = any(b.x0 - reach <= x1 and x0 <= b.x1 + reach and b.y0 - reach <= y1 and y0 <= b.y1 + reach
                           for b in ln)
            d = abs((y0 + y1) / 2 - (boxes[j][1] + boxes[j][3]) / 2)
            if touching and d < best_d:
                best, best_d = j, d
        if best >= 0:
            target[i] = best
    if not target:
        return lines
    out = [list(ln) for ln in lines]
    for i, j in target.items():
        out[j].extend(lines[i])
    return [ln for i, ln in enumerate(out) if i not in target]


def _join_side_by_side(lines: list[list[_Blob]], pen: float) -> list[list[_Blob]]:
    """Lines joined where a blob of one sits beside a blob of the other: the gap
    between them under SIDE_GAP letter heights, their x ranges overlapping by at
    most a third of the narrower, their centres under SIDE_DROP letter heights
    apart. A word written on a slope, or a tall letter beside short ones ('t' of
    "unit"), has core bands that do not meet; a word of the next line lies a line
    pitch lower and above or below, not beside. Joined, the lines must be no taller
    than SIDE_SPAN letter heights."""
    owner = [i for i, ln in enumerate(lines) for _ in ln]
    blobs = [b for ln in lines for b in ln]
    if len(lines) < 2:
        return lines
    x0 = np.array([b.x0 for b in blobs], np.float64)
    x1 = np.array([b.x1 for b in blobs], np.float64)
    cy = np.array([(b.y0 + b.y1) / 2 for b in blobs], np.float64)
    wd = x1 - x0
    gap = np.maximum(x0[:, None], x0[None, :]) - np.minimum(x1[:, None], x1[None, :])  # < 0: overlap
    side = (gap < SIDE_GAP * pen) & (-gap <= np.minimum(wd[:, None], wd[None, :]) / 3) \
        & (np.abs(cy[:, None] - cy[None, :]) < SIDE_DROP * pen)
    own = np.array(owner)
    parent = list(range(len(lines)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    top = [min(b.y0 for b in ln) for ln in lines]
    bottom = [max(b.y1 for b in ln) for ln in lines]
    for a, b in zip(*np.nonzero(side & (own[:, None] != own[None, :]))):
        ra, rb = root(int(own[a])), root(int(own[b]))
        # joined, the lines must still be one line high (a page flattened askew slants
        # its lines so that a line's end sits beside the next line's start)
        if ra != rb and max(bottom[ra], bottom[rb]) - min(top[ra], top[rb]) <= SIDE_SPAN * pen:
            parent[rb] = ra
            top[ra], bottom[ra] = min(top[ra], top[rb]), max(bottom[ra], bottom[rb])
    joined: dict[int, list[_Blob]] = {}
    for i, ln in enumerate(lines):
        joined.setdefault(root(i), []).extend(ln)
    return list(joined.values())


def _split_words(line: list[_Blob], pen: float, mask: U8) -> list[tuple[list[_Blob], bool]]:
    """A line's blobs (left to right) -> words, split at gaps wider than WORD_GAP
    line heights (the line's own height, or the page's `pen` if it is shorter), or
    wider than PUNCT_GAP after a comma or a stop of its own (the gap before it
    narrower by PUNCT_GAP at least), or than COMMA_GAP after
    a blob whose right end hangs below its own baseline (a comma written touching its
    word's last letter). Each word comes with `joinable`:
    it follows the previous word of the line across a gap under JOIN_GAP line
    heights with no comma between (a space, or a wide gap inside a scrawled word)."""
    top, bottom = min(b.y0 for b in line), max(b.y1 for b in line)
    lh = max(min(float(bottom - top), pen * 1.5), pen * 0.5)
    mid = (top + bottom) / 2

    def comma_tail(b: _Blob) -> bool:
        # the blob's own baseline: its last row at least BASE_ROWS as inked as its
        # busiest (a line's median bottom is off when half its words hang a comma)
        rows = np.count_nonzero(mask[b.y0:b.y1, b.x0:b.x1], axis=1)
        if not rows.any():
            return False
        baseline = b.y0 + int(np.nonzero(rows >= BASE_ROWS * rows.max())[0][-1])
        x = b.x0 + int(b.w * 0.7)
        below = mask[baseline + 2:b.y1, x:b.x1]
        return below.size > 0 and bool(below.any())

    def punctuation(b: _Blob) -> bool:  # a comma or a full stop: a little ink, low on the line
        return b.h < 0.5 * lh and b.w < 0.4 * lh and b.y0 > mid and b.area < PUNCT_INK * lh * lh

    words: list[list[_Blob]] = []
    near: list[bool] = []
    soft: list[bool] = []  # split only by what looked like a comma's tail: may be one word still
    right = -10**9
    before = 0  # the gap before the last blob taken
    for b in line:
        gap = b.x0 - right
        # a comma of its own sits close after its word and before a space: the gap
        # after it is the wider (a low piece of a scrawled letter sits between two alike)
        mark = bool(words) and punctuation(words[-1][-1]) and gap >= before + PUNCT_GAP * lh
        after_comma = mark or (bool(words) and comma_tail(words[-1][-1]))
        split_at = PUNCT_GAP if mark else COMMA_GAP
        before = gap
        if words and gap <= WORD_GAP * lh and not (gap > split_at * lh and after_comma):
            words[-1].append(b)
        else:
            near.append(bool(words) and gap <= JOIN_GAP * lh and not after_comma)
            soft.append(bool(words) and gap <= WORD_GAP * lh and not mark)
            words.append([b])
        right = max(right, b.x1)
    out: list[tuple[list[_Blob], bool]] = []
    kept_last = False
    for wd, joinable, by_comma in zip(words, near, soft):
        trimmed = False
        while len(wd) > 1 and punctuation(wd[-1]):
            wd = wd[:-1]
            trimmed = True
        if not (len(wd) == 1 and punctuation(wd[0])):
            out.append((wd, (joinable and kept_last) or (by_comma and bool(out))))
            kept_last = not trimmed
        else:
            kept_last = False
    return out


def _struck(darkness: npt.NDArray[np.float32], x0: int, y0: int, x1: int, y1: int, ruling: U8 | None = None) -> bool:
    """A thin straight stroke through the word's middle band over STRIKE_SPAN of its
    width (tried at each of STRIKE_SLANTS), in the word's darkest ink (its own Otsu cut, so a
    blurred word that reads as a solid band at the page's ink cut is not one), with
    letters above and below it (STRIKE_SIDES). ruling: uint8 (H, W), 255 on the
    paper's ruled lines (not ink), left out."""
    w, h = x1 - x0, y1 - y0
    if w < 8 or h < 6:
        return False
    crop = (np.clip(darkness[y0:y1, x0:x1], 0, 1) * 255).astype(np.uint8)
    if ruling is not None:  # a ruled line through the word is the paper's, not a strike
        crop[ruling[y0:y1, x0:x1] > 0] = 0
    _, m0 = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    span = int(w * STRIKE_SPAN)
    for slant in STRIKE_SLANTS:
        m = m0
        if slant:
            rot = cv2.getRotationMatrix2D((w / 2, h / 2), slant, 1.0)
            m = cv2.warpAffine(m0, rot, (w, h))
        run = cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (span, 1)))
        rows = np.nonzero(run.any(axis=1))[0]
        middle = rows[(rows > h * 0.25) & (rows < h * 0.8)]
        if len(middle) == 0 or len(rows) > max(2, h * 0.22):
            continue
        # the opening lets a run that touches the box's edge count as longer than it is
        # (a strike turned by the slant loses its ends to the corners): the run kept must
        # still cross STRIKE_RUN of the word (a heavy letter at its start does not)
        cols = np.nonzero(run.any(axis=0))[0]
        if len(cols) == 0 or cols[-1] - cols[0] + 1 < STRIKE_RUN * w:
            continue
        # a strike goes through the letters: ink above it and below it along much
        # of it (a cursive word's joining stroke along its baseline, or a long t-bar
        # over it, has the letters on one side only, a descender or two aside)
        letters = m[:, cols[0]:cols[-1] + 1] > 0
        gap = max(2, int(round(h * 0.1)))
        above = letters[:max(int(rows[0]) - gap, 0)].any(axis=0).mean() if rows[0] >= gap else 0.0
        below = letters[int(rows[-1]) + 1 + gap:].any(axis=0).mean() if rows[-1] + 1 + gap < h else 0.0
        if min(above, below) < STRIKE_SIDES:
            continue
        # the stroke runs past the letters at both ends: there the ink is only the stroke
        ends = max(2, int(w * 0.04))
        left, right = m[:, cols[0]:cols[0] + ends], m[:, max(cols[-1] + 1 - ends, 0):cols[-1] + 1]
        thin = max(3.0, h * 0.3)
        if sum(np.count_nonzero(e.any(axis=1)) <= thin for e in (left, right)) >= STRIKE_ENDS:
            return True
    return False


def _columns(words: list[tuple[_Blob, int]], width: int, pen: float) -> list[int]:
    """Column index of each word: split at all-blank vertical bands wider than GUTTER
    letter heights; -1 for a column of marks (SCORE_ASPECT; not one group alone); a
    column keeping at least two lines (else it joins its left one)."""
    occ = np.zeros(width + 1, np.int32)
    for b, _ in words:
        occ[b.x0:b.x1] += 1
    xs = np.nonzero(occ)[0]
    if len(xs) == 0:
        return [0] * len(words)
    cuts: list[int] = []
    run_start = None
    for x in range(int(xs[0]), int(xs[-1]) + 1):
        if occ[x] == 0 and run_start is None:
            run_start = x
        elif occ[x] > 0 and run_start is not None:
            if x - run_start > GUTTER * pen:
                cuts.append((run_start + x) // 2)
            run_start = None
    col = [int(np.searchsorted(cuts, (b.x0 + b.x1) / 2)) for b, _ in words]
    # a column of short marks (scores beside each word, numbering) is not words: -1;
    # not a lone short group on a page of one column (a close-up photo of one word)
    for c in range(len(cuts) + 1):
        members = [b for (b, _), k in zip(words, col) if k == c]
        if members and (cuts or len(members) > 1) and np.percentile([b.w / max(b.h, 1) for b in members], 90) < SCORE_ASPECT:
            col = [-1 if k == c else k for k in col]
    # a "column" with fewer than two lines belongs to the one on its left
    for c in range(len(cuts), 0, -1):
        lines = {ln for (b, ln), k in zip(words, col) if k == c}
        if 0 < len(lines) < 2:
            col = [k - 1 if k >= c else k for k in col]
    used = sorted(set(k for k in col if k >= 0))
    return [used.index(k) if k >= 0 else -1 for k in col]


def find_words(ink: Ink, debug: DebugSink | None = None, flat: U8 | None = None) -> list[WordBox]:
    """The words written on a flattened, upright sheet, in writing order (module doc)."""
    mask = ink.mask
    h, w = mask.shape
    pen = ink.pen if ink.pen > 0 else 20.0
    by, bx = int(h * BORDER), int(w * BORDER)
    inner = np.zeros_like(mask)
    inner[by:h - by, bx:w - bx] = mask[by:h - by, bx:w - bx]
    blobs = _blobs(inner, pen)
    if not blobs:
        return []
    groups: list[tuple[_Blob, int]] = []
    marks: list[bool] = []
    near: dict[tuple[int, int, int], int] = {}  # a joinable group -> the x1 of the one before it
    lines = _lines(inner, blobs, pen)
    for li, line in enumerate(lines):
        left = -1
        for wd, joinable in _split_words(line, pen, inner):
            box = _Blob(min(b.x0 for b in wd), min(b.y0 for b in wd), max(b.x1 for b in wd), max(b.y1 for b in wd))
            if box.h < pen * 0.35:
                left = -1
                continue  # a speck
            groups.append((box, li))
            marks.append(box.w <= MARK_ASPECT * box.h)  # a mark, a number: not a word
            if joinable:
                near[(li, box.x0, box.y0)] = left
            left = box.x1
    if not groups:
        return []
    cols = _columns(groups, w, pen)  # marks count here: a column of scores is found whole
    keep = [k >= 0 and not m for k, m in zip(cols, marks)]
    # a strike is looked for on word-sized groups only (a fragment's one stroke is straight)
    ruling = ink.lines & ~ink.mask
    found = [(b, li, b.w >= 1.5 * pen and _struck(ink.darkness, b.x0, b.y0, b.x1, b.y1, ruling)) if ok else (b, li, False)
             for (b, li), ok in zip(groups, keep)]
    found = [f for f, ok in zip(found, keep) if ok]
    cols = [k for k, ok in zip(cols, keep) if ok]
    if not found:
        return []
    # lines in reading order within each column: by the line's top
    line_top = {li: min(b.y0 for b, l2, _ in found if l2 == li) for _, li, _ in found}
    order = sorted(range(len(found)), key=lambda i: (cols[i], line_top[found[i][1]], found[i][0].x0))
    line_rank = {li: r for r, li in enumerate(sorted(set(line_top), key=lambda k: line_top[k]))}
    words: list[WordBox] = []
    for i in order:
        (b, li, struck), col = found[i], cols[i]
        prev = words[-1] if words else None
        # joinable only to the word just before it, on its line (not to a dropped mark)
        joinable = prev is not None and near.get((li, b.x0, b.y0)) == prev.x1 and prev.line == line_rank[li] \
            and prev.column == col and not struck and not prev.crossed_out
        words.append(WordBox(b.x0, b.y0, b.x1, b.y1, struck, line_rank[li], col, joinable))
    if debug is not None:
        shown: U8 = np.asarray(cv2.cvtColor(255 - mask, cv2.COLOR_GRAY2BGR), np.uint8) if flat is None else flat.copy()
        shown[ink.lines > 0] = (shown[ink.lines > 0] * 0.5 + np.array([0, 200, 255]) * 0.5).astype(np.uint8)
        for k, wb in enumerate(words):
            colour = (0, 0, 255) if wb.crossed_out else (0, 160, 0)
            cv2.rectangle(shown, (wb.x0, wb.y0), (wb.x1, wb.y1), colour, 2)
            cv2.putText(shown, str(k + 1), (wb.x0, max(wb.y0 - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
        debug("s3_words", shown)
    return words


def crop_word(flat: U8, ink: Ink, word: WordBox, pad: float = 0.15) -> U8:
    """BGR uint8 crop of one word (padded by `pad` of its height), with the ruling
    and any ink in the pad (a comma, a neighbour's stroke) painted the paper's colour."""
    h, w = flat.shape[:2]
    p = int((word.y1 - word.y0) * pad) + 2
    x0, y0, x1, y1 = max(word.x0 - p, 0), max(word.y0 - p, 0), min(word.x1 + p, w), min(word.y1 + p, h)
    crop = flat[y0:y1, x0:x1].copy()
    lines = ink.lines[y0:y1, x0:x1] > 0
    inked = ink.mask[y0:y1, x0:x1] > 0
    paper_px = crop[~inked & ~lines]
    paper = np.median(paper_px, axis=0) if len(paper_px) else np.array([255, 255, 255])
    crop[lines & ~inked] = paper.astype(np.uint8)
    # the pad holds no ink of this word (its box holds all of it): a comma, a
    # neighbour's descender or a score there is painted out
    outside = np.ones(inked.shape, bool)
    outside[word.y0 - y0:word.y1 - y0, word.x0 - x0:word.x1 - x0] = False
    near_ink = cv2.dilate(inked.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    crop[outside & near_ink] = paper.astype(np.uint8)
    out: U8 = crop
    return out
