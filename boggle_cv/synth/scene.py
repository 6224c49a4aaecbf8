"""Render one synthetic photo of a Boggle tray, with its truth.

The scene is built in 3-D (see camera.py for the world frame): a table texture on
Z = 0, a tray (a rounded slab whose top, with its grid of wells, is at `wall`
height), cubes standing in the wells (their tops at `floor + cube`), each cube
drawn as its visible side faces (carrying other letters, at a slant) and its top,
far cubes first. Then light, blur, noise and JPEG (effects.py).

Truth (a dict, JSON-ready; see `render_photo`) is reported in the board's frame
chosen so that most letters read upright, as in ../shared/real-photos/truth.json.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..errors import UsageError
from . import cubesets
from .backgrounds import add_clutter, draw_hand, table_texture
from .camera import Camera, look_at_camera, paste_quad
from .effects import EffectsConfig, camera_effects
from .fonts import find_fonts
from .tiles import FaceStyle, TileExtras, face_tile

KINDS = ("tray", "pocket", "empty-tray", "incomplete", "spilled")
NEGATIVE_KINDS = ("empty-tray", "incomplete", "spilled")
SHADOW_DOWNSCALE = 4      # the tray's soft shadow is drawn at 1/4 resolution
TABLE_TEXTURE_PX = 560   # side of the table texture (it is blurred by the warp anyway)

# Tray looks: (BGR colour, opacity of the body, BGR of the grid walls, their opacity)
TRAYS = {
    "orange": ((20, 125, 245), 1.0, (15, 115, 235), 1.0),
    "blue": ((170, 60, 15), 1.0, (160, 55, 15), 1.0),
    "navy": ((95, 30, 15), 1.0, (90, 28, 15), 1.0),
    "black": ((28, 28, 28), 1.0, (30, 30, 30), 1.0),
    "clear": ((215, 215, 210), 0.30, (40, 120, 240), 0.75),
}
TRAYS_BY_SIZE = {4: ("orange",) * 5 + ("navy", "blue", "black", "clear"),
                 5: ("blue", "blue", "navy", "clear", "clear", "black", "orange"),
                 6: ("blue", "blue", "navy", "black", "clear", "orange")}
CUBE_COLOURS = {"white": (238, 241, 243), "cream": (200, 226, 238), "pearl": (222, 222, 215),
                "ivory": (215, 235, 245), "wood": (105, 160, 210)}
INKS = {"black": (22, 22, 22), "navy": (95, 35, 20), "blue": (175, 75, 20), "teal": (125, 115, 10),
        "red": (35, 35, 185)}


@dataclass(frozen=True)
class SynthConfig:
    """What varies between renders, and how often (probabilities 0..1)."""

    long_side: int | tuple[int, int] = 1000     # px, or a (lo, hi) range
    max_tilt_deg: float = 35.0
    negative_p: float = 0.08
    pocket_p: float = 0.05
    challenge_p: float = 0.08
    bonus_p: float = 0.12
    cut_off_p: float = 0.15
    hand_p: float = 0.08
    all_upright_p: float = 0.2
    size_weights: tuple[float, float, float] = (0.45, 0.30, 0.25)   # 4x4, 5x5, 6x6
    font_dirs: tuple[str, ...] = ()
    effects: EffectsConfig = field(default_factory=EffectsConfig)


@dataclass
class _Geometry:
    n: int
    cube: float        # cube edge, pitches
    floor: float       # height of the well floors
    wall: float        # height of the tray top / grid walls
    rim: float         # tray rim width beyond the grid, pitches
    radius: float      # tray corner radius, pitches

    @property
    def top(self) -> float:
        return self.floor + self.cube

    @property
    def half(self) -> float:
        return self.n / 2 + self.rim


def _pick(rng: np.random.Generator, options):
    return options[int(rng.integers(len(options)))]


def _rounded_rect(half_w: float, half_h: float, r: float, k: int = 8) -> np.ndarray:
    """Outline (4k, 2) of a rounded rectangle centred on 0, clockwise from top-left."""
    r = min(r, half_w, half_h)
    pts = []
    for cx, cy, a0 in ((-half_w + r, -half_h + r, 180), (half_w - r, -half_h + r, 270),
                       (half_w - r, half_h - r, 0), (-half_w + r, half_h - r, 90)):
        for t in np.linspace(a0, a0 + 90, k):
            pts.append((cx + r * np.cos(np.radians(t)), cy + r * np.sin(np.radians(t))))
    return np.array(pts)


def _at(xy: np.ndarray, h: float) -> np.ndarray:
    """World points (K, 3) from (K, 2) XY at height h."""
    xy = np.asarray(xy, np.float64).reshape(-1, 2)
    return np.column_stack([xy, np.full(len(xy), -h)])


def _face_style(rng: np.random.Generator, fonts: tuple[str, ...], edition: str) -> FaceStyle:
    colour_name = _pick(rng, ("white", "white", "white", "cream", "pearl", "ivory", "wood"))
    wood = colour_name == "wood"
    ink_name = _pick(rng, ("black",) * 8 + ("navy",) * 3 + ("blue",) * 3 + ("teal", "red")) if not wood \
        else _pick(rng, ("black", "navy"))
    cube = np.array(CUBE_COLOURS[colour_name], np.float64) * rng.uniform(0.93, 1.05) + rng.uniform(-6, 6, 3)
    return FaceStyle(cube_bgr=tuple(float(v) for v in np.clip(cube, 0, 255)), ink_bgr=INKS[ink_name],
                     font_path=_pick(rng, fonts), letter_height=rng.uniform(0.42, 0.56),
                     corner_radius=rng.uniform(0.16, 0.32), bevel=rng.uniform(0.10, 0.22),
                     bevel_dark=rng.uniform(0.12, 0.40), wood=wood, underline=edition)


def _tile_px(quad: np.ndarray) -> int:
    edge = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]),
               np.linalg.norm(quad[2] - quad[1]))
    return int(np.clip(np.ceil(edge * 1.05 / 8) * 8, 16, 512))


@dataclass
class _Cube:
    xy: np.ndarray          # centre (X, Y) in world units
    yaw: float              # radians, twist in its cell
    base: float             # height of its bottom
    hidden_below: float     # sides hidden below this height (tray walls)
    face: str
    others: tuple[str, ...]
    turn: int
    style: FaceStyle
    ring: bool = False


def _draw_cube(img: np.ndarray, cam: Camera, c: _Cube, size: float, rng: np.random.Generator,
               light: np.ndarray, glare_at: np.ndarray | None, glare: float) -> np.ndarray:
    """Draw one cube (visible sides, then top) in place; returns its top quad (4, 2)."""
    h2 = size / 2
    cs, sn = np.cos(c.yaw), np.sin(c.yaw)
    rot = np.array([[cs, -sn], [sn, cs]])
    local = np.array([[-h2, -h2], [h2, -h2], [h2, h2], [-h2, h2]])
    corners = local @ rot.T + c.xy
    top_h = c.base + size
    top_quad = cam.project(_at(corners, top_h))
    low = max(c.hidden_below, c.base)
    cam_xy = cam.C[:2]
    for i in range(4):
        p, q = corners[i], corners[(i + 1) % 4]
        mid = (p + q) / 2
        normal = mid - c.xy
        normal /= np.linalg.norm(normal)
        if normal @ (cam_xy - mid) <= 1e-6 or top_h - low < 0.02:
            continue
        quad = cam.project(np.vstack([_at(q, top_h), _at(p, top_h), _at(p, low), _at(q, low)]))
        s = _tile_px(quad)
        frac = (top_h - low) / size
        bright = 0.55 + 0.3 * max(0.0, float(normal @ light[:2])) + rng.uniform(-0.05, 0.05)
        visible_px = np.linalg.norm(quad[3] - quad[0])
        other = _pick(rng, c.others) if c.others else "#"
        tile = face_tile(s, other, int(rng.integers(4)) * 90, c.style, rng,
                         TileExtras(brightness=bright, light_xy=(0.0, -1.0)), inked=visible_px > 4)
        src = np.array([[0, 0], [s, 0], [s, s * frac], [0, s * frac]], np.float32)
        paste_quad(img, tile, quad, src)
    s = _tile_px(top_quad)
    ex = TileExtras(brightness=rng.uniform(0.95, 1.05), light_xy=tuple(light[:2] @ rot))
    if c.ring:
        ex.ring_bgr = (40, 40, 200)
    if glare_at is not None and glare > 0:
        d = glare_at - c.xy
        dist = float(np.linalg.norm(d))
        strength = glare * np.exp(-dist ** 2 / 4.0)
        if strength > 0.03:
            dl = (d / max(dist, 1e-6)) @ rot * min(0.3, dist * 0.15)
            ex.glare, ex.glare_xy = float(strength), (0.5 + dl[0], 0.5 + dl[1])
    tile = face_tile(s, c.face, c.turn, c.style, rng, ex)
    paste_quad(img, tile, top_quad)
    return top_quad


def _warp_canvas(img: np.ndarray, canvas: np.ndarray, H_world: np.ndarray, px_per_unit: float,
                 origin: float, opacity: float = 1.0) -> None:
    """Warp a top-down BGRA canvas (world square [-origin, +origin]^2) onto img in place."""
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
    from .camera import blend
    blend(img[y0:y1, x0:x1], warped, opacity)


def _tray_canvas(g: _Geometry, look: str, ppu: float, rng: np.random.Generator,
                 empty_cells: set[int]) -> np.ndarray:
    """Top-down BGRA canvas of the tray top (rim, grid walls, wells), size 2*half*ppu."""
    colour, body_a, grid_col, grid_a = TRAYS[look]
    colour = np.clip(np.array(colour) * rng.uniform(0.85, 1.12), 0, 255)
    size = int(np.ceil(2 * g.half * ppu))
    canvas = np.zeros((size, size, 4), np.uint8)
    c = size / 2
    outline = (_rounded_rect(g.half, g.half, g.radius) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [outline], (*colour, 255 * body_a), cv2.LINE_AA)
    inner = (_rounded_rect(g.half - g.rim * 0.35, g.half - g.rim * 0.35, g.radius * 0.7) * ppu + c).astype(np.int32)
    cv2.polylines(canvas, [inner], True, (*np.clip(colour * 1.25 + 15, 0, 255), 255 * body_a),
                  max(1, int(ppu * 0.04)), cv2.LINE_AA)
    grid = (_rounded_rect(g.n / 2 + 0.05, g.n / 2 + 0.05, 0.15) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [grid], (*grid_col, 255 * grid_a), cv2.LINE_AA)
    wall_t = rng.uniform(0.05, 0.12)
    well = colour * rng.uniform(0.30, 0.55)
    well_a = 255 * (0.55 if body_a < 1 else 1.0)
    for r in range(g.n):
        for col in range(g.n):
            x = (col - g.n / 2 + wall_t / 2) * ppu + c
            y = (r - g.n / 2 + wall_t / 2) * ppu + c
            s = (1 - wall_t) * ppu
            shade = well * (0.6 if (r * g.n + col) in empty_cells else 1.0)
            if body_a < 1:
                shade = np.array((60, 60, 60), np.float64)
            cv2.rectangle(canvas, (int(x), int(y)), (int(x + s), int(y + s)), (*shade, well_a), -1, cv2.LINE_AA)
    return canvas


def _pocket_canvas(g: _Geometry, ppu: float, rng: np.random.Generator, faces: list[str],
                   style: FaceStyle) -> np.ndarray:
    """Top-down BGRA canvas of a Pocket Boggle frame: four strips, upright letters."""
    colour = np.array(_pick(rng, ((40, 40, 180), (160, 70, 20), (30, 30, 30), (40, 140, 40), (20, 120, 240))), np.float64)
    size = int(np.ceil(2 * g.half * ppu))
    canvas = np.zeros((size, size, 4), np.uint8)
    c = size / 2
    outline = (_rounded_rect(g.half, g.half, g.radius) * ppu + c).astype(np.int32)
    cv2.fillPoly(canvas, [outline], (*colour, 255), cv2.LINE_AA)
    strip = np.array(style.cube_bgr)
    for r in range(g.n):
        y0 = (r - g.n / 2 + 0.04) * ppu + c
        cv2.rectangle(canvas, (int(c - g.n / 2 * ppu), int(y0)), (int(c + g.n / 2 * ppu), int(y0 + 0.92 * ppu)),
                      (*strip * 0.9, 255), -1, cv2.LINE_AA)
        for col in range(g.n):
            s = max(8, int(0.86 * ppu))
            tile = face_tile(s, faces[r * g.n + col], 0, style, rng, TileExtras(brightness=1.0))
            x = int((col - g.n / 2 + 0.07) * ppu + c)
            y = int(y0 + 0.03 * ppu)
            roi = canvas[y:y + s, x:x + s]
            t = tile[:roi.shape[0], :roi.shape[1]]
            a = t[..., 3:4].astype(np.float32) / 255
            roi[..., :3] = (roi[..., :3] * (1 - a) + t[..., :3] * a).astype(np.uint8)
    return canvas


def _sample_camera(rng: np.random.Generator, cfg: SynthConfig, w: int, h: int, g: _Geometry,
                   cut_off: bool) -> Camera:
    """A camera that sees the board (every cube centre in the frame)."""
    long_side, short = max(w, h), min(w, h)
    grid_pts = _at(np.array([[x, y] for x in (-g.n / 2, g.n / 2) for y in (-g.n / 2, g.n / 2)]), g.top)
    centres = _at(np.array([[c - (g.n - 1) / 2, r - (g.n - 1) / 2] for r in range(g.n) for c in range(g.n)]), g.top)
    cam = None
    for attempt in range(40):
        focal = long_side * rng.uniform(0.75, 1.3)
        tilt = rng.uniform(0, 6) if rng.random() < 0.3 else rng.uniform(0, cfg.max_tilt_deg)
        roll = (int(rng.integers(4)) * 90 + rng.normal(0, 6)) if rng.random() < 0.5 else rng.uniform(0, 360)
        if cut_off and attempt < 30:
            frac = rng.uniform(1.0, 1.15) * (2 * g.half) / g.n
        else:
            frac = rng.uniform(0.3, 0.95)
        dist = focal * 2 * g.half / (frac * short)
        half_view = dist * short / (2 * focal)
        slack = max(0.0, half_view - g.half) * 0.9
        target = np.array([rng.uniform(-slack, slack), rng.uniform(-slack, slack), -g.wall]) if slack > 0 \
            else np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), -g.wall])
        cam = look_at_camera(w, h, focal, tilt, rng.uniform(0, 360), roll, target, dist)
        pc = cam.project(centres)
        inside = (pc[:, 0] > 2) & (pc[:, 0] < w - 2) & (pc[:, 1] > 2) & (pc[:, 1] < h - 2)
        if not inside.all():
            continue
        if not cut_off:
            gp = cam.project(grid_pts)
            if not ((gp[:, 0] > 0) & (gp[:, 0] < w) & (gp[:, 1] > 0) & (gp[:, 1] < h)).all():
                continue
        return cam
    # fall back: straight down, centred, comfortably small
    focal = long_side
    return look_at_camera(w, h, focal, 10, 0, 0, np.array([0, 0, -g.wall]), focal * 2 * g.half / (0.6 * short))


def _upright_frame(faces, turns, centres, corners):
    """Relabel the grid (quarter turns) so that most letters read upright.

    faces/turns/centres: N x N lists in the render's frame; corners (4, 2). Turning
    the view a quarter clockwise makes the old left column the top row and adds 90
    degrees to every turn. Returns the four arguments in the chosen frame and the
    number of quarter turns applied.
    """
    best = max(range(4), key=lambda k: (sum(((t + 90 * k) % 360 == 0) for row in turns for t in row), -k))
    for _ in range(best):
        faces = [list(r) for r in zip(*faces[::-1])]
        turns = [[(t + 90) % 360 for t in r] for r in zip(*turns[::-1])]
        centres = [list(r) for r in zip(*centres[::-1])]
        corners = corners[[3, 0, 1, 2]]
    return faces, turns, centres, corners, best


def render_photo(rng: np.random.Generator, size: int | None = None, set_name: str | None = None,
                 long_side: int | None = None, kind: str | None = None,
                 config: SynthConfig = SynthConfig()) -> tuple[np.ndarray, dict]:
    """Render one photo and its truth. See the package docstring for the truth keys."""
    cfg = config
    fonts = find_fonts(tuple(cfg.font_dirs))
    if set_name is not None and set_name not in cubesets.set_names():
        raise UsageError(f"unknown cube set {set_name!r}", "choose one of " + ", ".join(cubesets.set_names()))
    if size is not None and size not in (4, 5, 6):
        raise UsageError(f"board size {size} cannot be rendered", "use 4, 5 or 6")
    if kind is None:
        u = rng.random()
        if set_name == cubesets.POCKET_SET:
            kind = "pocket"
        elif u < cfg.negative_p:
            kind = _pick(rng, NEGATIVE_KINDS)
        elif u < cfg.negative_p + cfg.pocket_p and size in (None, 4) and set_name is None:
            kind = "pocket"
        else:
            kind = "tray"
    if kind not in KINDS:
        raise UsageError(f"unknown render kind {kind!r}", "one of " + ", ".join(KINDS))
    if kind == "pocket":
        set_name = cubesets.POCKET_SET
    if set_name is not None:
        n = cubesets.size_of(set_name)
        if size is not None and size != n:
            raise UsageError(f"cube set {set_name} makes {n}x{n} boards, not {size}x{size}")
    else:
        n = size or int(rng.choice([4, 5, 6], p=np.array(cfg.size_weights) / sum(cfg.size_weights)))
        set_name = _pick(rng, cubesets.sets_of_size(n))

    ls = long_side or cfg.long_side
    ls = int(rng.integers(ls[0], ls[1] + 1)) if isinstance(ls, tuple) else int(ls)
    aspect = _pick(rng, (4 / 3, 4 / 3, 1.0, 16 / 9, 3 / 2))
    w, h = ls, int(round(ls / aspect))
    if rng.random() < 0.5:
        w, h = h, w

    edition = _pick(rng, cubesets.UNDERLINE_EDITIONS)
    style = _face_style(rng, fonts, edition)
    pocket = kind == "pocket"
    g = _Geometry(n=n, cube=rng.uniform(0.80, 0.90), floor=0.10, wall=rng.uniform(0.30, 0.55),
                  rim=rng.uniform(0.3, 0.9), radius=rng.uniform(0.2, 1.0))
    if pocket:
        g.floor, g.cube, g.wall, g.rim, g.radius = 0.0, 0.12, 0.12, rng.uniform(0.2, 0.5), rng.uniform(0.1, 0.4)
    challenge = (not pocket) and rng.random() < cfg.challenge_p
    upright = pocket or rng.random() < cfg.all_upright_p
    rolled, challenge_idx = cubesets.roll(rng, set_name, upright=upright, challenge=challenge)
    bonus = set()
    if not pocket and rng.random() < cfg.bonus_p:
        bonus = {int(i) for i in rng.choice(n * n, size=int(rng.integers(1, 3)), replace=False)}
        bonus.discard(challenge_idx)

    has_tray = not (kind == "spilled" and rng.random() < 0.6)
    empty: set[int] = set()
    if kind == "empty-tray":
        empty = set(range(n * n))
    elif kind == "incomplete":
        k = int(rng.integers(1, max(2, n * n * 6 // 10)))
        empty = {int(i) for i in rng.choice(n * n, size=k, replace=False)}
    elif kind == "spilled":
        empty = set(range(n * n))

    cut_off = kind == "tray" and rng.random() < cfg.cut_off_p
    cam = _sample_camera(rng, cfg, w, h, g, cut_off)
    ppu = float(cam.K[0, 0] / cam.depth(np.array([0.0, 0.0, -g.top])))  # photo px per pitch at the board

    # the table: a texture covering what the camera sees of Z = 0
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h], [w / 2, h / 2]], np.float64)
    seen = cam.back_project(frame, 0.0)
    ext = float(np.clip(np.abs(seen).max() + 1, g.half + 1, 80))
    tpu = float(min(ppu, TABLE_TEXTURE_PX / (2 * ext)))
    tsize = int(np.ceil(2 * ext * tpu))
    table, table_kind = table_texture(rng, tsize, tsize, tpu)
    tc = tsize / 2
    keep = (tc - g.half * tpu, tc - g.half * tpu, tc + g.half * tpu, tc + g.half * tpu)
    add_clutter(rng, table, tpu, keep if has_tray else (tc, tc, tc, tc))
    hand = has_tray and rng.random() < cfg.hand_p
    if hand:
        ang = rng.uniform(0, 2 * np.pi)
        anchor = (tc + np.cos(ang) * g.half * tpu * 0.9, tc + np.sin(ang) * g.half * tpu * 0.9)
        draw_hand(rng, table, anchor, ang + np.pi + rng.normal(0, 0.3), g.half * tpu * 0.9)
    img = np.zeros((h, w, 3), np.uint8)
    A = np.array([[1 / tpu, 0, -ext], [0, 1 / tpu, -ext], [0, 0, 1]])
    img = cv2.warpPerspective(table, cam.plane_homography(0.0) @ A, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)

    light = np.array([*rng.normal(0, 1, 2), 1.0])
    light[:2] /= max(np.linalg.norm(light[:2]), 1e-6)
    tray_look = "pocket" if pocket else _pick(rng, TRAYS_BY_SIZE[n])
    if has_tray:
        foot = _rounded_rect(g.half, g.half, g.radius)
        # shadow on the table
        sh_off = light[:2] * -g.wall * rng.uniform(0.6, 2.5)
        q = SHADOW_DOWNSCALE
        sp = (cam.project(_at(foot + sh_off, 0.0)) / q).astype(np.int32)
        mask = np.zeros((h // q + 1, w // q + 1), np.float32)
        cv2.fillPoly(mask, [sp], 1.0, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), max(0.7, ppu / q * rng.uniform(0.05, 0.5)))
        mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
        depth = rng.uniform(0.25, 0.6)
        img = cv2.multiply(img, cv2.merge([1 - depth * mask] * 3), dtype=cv2.CV_8U)
        # the outer walls of the slab
        base_h = 0.0
        wall_pts = np.vstack([cam.project(_at(foot, base_h)), cam.project(_at(foot, g.wall))]).astype(np.float32)
        hull = cv2.convexHull(wall_pts).astype(np.int32)
        colour = np.array((40, 40, 40) if pocket else TRAYS[tray_look][0], np.float64)
        opac = 1.0 if pocket else TRAYS[tray_look][1]
        layer = img.copy()
        cv2.fillConvexPoly(layer, hull, tuple(colour * rng.uniform(0.45, 0.7)), cv2.LINE_AA)
        img = cv2.addWeighted(layer, opac, img, 1 - opac, 0) if opac < 1 else layer
        tppu = float(np.clip(ppu, 6, 1100 / (2 * g.half)))
        if pocket:
            faces_rm = [rc.face for rc in rolled]
            canvas = _pocket_canvas(g, tppu, rng, faces_rm, style)
        else:
            canvas = _tray_canvas(g, tray_look, tppu, rng, empty)
        _warp_canvas(img, canvas, cam.plane_homography(g.wall), tppu, g.half)

    # the cubes
    cubes: list[_Cube] = []
    if not pocket:
        for i, rc in enumerate(rolled):
            if i in empty:
                continue
            r, c = divmod(i, n)
            slack = (1 - g.cube) / 2 * 0.8
            xy = np.array([c - (n - 1) / 2, r - (n - 1) / 2]) + rng.uniform(-slack, slack, 2)
            st = style
            if i == challenge_idx:
                st = FaceStyle(**{**style.__dict__, "cube_bgr": (45, 45, 190), "ink_bgr": (235, 238, 240), "wood": False})
            cubes.append(_Cube(xy, float(np.radians(np.clip(rng.normal(0, 4), -10, 10))), g.floor, g.wall,
                               rc.face, rc.others, rc.turn, st, ring=i in bonus))
        loose = 0
        if kind == "spilled":
            loose = int(rng.integers(5, n * n + 1))
        elif kind == "incomplete":
            loose = int(rng.integers(0, 5))
        for j in range(loose):
            rc = rolled[int(rng.integers(len(rolled)))]
            for _t in range(10):
                ang, rad = rng.uniform(0, 2 * np.pi), rng.uniform(0 if not has_tray else g.half + 0.8, g.half + 4)
                xy = np.array([np.cos(ang), np.sin(ang)]) * rad
                if all(np.linalg.norm(xy - o.xy) > g.cube * 1.5 for o in cubes if o.base == 0):
                    break
            cubes.append(_Cube(xy, rng.uniform(0, np.pi / 2), 0.0, 0.0, rc.face, rc.others,
                               int(rng.integers(4)) * 90, style))
    glare = rng.uniform(0.2, 0.9) if rng.random() < 0.5 else 0.0
    glare_at = rng.uniform(-n / 2, n / 2, 2)
    order = sorted(range(len(cubes)), key=lambda k: -cam.depth(_at(cubes[k].xy, cubes[k].base + g.cube))[0])
    for k in order:
        _draw_cube(img, cam, cubes[k], g.cube, rng, light, glare_at, glare)

    img = camera_effects(img, rng, cfg.effects)

    truth: dict = {"size": n, "kind": kind, "set": set_name, "image_size": [w, h],
                   "tray": tray_look if has_tray else None, "background": table_kind,
                   "camera": {"tilt_deg": None, "px_per_pitch": round(ppu, 2)}}
    tilt = float(np.degrees(np.arccos(np.clip(cam.R[2, 2], -1, 1))))
    truth["camera"]["tilt_deg"] = round(tilt, 2)
    corners = cam.project(_at(np.array([[-n / 2, -n / 2], [n / 2, -n / 2], [n / 2, n / 2], [-n / 2, n / 2]]), g.top))
    if kind in ("tray", "pocket"):
        faces = [[rolled[r * n + c].face for c in range(n)] for r in range(n)]
        turns = [[rolled[r * n + c].turn for c in range(n)] for r in range(n)]
        cxy = {(int(round(cb.xy[1] + (n - 1) / 2)), int(round(cb.xy[0] + (n - 1) / 2))): cb for cb in cubes}
        centres = []
        for r in range(n):
            row = []
            for c in range(n):
                xy = cxy[(r, c)].xy if (r, c) in cxy else np.array([c - (n - 1) / 2, r - (n - 1) / 2])
                p = cam.project(_at(xy, g.top))[0]
                row.append([round(float(p[0]), 2), round(float(p[1]), 2)])
            centres.append(row)
        marks = np.zeros((n, n), np.int8)
        for i in bonus:
            marks[i // n, i % n] = 1
        if challenge_idx is not None:
            marks[challenge_idx // n, challenge_idx % n] = 2
        faces, turns, centres, corners, k = _upright_frame(faces, turns, centres, corners)
        tmp = marks.tolist()
        for _ in range(k):
            tmp = [list(r) for r in zip(*tmp[::-1])]
        truth.update(faces=faces, turns=turns, centres=centres,
                     bonus=[[r, c] for r in range(n) for c in range(n) if tmp[r][c] == 1],
                     challenge=next(([r, c] for r in range(n) for c in range(n) if tmp[r][c] == 2), None),
                     no_board=None)
    else:
        truth.update(faces=None, turns=None, centres=None, bonus=[], challenge=None, no_board=kind)
        if not has_tray:
            truth["size"] = None
    truth["corners"] = [[round(float(x), 2), round(float(y), 2)] for x, y in corners] if has_tray else None
    truth["underline"] = edition
    truth["font"] = style.font_path.rsplit("/", 1)[-1]
    truth["hand"] = bool(hand)
    truth["cut_off"] = bool(((corners < 0) | (corners > [w, h])).any()) if has_tray else False
    return img, truth

