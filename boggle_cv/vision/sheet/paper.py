"""Find the sheet of paper in a photo, flatten it and turn it upright.

    find_paper(image)        -> Paper: corners (4, 2) photo px, flat BGR, matrix
    upright_turn(ink)        -> 0, 90, 180 or 270 (degrees clockwise to make it upright)
    Paper.turned(degrees)    -> the same paper, flattened image turned

image: BGR uint8 (H, W, 3); points are float (x, y) photo pixels. The paper is the
largest bright, even region of the photo (a table, a hand, the floor around it are
darker or busier); its outline's convex hull gives four corners (unless a side of
that quad is not on an edge of the photo - a pale table where the light falls off is
as bright as the paper - and an outline of the edge map gives a quad whose sides all
are: paper_quad; a paper the frame cuts keeps its corner beyond the frame; a paper
that a sharp shadow cuts in two on a pale table is the lit and the shadowed piece
between the edges together), and a perspective
warp makes it a square-on image (``flat``) whose long side is FLAT_MAX_SIDE px (a
paper smaller in the photo is enlarged, by at most MAX_UPSCALE: the layout's and the
reader's crops then see small writing at the size they see a close photo's). When no bright region covers PAPER_MIN_AREA of the photo, the whole photo is
taken as the paper (a close-up that shows no edge).

The turn: written lines run left to right, so words are wider than tall (a sheet
on its side shows tall word blobs); a list is aligned on its left edge and ragged on
its right, and English letters rise above the line (b d f h k l t) more often than
they fall below it (g j p q y): together these tell upside down from upright.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..stages import DebugSink
from .ink import Ink, text_height

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

WORK_SIDE = 640          # long side (px) the paper is searched at
FLAT_MAX_SIDE = 1600     # long side (px) of the flattened paper
MAX_UPSCALE = 3.0        # a paper smaller in the photo is enlarged to FLAT_MAX_SIDE, by at most this
PAPER_MIN_AREA = 0.05    # the paper covers at least this share of the photo (0.12 before session 7: a sheet shot from further off covers less)
EDGE_SUPPORT = 0.7       # a quad's weakest side on an edge over this share of it is the paper's outline
EDGE_LOW, EDGE_HIGH = 20, 60  # Canny thresholds (grey levels) of the paper's outline


@dataclass(frozen=True)
class Paper:
    """corners: float (4, 2) (x, y) photo px, clockwise from the flat image's top-left;
    flat: BGR uint8 (h, w, 3), the paper square-on; matrix: float (3, 3), photo px ->
    flat px (a homography); found: False when the whole photo was taken as the paper."""

    corners: F64
    flat: U8
    matrix: F64
    found: bool = True

    def turned(self, degrees: int) -> Paper:
        """The paper with its flat image turned `degrees` clockwise (0/90/180/270);
        corners re-ordered so that corner 0 is still the flat image's top-left."""
        k = (degrees // 90) % 4
        if k == 0:
            return self
        h, w = self.flat.shape[:2]
        flat = np.ascontiguousarray(np.rot90(self.flat, -k))
        # flat (x, y) -> turned (x', y'): one clockwise quarter turn is (h - 1 - y, x)
        turn = np.eye(3)
        for _ in range(k):
            q = np.array([[0.0, -1.0, h - 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
            turn = q @ turn
            h, w = w, h
        corners = np.roll(self.corners, k, axis=0)
        return Paper(corners, flat, turn @ self.matrix, self.found)

    def to_photo(self, points: F64) -> F64:
        """Flat-image points (K, 2) -> photo pixels (K, 2)."""
        inv = np.linalg.inv(self.matrix)
        p = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), inv)
        out: F64 = np.asarray(p, np.float64).reshape(-1, 2)
        return out


def _order(quad: F64) -> F64:
    """4 points -> clockwise from the top-left (smallest x + y first)."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]          # clockwise in image coordinates (y down)
    start = int(np.argmin(q.sum(axis=1)))
    out: F64 = np.roll(q, -start, axis=0)
    return out


def _quad_of(mask: U8) -> F64 | None:
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
            return _order(approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return _order(np.asarray(box, np.float64))


#: A side of a region's outline within this many px of the photo's border all along is
#: the frame's, not the paper's.
FRAME_PX = 3
#: A corner beyond the frame is kept when it lies within this share of the photo's
#: long side from it (further, the sides are near parallel: no paper corner).
PAST_FRAME = 0.5
#: Simplifications tried (share of the outline's perimeter): a short piece of frame
#: cutting off a corner is lost at 1%.
PAST_FRAME_EPS = (0.004, 0.007, 0.01)


def _quad_past_frame(mask: U8) -> F64 | None:
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
    """_quad_past_frame for one simplified outline (n, 2) in a w x h photo."""
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
    return _order(quad)


def _edges(grey: U8) -> U8:
    """uint8 (h, w): 255 within a pixel or two of a strong edge of the (writing-free)
    grey image: the paper's outline against any table, light or dark."""
    edges = cv2.Canny(cv2.GaussianBlur(grey, (0, 0), 1.2), EDGE_LOW, EDGE_HIGH)
    out: U8 = np.asarray(cv2.dilate(edges, np.ones((5, 5), np.uint8)), np.uint8)
    return out


def edge_support(edges: U8, quad: F64) -> float:
    """The weakest side of `quad` (4, 2) px: the share of points along it (its middle
    80%) that lie on an edge (`_edges`). A side of the real paper is an edge all
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


def _edge_quads(edges: U8, min_area: float) -> list[F64]:
    """Quads of the closed outlines in the edge map that cover at least min_area px."""
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        blank = np.zeros(edges.shape, np.uint8)
        cv2.drawContours(blank, [c], -1, 255, -1)
        quad = _quad_of(blank)
        if quad is not None and cv2.contourArea(quad.astype(np.float32)) >= min_area:
            out.append(quad)
    return out


def paper_quad(image: U8) -> F64 | None:
    """The paper's corners (4, 2) at the image's scale, clockwise from the top-left,
    or None: the bright region's quad (paper_mask), unless its weakest side is not an
    edge (edge_support under EDGE_SUPPORT) and a quad whose sides are comes from its
    sides met beyond the photo's frame (``_quad_past_frame``), from the piece between
    the edges that holds it (``_enclosing_piece_quads``) or from an outline of the
    edge map; then the better supported of those. When neither is on edges, or
    the bright region runs along the photo's frame (a sharp shadow across a sheet on a
    pale table: the lit table joins the lit paper, and the frame and the shadow's edge
    bound them), a paper cut in two by a shadow's edge is looked for
    (``_shadow_split_quads``)."""
    grey = writing_free_grey(image)
    edges = _edges(grey)
    mask = paper_mask(image, grey, edges)
    quad = _quad_of(mask) if mask.any() else None
    min_area = PAPER_MIN_AREA * mask.size
    if quad is not None and cv2.contourArea(quad.astype(np.float32)) < min_area:
        quad = None
    support = edge_support(edges, quad) if quad is not None else 0.0
    frame = _frame_band(mask.shape, 8)
    along_frame = np.count_nonzero((mask > 0) & frame) > SHADOW_FRAME * np.count_nonzero(frame)
    if support >= EDGE_SUPPORT and not along_frame:
        return quad
    best, best_support = quad, support
    if support < EDGE_SUPPORT:
        past = _quad_past_frame(mask) if quad is not None else None
        for q in ([past] if past is not None else []) + _edge_quads(edges, min_area) + _enclosing_piece_quads(mask, edges):
            sq = edge_support(edges, q)
            if sq > best_support + 0.15:
                best, best_support = q, sq
    if best_support >= EDGE_SUPPORT and not along_frame:
        return best
    sat = white_balanced_saturation(image)
    split = [(q, edge_support(edges, q), area) for q, area in _shadow_split_quads(grey, edges, sat, min_area)]
    if split:
        top = max(p[1] for p in split)
        q, sq, _ = max((p for p in split if p[1] >= top - PIECE_TIE), key=lambda p: p[2])
        if sq >= EDGE_SUPPORT and (along_frame or sq > best_support + 0.15):
            best = q
    return best


#: The piece of the photo between its strong edges that holds this share of the bright
#: region is the paper that region is part of.
PIECE_HOLDS = 0.9


def _enclosing_piece_quads(mask: U8, edges: U8) -> list[F64]:
    """Quads (4, 2) of the piece of the photo between its strong edges (``_edges``) that
    holds the bright region (PIECE_HOLDS of it) and is larger: its own quad, and its
    quad past the frame (``_quad_past_frame``). Light falling off across a sheet that
    runs off the frame leaves its dim end out of the bright region, and the watershed
    takes that end, on the frame, for the table; the edges still bound the paper."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    inside = labels[mask > 0]
    if n <= 1 or not inside.size:
        return []
    k = int(np.bincount(inside, minlength=n)[1:].argmax()) + 1
    if np.count_nonzero(inside == k) < PIECE_HOLDS * inside.size or stats[k, cv2.CC_STAT_AREA] <= inside.size:
        return []
    # the piece stops short of the edge band's middle, where the paper's outline is
    piece = np.asarray(cv2.dilate((labels == k).astype(np.uint8) * 255, np.ones((7, 7), np.uint8)), np.uint8)
    return [q for q in (_quad_of(piece), _quad_past_frame(piece)) if q is not None]


#: Pieces of the photo between its strong edges (``_edges``) this large (share of the
#: photo) may be a part of the paper cut off by a shadow's edge...
PIECE_MIN_SHARE = 0.02
#: ...and two of them side by side are the whole paper when together they are this
#: solid (area over their convex hull's): a table piece wraps around the paper.
PIECE_SOLIDITY = 0.95
#: Of two such quads on edges within this share alike, the larger is the paper.
PIECE_TIE = 0.05


def _shadow_split_quads(grey: U8, edges: U8, sat: U8, min_area: float) -> list[tuple[F64, float]]:
    """Quads (4, 2) and areas (px) of papers cut in two by a shadow's straight edge:
    the unions of two pieces of the photo (the regions between its strong edges, each
    at least PIECE_MIN_SHARE of it) that lie side by side, one the other's shadow (its
    grey median SHADOW_RATIO of the other's, both even and unsaturated as in
    ``with_shadowed_part``), together one solid shape (PIECE_SOLIDITY) of at least
    min_area px that runs along at most SHADOW_FRAME of the photo's frame (the lit
    table with the lit paper, or the shadowed table with the shadowed paper, runs
    along it). grey, edges, sat: ``writing_free_grey``, ``_edges``, white-balanced
    HSV saturation, uint8 (h, w)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    big = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= PIECE_MIN_SHARE * edges.size]
    level, paperlike = {}, {}
    for k in big:
        values = grey[labels == k]
        level[k] = float(np.median(values))
        paperlike[k] = float(np.percentile(values, 90) - np.percentile(values, 10)) <= SHADOW_EVEN * level[k] \
            and float(np.median(sat[labels == k])) <= 60
    frame = _frame_band(edges.shape, 8)  # (the edge map's dilation keeps a piece ~3 px off the frame)
    out = []
    for i, a in enumerate(big):
        if not paperlike[a]:
            continue
        near = cv2.dilate((labels == a).astype(np.uint8), np.ones((17, 17), np.uint8)) > 0  # across the edge band
        for b in big[i + 1:]:
            lit, dark = max(level[a], level[b]), min(level[a], level[b])
            if not paperlike[b] or not SHADOW_RATIO[0] * lit <= dark <= SHADOW_RATIO[1] * lit:
                continue
            if stats[a, cv2.CC_STAT_AREA] + stats[b, cv2.CC_STAT_AREA] < min_area or not (near & (labels == b)).any():
                continue
            union = np.where((labels == a) | (labels == b), 255, 0).astype(np.uint8)
            if np.count_nonzero((union > 0) & frame) > SHADOW_FRAME * np.count_nonzero(frame):
                continue
            union = np.asarray(cv2.morphologyEx(union, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)), np.uint8)
            contours, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            c = max(contours, key=cv2.contourArea)
            area, hull = float(np.count_nonzero(union)), cv2.contourArea(cv2.convexHull(c))
            if hull <= 0 or area / hull < PIECE_SOLIDITY:  # (pixels: a ring around the paper has a hole)
                continue
            # the pieces stop short of the edge band's middle, where the paper's outline is
            quad = _quad_of(np.asarray(cv2.dilate(union, np.ones((7, 7), np.uint8)), np.uint8))
            if quad is not None:
                out.append((_snapped(quad, edges), area))
    return out


#: A side is fitted to the edge pixels within this many px of it (``_snapped``).
SNAP_PX = 6


def _snapped(quad: F64, edges: U8) -> F64:
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
    # corner k is where side k-1 meets side k... the lines are sides 0..3 from corner 0
    out = np.roll(np.asarray(corners, np.float64), 1, axis=0)
    if np.abs(out - quad).max() > 3 * SNAP_PX:
        return quad
    return out


#: The brightest things in a photo of a sheet are its paper: each colour channel is
#: scaled so that its WHITE_PERCENTILE level is the same, by at most MAX_GAIN.
WHITE_PERCENTILE = 98.0
MAX_GAIN = 2.5


def white_balanced(image: U8) -> U8:
    """The photo with the light's colour taken out (BGR uint8 (h, w, 3) in and out):
    under a warm lamp white paper is orange, as saturated as a wooden table, until
    each channel is scaled so that its brightest pixels (WHITE_PERCENTILE, the paper)
    agree. A grey photo comes back as it is."""
    levels = np.array([np.percentile(image[:, :, c], WHITE_PERCENTILE) for c in range(3)], np.float64)
    gains = np.clip(levels.max() / np.maximum(levels, 1.0), 1.0, MAX_GAIN)
    if np.allclose(gains, 1.0, atol=0.02):
        return image
    out: U8 = np.clip(image.astype(np.float32) * gains.astype(np.float32), 0, 255).astype(np.uint8)
    return out


def white_balanced_saturation(image: U8) -> U8:
    """uint8 (h, w): the HSV saturation of the white-balanced photo (``white_balanced``),
    smoothed (median 5): paper is near 0, a coloured table well above."""
    sat: U8 = np.asarray(cv2.medianBlur(cv2.cvtColor(white_balanced(image), cv2.COLOR_BGR2HSV)[:, :, 1], 5), np.uint8)
    return sat


def writing_free_grey(image: U8) -> U8:
    """The photo in grey (uint8 (h, w)) with the writing closed away (thin strokes):
    what the paper's region and outline are looked for in."""
    grey = cv2.medianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 5)
    out: U8 = np.asarray(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)), np.uint8)
    return out


