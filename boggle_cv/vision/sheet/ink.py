"""Ink on a flattened sheet: what is written, without the paper's ruling.

    ink_mask(flat)  ->  Ink(mask, lines, pen)
    flat: BGR uint8 (H, W, 3), the paper seen square-on (paper.flatten)
    mask: uint8 (H, W), 255 where ink is, ruled and margin lines and the paper's edge
          band (BORDER) taken out
    lines: uint8 (H, W), 255 on the ruled / margin lines that were taken out
    pen: the writing's typical line height in pixels (text_height)

The paper's brightness is divided out first (a large closing estimates the paper
under the writing), so uneven light and a shadow do not look like ink. The cut
between ink and paper comes down on a page whose ink is faint (``ink_cut``: an
overexposed photo, a hard pencil), scaled by its darkest ink. A ruled line
is a thin, light stroke that runs for a good part of the page; it is found by an
opening with a long horizontal (vertical for the margin) line kernel.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]

#: Darkness (1 - pixel / paper) above which a pixel is ink; a ruled line is lighter
#: than ink but darker than paper, so strokes in between are ink only where they are
#: not a long straight line.
INK_DARKNESS = 0.15
#: On a page whose ink is faint (an overexposed photo, a hard pencil: its darkest ink,
#: the INK_LEVEL_PERCENTILE of the darkness, under FAINT_INK) the ink cut comes down to
#: FAINT_SHARE of that level, never under FAINT_CUT_MIN; a page whose darkest pixels are
#: under BLANK_LEVEL holds no ink to scale by (blank paper, noise) and keeps INK_DARKNESS.
INK_LEVEL_PERCENTILE = 99.9
FAINT_INK = 0.5
FAINT_SHARE = 0.3
FAINT_CUT_MIN = 0.09
BLANK_LEVEL = 0.2
#: A ruled line runs over at least this share of the page's width...
LINE_SPAN = 0.25
#: ...and a margin line over this share of its height (a tall letter of a close-up
#: photo, the t of "post" a third of the picture high, is not a margin).
MARGIN_SPAN = 0.6
#: Share of the flat image's side, at each edge, that is the paper's edge (a shadow, a
#: sliver of table), never writing.
BORDER = 0.012


@dataclass(frozen=True)
class Ink:
    """mask: uint8 (H, W) 255 = ink; lines: uint8 (H, W) 255 = ruling removed;
    darkness: float32 (H, W) 0..1 (1 - pixel / paper); pen: typical letter height, px."""

    mask: U8
    lines: U8
    darkness: npt.NDArray[np.float32]
    pen: float


def darkness_of(flat: U8) -> npt.NDArray[np.float32]:
    """1 - grey / paper brightness, float32 (H, W) in 0..1 (paper 0, black ink ~0.85)."""
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY) if flat.ndim == 3 else flat
    h, w = grey.shape
    small = cv2.resize(grey, (max(w // 4, 1), max(h // 4, 1)), interpolation=cv2.INTER_AREA)
    k = max(9, (min(small.shape) // 20) | 1)
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    # smoothed by a median, not a Gaussian: a sharp shadow's edge across the sheet stays
    # a step (a Gaussian carries the lit paper's level into the shadow, where its first
    # few millimetres then read as a band of ink)
    paper = cv2.medianBlur(paper, k)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    # the resize ramps a step over a few pixels: the lowest level near each pixel keeps the
    # shadow's side of the edge at its own level
    paper = cv2.erode(paper, np.ones((7, 7), np.uint8)).astype(np.float32)
    d = 1.0 - grey.astype(np.float32) / np.maximum(paper, 1.0)
    out: npt.NDArray[np.float32] = np.clip(d, 0.0, 1.0)
    return out


def ink_cut(darkness: npt.NDArray[np.float32]) -> float:
    """The darkness (0..1) above which a pixel of this page is ink: INK_DARKNESS, or
    lower on a page of faint ink (FAINT_INK, FAINT_SHARE, FAINT_CUT_MIN, BLANK_LEVEL)."""
    level = float(np.percentile(darkness, INK_LEVEL_PERCENTILE)) if darkness.size else 0.0
    if not BLANK_LEVEL <= level < FAINT_INK:
        return INK_DARKNESS
    return float(min(INK_DARKNESS, max(FAINT_CUT_MIN, FAINT_SHARE * level)))


def ink_mask(flat: U8, darkness: npt.NDArray[np.float32] | None = None) -> Ink:
    """The ink of a flattened sheet with its ruling taken out (see the module doc)."""
    d = darkness_of(flat) if darkness is None else darkness
    h, w = d.shape
    faint = (d > 0.07).astype(np.uint8) * 255          # ink and ruling
    cut = ink_cut(d)
    strong = (d > cut).astype(np.uint8) * 255  # ink
    lines = np.zeros_like(faint)
    for length, shape in ((int(w * LINE_SPAN), (1, 0)), (int(h * MARGIN_SPAN), (0, 1))):
        if length < 20:
            continue
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1) if shape == (1, 0) else (1, length))
        found = cv2.morphologyEx(faint, cv2.MORPH_OPEN, kernel)
        lines |= np.asarray(cv2.dilate(found, np.ones((3, 3), np.uint8)), np.uint8)
    # ink that crosses a line keeps the pixels that are much darker than the line itself
    on_line = lines > 0
    line_dark = float(np.median(d[on_line])) if on_line.any() else 0.0
    mask = strong.copy()
    mask[on_line & (d < max(cut, line_dark + 0.15))] = 0
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)), np.uint8)
    by, bx = int(h * BORDER), int(w * BORDER)
    mask[:by], mask[h - by:], mask[:, :bx], mask[:, w - bx:] = 0, 0, 0, 0
    pen = text_height(mask)
    return Ink(mask, lines, d, pen)


def text_height(mask: U8) -> float:
    """The writing's typical line height in px (0 when no ink): the median height of
    the ink smeared sideways by a fortieth of the page (letters join into words and
    lines, lines stay apart), counting blobs wider than tall, each by its ink (so
    the specks a ruled line leaves do not outvote one big word of a close-up)."""
    h, w = mask.shape
    k = max(3, w // 40)
    smeared = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(smeared, connectivity=8)
    st = stats[1:]
    keep = (st[:, cv2.CC_STAT_WIDTH] > st[:, cv2.CC_STAT_HEIGHT]) & (st[:, cv2.CC_STAT_AREA] >= 4 * k) \
        & (st[:, cv2.CC_STAT_WIDTH] < w * 0.9)
    if not keep.any():
        keep = np.ones(len(st), bool)
    heights, weights = st[keep, cv2.CC_STAT_HEIGHT], st[keep, cv2.CC_STAT_AREA].astype(np.float64)
    if len(heights) == 0:
        return 0.0
    order = np.argsort(heights, kind="stable")
    cum = np.cumsum(weights[order])
    return float(heights[order][np.searchsorted(cum, cum[-1] / 2)])
