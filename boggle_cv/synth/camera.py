"""A pinhole camera above the table, and warping flat textures into the photo.

World frame (units: one cell pitch of the tray): X along the board's columns, Y
along its rows (row 0 at -Y), Z into the table; the table is Z = 0 and a point at
height h above it has Z = -h. The board's centre is at X = Y = 0.
Photo pixels are (x, y), origin top-left.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Camera:
    """K: intrinsics (3, 3); R: world-to-camera rotation (3, 3); C: centre (3,)."""

    K: F64
    R: F64
    C: F64
    width: int
    height: int

    def project(self, pts: npt.ArrayLike) -> F64:
        """World points (..., 3) -> photo pixels (..., 2) float64 (x, y)."""
        p = np.asarray(pts, np.float64)
        pc = (p - self.C) @ self.R.T
        z = np.maximum(pc[..., 2:3], 1e-6)
        uv = pc[..., :2] / z
        focal: float = self.K[0, 0]
        pix: F64 = uv * focal + self.K[:2, 2]
        return pix

    def depth(self, pts: npt.ArrayLike) -> F64:
        """Distance along the optical axis of world points (...,) ."""
        d: F64 = ((np.asarray(pts, np.float64) - self.C) @ self.R.T)[..., 2]
        return d

    def plane_homography(self, height: float) -> F64:
        """3x3 map from world (X, Y, 1) on the plane at `height` to photo pixels."""
        z = -height
        M = np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z - self.R @ self.C])
        return self.K @ M

    def back_project(self, xy: F64, height: float) -> F64:
        """Photo pixels (K, 2) -> world (X, Y) (K, 2) on the plane at `height`."""
        H = np.asarray(np.linalg.inv(self.plane_homography(height)), np.float64)
        p = np.column_stack([xy, np.ones(len(xy))]) @ H.T
        out: F64 = p[:, :2] / p[:, 2:3]
        return out


def look_at_camera(width: int, height: int, focal: float, tilt_deg: float, azimuth_deg: float,
                   roll_deg: float, target: F64, distance: float) -> Camera:
    """A camera `distance` away from world point `target`, looking at it.

    tilt_deg: angle between the optical axis and the table's normal (0 = top-down);
    azimuth_deg: the side of the board the camera leans from; roll_deg: rotation of
    the photo about the optical axis (turns the board in the photo).
    """
    t, a_, r = np.radians([tilt_deg, azimuth_deg, roll_deg])
    axis = np.array([np.sin(t) * np.cos(a_), np.sin(t) * np.sin(a_), np.cos(t)])
    ex = np.array([1.0, 0.0, 0.0])
    if abs(ex @ axis) > 0.95:
        ex = np.array([0.0, 1.0, 0.0])
    x0 = ex - (ex @ axis) * axis
    x0 /= np.linalg.norm(x0)
    y0 = np.cross(axis, x0)
    x = np.cos(r) * x0 + np.sin(r) * y0
    y = np.cross(axis, x)
    R = np.stack([x, y, axis])
    C = np.asarray(target, np.float64) - distance * axis
    K = np.array([[focal, 0, width / 2.0], [0, focal, height / 2.0], [0, 0, 1]])
    return Camera(K, R, C, width, height)


def paste_quad(dst: npt.NDArray[np.uint8], tile_bgra: npt.NDArray[np.uint8], quad: F64,
               src_quad: npt.NDArray[np.float32] | None = None, opacity: float = 1.0) -> None:
    """Warp a BGRA tile onto the photo so that its corners land on `quad`.

    dst: uint8 (H, W, 3) BGR, changed in place. quad: (4, 2) photo (x, y) of the
    tile's top-left, top-right, bottom-right, bottom-left (or of `src_quad`, (4, 2)
    tile pixels). Only the quad's bounding box is warped.
    """
    h, w = dst.shape[:2]
    x0 = max(0, int(np.floor(quad[:, 0].min())) - 1)
    y0 = max(0, int(np.floor(quad[:, 1].min())) - 1)
    x1 = min(w, int(np.ceil(quad[:, 0].max())) + 2)
    y1 = min(h, int(np.ceil(quad[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    s = tile_bgra.shape[0]
    if src_quad is None:
        src_quad = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(src_quad, np.float32),
                                    (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(tile_bgra, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    blend(dst[y0:y1, x0:x1], np.asarray(warped, np.uint8), opacity)


def blend(roi: npt.NDArray[np.uint8], bgra: npt.NDArray[np.uint8], opacity: float = 1.0) -> None:
    """Alpha-composite uint8 BGRA over uint8 BGR `roi` in place."""
    a = bgra[..., 3:4].astype(np.float32) * (opacity / 255.0)
    roi[:] = (roi.astype(np.float32) * (1 - a) + bgra[..., :3].astype(np.float32) * a + 0.5).astype(np.uint8)
