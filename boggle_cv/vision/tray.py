"""Find the Boggle tray in a photo: board size N and the outer corners of the cube grid.

``find_tray(image_bgr, size=None) -> TrayResult``

Method (all on a reduced working copy, long side ``TrayConfig.work_side`` px):
1. candidate cube tops: bright compact squarish blobs at many thresholds of the
   whiteness map (min of B, G, R), so the tray colour does not matter
   (:mod:`tray_blobs`);
2. a square lattice grown over the candidates with a homography from lattice index
   (col, row) to image (x, y) (:mod:`tray_lattice`);
3. the board's extent: rows and columns of the lattice, extended by cells that look
   like cube tops (also cubes cut off by the frame), checked for a full N x N grid
   with no cube tops just outside it;
4. corners = the homography at the outer edges of the grid (half a pitch beyond the
   outer cube centres), scaled back to the original photo.
When no board is seen, last resorts run in turn (only refusals pay for them): a
zoomed crop around the detector's evidence, stretched copies of the photo (grazing
views), windows of the photo (small trays far away), windows of the stretched
copies. See TrayConfig and docs/tray.md.

Raises NoBoardError when there is no complete 4x4, 5x5 or 6x6 grid.
Coordinates: (x, y) pixels of the image passed in; corners ordered r0c0, r0c(N-1),
r(N-1)c(N-1), r(N-1)c0, clockwise on screen, r0c0 the corner nearest the top-left.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from boggle_cv.errors import NoBoardError
from boggle_cv.vision.cells import grid_pitch
from boggle_cv.vision.tray_blobs import BlobConfig, Blobs, find_blobs, whiteness_map
from boggle_cv.vision.tray_detector import DetectorConfig, run_detector
from boggle_cv.vision.tray_lattice import Lattice, LatticeConfig, best_lattices

SIZES = (4, 5, 6)


@dataclass(frozen=True)
class TrayConfig:
    """Settings of find_tray.

    work_side: long side (px) of the working copy.
    corner_margin: corners lie this many pitches beyond the outer cube centres.
    min_fill: fraction of the N x N cells that must hold a detected cube top.
    min_ink: a cell not recognised as a cube top still counts as one when at least
        this share of its centre patch is dark ink (a letter) on a bright face.
    cube_like: a cell counts as holding a cube when its centre patch's whiteness is at
        least this fraction of the members' median whiteness.
    unknown_frac: a cell with at least this fraction of its centre patch outside the
        frame is "cut off" (unknown) rather than empty.
    min_visible: fraction of the N x N cells that must be (mostly) inside the frame.
    max_residual: lattice fit error bound (fraction of the pitch).
    min_confidence: below this the board is refused (classical blobs);
        min_confidence_detector: the same bar for a grid of detector peaks (whose
        cells are also checked against the heatmap, so a lower bar is safe).
    heat_cube / heat_rel: a cell whose detector heatmap (probability of a cube-top
        centre) near the cell centre reaches max(heat_cube, heat_rel x the members'
        median peak) holds a cube, whatever its whiteness.
    max_doubtful / doubtful_fill / doubtful_factor: with the detector's candidates, a
        visible cell that is not a recognised cube top but is bright (whiteness at
        least doubtful_like x the members' median; a blank or shaded cube?) or red
        (a challenge cube?) is "doubtful"; a window may hold max_doubtful of them when at
        least doubtful_fill of its visible cells are recognised tops; its confidence
        is multiplied by doubtful_factor per doubtful cell.
    red_ratio: a cell is red when R > red_ratio x max(G, B) (2.2 keeps orange trays,
        G ~ R/2, out).
    snap_to_blobs / snap_radius / snap_side / snap_min / snap_max_move: refine a grid
        found from detector peaks with classical blobs (see _snap): a centre snaps to
        a blob within snap_radius pitch whose side is within snap_side x pitch; the
        refit is used when at least snap_min of the cells snapped and no corner moves
        more than snap_max_move pitch. snap_blobs: a lighter blob search (fewer
        thresholds) used for the snapping only.
    weak_quality: with the detector's candidates, a lattice member whose peak is
        below weak_quality x the members' median peak and whose whiteness is below
        cube_like x their median (not a cube top by either cue: a polka dot, the
        tray's rim) may be left outside the window; at most 2 other members may.
    sources: candidate sources tried in order until one gives a board: "detector"
        (learned cube-top heatmap, models/cube_detector.onnx) and "blobs" (classical
        thresholded blobs).
    zoom_retry / zoom_margin / zoom_min_side / zoom_max_area: when every source
        failed, find_tray runs once more (with zoom_retry off) on a crop of the photo
        around the detector's evidence (the biggest detector lattice, else its
        confident peaks), so a small board fills the detector's input; the crop
        extends zoom_margin x the median predicted cube side beyond that evidence,
        is at least zoom_min_side cube sides wide and high, and is skipped when it
        would cover more than zoom_max_area of the photo (nothing to gain). Every
        check of a board (empty cells, cube tops beyond the grid) applies inside it.
    zoom_peak: relative peak height (x the highest peak) of the peaks that frame
        the crop when no lattice of at least 3 members was grown.
    stretch_retry / stretch_side / stretch_tries: when every source and the zoom
        retry failed, find_tray runs again (with stretch_retry off) on copies of the
        photo (first reduced to stretch_side px long side) stretched by a factor
        along a direction, (angle in degrees on screen: 0 = x, 90 = y, factor), in
        the order given; the first board found whose every cube-top centre lies in
        the photo wins. A photo taken at a grazing angle squashes the cube tops along
        the line of sight; this undoes it.
    window_retry / window_frac / window_margin: after the stretches, find_tray (with
        no stretch or window retry) on windows of the photo window_frac of its width
        and height, on a 3 x 3 grid of positions, the centre first. The detector
        sees the whole photo at 320 px, where a small tray far away (cube tops of
        about 15 px) gives no peaks; in a window it is bigger. A board counts only
        when its corners lie at least window_margin pitches inside every window edge
        that is not the photo's edge, so the window cannot have cut off rows of a
        bigger board. The last resort of all is the windows of each stretched copy
        (a small tray far away at a grazing angle). Only photos without a board
        pay for these searches (up to a few seconds).
    """

    work_side: int = 800
    corner_margin: float = 0.5
    min_fill: float = 0.6
    min_ink: float = 0.04
    cube_like: float = 0.8
    unknown_frac: float = 0.6
    min_visible: float = 0.5
    max_residual: float = 0.15
    min_confidence: float = 0.6
    min_confidence_detector: float = 0.45
    heat_cube: float = 0.08
    max_doubtful: int = 2
    doubtful_like: float = 0.6
    doubtful_fill: float = 0.85
    doubtful_factor: float = 0.85
    red_ratio: float = 2.2
    snap_to_blobs: bool = True
    snap_blobs: BlobConfig = field(default_factory=lambda: BlobConfig(
        levels=(95, 140, 180, 220), local_windows=(61,), local_offsets=(5, 20)))
    snap_radius: float = 0.3
    snap_side: tuple[float, float] = (0.45, 1.1)
    snap_min: float = 0.6
    snap_max_move: float = 0.5
    heat_rel: float = 0.4
    weak_quality: float = 0.7
    sources: tuple[str, ...] = ("detector", "blobs")
    zoom_retry: bool = True
    zoom_margin: float = 2.5
    zoom_min_side: float = 7.0
    zoom_max_area: float = 0.6
    zoom_peak: float = 0.5
    stretch_retry: bool = True
    stretch_side: int = 1000
    stretch_tries: tuple[tuple[float, float], ...] = (
        (90, 2.0), (0, 2.0), (45, 2.0), (135, 2.0), (90, 1.5), (0, 1.5))
    window_retry: bool = True
    window_frac: float = 0.67
    window_margin: float = 1.0
    blobs: BlobConfig = field(default_factory=BlobConfig)
    detector: DetectorConfig = field(default_factory=DetectorConfig)
    lattice: LatticeConfig = field(default_factory=LatticeConfig)
    detector_lattice: LatticeConfig = field(
        default_factory=lambda: LatticeConfig(min_pitch=0.55, unshear=True))


@dataclass
class TrayResult:
    """Where the board is.

    size: N (4, 5 or 6). corners: float (4, 2) (x, y) in pixels of the image passed to
    find_tray, order r0c0, r0c(N-1), r(N-1)c(N-1), r(N-1)c0 (may lie outside the frame).
    confidence: 0..1. cell_centres: float (N, N, 2) (x, y) of each cube top's centre,
    indexed [row, col] in the same orientation as the corners. debug: stage name ->
    BGR uint8 image (filled only when find_tray(..., debug=True)). timings: stage
    name -> seconds.
    """

    size: int
    corners: np.ndarray
    confidence: float
    cell_centres: np.ndarray
    debug: dict[str, np.ndarray] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready summary (no debug images)."""
        return {"size": self.size, "corners": self.corners.round(1).tolist(),
                "confidence": round(float(self.confidence), 3)}


def _working_copy(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """(working image, scale) with working = original * scale."""
    h, w = image.shape[:2]
    s = side / max(h, w)
    k = int(1 / s) if s < 0.5 else 1
    if k >= 2:
        # take every (k//2)-th pixel first (cheap), then area-average the rest, so the
        # working copy is still anti-aliased by a factor of at least 2
        step = k // 2
        if step >= 2:
            image = cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)
            h, w = image.shape[:2]
            s2 = side / max(h, w)
        else:
            s2 = s
    else:
        s2 = s
    interp = cv2.INTER_AREA if s2 < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, (max(1, round(w * s2)), max(1, round(h * s2))),
                      interpolation=interp), s