def _frame_band(shape: tuple[int, ...], width: int = 3) -> npt.NDArray[np.bool_]:
    """bool (h, w): True on the image's outer `width` pixels."""
    frame = np.zeros(shape[:2], bool)
    frame[:width, :] = frame[-width:, :] = True
    frame[:, :width] = frame[:, -width:] = True
    return frame


def paper_mask(image: U8, grey: U8 | None = None, edges: U8 | None = None) -> U8:
    """uint8 (h, w) at WORK_SIDE scale: 255 on the paper. grey, edges: the image's
    ``writing_free_grey`` and its ``_edges``, when the caller has them already.

    The writing is closed away; the largest bright region (Otsu) seeds the paper,
    which a watershed then grows to the strongest edge around it."""
    grey = writing_free_grey(image) if grey is None else grey
    sat = white_balanced_saturation(image)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright[sat > 90] = 0  # paper is white or nearly: a coloured table is not paper
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=4)
    if n <= 1:
        return np.zeros(bright.shape, np.uint8)
    best = _largest_without_hole(np.asarray(labels, np.int32), np.asarray(stats, np.int32), PAPER_MIN_AREA * bright.size)
    mask: U8 = (labels == best).astype(np.uint8) * 255
    # grow the paper from the bright region's core to the strongest edge around it
    # (a watershed on the grey image, the photo's border bands outside the bright
    # region as the table's seed): uneven light moves the Otsu cut, not the edge
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    markers = np.zeros(grey.shape, np.int32)
    markers[dist > 0.5 * float(dist.max())] = 2
    outside = _frame_band(grey.shape) & (mask == 0)
    if not outside.any():
        return mask  # the paper fills the frame
    markers[outside] = 1
    smooth = cv2.GaussianBlur(grey, (0, 0), 1.5)
    cv2.watershed(cv2.cvtColor(smooth, cv2.COLOR_GRAY2BGR), markers)
    grown: U8 = (markers == 2).astype(np.uint8) * 255
    grown = np.asarray(cv2.morphologyEx(grown, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
    share = np.count_nonzero(grown) / grown.size
    paper = grown if share >= PAPER_MIN_AREA else mask
    return with_shadowed_part(paper, grey, _edges(grey) if edges is None else edges, sat)


#: A bright region whose holes make up more than this share of it with them filled is
#: around something (a pale floor around a dark table with the sheet on it), not paper.
RING_HOLES = 0.2


def _largest_without_hole(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32], min_area: float) -> int:
    """The label (1..) of the largest region of `labels` (connected components, `stats`
    their cv2 stats) that is not a ring (RING_HOLES) when it covers min_area px, else
    the largest."""
    order = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])
    for k in order:
        area = int(stats[k, cv2.CC_STAT_AREA])
        if area < min_area:
            break
        region = (labels == k).astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(region)
        cv2.drawContours(filled, contours, -1, 1, -1)
        if area >= (1 - RING_HOLES) * np.count_nonzero(filled):
            return int(k)
    return int(order[0])


