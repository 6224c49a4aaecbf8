"""The search of one image for a board, without fallbacks.

``search_image(image_bgr, size, cfg, sources, timings, debug) -> ImageSearch``:
on a working copy (long side ``TrayConfig.work_side``), per candidate source in
order ("detector": learned cube-top peaks, :mod:`.detector`; "blobs":
classical bright blobs, :mod:`.blobs`): grow lattices over the candidates
(:mod:`.lattice`) and judge the four biggest (:mod:`.board`); the first
board wins. A detector grid is then snapped onto classical blobs (``snap``).
Corners and centres come back in the image's pixels, ordered from the corner
nearest the top-left, clockwise on screen (``cells.order_corners``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np

from ...errors import UsageError
from ..cells import centres_pitch, order_corners
from ..stages import DebugSink, FloatArray, ImageU8, TrayResult
from .blobs import Blobs, GreyU8, find_blobs, whiteness_map
from .board import FittedGrid, Heat, board_from_lattice, can_hold_board
from .config import SnapConfig, TrayConfig
from .debug import draw_blobs, draw_lattice, grey_to_bgr, heat_image
from .detector import run_detector
from .lattice import Lattice, best_lattices
from .plan import Evidence

#: How many lattices of a source are judged (biggest first).
LATTICES_JUDGED = 4
#: How many lattices the debug image draws.
LATTICES_DRAWN = 3


@dataclass(frozen=True)
class ImageSearch:
    """The search of one image: ``found`` the board (image px) or None with
    ``reasons`` (one per refused lattice, in order); ``evidence``: what the detector
    saw (None when it did not run); ``work`` the working copy and ``scale`` its px
    per image px."""

    found: TrayResult | None
    reasons: list[str]
    evidence: Evidence | None
    work: ImageU8
    scale: float


def working_copy(image: ImageU8, side: int) -> tuple[ImageU8, float]:
    """(working image with long side ``side`` px, scale) with working = image * scale;
    a big image is first decimated (every k-th pixel), then area-averaged, so the
    copy is still anti-aliased by a factor of at least 2."""
    h, w = image.shape[:2]
    s = side / max(h, w)
    k = int(1 / s) if s < 0.5 else 1
    s2 = s
    if k >= 2:
        step = k // 2
        if step >= 2:
            image = np.asarray(cv2.resize(image, (w // step, h // step),
                                          interpolation=cv2.INTER_NEAREST), np.uint8)
            h, w = image.shape[:2]
            s2 = side / max(h, w)
    interp = cv2.INTER_AREA if s2 < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(image, (max(1, round(w * s2)), max(1, round(h * s2))),
                                 interpolation=interp), np.uint8), s


def _candidates(source: str, work: ImageU8, white: GreyU8, cfg: TrayConfig,
                keep_debug: bool) -> tuple[Blobs, Heat | None]:
    """(candidate cube tops, detector heat or None) of one source."""
    if source == "detector":
        det = run_detector(work, white, cfg.detector)
        return det.blobs, det.heat
    if source == "blobs":
        return find_blobs(work, cfg.blobs, keep_debug=keep_debug, white=white), None
    raise UsageError(f"unknown candidate source {source!r}", "use 'detector' and/or 'blobs'")


def search_image(image: ImageU8, size: int | None, cfg: TrayConfig, sources: tuple[str, ...],
                 timings: dict[str, float], debug: DebugSink | None = None,
                 explain: bool = True) -> ImageSearch:
    """Search one BGR uint8 (H, W, 3) image with the given sources (see the module
    docstring); stage times go into ``timings``, stage images to ``debug``.
    explain=False: a lattice too small to hold a board (``board.can_hold_board``) is
    passed over unjudged, without its reason (a fallback's view: only a board found
    counts)."""
    t0 = time.perf_counter()
    work, scale = working_copy(image, cfg.work_side)
    white = whiteness_map(work)
    timings["reduce"] = time.perf_counter() - t0
    if debug is not None:
        debug("0_work", work.copy())
        debug("1_whiteness", grey_to_bgr(white))
    reasons: list[str] = []
    evidence: Evidence | None = None
    for source in sources:
        if source == "blobs" and not explain and not (
                evidence is not None and any(can_hold_board(lat, size, cfg.board) for lat in evidence.lattices)):
            continue  # in a fallback's view, a second opinion on a lattice the detector saw
        t1 = time.perf_counter()
        blobs, heat = _candidates(source, work, white, cfg, debug is not None)
        t2 = time.perf_counter()
        timings[source] = t2 - t1
        lattices = best_lattices(blobs, cfg.detector_lattice if heat is not None else cfg.lattice)
        t3 = time.perf_counter()
        timings[f"lattice_{source}"] = t3 - t2
        if debug is not None:
            _debug_source(debug, work, blobs, heat, lattices)
        if heat is not None:
            evidence = Evidence(blobs, lattices, (work.shape[0], work.shape[1]), scale)
        grid: FittedGrid | None = None
        for lat in lattices[:LATTICES_JUDGED]:
            if not explain and not can_hold_board(lat, size, cfg.board):
                continue
            res = board_from_lattice(lat, blobs, white, size, cfg.board, heat, work)
            if isinstance(res, FittedGrid):
                grid = res
                break
            reasons.append(res.reason)
        timings[f"grid_{source}"] = time.perf_counter() - t3
        if grid is None:
            continue
        corners_w, centres_w = grid.corners, grid.centres
        if source == "detector" and cfg.snap.enabled:
            t4 = time.perf_counter()
            corners_w, centres_w = snap(work, grid.size, corners_w, centres_w, cfg.snap,
                                        cfg.board.corner_margin, white)
            timings["snap"] = time.perf_counter() - t4
        corners, centres = order_corners(corners_w / scale, centres_w / scale)
        found = TrayResult(grid.size, corners, grid.confidence, centres)
        return ImageSearch(found, reasons, evidence, work, scale)
    return ImageSearch(None, reasons, evidence, work, scale)


def look(image: ImageU8, cfg: TrayConfig) -> Evidence:
    """What the detector sees in a BGR uint8 (H, W, 3) image, judging nothing: its
    candidates and lattices on the working copy (the evidence a view's fallbacks look
    at when the view itself is not searched: plan.Plan with no sources)."""
    work, scale = working_copy(image, cfg.work_side)
    blobs, _ = _candidates("detector", work, whiteness_map(work), cfg, False)
    lattices = best_lattices(blobs, cfg.detector_lattice)
    return Evidence(blobs, lattices, (work.shape[0], work.shape[1]), scale)


def _debug_source(debug: DebugSink, work: ImageU8, blobs: Blobs, heat: Heat | None,
                  lattices: list[Lattice]) -> None:
    """Hand one source's images to the sink (tag "d" for the detector)."""
    tag = "d" if heat is not None else ""
    if heat is not None:
        debug(f"2{tag}_heat", heat_image(heat))
    for k, m in blobs.masks_debug.items():
        debug(f"2_{k}", grey_to_bgr(m))
    debug(f"3{tag}_blobs", draw_blobs(work, blobs))
    debug(f"4{tag}_lattice", draw_lattice(work, blobs, lattices[:LATTICES_DRAWN]))


