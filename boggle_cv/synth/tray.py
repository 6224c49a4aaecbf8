"""Drawing the tray into the photo: its soft shadow on the table, its outer walls
and its top (rim, grid walls and wells; or a Pocket Boggle frame with its strips).

The top is drawn flat on a top-down BGRA canvas ("ppu" canvas pixels per pitch,
world square [-half, +half]^2, canvas row 0 at -Y) and warped onto the photo
through the plane homography at the wall height. Photos are uint8 (H, W, 3) BGR.
"""
from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from .camera import Camera, blend
from .geometry import TrayGeometry, at_height, rounded_rect
from .looks import POCKET_FRAMES, POCKET_WALL_BGR, TRAYS, pick
from .tiles import FaceStyle, TileExtras, face_tile

SHADOW_DOWNSCALE = 4             # the tray's soft shadow is drawn at 1/4 resolution
SHADOW_REACH = (0.6, 2.5)        # shadow offset, x the wall height along the light
SHADOW_SOFTNESS = (0.05, 0.5)    # shadow blur sigma, pitches
SHADOW_MIN_SIGMA = 0.7           # ... at least this, shadow-mask pixels
SHADOW_DEPTH = (0.25, 0.6)       # darkening under the shadow
WALL_SHADE = (0.45, 0.7)         # the outer walls: the body colour x this
TRAY_GAIN = (0.85, 1.12)         # the tray's body colour x this
CANVAS_MAX_PX = 1100             # the top's canvas side is at most this ...
CANVAS_MIN_PPU = 6               # ... and at least this many px per pitch
INNER_RIM_INSET = 0.35           # the moulded line on the rim, x the rim width in from the edge
INNER_RIM_RADIUS = 0.7           # ... its corner radius, x the tray's
INNER_RIM_WIDTH = 0.04           # ... its width, pitches (at least 1 px)
GRID_MARGIN = 0.05               # the grid plate reaches this far beyond the cells, pitches
GRID_RADIUS = 0.15               # ... with this corner radius
GRID_WALL = (0.05, 0.12)         # thickness of the walls between wells, pitches
WELL_SHADE = (0.30, 0.55)        # a well's floor: the body colour x this
EMPTY_WELL_SHADE = 0.6           # an empty well: x this again
CLEAR_WELL_BGR = (60.0, 60.0, 60.0)   # wells of a clear tray
CLEAR_WELL_OPACITY = 0.55
STRIP_TOP = 0.04                 # Pocket Boggle: a strip starts this far into its row ...
STRIP_HEIGHT = 0.92              # ... and is this high, pitches
STRIP_SHADE = 0.9                # strip colour: the cube colour x this
POCKET_TILE = 0.86               # a letter tile's side, pitches ...
POCKET_TILE_LEFT = 0.07          # ... this far into its cell ...
POCKET_TILE_TOP = 0.03           # ... and this far below the strip's top
POCKET_TILE_MIN_PX = 8


