"""Find the sheet of paper in a photo and flatten it.

    find_paper(image)        -> Paper: corners (4, 2) photo px, flat BGR, matrix
    Paper.turned(degrees)    -> the same paper, flattened image turned (which way:
                                upright.upright_turn)

image: BGR uint8 (H, W, 3); points are float (x, y) photo pixels. The paper is the
largest bright, even region of the photo (a table, a hand, the floor around it are
darker or busier; a ring round something is not paper); its outline's convex hull
gives four corners (outline.quad_of), unless a side of that quad is not on an edge of
the photo (a pale table where the light falls off is as bright as the paper); then
the region's own sides met beyond the photo's frame, the piece between the edges that
holds it, or an outline of the edge map, whichever lies on edges (paper_quad); a paper
that a sharp shadow cuts in two on a pale table is the lit and the shadowed piece
between the edges together. A perspective warp makes it a square-on image (``flat``)
whose long side is FLAT_MAX_SIDE px (a paper smaller in the photo is enlarged, by at
most MAX_UPSCALE: the layout's and the reader's crops then see small writing at the
size they see a close photo's). When no bright region covers PAPER_MIN_AREA of the
photo, the whole photo is taken as the paper (a close-up that shows no edge).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..stages import DebugSink
from .outline import (Pieces, edge_map, edge_pieces, edge_quads, edge_support, frame_band, order, quad_of,
                      quad_past_frame, snapped)

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

WORK_SIDE = 640          # long side (px) the paper is searched at
FLAT_MAX_SIDE = 1600     # long side (px) of the flattened paper
MAX_UPSCALE = 3.0        # a paper smaller in the photo is enlarged to FLAT_MAX_SIDE, by at most this
PAPER_MIN_AREA = 0.05    # the paper covers at least this share of the photo (a sheet shot from further off covers 5-12%)
EDGE_SUPPORT = 0.7       # a quad's weakest side on an edge over this share of it is the paper's outline


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


def paper_quad(image: U8) -> F64 | None:
    """The paper's corners (4, 2) at the image's scale, clockwise from the top-left,
    or None: the bright region's quad (paper_mask), unless its weakest side is not an
    edge (edge_support under EDGE_SUPPORT) and a quad whose sides are comes from its
    sides met beyond the photo's frame (``quad_past_frame``), from the piece between
    the edges that holds it (``_enclosing_piece_quads``) or from an outline of the
    edge map; then the better supported of those. When neither is on edges, or
    the bright region runs along the photo's frame (a sharp shadow across a sheet on a
    pale table: the lit table joins the lit paper, and the frame and the shadow's edge
    bound them), a paper cut in two by a shadow's edge is looked for
    (``_shadow_split_quads``)."""
    grey = writing_free_grey(image)
    edges = edge_map(grey)
    sat = white_balanced_saturation(image)
    pieces = edge_pieces(edges)
    mask = paper_mask(image, grey, edges, sat, pieces)
    quad = quad_of(mask) if mask.any() else None
    min_area = PAPER_MIN_AREA * mask.size
    if quad is not None and cv2.contourArea(quad.astype(np.float32)) < min_area:
        quad = None
    support = edge_support(edges, quad) if quad is not None else 0.0
    frame = frame_band(mask.shape, 8)
    along_frame = np.count_nonzero((mask > 0) & frame) > SHADOW_FRAME * np.count_nonzero(frame)
    if support >= EDGE_SUPPORT and not along_frame:
        return quad
    best, best_support = quad, support
    if support < EDGE_SUPPORT:
        past = quad_past_frame(mask) if quad is not None else None
        for q in ([past] if past is not None else []) + edge_quads(edges, min_area) + _enclosing_piece_quads(mask, pieces):
            sq = edge_support(edges, q)
            if sq > best_support + 0.15:
                best, best_support = q, sq
    if best_support >= EDGE_SUPPORT and not along_frame:
        return best
    split = [(q, edge_support(edges, q), area) for q, area in _shadow_split_quads(grey, edges, pieces, sat, min_area)]
    if split:
        top = max(p[1] for p in split)
        q, sq, _ = max((p for p in split if p[1] >= top - PIECE_TIE), key=lambda p: p[2])
        if sq >= EDGE_SUPPORT and (along_frame or sq > best_support + 0.15):
            best = q
    return best


#: The piece of the photo between its strong edges that holds this share of the bright
#: region is the paper that region is part of.
PIECE_HOLDS = 0.9


def _enclosing_piece_quads(mask: U8, pieces: Pieces) -> list[F64]:
    """Quads (4, 2) of the piece of the photo between its strong edges (``edge_map``) that
    holds the bright region (PIECE_HOLDS of it) and is larger: its own quad, and its
    quad past the frame (``quad_past_frame``). Light falling off across a sheet that
    runs off the frame leaves its dim end out of the bright region, and the watershed
    takes that end, on the frame, for the table; the edges still bound the paper.
    pieces: ``outline.edge_pieces`` of the photo."""
    n, labels, stats = pieces
    inside = labels[mask > 0]
    if n <= 1 or not inside.size:
        return []
    k = int(np.bincount(inside, minlength=n)[1:].argmax()) + 1
    if np.count_nonzero(inside == k) < PIECE_HOLDS * inside.size or stats[k, cv2.CC_STAT_AREA] <= inside.size:
        return []
    # the piece stops short of the edge band's middle, where the paper's outline is
    piece = np.asarray(cv2.dilate((labels == k).astype(np.uint8) * 255, np.ones((7, 7), np.uint8)), np.uint8)
    return [q for q in (quad_of(piece), quad_past_frame(piece)) if q is not None]


#: Pieces of the photo between its strong edges (``edge_map``) this large (share of the
#: photo) may be a part of the paper cut off by a shadow's edge...
PIECE_MIN_SHARE = 0.02
#: ...and two of them side by side are the whole paper when together they are this
#: solid (area over their convex hull's): a table piece wraps around the paper.
PIECE_SOLIDITY = 0.95
#: Of two such quads on edges within this share alike, the larger is the paper.
PIECE_TIE = 0.05


def _shadow_split_quads(grey: U8, edges: U8, pieces: Pieces, sat: U8, min_area: float) -> list[tuple[F64, float]]:
    """Quads (4, 2) and areas (px) of papers cut in two by a shadow's straight edge:
    the unions of two pieces of the photo (the regions between its strong edges, each
    at least PIECE_MIN_SHARE of it) that lie side by side, one the other's shadow (its
    grey median SHADOW_RATIO of the other's, both even and unsaturated as in
    ``with_shadowed_part``), together one solid shape (PIECE_SOLIDITY) of at least
    min_area px that runs along at most SHADOW_FRAME of the photo's frame (the lit
    table with the lit paper, or the shadowed table with the shadowed paper, runs
    along it). grey, edges, sat: ``writing_free_grey``, ``edge_map``, white-balanced
    HSV saturation, uint8 (h, w); pieces: ``outline.edge_pieces`` of edges."""
    n, labels, stats = pieces
    big = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= PIECE_MIN_SHARE * edges.size]
    level, paperlike = {}, {}
    for k in big:
        values = grey[labels == k]
        level[k] = float(np.median(values))
        paperlike[k] = _even_and_unsaturated(values, level[k], sat[labels == k])
    frame = frame_band(edges.shape, 8)  # (the edge map's dilation keeps a piece ~3 px off the frame)
    out = []
    for i, a in enumerate(big):
        if not paperlike[a]:
            continue
        near = cv2.dilate((labels == a).astype(np.uint8), np.ones((17, 17), np.uint8)) > 0  # across the edge band
        for b in big[i + 1:]:
            if not paperlike[b] or not _shadow_level(min(level[a], level[b]), max(level[a], level[b])):
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
            quad = quad_of(np.asarray(cv2.dilate(union, np.ones((7, 7), np.uint8)), np.uint8))
            if quad is not None:
                out.append((snapped(quad, edges), area))
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


def paper_mask(image: U8, grey: U8 | None = None, edges: U8 | None = None, sat: U8 | None = None,
               pieces: Pieces | None = None) -> U8:
    """uint8 (h, w) at WORK_SIDE scale: 255 on the paper. grey, edges, sat, pieces: the
    image's ``writing_free_grey``, its ``edge_map``, ``white_balanced_saturation`` and
    ``outline.edge_pieces``, when the caller has them already.

    The writing is closed away; the largest bright region (Otsu) seeds the paper,
    which a watershed then grows to the strongest edge around it."""
    grey = writing_free_grey(image) if grey is None else grey
    sat = white_balanced_saturation(image) if sat is None else sat
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
    outside = frame_band(grey.shape) & (mask == 0)
    if not outside.any():
        return mask  # the paper fills the frame
    markers[outside] = 1
    smooth = cv2.GaussianBlur(grey, (0, 0), 1.5)
    cv2.watershed(cv2.cvtColor(smooth, cv2.COLOR_GRAY2BGR), markers)
    grown: U8 = (markers == 2).astype(np.uint8) * 255
    grown = np.asarray(cv2.morphologyEx(grown, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
    share = np.count_nonzero(grown) / grown.size
    paper = grown if share >= PAPER_MIN_AREA else mask
    if pieces is None:
        pieces = edge_pieces(edge_map(grey) if edges is None else edges)
    return with_shadowed_part(paper, grey, pieces, sat)


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


def _shadow_level(dark: float, lit: float) -> bool:
    """Is a grey level `dark` that of paper at level `lit` in a shadow (SHADOW_RATIO)?"""
    return SHADOW_RATIO[0] * lit <= dark <= SHADOW_RATIO[1] * lit


def _even_and_unsaturated(values: U8, level: float, sat: U8) -> bool:
    """Is a region (its grey values, their median `level`, its saturation values) as even
    as paper (10th-90th percentile spread under SHADOW_EVEN of its level) and as
    unsaturated (median saturation 60 or under)?"""
    return float(np.percentile(values, 90) - np.percentile(values, 10)) <= SHADOW_EVEN * level \
        and float(np.median(sat)) <= 60


def with_shadowed_part(paper: U8, grey: U8, pieces: Pieces, sat: U8) -> U8:
    """The paper mask (uint8 (h, w), 255 on the paper) with its part in a sharp shadow
    added (a phone's or a hand's shadow across the sheet splits it into a lit part,
    the bright region, and a darker part beyond a straight edge). Regions are the
    pieces of the photo between its strong edges (``edge_map``); a piece beside the
    paper is added when it is shadowed paper: darker by a ratio in SHADOW_RATIO, even,
    unsaturated, and the two together convex. grey, sat: the photo's
    ``writing_free_grey`` and its white-balanced HSV saturation, uint8 at the mask's
    scale; pieces: ``outline.edge_pieces`` of its ``edge_map``."""
    if not paper.any():
        return paper
    n, labels, stats = pieces
    lit = paper > 0
    lit_level = float(np.median(grey[lit]))
    near = cv2.dilate(paper, np.ones((15, 15), np.uint8)) > 0
    rim = near & ~lit  # the band just outside the lit paper
    frame = frame_band(paper.shape)
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
        if not _shadow_level(level, lit_level) or not _even_and_unsaturated(values, level, sat[region]):
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
    return order(np.asarray(back, np.float64))
