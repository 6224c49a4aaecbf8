"""Where each board cell lies in the photo, for the overlay the page draws.

All points are (x, y) floats in the photo's own pixels (EXIF-turned, whatever size
it was decoded at, before any preview scaling), as the scan's. Board cells are (row, col) in the reported board's
orientation; ``CellReading.photo_cell`` maps them to the photo's grid (corner order
of the tray finder), whose outlines come from the tray corners' homography.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from ..vision.cells import grid_homography, grid_pitch
from ..vision.stages import ImageU8

if TYPE_CHECKING:  # annotations only: the web geometry does not load the pipeline
    from ..vision.pipeline import ScanResult


@dataclass(frozen=True)
class ViewConfig:
    """margin: space kept around the tray in the cropped view, in cell pitches."""

    margin: float = 0.35


def board_geometry(scan: ScanResult, config: ViewConfig = ViewConfig()) -> dict[str, Any]:
    """JSON-ready overlay geometry of a ScanResult.

    Returns {"centres": [N][N] (x, y), "quads": [N][N] four (x, y) corners of the
    cell (clockwise from its top-left in the photo grid), "outline": the tray's four
    corners, "pitch": mean cell side in pixels, "view": [x, y, w, h] a box around the
    tray (clipped to the photo) that the page zooms to}.
    """
    tray = scan.tray
    n = int(tray.size)
    corners = np.asarray(tray.corners, np.float64)
    photo_centres = np.asarray(tray.cell_centres, np.float64)
    hi = np.linalg.inv(grid_homography(corners, n, 1))
    grid = np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1)), -1).astype(np.float64)  # [r, c] -> (c, r)
    nodes = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), hi).reshape(n + 1, n + 1, 2)
    centres: list[list[list[float] | None]] = [[None] * n for _ in range(n)]
    quads: list[list[list[list[float]] | None]] = [[None] * n for _ in range(n)]
    for row in scan.reading.cells:
        for c in row:
            pr, pc = c.photo_cell
            centres[c.row][c.col] = _pt(photo_centres[pr, pc])
            quads[c.row][c.col] = [_pt(nodes[pr, pc]), _pt(nodes[pr, pc + 1]),
                                   _pt(nodes[pr + 1, pc + 1]), _pt(nodes[pr + 1, pc])]
    pitch = grid_pitch(corners, n)
    h, w = scan.image_shape
    lo = np.maximum(corners.min(0) - config.margin * pitch, 0)
    hi_xy = np.minimum(corners.max(0) + config.margin * pitch, [w, h])
    if np.any(hi_xy - lo < 1):  # tray entirely outside the frame: show the whole photo
        lo, hi_xy = np.zeros(2), np.array([w, h], np.float64)
    return {
        "centres": centres,
        "quads": quads,
        "outline": [_pt(p) for p in corners],
        "pitch": round(pitch, 1),
        "view": [round(float(lo[0]), 1), round(float(lo[1]), 1),
                 round(float(hi_xy[0] - lo[0]), 1), round(float(hi_xy[1] - lo[1]), 1)],
    }


def _pt(p: Sequence[float] | npt.NDArray[np.float64]) -> list[float]:
    return [round(float(p[0]), 1), round(float(p[1]), 1)]


def preview_jpeg(image_bgr: ImageU8, max_side: int, quality: int) -> bytes:
    """The photo scaled so its longer side is at most `max_side` px, as JPEG bytes."""
    h, w = image_bgr.shape[:2]
    scale = min(1.0, max_side / float(max(h, w)))
    if scale < 1.0:
        image_bgr = np.asarray(cv2.resize(image_bgr, (max(1, round(w * scale)), max(1, round(h * scale))),
                                          interpolation=cv2.INTER_AREA), np.uint8)
    ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("preview: JPEG encoding failed")
    return buf.tobytes()
