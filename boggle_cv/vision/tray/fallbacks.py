"""The tray finder's fallbacks: other views of the photo, searched in turn when the
search of the whole photo found no board (only refusals pay for them).

A fallback (the contract: :mod:`.plan`) has a ``name`` (its key in
``TrayResult.timings``) and ``attempt(image_bgr, size, ctx) -> TrayResult | None``:
it makes its views of the image (a crop, stretched copies, windows), has each
searched with ``ctx.search(view, size, plan)`` (the same search as the whole
photo's, with the candidate sources and the fallbacks of its ``inner`` Plan; several
views side by side with :func:`.views.first_found`, which answers as a search in
turn), and maps a board found back into the image's pixels. ``tray.find_tray`` tries ``TrayConfig.fallbacks`` in
order; the first board found wins. The default order (``default_fallbacks``):

1. Zoom: a crop around the detector's evidence (a partial lattice or its
   confident peaks), so a small board fills the detector's input;
2. Stretch: copies stretched along one direction (a grazing view squashes the
   cube tops along the line of sight);
3. Windows: windows of 0.67 x the photo on a 3 x 3 grid (a small tray far away);
4. Stretch whose copies are searched window by window (far away AND grazing).

To add a strategy: write a frozen dataclass that subclasses ``plan.Nested``
(an ``inner: Plan``, a ``name`` and ``attempt``), and put it into the tuple that
``default_fallbacks`` returns, at the place in the order where it should run
(docs/tray.md).

Coordinates: (x, y) pixels of the image handed to ``attempt``.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Hashable

import cv2
import numpy as np

from ..cells import grid_pitch, order_corners
from ..quantiles import median
from ..stages import FloatArray, ImageU8, TrayResult
from .blobs import Blobs
from .lattice import Lattice
from .plan import MIN_VIEW_PX, Evidence, Fallback, Nested, Plan, SearchContext, Seen, shifted
from .views import first_found

# --- zoom ---------------------------------------------------------------------------

def something_new(evidence: Evidence, seen: Seen | None) -> bool:
    """True when the detector's candidates hold one that ``seen`` (what a coarser view
    of the same place saw) does not cover, or nothing was seen before: a finer look
    at a view that showed nothing new finds nothing new either."""
    if seen is None:
        return True
    found = evidence.seen()
    return bool((~seen.covers(found.centres, found.sides)).any())


def moved(seen: Seen, dx: float, dy: float) -> Seen:
    """``seen`` with its centres moved by (dx, dy) (into a crop's pixels)."""
    return Seen(seen.centres + np.array([dx, dy], np.float64), seen.sides)


@dataclass(frozen=True)
class ZoomConfig:
    """margin: the crop extends this many median predicted cube sides beyond the
    detector's evidence; min_side: and is at least this many cube sides wide and
    high; max_area: it is skipped when it would cover more than this share of the
    image (nothing to gain); peak: without a lattice of at least 3 members, the
    evidence is the peaks of at least this x the highest peak; lattice_only: without
    such a lattice there is no crop (the zoom inside a window: see
    ``default_fallbacks``)."""

    margin: float = 2.5
    min_side: float = 7.0
    max_area: float = 0.6
    peak: float = 0.5
    lattice_only: bool = False


def zoom_box(blobs: Blobs, lattices: list[Lattice], shape: tuple[int, int],
             cfg: ZoomConfig) -> tuple[tuple[float, float, float, float], FloatArray] | None:
    """((x0, y0, x1, y1), focus (2,) (x, y)) in working px: a crop around the
    detector's evidence of a board and the evidence's centroid (the board found in
    the crop must cover it), or None. Evidence: the members of the biggest lattice
    (at least 3), else the peaks of at least ``peak`` x the highest; widened by
    ``margin`` median cube sides and to at least ``min_side`` cube sides; None when
    no peaks or the crop covers more than ``max_area`` of the image (shape (H, W))."""
    if not len(blobs):
        return None
    big = [lat for lat in lattices if len(lat.members) >= 3]
    if big:
        lat = max(big, key=lambda la: len(la.members))
        idx = np.array(list(lat.members.values()))
    elif cfg.lattice_only:
        return None
    else:
        idx = np.nonzero(blobs.quality >= cfg.peak * blobs.quality.max())[0]
    pts = blobs.centres[idx]
    side = float(median(blobs.sides[idx]))
    lo = pts.min(axis=0) - cfg.margin * side
    hi = pts.max(axis=0) + cfg.margin * side
    mid, half = (lo + hi) / 2, np.maximum((hi - lo) / 2, cfg.min_side * side / 2)
    lo, hi = mid - half, mid + half
    h, w = shape
    lo = np.maximum(lo, 0)
    hi = np.minimum(hi, (w, h))
    if np.any(hi - lo < 8) or (hi - lo).prod() > cfg.max_area * w * h:
        return None
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), pts.mean(axis=0)