#: A region beside the lit paper is its part in a shadow when it is this much darker
#: (grey median ratio), even (10th-90th percentile spread under SHADOW_EVEN of its
#: median), unsaturated and the two make one convex shape (SHADOW_SOLIDITY).
SHADOW_RATIO = (0.3, 0.92)
SHADOW_EVEN = 0.35
SHADOW_SOLIDITY = 0.93
SHADOW_MIN_SHARE = 0.03  # of the image
SHADOW_FRAME = 0.25      # it runs along at most this share of the photo's frame...
SHADOW_AROUND = 0.6      # ...and along at most this share of the lit paper's outline


def with_shadowed_part(paper: U8, grey: U8, edges: U8, sat: U8) -> U8:
    """The paper mask (uint8 (h, w), 255 on the paper) with its part in a sharp shadow
    added (a phone's or a hand's shadow across the sheet splits it into a lit part,
    the bright region, and a darker part beyond a straight edge). Regions are the
    pieces of the photo between its strong edges (``_edges``); a piece beside the
    paper is added when it is shadowed paper: darker by a ratio in SHADOW_RATIO, even,
    unsaturated, and the two together convex. grey, edges, sat: the photo's
    ``writing_free_grey``, its ``_edges`` and its white-balanced HSV saturation, all
    uint8 at the mask's scale."""
    if not paper.any():
        return paper
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    lit = paper > 0
    lit_level = float(np.median(grey[lit]))
    near = cv2.dilate(paper, np.ones((15, 15), np.uint8)) > 0
    rim = near & ~lit  # the band just outside the lit paper
    frame = _frame_band(paper.shape)
    best, best_area = paper, 0
    for k in range(1, n):
        area = int(stats[k, cv2.CC_STAT_AREA])
        if area < SHADOW_MIN_SHARE * paper.size:
            continue
        region = labels == k
        if (region & lit).sum() > 0.5 * area or not (region & near).any():
            continue  # the lit paper itself, or not beside it
        values = grey[region]
        level = float(np.median(values))
        if not SHADOW_RATIO[0] * lit_level <= level <= SHADOW_RATIO[1] * lit_level:
            continue
        if float(np.percentile(values, 90) - np.percentile(values, 10)) > SHADOW_EVEN * level:
            continue
        if float(np.median(sat[region])) > 60:
            continue
        # the table around the paper is even and unsaturated too: but it runs along the
        # photo's frame and around the lit paper, where a shadowed part of the paper
        # meets the lit part along one edge only
        if np.count_nonzero(region & frame) > SHADOW_FRAME * np.count_nonzero(frame):
            continue
        if np.count_nonzero(cv2.dilate(region.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(bool) & rim) \
                > SHADOW_AROUND * np.count_nonzero(rim):
            continue
        union = np.where(region | lit, 255, 0).astype(np.uint8)
        union = np.asarray(cv2.morphologyEx(union, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)), np.uint8)
        contours, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        c = max(contours, key=cv2.contourArea)
        hull = cv2.contourArea(cv2.convexHull(c))
        if hull <= 0 or cv2.contourArea(c) / hull < SHADOW_SOLIDITY:
            continue
        if area > best_area:
            best, best_area = union, area
    return best


