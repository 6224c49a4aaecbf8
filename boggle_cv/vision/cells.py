"""Cut the tray into one square crop per cube.

Conventions (see the team brief):
  * images are numpy uint8 arrays (H, W, 3) in BGR order;
  * points are (x, y) float pixels of the original photo;
  * ``corners`` is a float array (4, 2): the OUTER corners of the grid of cube tops,
    in the order row0-col0, row0-col(N-1), row(N-1)-col(N-1), row(N-1)-col0. Corners
    may lie outside the frame (cut-off cubes); pixels outside are filled by
    replicating the border.
  * cells are indexed (row, col) in the order the corners define.

``rectify`` maps the grid onto a square top-down view; ``cut_cells`` returns, per
cell, the square of one cell pitch centred on that cell (optionally on refined
per-cell centres given by the tray finder), resampled to ``cell_px`` pixels.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import UsageError
from .quantiles import median
from .stages import FloatArray, ImageU8


@dataclass(frozen=True)
class CellConfig:
    """Resampling settings.

    max_src_px_per_out_px: when the photo has more than this many source pixels per
        output pixel (e.g. a 12 MP photo cut into 96 px cells), the board region is
        first shrunk with area averaging so the perspective warp does not alias.
    border_mode: how pixels outside the photo are filled (cv2.BORDER_*).
    """

    max_src_px_per_out_px: float = 1.5
    border_mode: int = cv2.BORDER_REPLICATE


def _check(image_bgr: np.ndarray, corners: np.ndarray, size: int, cell_px: int) -> np.ndarray:
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim != 3 or image_bgr.shape[2] != 3 \
            or image_bgr.dtype != np.uint8:
        raise UsageError("cells: the image must be a uint8 BGR array (H, W, 3)")
    c = np.asarray(corners, dtype=np.float64)
    if c.shape != (4, 2) or not np.all(np.isfinite(c)):
        raise UsageError("cells: corners must be a finite (4, 2) array of (x, y) points")
    if not isinstance(size, (int, np.integer)) or not 2 <= int(size) <= 8:
        raise UsageError(f"cells: board size must be an integer from 2 to 8, got {size!r}")
    if not isinstance(cell_px, (int, np.integer)) or not 8 <= int(cell_px) <= 1024:
        raise UsageError(f"cells: cell_px must be an integer from 8 to 1024, got {cell_px!r}")
    return c


def grid_homography(corners: np.ndarray, size: int, cell_px: int) -> np.ndarray:
    """3x3 float64 homography from photo (x, y) to the rectified view.

    In the rectified view, the grid occupies [0, size*cell_px] on both axes and the
    centre of cell (row r, col c) lies at ((c + 0.5) * cell_px, (r + 0.5) * cell_px).
    """
    side = float(size * cell_px)
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64)
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst.astype(np.float32)).astype(np.float64)


def _shrink(image_bgr: ImageU8, corners: FloatArray, size: int, cell_px: int,
            cfg: CellConfig, extra: FloatArray | None = None
            ) -> tuple[ImageU8, FloatArray, FloatArray | None]:
    """Crop the board region and area-shrink it if the photo is much finer than the output.

    Returns (image, corners, extra points) in the new image's pixel frame.
    """
    src_per_out = max(quad_sides(corners)) / float(size * cell_px)
    h, w = image_bgr.shape[:2]
    # Board bounding box plus one (longest) pitch of margin, clipped to the frame.
    pitch = grid_pitch_max(corners, size)
    x0 = int(max(0, np.floor(corners[:, 0].min() - pitch)))
    y0 = int(max(0, np.floor(corners[:, 1].min() - pitch)))
    x1 = int(min(w, np.ceil(corners[:, 0].max() + pitch)))
    y1 = int(min(h, np.ceil(corners[:, 1].max() + pitch)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return image_bgr, corners, extra
    offset = np.array([x0, y0], dtype=np.float64)
    img = image_bgr[y0:y1, x0:x1]
    c = corners - offset
    e = None if extra is None else extra - offset
    if src_per_out > cfg.max_src_px_per_out_px:
        f = cfg.max_src_px_per_out_px / src_per_out
        nw, nh = max(2, int(round(img.shape[1] * f))), max(2, int(round(img.shape[0] * f)))
        fx, fy = nw / img.shape[1], nh / img.shape[0]
        img = np.asarray(cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA), np.uint8)
        scale = np.array([fx, fy])
        # pixel centres: x' + 0.5 = (x + 0.5) * f
        c = (c + 0.5) * scale - 0.5
        e = None if e is None else (e + 0.5) * scale - 0.5
    return img, c, e


def rectify(image_bgr: np.ndarray, corners: np.ndarray, size: int, cell_px: int = 96,
            config: CellConfig | None = None) -> np.ndarray:
    """Top-down view of the grid: uint8 BGR (size*cell_px, size*cell_px, 3).

    Row r, col c of the board is the block [r*cell_px:(r+1)*cell_px, c*cell_px:(c+1)*cell_px].
    """
    cfg = config or CellConfig()
    c = _check(image_bgr, corners, size, cell_px)
    img, c2, _ = _shrink(image_bgr, c, int(size), int(cell_px), cfg)
    h = grid_homography(c2, int(size), int(cell_px))
    side = int(size) * int(cell_px)
    return cv2.warpPerspective(img, h, (side, side), flags=cv2.INTER_LINEAR, borderMode=cfg.border_mode)


# The cell pitch (px between neighbouring cube centres), in one place. Three measures,
# each for its own use (they differ on a board seen obliquely, and each caller's
# outputs depend on its own):
#   grid_pitch      mean side of the corners' quadrilateral / N: the typical pitch
#                   (margins, line widths, the window retry's margin, corner jitter);
#   grid_pitch_max  longest side / N: the largest pitch anywhere on the board, for
#                   bounds that must hold everywhere (cells._shrink's crop margin);
#   centres_pitch   median distance between neighbouring cube centres (N, N, 2): the
#                   pitch of a grid known by its centres, not its corners (the tray
#                   finder's snapping).
# Two more are not about a board's grid and stay where they are: a lattice's pitch
# (tray.lattice: median step of its homography over the members) and the training
# data's per-cube local pitch (train.detector_data._grid_sides).

def quad_sides(corners: FloatArray) -> list[float]:
    """The four side lengths (px) of a quadrilateral (4, 2) (x, y): 0-1, 1-2, 2-3, 3-0."""
    c = np.asarray(corners, np.float64)
    return [float(np.linalg.norm(c[i] - c[(i + 1) % 4])) for i in range(4)]


def grid_pitch(corners: FloatArray, size: int) -> float:
    """Mean cell pitch (px) of an N x N grid: the mean side of its corners' quadrilateral
    (4, 2) divided by N."""
    return float(np.mean(quad_sides(corners)) / size)


def grid_pitch_max(corners: FloatArray, size: int) -> float:
    """Largest cell pitch (px) of an N x N grid: the longest side of its corners'
    quadrilateral (4, 2) divided by N (a bound that holds over the whole board)."""
    return max(quad_sides(corners)) / size


def centres_pitch(centres: FloatArray) -> float:
    """Median distance (px) between row and column neighbours of a grid of cube
    centres float (N, N, 2) (x, y), [row, col]."""
    steps = np.r_[np.hypot(*np.diff(centres, axis=0).reshape(-1, 2).T),
                  np.hypot(*np.diff(centres, axis=1).reshape(-1, 2).T)]
    return float(median(steps))


def order_corners(corners: FloatArray, centres: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Reorder a grid's corners (4, 2) and centres (N, N, 2) [row, col] to start at the
    corner nearest the top-left, clockwise on screen (y down); a counter-clockwise
    grid is mirrored (rows and columns swapped)."""
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