def _cell_whiteness(white: np.ndarray, lat: Lattice, cells: list[tuple[int, int]],
                    heat: np.ndarray | None = None):
    """Per cell (col, row): (median whiteness of its centre patch, fraction of the
    patch outside the frame, dark fraction: share of patch pixels darker than 0.7 x
    the median, i.e. letter ink, highest detector heat within 0.2 pitch of the centre
    (0 without a heatmap))."""
    h, w = white.shape
    out = []
    g = np.linspace(-0.3, 0.3, 9)
    offs = np.array([(dx, dy) for dx in g for dy in g])
    for (c, r) in cells:
        pts = lat.project(offs + (c, r))
        inside = (pts[:, 0] >= 0) & (pts[:, 0] < w - 1) & (pts[:, 1] >= 0) & (pts[:, 1] < h - 1)
        frac_out = 1 - inside.mean()
        hv = 0.0
        if inside.any():
            p = pts[inside].astype(int)
            vals = white[p[:, 1], p[:, 0]].astype(np.float64)
            val = float(np.median(vals))
            dark = float(np.mean(vals < 0.7 * val))
            if heat is not None:
                near = np.abs(offs[inside]).max(axis=1) <= 0.2
                if near.any():
                    hv = float(heat[p[near, 1], p[near, 0]].max())
        else:
            val, dark = float("nan"), 0.0
        out.append((val, frac_out, dark, hv))
    return out