def find_paper(image: U8, debug: DebugSink | None = None) -> Paper:
    """The paper of a photo, flattened (see the module doc). image: BGR uint8 (H, W, 3)."""
    H, W = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(H, W))
    small: U8 = np.asarray(cv2.resize(image, (max(int(W * scale), 1), max(int(H * scale), 1)), interpolation=cv2.INTER_AREA), np.uint8) \
        if scale < 1.0 else image
    quad = paper_quad(small)
    found = quad is not None
    if quad is not None:
        quad = _paper_within(small, quad)
        corners = quad / scale
    else:
        corners = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]], np.float64)
    top = np.linalg.norm(corners[1] - corners[0])
    bottom = np.linalg.norm(corners[2] - corners[3])
    left = np.linalg.norm(corners[3] - corners[0])
    right = np.linalg.norm(corners[2] - corners[1])
    fw, fh = (top + bottom) / 2, (left + right) / 2
    s = min(MAX_UPSCALE, FLAT_MAX_SIDE / max(fw, fh, 1.0))
    fw, fh = max(int(round(fw * s)), 8), max(int(round(fh * s)), 8)
    dst = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float64)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    flat: U8 = np.asarray(cv2.warpPerspective(image, matrix, (fw, fh), flags=cv2.INTER_AREA if s < 0.8 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE), np.uint8)
    if debug is not None:
        shown = small.copy()
        cv2.polylines(shown, [(corners * scale).astype(np.int32)], True, (0, 0, 255), 2)
        debug("s1_paper", shown)
        debug("s2_flat", flat)
    return Paper(corners, np.ascontiguousarray(flat), matrix, bool(found))


