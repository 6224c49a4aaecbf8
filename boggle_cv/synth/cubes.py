"""Placing the cubes (in the tray's wells, or loose on the table) and drawing them.

World units are cell pitches (geometry.py). A cube is drawn as its visible side
faces (carrying other letters of the cube, at a slant, cut where the tray walls
hide them) and then its top, far cubes first. Photos are uint8 (H, W, 3) BGR,
changed in place.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .camera import Camera, paste_quad
from .cubesets import RolledCube
from .geometry import TrayGeometry, at_height, cell_centre
from .looks import BONUS_RING_BGR, challenge_style, pick
from .tiles import FaceStyle, TileExtras, face_tile

WELL_SLACK = 0.8                 # a cube shifts up to this share of the free space in its well
TWIST_SIGMA_DEG = 4.0            # a cube's twist in its well: normal, sigma ...
TWIST_MAX_DEG = 10.0             # ... clipped to +-this
SPILLED_LOOSE_MIN = 5            # a spilled photo: 5..N*N cubes on the table
INCOMPLETE_LOOSE = (0, 5)        # an incomplete tray: 0..4 cubes beside it
LOOSE_TRIES = 10                 # tries to place a loose cube apart from the others
LOOSE_GAP = 1.5                  # loose cubes' centres at least this x the cube edge apart
LOOSE_NEAR = 0.8                 # loose cubes lie this far ...
LOOSE_FAR = 4.0                  # ... to this far beyond the tray's half width
CUBE_GLARE_P = 0.5               # chance of a glare spot on the cube tops
CUBE_GLARE = (0.2, 0.9)          # its strength at the centre
CUBE_GLARE_SPREAD = 4.0          # strength falls as exp(-d^2 / this), d in pitches
CUBE_GLARE_MIN = 0.03            # weaker glare is not drawn
TILE_MARGIN = 1.05               # a face tile is this x the face's longest edge in the photo ...
TILE_STEP = 8                    # ... rounded up to a multiple of this ...
TILE_PX = (16, 512)              # ... within these pixels
SIDE_LIGHT = (0.55, 0.3, 0.05)   # side brightness: base + gain x facing the light +- jitter
TOP_BRIGHTNESS = (0.95, 1.05)
MIN_INKED_PX = 4                 # a side face is drawn without its letter when narrower


@dataclass(frozen=True)
class PlacedCube:
    """A cube in the world: where it stands and what it shows."""

    xy: npt.NDArray[np.float64]   # centre (X, Y), pitches
    yaw: float                    # radians, twist about the vertical
    base: float                   # height of its bottom
    hidden_below: float           # its sides are hidden below this height (tray walls)
    face: str                     # the face on top
    others: tuple[str, ...]       # faces for the sides
    turn: int                     # degrees clockwise the top letter is turned
    style: FaceStyle
    ring: bool = False            # red bonus ring on the top


def place_cubes(rng: np.random.Generator, rolled: list[RolledCube], g: TrayGeometry,
                empty: set[int], challenge_idx: int | None, bonus: set[int], style: FaceStyle,
                kind: str, has_tray: bool) -> list[PlacedCube]:
    """The cubes of a render: one per cell not in `empty` (row-major indices), off
    centre and twisted in its well, then the loose cubes of a "spilled" or
    "incomplete" photo (copies of random rolled cubes on the table, beside the tray
    when there is one)."""
    n = g.n
    cubes: list[PlacedCube] = []
    for i, rc in enumerate(rolled):
        if i in empty:
            continue
        r, c = divmod(i, n)
        slack = (1 - g.cube) / 2 * WELL_SLACK
        xy = cell_centre(r, c, n) + rng.uniform(-slack, slack, 2)
        st = challenge_style(style) if i == challenge_idx else style
        yaw = float(np.radians(np.clip(rng.normal(0, TWIST_SIGMA_DEG), -TWIST_MAX_DEG, TWIST_MAX_DEG)))
        cubes.append(PlacedCube(xy, yaw, g.floor, g.wall, rc.face, rc.others, rc.turn, st, ring=i in bonus))
    loose = 0
    if kind == "spilled":
        loose = int(rng.integers(SPILLED_LOOSE_MIN, n * n + 1))
    elif kind == "incomplete":
        loose = int(rng.integers(*INCOMPLETE_LOOSE))
    for _ in range(loose):
        rc = rolled[int(rng.integers(len(rolled)))]
        for _t in range(LOOSE_TRIES):
            ang = rng.uniform(0, 2 * np.pi)
            rad = rng.uniform(0 if not has_tray else g.half + LOOSE_NEAR, g.half + LOOSE_FAR)
            xy = np.array([np.cos(ang), np.sin(ang)]) * rad
            if all(np.linalg.norm(xy - o.xy) > g.cube * LOOSE_GAP for o in cubes if o.base == 0):
                break
        yaw = rng.uniform(0, np.pi / 2)
        cubes.append(PlacedCube(xy, yaw, 0.0, 0.0, rc.face, rc.others, int(rng.integers(4)) * 90, style))
    return cubes


def tile_px(quad: npt.NDArray[np.float64]) -> int:
    """Side of the square tile to draw for a face whose photo quad (4, 2) is given."""
    edge = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]),
               np.linalg.norm(quad[2] - quad[1]))
    return int(np.clip(np.ceil(edge * TILE_MARGIN / TILE_STEP) * TILE_STEP, *TILE_PX))


def draw_cube(img: npt.NDArray[np.uint8], cam: Camera, c: PlacedCube, size: float,
              rng: np.random.Generator, light: npt.NDArray[np.float64],
              glare_at: npt.NDArray[np.float64] | None, glare: float) -> npt.NDArray[np.float64]:
    """Draw one cube (its visible sides, then its top) in place; returns its top quad
    (4, 2) photo (x, y). size: cube edge, pitches; light: (3,) towards the light;
    glare_at: (X, Y) of the glare spot's centre (None: no glare); glare: its strength."""
    h2 = size / 2
    cs, sn = np.cos(c.yaw), np.sin(c.yaw)
    rot = np.array([[cs, -sn], [sn, cs]])
    local = np.array([[-h2, -h2], [h2, -h2], [h2, h2], [-h2, h2]])
    corners = local @ rot.T + c.xy
    top_h = c.base + size
    top_quad = cam.project(at_height(corners, top_h))
    low = max(c.hidden_below, c.base)
    cam_xy = cam.C[:2]
    base_light, light_gain, light_jitter = SIDE_LIGHT
    for i in range(4):
        p, q = corners[i], corners[(i + 1) % 4]
        mid = (p + q) / 2
        normal = mid - c.xy
        normal /= np.linalg.norm(normal)
        if normal @ (cam_xy - mid) <= 1e-6 or top_h - low < 0.02:
            continue   # faces away from the camera, or hidden by the tray walls
        quad = cam.project(np.vstack([at_height(q, top_h), at_height(p, top_h),
                                      at_height(p, low), at_height(q, low)]))
        s = tile_px(quad)
        frac = (top_h - low) / size
        bright = (base_light + light_gain * max(0.0, float(normal @ light[:2]))
                  + rng.uniform(-light_jitter, light_jitter))
        visible_px = np.linalg.norm(quad[3] - quad[0])
        other = pick(rng, c.others) if c.others else "#"
        tile = face_tile(s, other, int(rng.integers(4)) * 90, c.style, rng,
                         TileExtras(brightness=bright, light_xy=(0.0, -1.0)),
                         inked=bool(visible_px > MIN_INKED_PX))
        src = np.array([[0, 0], [s, 0], [s, s * frac], [0, s * frac]], np.float32)
        paste_quad(img, tile, quad, src)
    s = tile_px(top_quad)
    lx, ly = light[:2] @ rot
    ex = TileExtras(brightness=rng.uniform(*TOP_BRIGHTNESS), light_xy=(lx, ly))
    if c.ring:
        ex.ring_bgr = BONUS_RING_BGR
    if glare_at is not None and glare > 0:
        d = glare_at - c.xy
        dist = float(np.linalg.norm(d))
        strength = glare * np.exp(-dist ** 2 / CUBE_GLARE_SPREAD)
        if strength > CUBE_GLARE_MIN:
            dl = (d / max(dist, 1e-6)) @ rot * min(0.3, dist * 0.15)
            ex.glare, ex.glare_xy = float(strength), (0.5 + dl[0], 0.5 + dl[1])
    tile = face_tile(s, c.face, c.turn, c.style, rng, ex)
    paste_quad(img, tile, top_quad)
    return top_quad


def draw_cubes(img: npt.NDArray[np.uint8], rng: np.random.Generator, cam: Camera,
               cubes: list[PlacedCube], g: TrayGeometry, light: npt.NDArray[np.float64]) -> None:
    """Draw every cube in place, far ones first; a glare spot on the tops at random."""
    glare = rng.uniform(*CUBE_GLARE) if rng.random() < CUBE_GLARE_P else 0.0
    glare_at = rng.uniform(-g.n / 2, g.n / 2, 2)
    order = sorted(range(len(cubes)),
                   key=lambda k: -cam.depth(at_height(cubes[k].xy, cubes[k].base + g.cube))[0])
    for k in order:
        draw_cube(img, cam, cubes[k], g.cube, rng, light, glare_at, glare)
