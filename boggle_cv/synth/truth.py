"""A render's truth: what the photo shows, in the format of ../shared/real-photos/truth.json.

The board's frame is chosen so that most letters read upright (a tray has no
fixed top). Photo coordinates are [x, y] pixels, rounded to 0.01; turns are degrees
clockwise from upright (0/90/180/270); N x N lists are row-major rows.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from .camera import Camera
from .cubes import PlacedCube
from .cubesets import RolledCube
from .geometry import TrayGeometry, at_height, cell_centre, grid_outline

Grid = list[list[int]]
Points = list[list[float]]


class CameraTruth(TypedDict):
    """tilt_deg: angle of the optical axis from the table's normal; px_per_pitch:
    photo pixels per cell pitch at the board."""

    tilt_deg: float
    px_per_pitch: float


class PhotoTruth(TypedDict):
    """The truth of one render (JSON-ready; keys in this order). See boggle_cv.synth."""

    size: int | None
    kind: str
    set: str
    image_size: list[int]
    tray: str | None
    background: str
    camera: CameraTruth
    faces: list[list[str]] | None
    turns: Grid | None
    centres: list[Points] | None
    bonus: Grid
    challenge: list[int] | None
    no_board: str | None
    corners: Points | None
    underline: str
    font: str
    hand: bool
    cut_off: bool


@dataclass(frozen=True)
class BoardTruth:
    """The parts of the truth that describe a complete board, in the upright frame:
    faces, turns, centres ([x, y] photo px) as N x N rows, bonus [[r, c], ...] and
    challenge [r, c] or None."""

    faces: list[list[str]]
    turns: Grid
    centres: list[Points]
    bonus: Grid
    challenge: list[int] | None


def upright_frame(faces: list[list[str]], turns: Grid, centres: list[Points],
                  corners: npt.NDArray[np.float64]
                  ) -> tuple[list[list[str]], Grid, list[Points], npt.NDArray[np.float64], int]:
    """Relabel the grid (quarter turns) so that most letters read upright.

    faces/turns/centres: N x N lists in the render's frame; corners (4, 2). Turning
    the view a quarter clockwise makes the old left column the top row and adds 90
    degrees to every turn. Returns the four arguments in the chosen frame and the
    number of quarter turns applied (ties: the fewest).
    """
    best = max(range(4), key=lambda k: (sum(((t + 90 * k) % 360 == 0) for row in turns for t in row), -k))
    for _ in range(best):
        faces = [list(r) for r in zip(*faces[::-1])]
        turns = [[(t + 90) % 360 for t in r] for r in zip(*turns[::-1])]
        centres = [list(r) for r in zip(*centres[::-1])]
        corners = corners[[3, 0, 1, 2]]
    return faces, turns, centres, corners, best


def grid_corners(cam: Camera, g: TrayGeometry) -> npt.NDArray[np.float64]:
    """(4, 2) photo (x, y) of the grid's outer corners at the height of the cube tops,
    order row0col0, row0colN-1, rowN-1colN-1, rowN-1col0 (render frame)."""
    return cam.project(at_height(grid_outline(g.n), g.top))


def board_truth(rolled: list[RolledCube], cubes: list[PlacedCube], bonus: set[int],
                challenge_idx: int | None, cam: Camera, g: TrayGeometry
                ) -> tuple[BoardTruth, npt.NDArray[np.float64]]:
    """Faces, turns, cube-top centres and marks of a complete board, turned upright,
    and the grid corners (4, 2) in that frame.

    rolled: the N*N cubes row-major; cubes: the placed ones (a cell without a cube
    has its centre at the cell's centre); bonus / challenge_idx: row-major indices.
    """
    n = g.n
    faces = [[rolled[r * n + c].face for c in range(n)] for r in range(n)]
    turns = [[rolled[r * n + c].turn for c in range(n)] for r in range(n)]
    cxy = {(int(round(cb.xy[1] + (n - 1) / 2)), int(round(cb.xy[0] + (n - 1) / 2))): cb for cb in cubes}
    centres = []
    for r in range(n):
        row = []
        for c in range(n):
            xy = cxy[(r, c)].xy if (r, c) in cxy else cell_centre(r, c, n)
            p = cam.project(at_height(xy, g.top))[0]
            row.append([round(float(p[0]), 2), round(float(p[1]), 2)])
        centres.append(row)
    marks = np.zeros((n, n), np.int8)
    for i in bonus:
        marks[i // n, i % n] = 1
    if challenge_idx is not None:
        marks[challenge_idx // n, challenge_idx % n] = 2
    faces, turns, centres, corners, k = upright_frame(faces, turns, centres, grid_corners(cam, g))
    tmp: list[list[int]] = marks.tolist()
    for _ in range(k):
        tmp = [list(r) for r in zip(*tmp[::-1])]
    return BoardTruth(faces=faces, turns=turns, centres=centres,
                      bonus=[[r, c] for r in range(n) for c in range(n) if tmp[r][c] == 1],
                      challenge=next(([r, c] for r in range(n) for c in range(n) if tmp[r][c] == 2), None)), corners


def photo_corners(corners: npt.NDArray[np.float64]) -> Points:
    """Corners (4, 2) as JSON [[x, y], ...] rounded to 0.01 px."""
    return [[round(float(x), 2), round(float(y), 2)] for x, y in corners]


def is_cut_off(corners: npt.NDArray[np.float64], w: int, h: int) -> bool:
    """True when a grid corner (4, 2) lies outside the (w, h) photo."""
    return bool(((corners < 0) | (corners > [w, h])).any())
