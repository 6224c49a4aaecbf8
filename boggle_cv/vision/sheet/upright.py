"""Which way up a flattened sheet lies, from its ink.

    upright_turn(ink)  ->  0, 90, 180 or 270 (degrees clockwise that turn it upright)

Written lines run left to right, so words are wider than tall (a sheet on its side
shows tall word blobs); a list is aligned on its left edge and ragged on its right,
and English letters rise above the line (b d f h k l t) more often than they fall
below it (g j p q y): together these tell upside down from upright.
"""
from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from .ink import Ink, text_height

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]


def _blob_boxes(mask: U8, pen: float) -> npt.NDArray[np.int32]:
    """Boxes (K, 4) x, y, w, h of the ink closed into word-sized blobs (a square
    closing about half a letter high, so it joins letters both ways alike)."""
    k = max(3, int(pen * 0.5)) | 1
    closed = cv2.dilate(mask, np.ones((k, k), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    st = stats[1:]
    keep = (st[:, cv2.CC_STAT_AREA] >= (pen * pen)) & (st[:, cv2.CC_STAT_WIDTH] < mask.shape[1] * 0.9)
    boxes: npt.NDArray[np.int32] = st[keep, :4].astype(np.int32)
    return boxes


def _rise_fall(mask: U8, boxes: npt.NDArray[np.int32]) -> float:
    """> 0 when ink rises above its blob's core band (the rows at least half as inked
    as the busiest) more than it falls below it (upright Latin script), < 0 when the
    other way round; the mean over blobs of (above - below) / (above + below)."""
    votes: list[float] = []
    for x, y, w, h in boxes:
        rows = (mask[y:y + h, x:x + w] > 0).sum(axis=1).astype(np.float64)
        if h < 6 or rows.max() <= 0:
            continue
        core = np.nonzero(rows >= rows.max() * 0.5)[0]
        above, below = rows[:core[0]].sum(), rows[core[-1] + 1:].sum()
        if above + below > 0:
            votes.append((above - below) / (above + below))
    return float(np.mean(votes)) if votes else 0.0


#: With this many ink blobs or fewer the photo holds one word (a close-up of it, its
#: letters apart): its shape is that of all its ink together.
FEW_BLOBS = 4


def _word_shape(mask: U8) -> float:
    """Mean log(width / height) of the ink's word blobs, weighted by their size:
    > 0 for lines of writing, < 0 for a sheet on its side. Blobs are the ink closed
    by 1.5 stroke widths (letters join, lines stay apart), a scale that does not
    depend on which way the sheet lies (measured: 1.5 tells the turn of every
    rendered and composed sheet tried, 3 joins lines)."""
    on = mask > 0
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    stroke = 4.0 * float(dist[on].mean())
    k = max(3, int(round(1.5 * stroke)))
    closed = cv2.dilate(mask, np.ones((k, k), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    st = stats[1:]
    st = st[(st[:, cv2.CC_STAT_AREA] >= 4 * k * k) & (st[:, cv2.CC_STAT_WIDTH] < mask.shape[1] * 0.9)
            & (st[:, cv2.CC_STAT_HEIGHT] < mask.shape[0] * 0.9)]
    if len(st) == 0:
        return 0.0
    if len(st) <= FEW_BLOBS:  # one word, letters apart (a close-up): the word's own shape
        ys, xs = np.nonzero(on)
        return float(np.log((np.ptp(xs) + 1) / (np.ptp(ys) + 1)))
    aspect = np.log(st[:, cv2.CC_STAT_WIDTH] / np.maximum(st[:, cv2.CC_STAT_HEIGHT], 1))
    weight = st[:, cv2.CC_STAT_AREA].astype(np.float64)
    return float((aspect * weight).sum() / weight.sum())


def upright_turn(ink: Ink) -> int:
    """Degrees clockwise (0, 90, 180, 270) that turn the flattened sheet upright,
    judged from its ink (see the module doc); 0 when there is too little ink to tell."""
    mask = ink.mask
    if np.count_nonzero(mask) < 50:
        return 0
    quarter = 0
    if _word_shape(mask) < 0:
        mask = np.ascontiguousarray(np.rot90(mask, -1))
        quarter = 90
    pen = text_height(mask) or 20.0
    boxes = _blob_boxes(mask, pen)
    if len(boxes) < 2:
        return quarter
    upside = _upside_down(mask, boxes)
    return (quarter + (180 if upside else 0)) % 360


def _upside_down(mask: U8, boxes: npt.NDArray[np.int32]) -> bool:
    """Is this (upright or upside-down) sheet upside down? Left edges of a list line
    up, right edges do not; letters rise above the line more than they fall."""
    lefts, rights = boxes[:, 0].astype(np.float64), (boxes[:, 0] + boxes[:, 2]).astype(np.float64)
    pen = float(np.median(boxes[:, 3]))

    def aligned(edges: F64) -> float:
        # the share of edges within half a letter of another edge's cluster centre
        e = np.sort(edges)
        near = np.abs(e[:, None] - e[None, :]) < pen * 0.6
        return float((near.sum(axis=1) - 1).mean()) / max(len(e) - 1, 1)

    align = aligned(lefts) - aligned(rights)          # > 0: upright
    rise = _rise_fall(mask, boxes)                     # > 0: upright
    # a list starts at the top left: its ink lies nearer the top and the left
    h, w = mask.shape
    cx = float(np.mean(boxes[:, 0] + boxes[:, 2] / 2)) / w
    cy = float(np.mean(boxes[:, 1] + boxes[:, 3] / 2)) / h
    place = (0.5 - cy) + (0.5 - cx)
    vote = float(np.clip(align * 4, -1, 1) + np.clip(rise * 4, -1, 1) + np.clip(place * 4, -1, 1))
    return vote < 0
