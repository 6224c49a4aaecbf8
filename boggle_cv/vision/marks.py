"""Red marks per cell: a bonus letter's red ring and the red challenge cube.

Input: crops uint8 BGR (N, N, S, S, 3) from ``cells.cut_cells`` (one pitch per crop,
centred on the cube). Colour test in HSV (OpenCV scale: H 0..180): "red" is a hue
within ``hue_tol`` of 0/180 with enough saturation and value, so that orange trays
and wood are not red. Measured on two zones around the crop centre:
  * the ring annulus (``ring_r0``..``ring_r1`` pitch) around the letter: a challenge
    cube (red, light letters) is red over most of it; a bonus ring (a red circle
    around the letter on a light cube top) over a part of it;
  * the core disc (radius ``core_r`` pitch): must stay mostly not red for a bonus
    ring, so that a red-printed letter is not taken for a ring.
A ring must also be round: the red pixels around the letter must lie on one circle
(a least-squares circle fitted to them; ``circle`` is the share within ``circle_tol``
pitch of it). Red lines drawn over a photo (another app's debug contours around the
letters) cover the annulus as well but lie on no circle (measured 0.30-0.43 on
real-photos' bogglecv-5x5-blue-overlay; synthetic rings 0.68-1.0, most above 0.93).
Each mark found carries its strength (the circle share for a ring, the red share of
the cube top for a challenge cube) and whether it is sure; a weak one is doubtful.
Thresholds were set on synthetic photos from ``boggle-cv synth`` and that real photo.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True)
class MarkConfig:
    """Radii as fractions of the cell pitch; fractions of zone pixels; HSV in OpenCV units."""

    hue_tol: int = 7
    min_sat: int = 110
    min_val: int = 60
    core_r: float = 0.22
    ring_r0: float = 0.24
    ring_r1: float = 0.44
    challenge_ring_frac: float = 0.5   # a red cube is red all round the letter
    ring_frac: float = 0.08            # a bonus ring covers part of the annulus ...
    ring_core_max: float = 0.35        # ... and leaves the core mostly not red
    sectors: int = 12                  # a ring goes all round: angular sectors of the annulus ...
    sector_min_frac: float = 0.03      # ... each counts when this share of it is red ...
    ring_min_sectors: int = 9          # ... and a ring needs this many (tray or neighbours: one side)
    circle_tol: float = 0.04           # a ring's red pixels lie within this of one circle ...
    ring_circle_min: float = 0.6       # ... at least this share of them, else no ring (lines, scribbles) ...
    ring_sure: float = 0.85            # ... and this share for a sure ring (else doubtful)
    challenge_sure: float = 0.6        # a sure challenge cube: this share of its top (r <= ring_r1) red


@dataclass(frozen=True)
class MarkEvidence:
    """A red mark found on the board: kind "bonus" (a ring) or "challenge" (the red
    cube), its board cell (row, col), strength 0..1 (a ring: the share of its red
    pixels on one circle; a red cube: the red share of its top) and whether it is
    sure (strong enough, the cube top wholly in the photo); a weak one is doubtful."""

    kind: str
    cell: tuple[int, int]
    strength: float
    sure: bool

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "strength": round(self.strength, 3), "sure": self.sure}


@dataclass
class CellMarks:
    """Red marks found in one cell, with the measured red fractions (0..1)."""

    bonus: bool
    challenge: bool
    core_red: float
    ring_red: float
    strength: float = 1.0   # a ring: share of its red pixels on one circle; a red cube: red share of its top
    sure: bool = True       # strong enough to count without asking

    def to_dict(self) -> dict[str, Any]:
        return {"bonus": self.bonus, "challenge": self.challenge,
                "core_red": round(self.core_red, 3), "ring_red": round(self.ring_red, 3),
                "strength": round(self.strength, 3), "sure": self.sure}


def red_mask(crop_bgr: np.ndarray, cfg: MarkConfig = MarkConfig()) -> np.ndarray:
    """bool (S, S): pixels that are saturated red."""
    hsv = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0].astype(int), hsv[..., 1], hsv[..., 2]
    hue_ok = (h <= cfg.hue_tol) | (h >= 180 - cfg.hue_tol)
    return hue_ok & (s >= cfg.min_sat) & (v >= cfg.min_val)


def find_marks(crops: np.ndarray, cfg: MarkConfig = MarkConfig()) -> list[list[CellMarks]]:
    """Per cell [row][col]: bonus ring and challenge cube flags for crops (N, N, S, S, 3)."""
    a = np.asarray(crops)
    if a.ndim != 5 or a.shape[-1] != 3:
        raise ValueError("find_marks: crops must be (N, N, S, S, 3) uint8 BGR")
    n, s = a.shape[0], a.shape[2]
    yy, xx = np.mgrid[0:s, 0:s]
    r = np.hypot(xx - (s - 1) / 2, yy - (s - 1) / 2) / s
    core = r <= cfg.core_r
    ring = (r >= cfg.ring_r0) & (r <= cfg.ring_r1)
    ang = np.arctan2(yy - (s - 1) / 2, xx - (s - 1) / 2)
    sector = np.minimum(((ang + np.pi) / (2 * np.pi) * cfg.sectors).astype(int), cfg.sectors - 1)
    sector_masks = [ring & (sector == k) for k in range(cfg.sectors)]
    top = r <= cfg.ring_r1
    around = (r >= 0.15) & (r <= 0.5)
    out = []
    for i in range(n):
        row = []
        for j in range(a.shape[1]):
            m = red_mask(np.ascontiguousarray(a[i, j]), cfg)
            cr, rr = float(m[core].mean()), float(m[ring].mean())
            challenge = rr >= cfg.challenge_ring_frac
            covered = sum(float(m[sm].mean()) >= cfg.sector_min_frac for sm in sector_masks)
            bonus = (not challenge) and rr >= cfg.ring_frac and cr <= cfg.ring_core_max \
                and covered >= cfg.ring_min_sectors
            strength, sure = 0.0, False
            if challenge:
                strength = float(m[top].mean())
                sure = strength >= cfg.challenge_sure
            elif bonus:
                strength = circle_share(m & around, cfg.circle_tol * s)
                bonus = strength >= cfg.ring_circle_min
                sure = strength >= cfg.ring_sure
            row.append(CellMarks(bonus, challenge, cr, rr, strength, sure))
        out.append(row)
    return out


def circle_share(mask: np.ndarray, tol_px: float) -> float:
    """Share of the mask's pixels within tol_px of the circle fitted to them (least
    squares, algebraic fit), 0 for fewer than 10 pixels or a circle that does not
    lie around the crop's centre (radius 0.2-0.5 of the side, centre within 0.15)."""
    ys, xs = np.nonzero(mask)
    s = mask.shape[0]
    if len(xs) < 10:
        return 0.0
    x, y = xs.astype(np.float64), ys.astype(np.float64)
    a = np.c_[2 * x, 2 * y, np.ones(len(x))]
    (cx, cy, c), *_ = np.linalg.lstsq(a, x ** 2 + y ** 2, rcond=None)
    radius = float(np.sqrt(max(c + cx ** 2 + cy ** 2, 0.0)))
    if not (0.2 * s <= radius <= 0.5 * s) or np.hypot(cx - (s - 1) / 2, cy - (s - 1) / 2) > 0.15 * s:
        return 0.0
    return float(np.mean(np.abs(np.hypot(x - cx, y - cy) - radius) <= tol_px))