@dataclass(frozen=True)
class Zoom(Nested):
    """Search a crop of the image around the detector's evidence (``zoom_box``): in
    the crop a small board fills the detector's 320 px input. The board found must
    cover the evidence's centroid (a grid of dots in the crop's margin does not
    count). Runs only when the detector ran on the image (``ctx.evidence``) and saw
    something a coarser view did not (``something_new``); the crop's search is told
    what the image's saw."""

    settings: ZoomConfig = field(default_factory=ZoomConfig)

    @property
    def name(self) -> str:
        return "zoom_retry"

    def attempt(self, image: ImageU8, size: int | None, ctx: SearchContext) -> TrayResult | None:
        ev = ctx.evidence
        if ev is None or not something_new(ev, ctx.seen):
            return None
        found = zoom_box(ev.blobs, ev.lattices, ev.work_shape, self.settings)
        if found is None:
            return None
        box, focus = found
        x0, y0, x1, y1 = (np.array(box, np.float64) / ev.scale).round().astype(int)
        H0, W0 = image.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W0, x1), min(H0, y1)
        if min(x1 - x0, y1 - y0) < MIN_VIEW_PX:
            return None
        t0 = time.perf_counter()
        sub = ctx.search(image[y0:y1, x0:x1], size, self.inner, moved(ev.seen(), -x0, -y0))
        ctx.timings[self.name] = time.perf_counter() - t0
        if sub is None:
            return None
        sub = shifted(sub, x0, y0)
        if cv2.pointPolygonTest(sub.corners.astype(np.float32).reshape(-1, 1, 2),
                                (float(focus[0] / ev.scale), float(focus[1] / ev.scale)), False) < 0:
            return None  # a grid beside the evidence (dots in the crop's margin?)
        return sub


# --- stretch ------------------------------------------------------------------------

@dataclass(frozen=True)
class StretchConfig:
    """side: the image is first reduced to this long side (px); tries: (angle in
    degrees on screen: 0 = x, 90 = y, factor) of each stretched copy, in order."""

    side: int = 1000
    tries: tuple[tuple[float, float], ...] = (
        (90, 2.0), (0, 2.0), (45, 2.0), (135, 2.0), (90, 1.5), (0, 1.5))


def stretch_matrix(angle_deg: float, factor: float,
                   shape: tuple[int, int]) -> tuple[FloatArray, tuple[int, int]]:
    """(M (2, 3), (width, height)): the affine map that stretches an image of shape
    (H, W) by ``factor`` along the direction angle_deg (0 = x, 90 = y, on screen),
    translated so the whole stretched image has non-negative coordinates."""
    a = np.deg2rad(angle_deg)
    u = np.array([np.cos(a), np.sin(a)])
    A = np.eye(2) + (factor - 1) * np.outer(u, u)
    h, w = shape
    box = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64) @ A.T
    lo, hi = box.min(axis=0), box.max(axis=0)
    M = np.hstack([A, -lo[:, None]])
    width, height = (int(np.ceil(v - 1e-6)) for v in hi - lo)
    return M, (width, height)


