"""The photo of a scan as the report shows its board: scaled to a size a phone shows
and turned so that the report's row 1 runs along the top, left to right, whichever
way the tray lay in the photo: by quarter turns (lossless), then, for a tray lying
askew by more than SNAP_DEGREES, by the rest of the angle on a canvas grown to hold
the whole photo; then cut to the board and MARGIN cells around it (what the photo
holds of them), so that the board, not the table, fills the picture. Drawing on it (vision.overlay) goes through one homography from board
coordinates (x = column, y = row, the board's top-left corner at (0, 0), a cell one
unit) to the view's pixels, fitted to the cube tops' centres.

Images are BGR uint8 (H, W, 3); points are (x, y) pixels. A scan's points are in the
photo's own pixels; the image drawn on may be the photo decoded at any size (the
scan's reduced decode, or the whole photo): ``image_homography`` maps into it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .stages import FloatArray, ImageU8

if TYPE_CHECKING:
    from .pipeline import ScanResult

#: A tray within this many degrees of a quarter turn is turned by quarter turns alone.
SNAP_DEGREES = 3.0
#: Cells of the photo kept around the board (room for the row and column labels, and
#: enough of the tray and the table to see what was read).
MARGIN = 1.0
#: What fills the corners a tilted photo leaves (BGR).
CANVAS = (255, 255, 255)
#: cv2.rotate's code for each number of clockwise quarter turns.
_ROTATE = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


@dataclass(frozen=True)
class BoardView:
    """The scaled, turned photo; `homography` maps board coordinates to its pixels;
    `turns`: clockwise quarter turns applied to the photo, `tilt`: degrees turned
    counter-clockwise after them (0 when snapped); `scale`: its resize factor."""

    image: ImageU8
    homography: FloatArray
    size: int
    turns: int
    scale: float
    tilt: float = 0.0
    width: int = 0
    height: int = 0
    origin: tuple[int, int] = (0, 0)  # the cut's top-left in the turned photo

    def points(self, board_xy: FloatArray) -> FloatArray:
        """Pixels (..., 2) of board coordinates (..., 2)."""
        pts = np.asarray(board_xy, np.float64)
        out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.homography)
        return np.asarray(out, np.float64).reshape(pts.shape)

    def point(self, x: float, y: float) -> tuple[float, float]:
        p = self.points(np.array([[x, y]]))[0]
        return float(p[0]), float(p[1])

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        return self.point(col + 0.5, row + 0.5)

    @property
    def pitch(self) -> float:
        """Mean cell side in pixels (the board's outline divided by its size)."""
        c = self.points(np.array([[0, 0], [self.size, 0], [self.size, self.size], [0, self.size]], np.float64))
        return float(np.mean([np.hypot(*(c[i] - c[(i + 1) % 4])) for i in range(4)]) / self.size)

    def padded(self, left: int, top: int, right: int, bottom: int, colour: tuple[int, int, int]) -> BoardView:
        """The view with bands of `colour` added around the photo (room for labels)."""
        if not (left or top or right or bottom):
            return self
        image = cv2.copyMakeBorder(self.image, top, bottom, left, right, cv2.BORDER_CONSTANT, value=colour)
        shift = np.array([[1, 0, left], [0, 1, top], [0, 0, 1]], np.float64)
        return BoardView(np.ascontiguousarray(image), shift @ self.homography, self.size, self.turns, self.scale,
                         self.tilt, image.shape[1], image.shape[0], self.origin)


def board_centres(scan: ScanResult) -> FloatArray:
    """(N, N, 2) photo (x, y) of each cube top, indexed by the report's [row, col]."""
    tray = scan.tray
    out = np.zeros((tray.size, tray.size, 2), np.float64)
    for row in scan.reading.cells:
        for c in row:
            pr, pc = c.photo_cell
            out[c.row, c.col] = tray.cell_centres[pr, pc]
    return out


def row_angle(homography: FloatArray, size: int) -> float:
    """The direction of row 1, read left to right, in degrees clockwise from the
    image's x axis (image y points down)."""
    (x0, y0), (x1, y1) = cv2.perspectiveTransform(
        np.array([[[0.5, 0.5]], [[size - 0.5, 0.5]]], np.float64), homography).reshape(2, 2)
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def quarter_turns(homography: FloatArray, size: int) -> int:
    """Clockwise quarter turns (0-3) that bring row 1 nearest the image's x axis."""
    return int(round(-row_angle(homography, size) / 90.0)) % 4


def _turn_matrix(turns: int, width: int, height: int) -> FloatArray:
    """The pixel map of `turns` clockwise quarter turns of a width x height image."""
    w, h = width - 1, height - 1
    return np.array({0: [[1, 0, 0], [0, 1, 0]], 1: [[0, -1, h], [1, 0, 0]],
                     2: [[-1, 0, w], [0, -1, h]], 3: [[0, 1, 0], [-1, 0, w]]}[turns] + [[0, 0, 1]], np.float64)


def board_homography(scan: ScanResult) -> FloatArray:
    """Board coordinates -> photo pixels, fitted to the cube tops' centres."""
    n = scan.tray.size
    board = np.array([[c + 0.5, r + 0.5] for r in range(n) for c in range(n)], np.float64)
    h_board, _ = cv2.findHomography(board, board_centres(scan).reshape(-1, 2), 0)
    return np.asarray(h_board, np.float64)


def image_homography(scan: ScanResult, width: int, height: int) -> FloatArray:
    """Board coordinates -> pixels of an image of the scan's photo decoded at width x
    height (pixel centres kept, as ScanResult.to_image)."""
    ph, pw = scan.image_shape
    sx, sy = width / pw, height / ph
    to_image = np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1]], np.float64)
    out: FloatArray = to_image @ board_homography(scan)
    return out