def _snap(work: np.ndarray, n: int, corners: np.ndarray, centres: np.ndarray,
          cfg: TrayConfig) -> tuple[np.ndarray, np.ndarray]:
    """Sharpen a grid found from detector peaks (coarse: 1/4 of a 320 px input) with
    the classical blobs: each cell centre (N, N, 2) (x, y) working px moves to a blob
    of cube size within snap_radius pitch; with enough snapped cells spread over the
    grid, the grid homography is refitted on them and the corners recomputed.
    Returns (corners (4, 2), centres (N, N, 2))."""
    blobs = find_blobs(work, cfg.snap_blobs)
    if len(blobs) < 4:
        return corners, centres
    steps = np.r_[np.hypot(*np.diff(centres, axis=0).reshape(-1, 2).T),
                  np.hypot(*np.diff(centres, axis=1).reshape(-1, 2).T)]
    pitch = float(np.median(steps))
    flat = centres.reshape(-1, 2)
    d = np.hypot(*(flat[:, None, :] - blobs.centres[None, :, :]).transpose(2, 0, 1))
    ok_size = (blobs.sides > cfg.snap_side[0] * pitch) & (blobs.sides < cfg.snap_side[1] * pitch)
    d[:, ~ok_size] = np.inf
    j = d.argmin(axis=1)
    hit = d[np.arange(len(flat)), j] < cfg.snap_radius * pitch
    if hit.sum() < cfg.snap_min * n * n:
        return corners, centres
    idx = np.array([(c, r) for r in range(n) for c in range(n)], np.float64)
    H, _ = cv2.findHomography(idx[hit], blobs.centres[j[hit]], 0)
    if H is None:
        return corners, centres
    m = cfg.corner_margin
    q = np.array([(-m, -m), (n - 1 + m, -m), (n - 1 + m, n - 1 + m), (-m, n - 1 + m)], np.float64)
    new_corners = cv2.perspectiveTransform(q.reshape(-1, 1, 2), H).reshape(4, 2)
    if np.abs(new_corners - corners).max() > cfg.snap_max_move * pitch:
        return corners, centres
    new = cv2.perspectiveTransform(idx.reshape(-1, 1, 2), H).reshape(-1, 2)
    new[hit] = blobs.centres[j[hit]]
    return new_corners, new.reshape(n, n, 2)