def cell_centres(corners: np.ndarray, size: int) -> np.ndarray:
    """Photo (x, y) of every cell centre implied by the corners: float64 (N, N, 2), [row, col]."""
    c = np.asarray(corners, dtype=np.float64)
    h = grid_homography(c, size, 1)
    hi = np.linalg.inv(h)
    rc = (np.arange(size) + 0.5)
    xs, ys = np.meshgrid(rc, rc)  # xs[r, c] = c + 0.5
    pts = np.stack([xs, ys], -1).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, hi).reshape(size, size, 2)


def cut_cells(image_bgr: np.ndarray, corners: np.ndarray, size: int, cell_px: int = 96,
              centres: np.ndarray | None = None, pitch_scale: float = 1.0,
              config: CellConfig | None = None) -> np.ndarray:
    """One square crop per cell: uint8 BGR (N, N, cell_px, cell_px, 3), indexed [row, col].

    Each crop covers ``pitch_scale`` cell pitches (1.0 = the contract: one pitch)
    centred on the cell, in the rectified (top-down) frame defined by ``corners``.
    ``centres``: optional refined cell centres in photo (x, y) pixels, float (N, N, 2)
    [row, col] (e.g. from the tray finder); each crop is then centred on its refined
    centre instead of the grid position. Cells partly outside the photo are filled by
    border replication.
    """
    cfg = config or CellConfig()
    c = _check(image_bgr, corners, size, cell_px)
    n, s = int(size), int(cell_px)
    if not 0.25 <= float(pitch_scale) <= 3.0:
        raise UsageError(f"cells: pitch_scale must be within 0.25..3, got {pitch_scale!r}")
    extra = None
    if centres is not None:
        extra = np.asarray(centres, dtype=np.float64)
        if extra.shape != (n, n, 2) or not np.all(np.isfinite(extra)):
            raise UsageError(f"cells: centres must be a finite ({n}, {n}, 2) array of (x, y)")
        extra = extra.reshape(-1, 2)
    # Work in a rectified frame at `s / pitch_scale` px per pitch so a crop of s px
    # covers pitch_scale pitches.
    px_per_pitch = s / float(pitch_scale)
    img, c2, e2 = _shrink(image_bgr, c, n, max(8, int(round(px_per_pitch))), cfg, extra)
    side = n * px_per_pitch
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(c2.astype(np.float32), dst).astype(np.float64)
    if e2 is not None:
        ctr = cv2.perspectiveTransform(e2.reshape(-1, 1, 2), h).reshape(n, n, 2)
    else:
        g = (np.arange(n) + 0.5) * px_per_pitch
        xs, ys = np.meshgrid(g, g)
        ctr = np.stack([xs, ys], -1)
    out = np.empty((n, n, s, s, 3), dtype=np.uint8)
    for r in range(n):
        for col in range(n):
            cx, cy = ctr[r, col]
            # Output pixel centre (i + 0.5) maps to rectified (cx - s/2 + i + 0.5).
            t = np.array([[1, 0, s / 2.0 - cx], [0, 1, s / 2.0 - cy], [0, 0, 1]], dtype=np.float64)
            out[r, col] = cv2.warpPerspective(img, t @ h, (s, s), flags=cv2.INTER_LINEAR,
                                              borderMode=cfg.border_mode)
    return out


