"""Candidate cube tops: bright, compact, roughly square blobs at many thresholds.

Works on the reduced working image. Cube tops are white or cream whatever the tray
colour, so the cue is "whiteness" = the smallest of the B, G, R channels (low for any
saturated or dark colour, high for white/cream/grey). The map is thresholded at
several levels (global and local-mean); every external contour of a plausible size
and shape becomes a candidate. Letters are holes inside the blob and do not matter.

Coordinates are (x, y) in working-image pixels.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np
import numpy.typing as npt

from ..quantiles import percentile
from ..stages import ImageU8

#: A single-channel uint8 image (H, W).
GreyU8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class BlobConfig:
    """Thresholds for candidate cube tops (working-image pixels unless said).

    levels: global thresholds on whiteness (0..255 grey levels).
    local_windows: box sizes (px) of the local-mean thresholds; local_offsets: how far
        above the local mean (grey levels) a pixel must be.
    lum_windows: local-mean thresholds also run on luminance (grey) with these
        windows, for cream or wooden tops that are not white.
    open_px: opening kernel size (px) that cuts thin bridges between touching cubes.
    min_side_px / max_side_frac: blob size limits (sqrt(area) in px; fraction of the
        working image's short side).
    min_solidity: area / convex-hull area.
    min_rectangularity: hull area / min-area-rectangle area (a disc is 0.785).
    max_aspect: long / short side of the min-area rectangle.
    """

    levels: tuple[int, ...] = (70, 95, 120, 140, 160, 180, 200, 220, 240)
    local_windows: tuple[int, ...] = (31, 61, 121)
    local_offsets: tuple[int, ...] = (5, 20)
    lum_windows: tuple[int, ...] = (61,)
    open_px: int = 3
    min_side_px: float = 7.0
    max_side_frac: float = 0.4
    min_solidity: float = 0.82
    min_rectangularity: float = 0.68
    max_aspect: float = 2.2


@dataclass
class Blobs:
    """Candidate cube tops in the working image.

    centres: float (K, 2) (x, y); sides: float (K,) sqrt(area) px; quality: float (K,)
    in 0..1 (shape score); boxes: float (K, 4, 2) min-area-rectangle corners (x, y);
    whiteness: float (K,) upper-quartile whiteness in the blob's bounding box (0..255).
    """

    centres: np.ndarray
    sides: np.ndarray
    quality: np.ndarray
    boxes: np.ndarray
    whiteness: np.ndarray
    masks_debug: dict[str, GreyU8] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.centres.shape[0])


def whiteness_map(work_bgr: ImageU8) -> GreyU8:
    """(H, W) uint8: min over B, G, R, lightly blurred. Input (H, W, 3) uint8 BGR.
    (OpenCV's per-channel min: numpy's min over the last axis gives the same bytes
    5-20 times slower.)"""
    b, g, r = cv2.split(work_bgr)
    out: GreyU8 = np.asarray(cv2.GaussianBlur(cv2.min(cv2.min(b, g), r), (3, 3), 0), np.uint8)
    return out


def _binaries(white: GreyU8, cfg: BlobConfig,
              lum: GreyU8 | None = None) -> Iterator[tuple[str, GreyU8]]:
    """Yield (name, binary mask uint8 0/255) for every threshold."""
    for t in cfg.levels:
        yield f"g{t}", (white > t).astype(np.uint8) * 255
    f = white.astype(np.float32)
    for win in cfg.local_windows:
        if lum is not None and win in cfg.lum_windows:
            fl = lum.astype(np.float32)
            mean_l = cv2.blur(fl, (win, win))
            yield f"y{win}", ((fl > mean_l + cfg.local_offsets[-1])).astype(np.uint8) * 255
        mean = cv2.blur(f, (win, win))
        for off in cfg.local_offsets:
            m = (f > mean + off) & (white > cfg.levels[0])
            yield f"l{win}_{off}", m.astype(np.uint8) * 255


def find_blobs(work_bgr: np.ndarray, cfg: BlobConfig = BlobConfig(),
               keep_debug: bool = False, white: GreyU8 | None = None) -> Blobs:
    """Candidate cube tops in a working image (H, W, 3) uint8 BGR; `white`: its
    whiteness_map when the caller has it already."""
    white = whiteness_map(work_bgr) if white is None else white
    h, w = white.shape
    max_side = cfg.max_side_frac * min(h, w)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cfg.open_px, cfg.open_px))
    cents, sides, quals, boxes, whites = [], [], [], [], []
    debug: dict[str, GreyU8] = {}
    lum = np.asarray(cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY), np.uint8) if cfg.lum_windows else None
    for name, binary in _binaries(white, cfg, lum):
        mask = np.asarray(cv2.morphologyEx(binary, cv2.MORPH_OPEN, kernel), np.uint8)
        if keep_debug and name in ("g160", "l61_5"):
            debug[f"mask_{name}"] = mask
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            area = cv2.contourArea(c)
            side = np.sqrt(area)
            if side < cfg.min_side_px or side > max_side:
                continue
            hull = cv2.convexHull(c)
            hull_area = cv2.contourArea(hull)
            if hull_area <= 0:
                continue
            solidity = area / hull_area
            if solidity < cfg.min_solidity:
                continue
            rect = cv2.minAreaRect(hull)
            rw, rh = rect[1]
            if min(rw, rh) <= 0:
                continue
            aspect = max(rw, rh) / min(rw, rh)
            rectangularity = hull_area / (rw * rh)
            if aspect > cfg.max_aspect or rectangularity < cfg.min_rectangularity:
                continue
            m = cv2.moments(hull)
            cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
            cents.append((cx, cy))
            sides.append(np.sqrt(hull_area))
            quals.append(solidity * min(1.0, rectangularity / 0.9) / aspect ** 0.5)
            boxes.append(cv2.boxPoints(rect))
            whites.append(cv2.boundingRect(c))
    if not cents:
        z = np.zeros((0,), np.float64)
        return Blobs(np.zeros((0, 2)), z, z, np.zeros((0, 4, 2)), z, debug)
    blobs = _dedupe(Blobs(np.array(cents, np.float64), np.array(sides, np.float64),
                          np.array(quals, np.float64), np.array(boxes, np.float64),
                          np.array(whites, np.float64), debug))
    # whiteness of the kept blobs: upper quartile inside the bounding rectangle
    blobs.whiteness = np.array([
        float(percentile(white[y0:y0 + bh, x0:x0 + bw], 75))
        for x0, y0, bw, bh in blobs.whiteness.astype(int)], np.float64).reshape(-1)
    return blobs


def _dedupe(b: Blobs, radius_frac: float = 0.25, size_tol: float = 0.25) -> Blobs:
    """Merge near-identical candidates found at several thresholds (keep best quality)."""
    order = np.argsort(-b.quality)
    n = len(order)
    d = np.hypot(b.centres[:, None, 0] - b.centres[None, :, 0],
                 b.centres[:, None, 1] - b.centres[None, :, 1])
    same = (d < radius_frac * np.minimum(b.sides[:, None], b.sides[None, :])) & (
        np.abs(np.log(b.sides[:, None] / b.sides[None, :])) < size_tol)
    removed = np.zeros(n, bool)
    keep: list[int] = []
    for i in order:
        if removed[i]:
            continue
        keep.append(int(i))
        removed |= same[i]
    idx = np.array(keep, int)
    return Blobs(b.centres[idx], b.sides[idx], b.quality[idx], b.boxes[idx],
                 b.whiteness[idx], b.masks_debug)
