"""The outline of a paper as a quad: from a region of the photo, past the photo's
frame, fitted to the edges, and how well a quad lies on the photo's strong edges.

    quad_of(mask)            -> (4, 2) corners of the largest region's hull, or None
    quad_past_frame(mask)    -> (4, 2) corners of a region the frame cuts, its own
                                sides met beyond the frame, or None
    edge_map(grey)           -> uint8 mask of the strong edges (Canny, dilated)
    edge_pieces(edges)       -> the regions between those edges (labels, stats)
    edge_support(edges, q)   -> 0..1, the share of the weakest side of q on edges
    edge_quads(edges, area)  -> quads of the closed outlines of the edge map
    snapped(q, edges)        -> q with each side fitted to the edge pixels along it

Points are float (x, y) px of the image searched (paper.WORK_SIDE), corners clockwise
from the top-left (``order``).
"""
from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

EDGE_LOW, EDGE_HIGH = 20, 60  # Canny thresholds (grey levels) of the paper's outline


def order(quad: F64) -> F64:
    """4 points -> clockwise from the top-left (smallest x + y first)."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]          # clockwise in image coordinates (y down)
    start = int(np.argmin(q.sum(axis=1)))
    out: F64 = np.roll(q, -start, axis=0)
    return out


def quad_of(mask: U8) -> F64 | None:
    """The four corners of the largest region of mask (its hull simplified), or None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(c)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order(approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return order(np.asarray(box, np.float64))


#: A side of a region's outline within this many px of the photo's border all along is
#: the frame's, not the paper's.
FRAME_PX = 3
#: A corner beyond the frame is kept when it lies within this share of the photo's
#: long side from it (further, the sides are near parallel: no paper corner).
PAST_FRAME = 0.5
#: Simplifications tried (share of the outline's perimeter): a short piece of frame
#: cutting off a corner is lost at 1%.
PAST_FRAME_EPS = (0.004, 0.007, 0.01)


def quad_past_frame(mask: U8) -> F64 | None:
    """The quad (4, 2) of the largest region of mask when the photo's frame cuts it
    (a paper running off the photo: a corner or two beyond the frame), or None: its
    convex outline simplified (PAST_FRAME_EPS of its perimeter, the first that works)
    to five to eight sides, of which those along the frame (FRAME_PX) are dropped;
    when four sides remain, each corner is where two of them, in turn round the
    outline, meet (beyond the frame where the frame cut it off)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    peri = cv2.arcLength(hull, True)
    h, w = mask.shape[:2]
    for eps in PAST_FRAME_EPS:
        quad = _sides_past_frame(cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2).astype(np.float64), w, h)
        if quad is not None:
            return quad
    return None


def _sides_past_frame(approx: F64, w: int, h: int) -> F64 | None:
    """quad_past_frame for one simplified outline (n, 2) in a w x h photo."""
    if not 5 <= len(approx) <= 8:
        return None

    def on_frame(a: F64, b: F64) -> bool:
        for axis, edge in ((0, 0.0), (0, w - 1.0), (1, 0.0), (1, h - 1.0)):
            if abs(a[axis] - edge) <= FRAME_PX and abs(b[axis] - edge) <= FRAME_PX:
                return True
        return False

    sides = [(a, b) for a, b in zip(approx, np.roll(approx, -1, axis=0)) if not on_frame(a, b)]
    if len(sides) != 4 or len(sides) == len(approx):
        return None
    corners = []
    for (a1, b1), (a2, b2) in zip(sides, sides[1:] + sides[:1]):
        d1, d2 = b1 - a1, b2 - a2
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-6 * np.linalg.norm(d1) * np.linalg.norm(d2) + 1e-9:
            return None
        t = ((a2[0] - a1[0]) * d2[1] - (a2[1] - a1[1]) * d2[0]) / den
        corners.append(a1 + t * d1)
    quad = np.asarray(corners, np.float64)
    reach = PAST_FRAME * max(h, w)
    if (quad[:, 0] < -reach).any() or (quad[:, 0] > w - 1 + reach).any() \
            or (quad[:, 1] < -reach).any() or (quad[:, 1] > h - 1 + reach).any():
        return None
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return None
    return order(quad)


def edge_map(grey: U8) -> U8:
    """uint8 (h, w): 255 within a pixel or two of a strong edge of the (writing-free)
    grey image: the paper's outline against any table, light or dark."""
    edges = cv2.Canny(cv2.GaussianBlur(grey, (0, 0), 1.2), EDGE_LOW, EDGE_HIGH)
    out: U8 = np.asarray(cv2.dilate(edges, np.ones((5, 5), np.uint8)), np.uint8)
    return out


#: The pieces of a photo between its strong edges: (count, labels int32 (h, w), cv2
#: stats (count, 5)), label 0 the edges themselves.
Pieces = tuple[int, npt.NDArray[np.int32], npt.NDArray[np.int32]]


def edge_pieces(edges: U8) -> Pieces:
    """The regions between the strong edges of ``edge_map`` (4-connected)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    return int(n), np.asarray(labels, np.int32), np.asarray(stats, np.int32)


def edge_support(edges: U8, quad: F64) -> float:
    """The weakest side of `quad` (4, 2) px: the share of points along it (its middle
    80%) that lie on an edge (`edge_map`). A side of the real paper is an edge all
    along; a side the region grew into the table by (a light table where the light
    falls off) runs over the table's flat colour."""
    h, w = edges.shape
    worst = 1.0
    for a, b in zip(quad, np.roll(quad, -1, axis=0)):
        t = np.linspace(0.1, 0.9, 40)[:, None]
        pts = a + (b - a) * t
        xs, ys = pts[:, 0].round().astype(int), pts[:, 1].round().astype(int)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        if not inside.any():
            return 0.0
        on = np.zeros(len(xs), bool)
        on[inside] = edges[ys[inside], xs[inside]] > 0
        # a side along the photo's own border (the paper cut by the frame) is no edge, nor a loss
        border = ~inside | (xs <= 2) | (ys <= 2) | (xs >= w - 3) | (ys >= h - 3)
        on |= border
        worst = min(worst, float(on.mean()))
    return worst


def edge_quads(edges: U8, min_area: float) -> list[F64]:
    """Quads of the closed outlines in the edge map that cover at least min_area px."""
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        blank = np.zeros(edges.shape, np.uint8)
        cv2.drawContours(blank, [c], -1, 255, -1)
        quad = quad_of(blank)
        if quad is not None and cv2.contourArea(quad.astype(np.float32)) >= min_area:
            out.append(quad)
    return out


#: A side is fitted to the edge pixels within this many px of it (``snapped``).
SNAP_PX = 6


def snapped(quad: F64, edges: U8) -> F64:
    """`quad` (4, 2) with each side moved onto the edge pixels along it: a line fitted
    (least squares, Huber) to the pixels of `edges` within SNAP_PX of the side's
    middle 80%, the corners where the fitted lines meet. A side with too few edge
    pixels, or lines that meet far off, leave the quad as it was."""
    ys, xs = np.nonzero(edges)
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    lines = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0)):
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1:
            return quad
        u = d / length
        rel = pts - a
        along = rel @ u
        across = rel[:, 0] * u[1] - rel[:, 1] * u[0]
        near = pts[(np.abs(across) <= SNAP_PX) & (along >= 0.1 * length) & (along <= 0.9 * length)]
        if len(near) < 0.4 * length:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    corners = []
    for (p1, d1), (p2, d2) in zip(lines, lines[1:] + lines[:1]):
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-3:
            return quad
        t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
        corners.append(p1 + t * d1)
    # line k runs from corner k to corner k + 1, so lines k and k + 1 meet at corner k + 1
    out = np.roll(np.asarray(corners, np.float64), 1, axis=0)
    if np.abs(out - quad).max() > 3 * SNAP_PX:
        return quad
    return out


def frame_band(shape: tuple[int, ...], width: int = 3) -> npt.NDArray[np.bool_]:
    """bool (h, w): True on the image's outer `width` pixels."""
    frame = np.zeros(shape[:2], bool)
    frame[:width, :] = frame[-width:, :] = True
    frame[:, :width] = frame[:, -width:] = True
    return frame