@dataclass(frozen=True)
class Stretch(Nested):
    """Search copies of the image stretched along one direction (StretchConfig.tries,
    in order): a photo taken at a grazing angle squashes the cube tops along the line
    of sight, below what the detector learnt; stretching that direction back makes
    them squarish again. Corners and centres are mapped back by the inverse map; the
    first board whose every cube-top centre lies in the image wins (a stretched
    lattice may skip every other row of cubes and hang off the frame). Each copy's
    search is told what the photo's own search saw, mapped into the copy (its zoom
    and windows look only at what the stretch shows anew).
    ``label`` is its name (two Stretches differ by their inner plan)."""

    settings: StretchConfig = field(default_factory=StretchConfig)
    label: str = "stretch_retry"

    @property
    def name(self) -> str:
        return self.label

    def attempt(self, image: ImageU8, size: int | None, ctx: SearchContext) -> TrayResult | None:
        t0 = time.perf_counter()
        h, w = image.shape[:2]
        pre = min(1.0, self.settings.side / max(h, w))
        base = self._copy(ctx, ("stretch_base", self.settings.side), lambda: _reduced(image, pre))
        photo = ctx.evidence.seen() if ctx.evidence is not None else None
        tries = []
        for angle, factor in self.settings.tries:
            M, out_size = stretch_matrix(angle, factor, (base.shape[0], base.shape[1]))
            seen = None if photo is None else Seen(photo.centres * pre @ M[:, :2].T + M[:, 2], photo.sides * pre)
            key = ("stretch", self.settings.side, angle, factor)
            looked = ctx.looked.get(key)
            if self.inner.sources == () and looked is not None and not something_new(looked, seen):
                continue  # searched already, and it shows nothing new for its fallbacks to look at
            tries.append((M, out_size, seen, key))

        def search_copy(attempt: tuple[FloatArray, tuple[int, int], Seen | None, Hashable]) -> TrayResult | None:
            M, out_size, seen, key = attempt
            stretched = self._copy(ctx, key, lambda: np.asarray(cv2.warpAffine(
                base, M, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8))
            sub = ctx.search(stretched, size, self.inner, seen, key)
            if sub is None:
                return None
            Minv = cv2.invertAffineTransform(M)

            def back(pts: FloatArray) -> FloatArray:
                flat = pts.reshape(-1, 2)
                out: FloatArray = ((flat @ Minv[:, :2].T + Minv[:, 2]) / pre).reshape(pts.shape)
                return out

            corners, centres = order_corners(back(sub.corners), back(sub.cell_centres))
            flat = centres.reshape(-1, 2)
            if flat.min() < 0 or np.any(flat.max(axis=0) > (w - 1, h - 1)):
                return None  # a last resort is trusted only for a board wholly in the image
            return TrayResult(sub.size, corners, sub.confidence, centres)

        found = first_found(search_copy, tries)
        ctx.timings[self.name] = time.perf_counter() - t0
        return found

    @staticmethod
    def _copy(ctx: SearchContext, key: Hashable, make: Callable[[], ImageU8]) -> ImageU8:
        """The view named ``key`` made for an earlier Stretch of this image, else
        ``make()`` (kept for a later one: the stretched windows search the copies
        that the stretch searched whole)."""
        view = ctx.copies.get(key)
        if view is None:
            view = ctx.copies[key] = make()
        return view


def _reduced(image: ImageU8, scale: float) -> ImageU8:
    """``image`` itself at scale 1, else its area-averaged copy at ``scale`` (< 1)."""
    if scale >= 1:
        return image
    h, w = image.shape[:2]
    return np.asarray(cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                                 interpolation=cv2.INTER_AREA), np.uint8)


# --- windows ------------------------------------------------------------------------

@dataclass(frozen=True)
class WindowConfig:
    """frac: a window is this share of the image's width and height; margin: a board
    counts only when its corners lie at least this many pitches inside every window
    edge that is not the image's edge; evidence: a window is searched only when at
    least this many of the detector's candidates in the image's own search (the
    coarser view of the window: ``SearchContext.evidence``) lie in it (0: every
    window; without that search, every window is searched). A board shows as more
    than one new cube top in the coarser view: on the photos of docs/tray.md's
    evaluation, every board a window found had at least 2 there (and 3 in the
    photo's own windows), while a lone candidate is what text, tiles and a tray
    with a missing cube leave in most windows of a stretched copy."""

    frac: float = 0.67
    margin: float = 1.0
    evidence: int = 2