def _lines_supported(lat: Lattice, c0: int, r0: int, n: int, state, cfg: TrayConfig,
                     unsure: frozenset | set = frozenset()) -> bool:
    """True when every row and every column of the window (lattice cells c0..c0+n-1,
    r0..r0+n-1) that has a visible cell holds at least one lattice member (a
    detected cube top) that is not unsure (unsure: lattice cells whose detector peak
    is below weak_quality x the members' median, such as the polka dots of a table
    cloth that happen to lie on the lattice), so a window never grows over the
    tray's rim or the table."""
    for line in range(n):
        for cells in ([(c0 + i, r0 + line) for i in range(n)],
                      [(c0 + line, r0 + i) for i in range(n)]):
            visible = [k for k in cells if state(k)[1] < cfg.unknown_frac]
            if visible and not any(k in lat.members and k not in unsure for k in cells):
                return False
    return True


def _is_red(work: np.ndarray | None, lat: Lattice, cell: tuple[int, int],
            cfg: TrayConfig) -> bool:
    """True when the centre patch (+-0.25 pitch) of lattice cell (col, row) is mostly
    saturated red (a challenge cube): R > red_ratio x max(G, B) on most pixels."""
    if work is None:
        return False
    h, w = work.shape[:2]
    g = np.linspace(-0.25, 0.25, 5)
    pts = lat.project(np.array([(cell[0] + dx, cell[1] + dy) for dx in g for dy in g]))
    ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if not ok.any():
        return False
    p = pts[ok].astype(int)
    bgr = work[p[:, 1], p[:, 0]].astype(np.float64)
    red = (bgr[:, 2] > cfg.red_ratio * np.maximum(bgr[:, 0], bgr[:, 1])) & (bgr[:, 2] > 60)
    return bool(red.mean() > 0.5)


def _order_corners(corners: np.ndarray, centres: np.ndarray):
    """Reorder corners (4,2) and centres (N,N,2) [row,col] to start at the top-left,
    clockwise on screen (y down)."""
    area2 = 0.0
    for i in range(4):
        x1, y1 = corners[i]
        x2, y2 = corners[(i + 1) % 4]
        area2 += x1 * y2 - x2 * y1
    if area2 < 0:  # counter-clockwise on screen: mirror (swap rows and cols)
        corners = corners[[0, 3, 2, 1]]
        centres = centres.transpose(1, 0, 2)
    k = int(np.argmin(corners.sum(axis=1)))
    for _ in range(k):
        corners = np.roll(corners, -1, axis=0)
        centres = np.rot90(centres, 1)  # turn so corner 1 becomes r0c0
    return corners, np.ascontiguousarray(centres)