#: A paper found inside the first one's flattened image that covers less than this
#: share of it is the paper; the first was a board or table it lies on.
INNER_MAX_SHARE = 0.85
#: ...and only when the band around it is darker than this share of the paper...
INNER_BAND_DARKER = 0.6
#: ...and runs all around it, at least this share of the side wide (else darker than
#: any shadow: SHADOW_RATIO[0]).
INNER_MARGIN = 0.02


def _paper_within(small: U8, quad: F64) -> F64:
    """The paper's quad (4, 2) at `small`'s scale: `quad`, or a paper found within it
    (the first region was a dark board the sheet lies on, lighter than the floor
    around it: its flattened image then shows the paper inside a dark band)."""
    side = float(max(small.shape[:2]))
    dst = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float64)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    inner_view: U8 = np.asarray(cv2.warpPerspective(small, m, (int(side), int(side)), flags=cv2.INTER_AREA), np.uint8)
    inner = paper_quad(inner_view)
    if inner is None:
        return quad
    share = cv2.contourArea(inner.astype(np.float32)) / (side * side)
    if not PAPER_MIN_AREA <= share < INNER_MAX_SHARE:
        return quad
    grey = cv2.cvtColor(inner_view, cv2.COLOR_BGR2GRAY)
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(inner).astype(np.int32)], 255)
    # where it reaches the edge it may be the lit part of a sheet half in a shadow (paper
    # at SHADOW_RATIO of it): only a band darker than any shadow is a board there
    edge = min(float(inner.min()), float(side - 1 - inner.max())) < INNER_MARGIN * side
    darker = SHADOW_RATIO[0] if edge else INNER_BAND_DARKER
    if float(np.median(grey[inside == 0])) > darker * float(np.median(grey[inside > 0])):
        return quad  # the band around it is paper too (a box of writing, a shadowed part)
    back = cv2.perspectiveTransform(inner.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(4, 2)
    return _order(np.asarray(back, np.float64))


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