def warp_canvas(img: npt.NDArray[np.uint8], canvas: npt.NDArray[np.uint8],
                H_world: npt.NDArray[np.float64], px_per_unit: float, origin: float,
                opacity: float = 1.0) -> None:
    """Warp a top-down BGRA canvas of the world square [-origin, +origin]^2 onto img
    in place. H_world: 3x3 world (X, Y, 1) on the canvas' plane -> photo pixels;
    px_per_unit: canvas pixels per pitch. Only the canvas' bounding box is warped."""
    A = np.array([[1 / px_per_unit, 0, -origin], [0, 1 / px_per_unit, -origin], [0, 0, 1]])
    M = H_world @ A
    h, w = img.shape[:2]
    ch, cw = canvas.shape[:2]
    box = np.array([[0, 0, 1], [cw, 0, 1], [cw, ch, 1], [0, ch, 1]], np.float64) @ M.T
    box = box[:, :2] / box[:, 2:3]
    x0, y0 = max(0, int(box[:, 0].min()) - 1), max(0, int(box[:, 1].min()) - 1)
    x1, y1 = min(w, int(box[:, 0].max()) + 2), min(h, int(box[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(canvas, T @ M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    blend(img[y0:y1, x0:x1], np.asarray(warped, np.uint8), opacity)


def tray_canvas(g: TrayGeometry, look: str, ppu: float, rng: np.random.Generator,
                empty_cells: set[int]) -> npt.NDArray[np.uint8]:
    """Top-down BGRA canvas (S, S, 4), S = ceil(2 * half * ppu), of the tray top: rim,
    grid walls, wells (row-major cell indices in `empty_cells` darker)."""
    tray = TRAYS[look]
    body_a, grid_a = tray.body_opacity, tray.grid_opacity
    colour = np.clip(np.array(tray.body_bgr) * rng.uniform(*TRAY_GAIN), 0, 255)
    size = int(np.ceil(2 * g.half * ppu))
    canvas = np.zeros((size, size, 4), np.uint8)
    c = size / 2
    outline = (rounded_rect(g.half, g.half, g.radius) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [outline], (*colour, 255 * body_a), cv2.LINE_AA)
    inset = g.half - g.rim * INNER_RIM_INSET
    inner = (rounded_rect(inset, inset, g.radius * INNER_RIM_RADIUS) * ppu + c).astype(np.int32)
    cv2.polylines(canvas, [inner], True, (*np.clip(colour * 1.25 + 15, 0, 255), 255 * body_a),
                  max(1, int(ppu * INNER_RIM_WIDTH)), cv2.LINE_AA)
    grid = (rounded_rect(g.n / 2 + GRID_MARGIN, g.n / 2 + GRID_MARGIN, GRID_RADIUS) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [grid], (*tray.grid_bgr, 255 * grid_a), cv2.LINE_AA)
    wall_t = rng.uniform(*GRID_WALL)
    well = colour * rng.uniform(*WELL_SHADE)
    well_a = 255 * (CLEAR_WELL_OPACITY if body_a < 1 else 1.0)
    for r in range(g.n):
        for col in range(g.n):
            x = (col - g.n / 2 + wall_t / 2) * ppu + c
            y = (r - g.n / 2 + wall_t / 2) * ppu + c
            s = (1 - wall_t) * ppu
            shade = well * (EMPTY_WELL_SHADE if (r * g.n + col) in empty_cells else 1.0)
            if body_a < 1:
                shade = np.array(CLEAR_WELL_BGR, np.float64)
            cv2.rectangle(canvas, (int(x), int(y)), (int(x + s), int(y + s)), (*shade, well_a), -1, cv2.LINE_AA)
    return canvas


def pocket_canvas(g: TrayGeometry, ppu: float, rng: np.random.Generator, faces: list[str],
                  style: FaceStyle) -> npt.NDArray[np.uint8]:
    """Top-down BGRA canvas (S, S, 4) of a Pocket Boggle frame: N strips, the N*N
    `faces` (row-major) upright on them."""
    colour = np.array(pick(rng, POCKET_FRAMES), np.float64)
    size = int(np.ceil(2 * g.half * ppu))
    canvas = np.zeros((size, size, 4), np.uint8)
    c = size / 2
    outline = (rounded_rect(g.half, g.half, g.radius) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [outline], (*colour, 255), cv2.LINE_AA)
    strip = np.array(style.cube_bgr)
    for r in range(g.n):
        y0 = (r - g.n / 2 + STRIP_TOP) * ppu + c
        cv2.rectangle(canvas, (int(c - g.n / 2 * ppu), int(y0)),
                      (int(c + g.n / 2 * ppu), int(y0 + STRIP_HEIGHT * ppu)),
                      (*strip * STRIP_SHADE, 255), -1, cv2.LINE_AA)
        for col in range(g.n):
            s = max(POCKET_TILE_MIN_PX, int(POCKET_TILE * ppu))
            tile = face_tile(s, faces[r * g.n + col], 0, style, rng, TileExtras(brightness=1.0))
            x = int((col - g.n / 2 + POCKET_TILE_LEFT) * ppu + c)
            y = int(y0 + POCKET_TILE_TOP * ppu)
            roi = canvas[y:y + s, x:x + s]
            t = tile[:roi.shape[0], :roi.shape[1]]
            a = t[..., 3:4].astype(np.float32) / 255
            roi[..., :3] = (roi[..., :3] * (1 - a) + t[..., :3] * a).astype(np.uint8)
    return canvas


def draw_tray(img: npt.NDArray[np.uint8], rng: np.random.Generator, cam: Camera, g: TrayGeometry,
              look: str, light: npt.NDArray[np.float64], ppu: float, empty_cells: set[int],
              pocket_faces: list[str] | None, style: FaceStyle) -> npt.NDArray[np.uint8]:
    """The photo with the tray drawn on the table: its shadow, outer walls and top.

    look: a TRAYS name, or "pocket" with `pocket_faces` (N*N row-major faces) for a
    Pocket Boggle frame. light: (3,) direction towards the light, XY unit length.
    ppu: photo pixels per pitch at the board. Returns a new uint8 (H, W, 3) BGR array.
    """
    h, w = img.shape[:2]
    pocket = pocket_faces is not None
    foot = rounded_rect(g.half, g.half, g.radius)
    # shadow on the table
    sh_off = light[:2] * -g.wall * rng.uniform(*SHADOW_REACH)
    q = SHADOW_DOWNSCALE
    sp = (cam.project(at_height(foot + sh_off, 0.0)) / q).astype(np.int32)
    mask = np.zeros((h // q + 1, w // q + 1), np.float32)
    cv2.fillPoly(mask, [sp], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(SHADOW_MIN_SIGMA, ppu / q * rng.uniform(*SHADOW_SOFTNESS)))
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    depth = rng.uniform(*SHADOW_DEPTH)
    img = np.asarray(cv2.multiply(img, cv2.merge([1 - depth * mask] * 3), dtype=cv2.CV_8U), np.uint8)
    # the outer walls of the slab
    wall_pts = np.vstack([cam.project(at_height(foot, 0.0)),
                          cam.project(at_height(foot, g.wall))]).astype(np.float32)
    hull = cv2.convexHull(wall_pts).astype(np.int32)
    colour = np.array(POCKET_WALL_BGR if pocket else TRAYS[look].body_bgr, np.float64)
    opac = 1.0 if pocket else TRAYS[look].body_opacity
    layer = img.copy()
    cv2.fillConvexPoly(layer, hull, tuple(colour * rng.uniform(*WALL_SHADE)), cv2.LINE_AA)
    img = np.asarray(cv2.addWeighted(layer, opac, img, 1 - opac, 0), np.uint8) if opac < 1 else layer
    # the top, drawn flat and warped
    tppu = float(np.clip(ppu, CANVAS_MIN_PPU, CANVAS_MAX_PX / (2 * g.half)))
    if pocket_faces is not None:
        canvas = pocket_canvas(g, tppu, rng, pocket_faces, style)
    else:
        canvas = tray_canvas(g, look, tppu, rng, empty_cells)
    warp_canvas(img, canvas, cam.plane_homography(g.wall), tppu, g.half)
    return img