def snap(work: ImageU8, n: int, corners: FloatArray, centres: FloatArray, cfg: SnapConfig,
         corner_margin: float, white: GreyU8 | None = None) -> tuple[FloatArray, FloatArray]:
    """Sharpen a grid found from detector peaks with the classical blobs: each cell
    centre (N, N, 2) (x, y) working px moves to a blob of cube size within
    ``cfg.radius`` pitch; with enough snapped cells spread over the grid, the grid
    homography is refitted on them and the corners ((4, 2), ``corner_margin``
    pitches beyond the outer centres) recomputed; `white`: the working image's
    whiteness map, computed once for the search. Returns (corners, centres)."""
    blobs = find_blobs(work, cfg.blobs, white=white)
    if len(blobs) < 4:
        return corners, centres
    pitch = centres_pitch(centres)
    flat = centres.reshape(-1, 2)
    d = np.hypot(*(flat[:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
    ok_size = (blobs.sides > cfg.side[0] * pitch) & (blobs.sides < cfg.side[1] * pitch)
    d[:, ~ok_size] = np.inf
    j = d.argmin(axis=1)
    hit = d[np.arange(len(flat)), j] < cfg.radius * pitch
    if hit.sum() < cfg.min_share * n * n:
        return corners, centres
    idx = np.array([(c, r) for r in range(n) for c in range(n)], np.float64)
    H, _ = cv2.findHomography(idx[hit], blobs.centres[j[hit]], 0)
    if H is None:
        return corners, centres
    m = corner_margin
    q = np.array([(-m, -m), (n - 1 + m, -m), (n - 1 + m, n - 1 + m), (-m, n - 1 + m)], np.float64)
    new_corners = np.asarray(cv2.perspectiveTransform(q.reshape(-1, 1, 2), H), np.float64).reshape(4, 2)
    if np.abs(new_corners - corners).max() > cfg.max_move * pitch:
        return corners, centres
    new = np.asarray(cv2.perspectiveTransform(idx.reshape(-1, 1, 2), H), np.float64).reshape(-1, 2)
    new[hit] = blobs.centres[j[hit]]
    return new_corners, new.reshape(n, n, 2)
