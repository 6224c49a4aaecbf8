"""The tray's shape in world units, and world points at a height.

World frame (camera.py): units of one cell pitch, X along the board's columns, Y
along its rows (row 0 at -Y), Z into the table; the table is Z = 0 and a point at
height h has Z = -h. The board's centre is at X = Y = 0, so cell (r, c) is centred
on X = c - (N-1)/2, Y = r - (N-1)/2.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

# What varies between trays, (lo, hi) in pitches, each drawn uniformly.
CUBE_EDGE = (0.80, 0.90)         # a cube's edge
WELL_FLOOR = 0.10                # height of the well floors (fixed)
WALL_HEIGHT = (0.30, 0.55)       # height of the tray top and its grid walls
RIM = (0.3, 0.9)                 # tray rim beyond the grid
CORNER_RADIUS = (0.2, 1.0)       # tray corner radius
# Pocket Boggle: a flat frame; its strips stand POCKET_STRIP high.
POCKET_STRIP = 0.12
POCKET_RIM = (0.2, 0.5)
POCKET_CORNER_RADIUS = (0.1, 0.4)
ROUNDED_STEPS = 8                # outline points per rounded corner


@dataclass(frozen=True)
class TrayGeometry:
    """One tray's shape (heights above the table, widths in pitches)."""

    n: int             # board size N
    cube: float        # cube edge
    floor: float       # height of the well floors (the cubes' bottoms)
    wall: float        # height of the tray top / grid walls
    rim: float         # tray rim width beyond the grid
    radius: float      # tray corner radius

    @property
    def top(self) -> float:
        """Height of the cube tops."""
        return self.floor + self.cube

    @property
    def half(self) -> float:
        """Half the tray's outer width (grid plus rim)."""
        return self.n / 2 + self.rim


def draw_geometry(rng: np.random.Generator, n: int, pocket: bool) -> TrayGeometry:
    """A random tray shape for an N x N board (a Pocket Boggle frame if `pocket`).

    Draws CUBE_EDGE, WALL_HEIGHT, RIM, CORNER_RADIUS in that order, then for a
    pocket frame POCKET_RIM and POCKET_CORNER_RADIUS (the strips are flat: no
    floor, cube and wall POCKET_STRIP).
    """
    cube = rng.uniform(*CUBE_EDGE)
    wall = rng.uniform(*WALL_HEIGHT)
    rim = rng.uniform(*RIM)
    radius = rng.uniform(*CORNER_RADIUS)
    if not pocket:
        return TrayGeometry(n=n, cube=cube, floor=WELL_FLOOR, wall=wall, rim=rim, radius=radius)
    return TrayGeometry(n=n, cube=POCKET_STRIP, floor=0.0, wall=POCKET_STRIP,
                        rim=rng.uniform(*POCKET_RIM), radius=rng.uniform(*POCKET_CORNER_RADIUS))


def rounded_rect(half_w: float, half_h: float, r: float,
                 k: int = ROUNDED_STEPS) -> npt.NDArray[np.float64]:
    """Outline (4k, 2) (X, Y) of a rounded rectangle centred on 0, clockwise from
    top-left; r: corner radius (clipped to the half sides)."""
    r = min(r, half_w, half_h)
    pts = []
    for cx, cy, a0 in ((-half_w + r, -half_h + r, 180), (half_w - r, -half_h + r, 270),
                       (half_w - r, half_h - r, 0), (-half_w + r, half_h - r, 90)):
        for t in np.linspace(a0, a0 + 90, k):
            pts.append((cx + r * np.cos(np.radians(t)), cy + r * np.sin(np.radians(t))))
    return np.array(pts)


def at_height(xy: npt.ArrayLike, h: float) -> npt.NDArray[np.float64]:
    """World points (K, 3) from (K, 2) (X, Y) (or one (2,) point) at height h (Z = -h)."""
    pts = np.asarray(xy, np.float64).reshape(-1, 2)
    return np.column_stack([pts, np.full(len(pts), -h)])


def cell_centre(r: int, c: int, n: int) -> npt.NDArray[np.float64]:
    """(X, Y) (2,) of the centre of cell (row r, col c) of an N x N grid."""
    return np.array([c - (n - 1) / 2, r - (n - 1) / 2])


def grid_outline(n: int) -> npt.NDArray[np.float64]:
    """(4, 2) (X, Y) outer corners of the N x N cell grid: row0col0, row0colN-1,
    rowN-1colN-1, rowN-1col0."""
    return np.array([[-n / 2, -n / 2], [n / 2, -n / 2], [n / 2, n / 2], [-n / 2, n / 2]])