def find_tray(image_bgr: np.ndarray, size: int | None = None, *,
              config: TrayConfig = TrayConfig(), debug: bool = False) -> TrayResult:
    """Find the N x N grid of cube tops in a BGR uint8 (H, W, 3) photo.

    size: force N (4, 5 or 6) instead of inferring it. Raises NoBoardError when no
    complete board is seen.
    """
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or min(
            image_bgr.shape[:2]) < 16:
        raise NoBoardError("no board found: the image is too small or not a colour photo")
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}, got {size}")
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    work, scale = _working_copy(image_bgr, config.work_side)
    white = whiteness_map(work)
    t1 = time.perf_counter()
    timings["reduce"] = t1 - t0
    dbg: dict[str, np.ndarray] = {}
    if debug:
        dbg["0_work"] = work.copy()
        dbg["1_whiteness"] = cv2.cvtColor(white, cv2.COLOR_GRAY2BGR)
    reasons: list[str] = []
    best = None
    det_evidence = None
    for source in config.sources:
        t1 = time.perf_counter()
        if source == "detector":
            det = run_detector(work, white, config.detector)
            blobs, heat = det.blobs, det.heat
            tag = "d"
        elif source == "blobs":
            blobs, heat = find_blobs(work, config.blobs, keep_debug=debug), None
            tag = ""
        else:
            raise ValueError(f"unknown candidate source {source!r}")
        t2 = time.perf_counter()
        timings[source] = t2 - t1
        lattices = best_lattices(blobs, config.detector_lattice if heat is not None
                                 else config.lattice)
        t3 = time.perf_counter()
        timings[f"lattice_{source}"] = t3 - t2
        if debug:
            if heat is not None:
                dbg[f"2{tag}_heat"] = cv2.applyColorMap((255 * heat).astype(np.uint8),
                                                        cv2.COLORMAP_JET)
            for k, m in blobs.masks_debug.items():
                dbg[f"2_{k}"] = cv2.cvtColor(m, cv2.COLOR_GRAY2BGR)
            dbg[f"3{tag}_blobs"] = _draw_blobs(work, blobs)
            dbg[f"4{tag}_lattice"] = _draw_lattice(work, blobs, lattices[:3])
        if heat is not None:
            det_evidence = (blobs, lattices)
        for lat in lattices[:4]:
            res = _board_from_lattice(lat, blobs, white, size, config, heat, work)
            if isinstance(res, str):
                reasons.append(res)
                continue
            best = res
            break
        timings[f"grid_{source}"] = time.perf_counter() - t3
        if best is not None:
            break
    if best is None and config.zoom_retry and det_evidence is not None:
        sub = _zoom_retry(image_bgr, size, det_evidence, work.shape[:2], scale, config,
                          timings)
        if sub is not None:
            return _finish_retry(sub, work, scale, dbg, debug, timings, t0)
    last_resorts = []
    if config.stretch_retry:
        last_resorts.append(lambda: _stretch_retry(image_bgr, size, config, timings, False))
    if config.window_retry:
        last_resorts.append(lambda: _window_retry(image_bgr, size, config, timings))
    if config.stretch_retry and config.window_retry:
        last_resorts.append(lambda: _stretch_retry(image_bgr, size, config, timings, True))
    for retry in last_resorts if best is None else ():
        sub = retry()
        if sub is not None:
            return _finish_retry(sub, work, scale, dbg, debug, timings, t0)
    if best is None:
        why = reasons[0] if reasons else "no grid of cube tops was seen"
        if debug:
            _attach_debug_error(dbg, why)
        # built in a helper so that no frame of the traceback holds the error: a
        # frame <-> traceback cycle would keep this call's images alive until the
        # garbage collector runs (the retries raise and catch dozens of these)
        raise _no_board_error(why, dbg)
    n, corners_w, conf, centres_w = best
    if source == "detector" and config.snap_to_blobs:
        t4 = time.perf_counter()
        corners_w, centres_w = _snap(work, n, corners_w, centres_w, config)
        timings["snap"] = time.perf_counter() - t4
    corners = corners_w / scale
    centres = centres_w / scale
    corners, centres = _order_corners(corners, centres)
    if debug:
        from boggle_cv.vision.annotate import draw_grid
        dbg["5_grid"] = draw_grid(work, corners * scale, n, centres * scale)
    timings["total"] = time.perf_counter() - t0
    return TrayResult(n, corners, conf, centres, dbg, timings)


def _no_board_error(why: str, dbg: dict) -> NoBoardError:
    """The NoBoardError of a refusal, with the debug images attached (``.debug``)."""
    err = NoBoardError(f"no board found: {why}", "photograph the whole tray from above, in focus")
    err.debug = dbg
    return err


def _shifted(sub: TrayResult, x0: int, y0: int) -> TrayResult:
    """A result found in a crop whose top-left is (x0, y0) of the photo, in the
    photo's pixels (corners and centres moved; no debug images or timings)."""
    off = np.array([x0, y0], np.float64)
    return TrayResult(sub.size, sub.corners + off, sub.confidence, sub.cell_centres + off)


def _finish_retry(sub: TrayResult, work: np.ndarray, scale: float, dbg: dict,
                  debug: bool, timings: dict, t0: float) -> TrayResult:
    """The TrayResult of a retry (already in the photo's pixels), with this call's
    debug images and timings."""
    if debug:
        from boggle_cv.vision.annotate import draw_grid
        dbg["5_grid"] = draw_grid(work, sub.corners * scale, sub.size,
                                  sub.cell_centres * scale)
    timings["total"] = time.perf_counter() - t0
    return TrayResult(sub.size, sub.corners, sub.confidence, sub.cell_centres, dbg,
                      timings)


def _zoom_retry(image_bgr: np.ndarray, size: int | None, det_evidence, work_shape,
                scale: float, cfg: TrayConfig, timings: dict) -> TrayResult | None:
    """find_tray on a crop around the detector's evidence (see TrayConfig.zoom_retry);
    the result in the photo's pixels, or None."""
    box = _zoom_box(det_evidence[0], det_evidence[1], work_shape, cfg)
    if box is None:
        return None
    box, focus = box
    x0, y0, x1, y1 = (np.array(box, np.float64) / scale).round().astype(int)
    H0, W0 = image_bgr.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W0, x1), min(H0, y1)
    if min(x1 - x0, y1 - y0) < 16:
        return None
    t5 = time.perf_counter()
    try:
        sub = find_tray(image_bgr[y0:y1, x0:x1], size,
                        config=replace(cfg, zoom_retry=False, stretch_retry=False,
                                       sources=("detector",)))
    except NoBoardError:
        sub = None
    timings["zoom_retry"] = time.perf_counter() - t5
    if sub is None:
        return None
    sub = _shifted(sub, x0, y0)
    if cv2.pointPolygonTest(sub.corners.astype(np.float32).reshape(-1, 1, 2),
                            (float(focus[0] / scale), float(focus[1] / scale)), False) < 0:
        return None  # a grid beside the evidence (dots in the crop's margin?)
    return sub