def outside_fraction(corners: np.ndarray, size: int, image_shape: tuple[int, ...],
                     centres: np.ndarray | None = None, half: float = 0.4) -> np.ndarray:
    """Share of each cube top that lies outside the photo: float (N, N) in 0..1, [row, col].

    The cube top is taken as the square of +-``half`` pitch around the cell's centre
    (the grid position, or ``centres`` (N, N, 2) photo (x, y) when given), sampled on
    a 9 x 9 grid and mapped into the photo with the grid's homography.
    image_shape: (H, W, ...) of the photo.
    """
    c = np.asarray(corners, dtype=np.float64)
    n = int(size)
    h = grid_homography(c, n, 1)
    hi = np.linalg.inv(h)
    if centres is not None:
        ctr = cv2.perspectiveTransform(np.asarray(centres, np.float64).reshape(-1, 1, 2),
                                       h).reshape(n, n, 2)
    else:
        g = np.arange(n) + 0.5
        xs, ys = np.meshgrid(g, g)
        ctr = np.stack([xs, ys], -1)
    off = np.linspace(-half, half, 9)
    ox, oy = np.meshgrid(off, off)
    offs = np.stack([ox, oy], -1).reshape(-1, 2)
    pts = (ctr.reshape(-1, 1, 2) + offs[None]).reshape(-1, 1, 2)
    photo = cv2.perspectiveTransform(pts, hi).reshape(n * n, -1, 2)
    H, W = image_shape[:2]
    inside = ((photo[..., 0] >= 0) & (photo[..., 0] <= W - 1)
              & (photo[..., 1] >= 0) & (photo[..., 1] <= H - 1))
    out: FloatArray = (1.0 - inside.mean(axis=1)).reshape(n, n)
    return out


def mosaic(crops: np.ndarray, gap: int = 2) -> np.ndarray:
    """Tile crops (N, M, H, W, 3) or (K, H, W, 3) into one BGR image for viewing."""
    a = np.asarray(crops)
    if a.ndim == 4:
        k = a.shape[0]
        cols = int(np.ceil(np.sqrt(k)))
        rows = int(np.ceil(k / cols))
        pad = np.zeros((rows * cols - k,) + a.shape[1:], a.dtype)
        a = np.concatenate([a, pad]).reshape(rows, cols, *a.shape[1:])
    nr, nc, sh, sw = a.shape[0], a.shape[1], a.shape[2], a.shape[3]
    out = np.full((nr * (sh + gap) + gap, nc * (sw + gap) + gap, 3), 40, np.uint8)
    for r in range(nr):
        for c in range(nc):
            y, x = gap + r * (sh + gap), gap + c * (sw + gap)
            out[y:y + sh, x:x + sw] = a[r, c]
    return out