def with_evidence(boxes: list[tuple[int, int, int, int]], evidence: Evidence | None,
                  least: int, seen: Seen | None = None) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1) image px worth searching for the detector's
    candidates in ``evidence``; all of them without evidence or when ``least`` is 0.
    Without ``seen`` (the photo's own windows) each candidate chooses the box that
    holds it farthest from the box's inner edges (``room``: a board around it is cut
    least there), and the boxes chosen by at least ``least`` candidates are
    returned, most chosen first. With ``seen`` (another view's candidates: a
    stretched copy's windows) the boxes holding at least ``least`` candidates that
    ``seen`` does not cover, in their own order."""
    if evidence is None or least <= 0:
        return boxes
    found = evidence.seen()
    pts = found.centres
    if seen is not None:
        pts = pts[~seen.covers(found.centres, found.sides)]
        return [b for b in boxes if int(((pts[:, 0] >= b[0]) & (pts[:, 0] < b[2])
                                         & (pts[:, 1] >= b[1]) & (pts[:, 1] < b[3])).sum()) >= least]
    if not len(pts) or not boxes:
        return []
    votes = np.bincount(room(boxes, pts).argmax(axis=0), minlength=len(boxes))
    return [boxes[i] for i in sorted(range(len(boxes)), key=lambda i: (-votes[i], i)) if votes[i] >= least]


def room(boxes: list[tuple[int, int, int, int]], pts: FloatArray) -> FloatArray:
    """(B, K): how far each point (K, 2) (x, y) lies inside each box (x0, y0, x1, y1)
    from the box's nearest edge that is not an edge of the image the boxes cover
    (their union; inf when every edge is the image's); -inf outside the box."""
    w = max(b[2] for b in boxes)
    h = max(b[3] for b in boxes)
    x, y = pts[:, 0], pts[:, 1]
    out = np.full((len(boxes), len(pts)), np.inf)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        r = out[i]
        for edge, dist in ((x0 > 0, x - x0), (y0 > 0, y - y0), (x1 < w, x1 - x), (y1 < h, y1 - y)):
            if edge:
                np.minimum(r, dist, out=r)
        r[(x < x0) | (x >= x1) | (y < y0) | (y >= y1)] = -np.inf
    return out


def window_boxes(shape: tuple[int, int], frac: float) -> list[tuple[int, int, int, int]]:
    """(x0, y0, x1, y1) windows of frac x the image's width and height (shape (H, W))
    on a 3 x 3 grid of positions, the centre first, then the edges' middles, then the
    corners."""
    h, w = shape
    ww, wh = max(1, round(w * frac)), max(1, round(h * frac))
    pos = [((w - ww) * i // 2, (h - wh) * j // 2) for j in range(3) for i in range(3)]
    order = (4, 1, 3, 5, 7, 0, 2, 6, 8)
    return [(pos[k][0], pos[k][1], pos[k][0] + ww, pos[k][1] + wh) for k in order]


@dataclass(frozen=True)
class Windows(Nested):
    """Search windows of the image (``window_boxes``), the centre first: the
    detector sees the whole image at 320 px, where a small tray far away (cube tops
    of about 15 px) gives no peaks; in a window it is bigger. The first board found
    well inside its window (WindowConfig.margin) wins, so a window cannot have cut
    rows off a bigger board. Only the windows holding a candidate of the image's own
    search that no other view saw are searched (``with_evidence``), and each is told
    what the image's search saw in it (its zoom looks only at something new)."""

    settings: WindowConfig = field(default_factory=WindowConfig)

    @property
    def name(self) -> str:
        return "window_retry"

    def attempt(self, image: ImageU8, size: int | None, ctx: SearchContext) -> TrayResult | None:
        t0 = time.perf_counter()
        h, w = image.shape[:2]
        found = None
        boxes = with_evidence(window_boxes((h, w), self.settings.frac), ctx.evidence, self.settings.evidence,
                              ctx.seen)
        coarse = ctx.evidence.seen() if ctx.evidence is not None else None

        def search_window(box: tuple[int, int, int, int]) -> TrayResult | None:
            x0, y0, x1, y1 = box
            sub = ctx.search(image[y0:y1, x0:x1], size, self.inner,
                             None if coarse is None else moved(coarse, -x0, -y0))
            if sub is None:
                return None
            c = sub.corners
            m = self.settings.margin * grid_pitch(c, sub.size)
            lo, hi = c.min(axis=0), c.max(axis=0)
            if ((x0 > 0 and lo[0] < m) or (y0 > 0 and lo[1] < m)
                    or (x1 < w and hi[0] > (x1 - x0) - m) or (y1 < h and hi[1] > (y1 - y0) - m)):
                return None  # the window may have cut rows of a bigger board off
            return shifted(sub, x0, y0)

        found = first_found(search_window, [b for b in boxes if min(b[2] - b[0], b[3] - b[1]) >= MIN_VIEW_PX])
        ctx.timings[self.name] = time.perf_counter() - t0
        return found


def default_fallbacks(zoom: ZoomConfig = ZoomConfig(), stretch: StretchConfig = StretchConfig(),
                      windows: WindowConfig = WindowConfig()) -> tuple[Fallback, ...]:
    """The shipped fallbacks, in order, each with the search it runs on its views:

    zoom              crop, detector only
    stretch           each copy: the config's sources; then a zoom (detector only)
    windows           each window: detector only; then a zoom (detector only) where
                      the window shows a lattice (a window is a closer look already:
                      a zoom around its loose peaks found no board on the photos of
                      docs/tray.md, a zoom around a lattice did)
    stretched windows the x2 copies (``steepest``): only their windows, searched as in
                      "windows"
    """
    detector = Plan(("detector",))
    in_window = Plan(("detector",), (Zoom(detector, replace(zoom, lattice_only=True)),))
    return (
        Zoom(detector, zoom),
        Stretch(Plan(None, (Zoom(detector, zoom),)), stretch),
        Windows(in_window, windows),
        Stretch(Plan((), (Windows(in_window, windows),)), steepest(stretch), label="stretch_window_retry"),
    )


def steepest(stretch: StretchConfig) -> StretchConfig:
    """``stretch`` with only its strongest stretches (the largest factor): the copies
    whose windows step 4 searches. A board far away and seen at a grazing angle is
    squashed the most; the windows of the x1.5 copies found none of the 1,663 boards
    of docs/tray.md's evaluation, and cost a busy photo's refusal a quarter of its
    time."""
    top = max(factor for _, factor in stretch.tries)
    return replace(stretch, tries=tuple(t for t in stretch.tries if t[1] == top))