def _stretch_matrix(angle_deg: float, factor: float, shape: tuple[int, int]):
    """(M (2, 3), (width, height)): the affine map that stretches an image of shape
    (H, W) by `factor` along the direction angle_deg (0 = x, 90 = y, on screen),
    translated so the whole stretched image has non-negative coordinates."""
    a = np.deg2rad(angle_deg)
    u = np.array([np.cos(a), np.sin(a)])
    A = np.eye(2) + (factor - 1) * np.outer(u, u)
    h, w = shape
    box = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64) @ A.T
    lo, hi = box.min(axis=0), box.max(axis=0)
    M = np.hstack([A, -lo[:, None]])
    size = tuple(int(np.ceil(v - 1e-6)) for v in hi - lo)
    return M, size


def _stretch_retry(image_bgr: np.ndarray, size: int | None, cfg: TrayConfig,
                   timings: dict, windows: bool) -> TrayResult | None:
    """find_tray on copies of the photo stretched along one direction (see
    TrayConfig.stretch_retry): a photo taken at a grazing angle squashes the cube
    tops along the line of sight, below what the detector learnt; stretching that
    direction back makes them squarish again. The first grid found wins; corners and
    centres are mapped back into the photo's pixels. A board partly outside the
    photo is not accepted here (a stretched lattice may skip every other row of
    cubes and hang off the frame). windows: search each stretched copy window by
    window (_window_retry) instead of whole. None when no stretch helps."""
    t5 = time.perf_counter()
    h, w = image_bgr.shape[:2]
    base = image_bgr
    pre = cfg.stretch_side / max(h, w)
    if pre < 1:
        base = cv2.resize(image_bgr, (max(1, round(w * pre)), max(1, round(h * pre))),
                          interpolation=cv2.INTER_AREA)
    else:
        pre = 1.0
    sub_cfg = replace(cfg, stretch_retry=False, window_retry=False)
    found = None
    for angle, factor in cfg.stretch_tries:
        M, out_size = _stretch_matrix(angle, factor, base.shape[:2])
        stretched = cv2.warpAffine(base, M, out_size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if windows:
            sub = _window_retry(stretched, size, cfg, {})
        else:
            try:
                sub = find_tray(stretched, size, config=sub_cfg)
            except NoBoardError:
                sub = None
        if sub is None:
            continue
        Minv = cv2.invertAffineTransform(M)

        def back(pts: np.ndarray) -> np.ndarray:
            flat = pts.reshape(-1, 2)
            return ((flat @ Minv[:, :2].T + Minv[:, 2]) / pre).reshape(pts.shape)

        corners, centres = _order_corners(back(sub.corners), back(sub.cell_centres))
        flat = centres.reshape(-1, 2)
        if (flat.min() < 0 or np.any(flat.max(axis=0) > (w - 1, h - 1))):
            continue  # a last resort is trusted only for a board wholly in the photo
        found = TrayResult(sub.size, corners, sub.confidence, centres)
        break
    timings["stretch_window_retry" if windows else "stretch_retry"] = time.perf_counter() - t5
    return found


def _windows(shape: tuple[int, int], frac: float) -> list[tuple[int, int, int, int]]:
    """(x0, y0, x1, y1) windows of frac x the photo's width and height (shape (H, W))
    on a 3 x 3 grid of positions, the centre first, then the edges' middles, then the
    corners."""
    h, w = shape
    ww, wh = max(1, round(w * frac)), max(1, round(h * frac))
    pos = [((w - ww) * i // 2, (h - wh) * j // 2) for j in range(3) for i in range(3)]
    order = (4, 1, 3, 5, 7, 0, 2, 6, 8)
    return [(pos[k][0], pos[k][1], pos[k][0] + ww, pos[k][1] + wh) for k in order]


def _window_retry(image_bgr: np.ndarray, size: int | None, cfg: TrayConfig,
                  timings: dict) -> TrayResult | None:
    """find_tray on windows of the photo (see TrayConfig.window_retry); the first
    board found well inside its window, in the photo's pixels, or None."""
    t5 = time.perf_counter()
    h, w = image_bgr.shape[:2]
    sub_cfg = replace(cfg, stretch_retry=False, window_retry=False, sources=("detector",))
    found = None
    for x0, y0, x1, y1 in _windows((h, w), cfg.window_frac):
        if min(x1 - x0, y1 - y0) < 16:
            break
        try:
            sub = find_tray(image_bgr[y0:y1, x0:x1], size, config=sub_cfg)
        except NoBoardError:
            continue
        c = sub.corners
        m = cfg.window_margin * grid_pitch(c, sub.size)
        lo, hi = c.min(axis=0), c.max(axis=0)
        if ((x0 > 0 and lo[0] < m) or (y0 > 0 and lo[1] < m)
                or (x1 < w and hi[0] > (x1 - x0) - m) or (y1 < h and hi[1] > (y1 - y0) - m)):
            continue  # the window may have cut rows of a bigger board off
        found = _shifted(sub, x0, y0)
        break
    timings["window_retry"] = time.perf_counter() - t5
    return found


def _zoom_box(blobs: Blobs, lattices: list[Lattice], shape: tuple[int, int],
              cfg: TrayConfig):
    """((x0, y0, x1, y1), focus (2,) (x, y)) in working px: a crop around the
    detector's evidence of a board and the evidence's centroid (the board found in
    the crop must cover it), or None. Evidence: the members of the biggest lattice
    (at least 3), else the peaks of at least zoom_peak x the highest; widened by zoom_margin median cube sides and to at least
    zoom_min_side cube sides; None when no peaks or the crop covers more than
    zoom_max_area of the image (shape (H, W))."""
    if not len(blobs):
        return None
    big = [lat for lat in lattices if len(lat.members) >= 3]
    if big:
        lat = max(big, key=lambda la: len(la.members))
        idx = np.array(list(lat.members.values()))
    else:
        idx = np.nonzero(blobs.quality >= cfg.zoom_peak * blobs.quality.max())[0]
    pts = blobs.centres[idx]
    side = float(np.median(blobs.sides[idx]))
    lo = pts.min(axis=0) - cfg.zoom_margin * side
    hi = pts.max(axis=0) + cfg.zoom_margin * side
    mid, half = (lo + hi) / 2, np.maximum((hi - lo) / 2, cfg.zoom_min_side * side / 2)
    lo, hi = mid - half, mid + half
    h, w = shape
    lo = np.maximum(lo, 0)
    hi = np.minimum(hi, (w, h))
    if np.any(hi - lo < 8) or (hi - lo).prod() > cfg.zoom_max_area * w * h:
        return None
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), pts.mean(axis=0)


def _board_from_lattice(lat: Lattice, blobs: Blobs, white: np.ndarray,
                        size: int | None, cfg: TrayConfig, heat: np.ndarray | None = None,
                        work: np.ndarray | None = None):
    """(N, corners (4,2), confidence, centres (N,N,2)) in working px, or a reason str.

    Every square N x N window of lattice cells near the members is scored: a window
    is refused when a visible cell of it looks empty, when too few of its visible
    cells hold a detected cube top, or when detected cube tops continue in the ring
    of cells around it. The best window (most cube tops; on a tie the smaller N) wins.
    """
    if lat.residual > cfg.max_residual:
        return f"the cube tops do not lie on a regular grid (fit error {lat.residual:.2f})"
    ref = float(np.median(blobs.whiteness[list(lat.members.values())]))
    cmin, cmax, rmin, rmax = lat.extent()
    sizes = (size,) if size else SIZES
    cache: dict[tuple[int, int], tuple[float, float]] = {}

    def state(k):
        if k not in cache:
            cache[k] = _cell_whiteness(white, lat, [k], heat)[0]
        return cache[k]

    heat_min = cfg.heat_cube
    if heat is not None:
        heat_min = max(cfg.heat_cube, cfg.heat_rel * float(
            np.median(blobs.quality[list(lat.members.values())])))
    best = None
    best_reason = None
    reason = (f"the cube tops form a {rmax - rmin + 1}x{cmax - cmin + 1} grid, "
              "not a full 4x4, 5x5 or 6x6 board")
    weak: set[tuple[int, int]] = set()
    unsure: set[tuple[int, int]] = set()
    if heat is not None:
        # unsure: detector peaks that are not confident; they never hold up a row or
        # column of a window. weak: unsure and not white either (a polka dot, a
        # tray's corner): they may lie outside the window
        qref = float(np.median(blobs.quality[list(lat.members.values())]))
        unsure = {k for k, j in lat.members.items() if blobs.quality[j] < cfg.weak_quality * qref}
        weak = {k for k in unsure if blobs.whiteness[lat.members[k]] < cfg.cube_like * ref}
    for n in sizes:
        for c0 in range(min(cmin, cmax - n + 1), max(cmin, cmax - n + 1) + 1):
            for r0 in range(min(rmin, rmax - n + 1), max(rmin, rmax - n + 1) + 1):
                cells = [(c0 + c, r0 + r) for r in range(n) for c in range(n)]
                inside = sum(1 for k in cells if k in lat.members)
                window = set(cells)
                strong_out = sum(1 for k in lat.members if k not in window and k not in weak)
                if strong_out > 2:
                    continue  # members left outside the window
                if heat is not None and not _lines_supported(lat, c0, r0, n, state, cfg, unsure):
                    continue  # a row or column of the window without any cube top
                n_vis = n_cube = 0
                empty = doubtful = 0
                for k in cells:
                    v, fo, dark, hv = state(k)
                    if fo >= cfg.unknown_frac:
                        continue
                    n_vis += 1
                    if k in lat.members:
                        continue
                    if heat is not None and hv >= heat_min:
                        n_cube += 1
                    elif np.isnan(v):
                        empty += 1
                    elif v >= cfg.cube_like * ref and dark >= cfg.min_ink:
                        n_cube += 1
                    elif heat is not None and (v >= cfg.doubtful_like * ref
                                               or _is_red(work, lat, k, cfg)):
                        doubtful += 1  # a blank cube or a red challenge cube?
                    else:
                        empty += 1
                if doubtful > cfg.max_doubtful or (
                        doubtful and inside < cfg.doubtful_fill * max(1, n_vis)):
                    empty += doubtful
                if empty:
                    if strong_out <= 2 and (best_reason is None or empty < best_reason[0]):
                        best_reason = (empty, f"{empty} of the {n}x{n} cells look empty "
                                       "(tray not full, or the cubes are too blurred)")
                    continue
                if n_vis < cfg.min_visible * n * n or inside < cfg.min_fill * n_vis:
                    if best_reason is None:
                        reason = f"only {inside} of {n * n} cube tops were recognised"
                    continue
                score = inside + 0.5 * n_cube
                key = (score, -n)
                if best is None or key > best[0]:
                    best = (key, n, c0, r0, inside, n_vis, doubtful)
    if best is None:
        return best_reason[1] if best_reason else reason
    _, n, c0, r0, inside, n_vis, doubtful = best
    fill = inside / max(1, n_vis)
    m = cfg.corner_margin
    a0, a1 = c0 - m, c0 + n - 1 + m
    b0, b1 = r0 - m, r0 + n - 1 + m
    corners = lat.project(np.array([(a0, b0), (a1, b0), (a1, b1), (a0, b1)], np.float64))
    cells = [(c0 + c, r0 + r) for r in range(n) for c in range(n)]
    centres = lat.project(np.array(cells, np.float64))
    for i, k in enumerate(cells):
        if k in lat.members:
            centres[i] = blobs.centres[lat.members[k]]
    centres = centres.reshape(n, n, 2)
    conf = float(np.clip(fill * (1 - lat.residual / cfg.max_residual * 0.5), 0, 1))
    conf *= cfg.doubtful_factor ** doubtful
    if conf < (cfg.min_confidence if heat is None else cfg.min_confidence_detector):
        return f"the grid is too uncertain (confidence {conf:.2f})"
    return n, corners, conf, centres


def _draw_blobs(work: np.ndarray, blobs: Blobs) -> np.ndarray:
    out = work.copy()
    for bx, q in zip(blobs.boxes, blobs.quality):
        cv2.polylines(out, [bx.astype(np.int32)], True, (0, int(255 * q), 255 - int(255 * q)), 1)
    return out


def _draw_lattice(work: np.ndarray, blobs: Blobs, lattices: list[Lattice]) -> np.ndarray:
    out = work.copy()
    colours = [(0, 255, 0), (255, 128, 0), (0, 0, 255)]
    for lat, col in zip(lattices, colours):
        for (c, r), j in lat.members.items():
            x, y = blobs.centres[j]
            cv2.circle(out, (int(x), int(y)), 4, col, -1)
            cv2.putText(out, f"{c},{r}", (int(x) + 5, int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.35, col, 1)
    return out


def _attach_debug_error(dbg: dict, why: str) -> None:
    keys = [k for k in dbg if k.startswith("4")]
    if keys:
        img = dbg[keys[-1]].copy()
        cv2.putText(img, why[:80], (5, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1)
        dbg["5_refused"] = img
