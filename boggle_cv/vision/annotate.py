"""Draw the found tray on a photo: outline, cell grid, cube-top centres.

All functions take and return BGR uint8 (H, W, 3) images (a drawn copy; the input
is not modified). Points are (x, y) pixels of that image.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .stages import FloatArray, ImageU8, TrayResult


@dataclass(frozen=True)
class AnnotateStyle:
    """Colours (BGR) and line widths; widths scale with the image (px per 1000 px)."""

    outline: tuple[int, int, int] = (0, 255, 0)
    grid: tuple[int, int, int] = (0, 200, 255)
    centre: tuple[int, int, int] = (255, 0, 255)
    first_corner: tuple[int, int, int] = (0, 0, 255)
    width_per_1000px: float = 3.0


def _grid_lines(corners: FloatArray, n: int, steps: int = 24) -> list[FloatArray]:
    """Polylines (list of (steps+1, 2) float arrays) of the n+1 lines each way."""
    src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    H = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    t = np.linspace(0, n, steps + 1)
    lines: list[FloatArray] = []
    for k in range(n + 1):
        for pts in (np.stack([np.full_like(t, k), t], 1), np.stack([t, np.full_like(t, k)], 1)):
            lines.append(np.asarray(cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64),
                                                             H.astype(np.float64)), np.float64).reshape(-1, 2))
    return lines


def draw_grid(image: ImageU8, corners: FloatArray, n: int,
              centres: FloatArray | None = None,
              style: AnnotateStyle = AnnotateStyle()) -> ImageU8:
    """Copy of image with the n x n grid through corners (4, 2) and optional centres
    (n, n, 2) drawn; the first corner (r0c0) is marked with a red dot."""
    out: ImageU8 = image.copy()
    w = max(1, int(round(style.width_per_1000px * max(image.shape[:2]) / 1000)))
    for line in _grid_lines(np.asarray(corners, np.float64), n):
        cv2.polylines(out, [np.round(line).astype(np.int32)], False, style.grid, w,
                      cv2.LINE_AA)
    cv2.polylines(out, [np.round(corners).astype(np.int32)], True, style.outline, 2 * w,
                  cv2.LINE_AA)
    if centres is not None:
        for p in np.asarray(centres).reshape(-1, 2):
            cv2.circle(out, (int(round(p[0])), int(round(p[1]))), 2 * w, style.centre, -1)
    x, y = np.asarray(corners)[0]
    cv2.circle(out, (int(round(x)), int(round(y))), 4 * w, style.first_corner, -1)
    return out


def draw_tray(image: ImageU8, tray: TrayResult, style: AnnotateStyle = AnnotateStyle()) -> ImageU8:
    """Copy of the photo with a TrayResult's outline, cells and cube centres drawn."""
    return draw_grid(image, tray.corners, tray.size, tray.cell_centres, style)