def turned_geometry(scan: ScanResult, width: int, height: int, scale: float = 1.0) -> BoardView:
    """The view's geometry alone (an empty image) for an image of the scan's photo,
    width x height, scaled by `scale`: its homography, turns, tilt and size, to size a
    drawing before it is made (board_view draws the photo into it)."""
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    h_board = np.diag([w / width, h / height, 1.0]) @ image_homography(scan, width, height)
    turns = quarter_turns(h_board, scan.tray.size)
    turn = _turn_matrix(turns, w, h)
    tw, th = (w, h) if turns % 2 == 0 else (h, w)
    tilt = row_angle(turn @ h_board, scan.tray.size)  # what the quarter turns left, within +-45 degrees
    if abs(tilt) <= SNAP_DEGREES:
        return _cut(BoardView(np.zeros((0, 0, 3), np.uint8), turn @ h_board, scan.tray.size, turns, scale, 0.0,
                              tw, th))
    rad = math.radians(tilt)
    nw = int(math.ceil(tw * abs(math.cos(rad)) + th * abs(math.sin(rad))))
    nh = int(math.ceil(tw * abs(math.sin(rad)) + th * abs(math.cos(rad))))
    spin = np.vstack([cv2.getRotationMatrix2D((tw / 2, th / 2), tilt, 1.0), [0, 0, 1]])
    spin[0, 2] += (nw - tw) / 2
    spin[1, 2] += (nh - th) / 2
    return _cut(BoardView(np.zeros((0, 0, 3), np.uint8), spin @ turn @ h_board, scan.tray.size, turns, scale, tilt,
                          nw, nh))


def _cut(view: BoardView) -> BoardView:
    """The geometry cut to the board and MARGIN cells around it, within the photo."""
    n = view.size
    box = view.points(np.array([[-MARGIN, -MARGIN], [n + MARGIN, -MARGIN], [n + MARGIN, n + MARGIN],
                                [-MARGIN, n + MARGIN]], np.float64))
    x0, y0 = (max(0, int(math.floor(v))) for v in box.min(axis=0))
    x1, y1 = min(view.width, int(math.ceil(box[:, 0].max()))), min(view.height, int(math.ceil(box[:, 1].max())))
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    return BoardView(view.image, shift @ view.homography, n, view.turns, view.scale, view.tilt,
                     max(1, x1 - x0), max(1, y1 - y0), (x0, y0))


def shrink(image: ImageU8, size: tuple[int, int]) -> ImageU8:
    """`image` resized down to `size` (width, height): by a whole factor first (pixel
    averaging, fast), the rest by linear interpolation (a factor above one half)."""
    h, w = image.shape[:2]
    k = int(min(w / size[0], h / size[1]))
    out = np.asarray(cv2.resize(image, (w // k, h // k), interpolation=cv2.INTER_AREA), np.uint8) if k >= 2 else image
    if out.shape[1] != size[0] or out.shape[0] != size[1]:
        out = np.asarray(cv2.resize(out, size, interpolation=cv2.INTER_LINEAR if k >= 2 else cv2.INTER_AREA), np.uint8)
    return np.ascontiguousarray(out)


def board_view(image: ImageU8, scan: ScanResult, scale: float = 1.0) -> BoardView:
    """The image (the scan's photo decoded at any size) scaled by `scale` (at most 1)
    and turned to the report's orientation, with its board homography."""
    h, w = image.shape[:2]
    g = turned_geometry(scan, w, h, min(1.0, scale))
    if g.scale < 1.0:
        image = shrink(image, (max(1, round(w * g.scale)), max(1, round(h * g.scale))))
    if g.tilt:  # one resampling for the quarter turns, the tilt and the cut together
        photo_to_view = g.homography @ np.linalg.inv(np.diag([image.shape[1] / w, image.shape[0] / h, 1.0])
                                                     @ image_homography(scan, w, h))
        cut: ImageU8 = np.ascontiguousarray(cv2.warpAffine(image, photo_to_view[:2], (g.width, g.height),
                                                           flags=cv2.INTER_LINEAR, borderValue=CANVAS))
    else:
        turned = cv2.rotate(image, _ROTATE[g.turns]) if g.turns else image
        (x0, y0), cw, ch = g.origin, g.width, g.height
        cut = np.ascontiguousarray(turned[y0:y0 + ch, x0:x0 + cw])
    return BoardView(cut, g.homography, g.size, g.turns, g.scale, g.tilt, cut.shape[1], cut.shape[0], g.origin)
