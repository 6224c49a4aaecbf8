"""Render one synthetic photo of a Boggle tray, with its truth.

The scene is built in 3-D (world frame in camera.py, units of one cell pitch): a
table texture on Z = 0 (backgrounds.py), a tray whose top, with its grid of wells,
is at the wall height (tray.py), cubes standing in the wells, tops at
`floor + cube` (cubes.py), seen by a random camera (framing.py). Then light, blur,
noise and JPEG (effects.py). Shapes: geometry.py; colours: looks.py; the cube sets:
cubesets.py (from boggle_cv.game.dice); the truth: truth.py.

Truth (a dict, JSON-ready; see `render_photo`) is reported in the board's frame
chosen so that most letters read upright, as in ../shared/real-photos/truth.json.
All randomness comes from the Generator passed in, drawn in a fixed order, so the
same seed gives the same pixels.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from ..errors import UsageError
from . import cubesets
from .backgrounds import add_clutter, draw_hand, table_texture
from .camera import Camera
from .cubes import draw_cubes, place_cubes
from .effects import EffectsConfig, camera_effects
from .fonts import find_fonts
from .framing import sample_camera
from .geometry import TrayGeometry, draw_geometry
from .looks import TRAYS_BY_SIZE, face_style, pick
from .tray import draw_tray
from .truth import CameraTruth, PhotoTruth, board_truth, grid_corners, is_cut_off, photo_corners

KINDS = ("tray", "pocket", "empty-tray", "incomplete", "spilled")
NEGATIVE_KINDS = ("empty-tray", "incomplete", "spilled")
SIZES = (4, 5, 6)
ASPECTS = (4 / 3, 4 / 3, 1.0, 16 / 9, 3 / 2)   # photo width / height, drawn uniformly
PORTRAIT_P = 0.5                 # chance the photo is taken upright (portrait)
NO_TRAY_P = 0.6                  # chance a spilled photo shows no tray at all
INCOMPLETE_EMPTY_PCT = 60        # an incomplete tray misses 1..this % of its cubes
TABLE_TEXTURE_PX = 560           # side of the table texture (it is blurred by the warp anyway)
TABLE_MAX_EXTENT = 80.0          # the table reaches at most this far from the board, pitches
HAND_REACH = 0.9                 # a hand reaches in from this x the tray's half width ...
HAND_AIM_SIGMA = 0.3             # ... pointing at the board +- this (radians)
MAX_BONUS = 2                    # at most this many bonus rings


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
    lone_q_p: float = 0.5            # a French set's render prints its Qu face as a lone "Q"
    size_weights: tuple[float, float, float] = (0.45, 0.30, 0.25)   # 4x4, 5x5, 6x6
    font_dirs: tuple[str, ...] = ()
    effects: EffectsConfig = field(default_factory=EffectsConfig)


def _what_to_draw(rng: np.random.Generator, cfg: SynthConfig, size: int | None,
                  set_name: str | None, kind: str | None) -> tuple[str, str, int]:
    """(kind, set name, board size N) of a render, drawing what was not given;
    UsageError for an unknown set or kind, a size other than 4-6, or a set of
    another size."""
    if set_name is not None and set_name not in cubesets.set_names():
        raise UsageError(f"unknown cube set {set_name!r}", "choose one of " + ", ".join(cubesets.set_names()))
    if size is not None and size not in SIZES:
        raise UsageError(f"board size {size} cannot be rendered", "use 4, 5 or 6")
    if kind is None:
        u = rng.random()
        if set_name == cubesets.POCKET_SET:
            kind = "pocket"
        elif u < cfg.negative_p:
            kind = pick(rng, NEGATIVE_KINDS)
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
        n = size or int(rng.choice(list(SIZES), p=np.array(cfg.size_weights) / sum(cfg.size_weights)))
        set_name = pick(rng, cubesets.sets_of_size(n))
    return kind, set_name, n


def _photo_size(rng: np.random.Generator, long_side: int | tuple[int, int]) -> tuple[int, int]:
    """(w, h) pixels: long side (or a draw from its (lo, hi) range), an aspect from
    ASPECTS, landscape or portrait."""
    ls = int(rng.integers(long_side[0], long_side[1] + 1)) if isinstance(long_side, tuple) else int(long_side)
    aspect = pick(rng, ASPECTS)
    w, h = ls, int(round(ls / aspect))
    if rng.random() < PORTRAIT_P:
        w, h = h, w
    return w, h


def _empty_cells(rng: np.random.Generator, kind: str, n: int) -> set[int]:
    """Row-major indices of the wells without a cube."""
    if kind in ("empty-tray", "spilled"):
        return set(range(n * n))
    if kind == "incomplete":
        k = int(rng.integers(1, max(2, n * n * INCOMPLETE_EMPTY_PCT // 100)))
        return {int(i) for i in rng.choice(n * n, size=k, replace=False)}
    return set()


def _table_photo(rng: np.random.Generator, cam: Camera, g: TrayGeometry, ppu: float,
                 has_tray: bool, hand_p: float) -> tuple[npt.NDArray[np.uint8], str, bool]:
    """The photo of the bare table: (uint8 (H, W, 3) BGR, texture kind, hand drawn?).

    The texture covers what the camera sees of Z = 0 (at most TABLE_MAX_EXTENT
    pitches out), at no more than ppu texels per pitch; the tray's footprint is kept
    free of clutter.
    """
    w, h = cam.width, cam.height
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h], [w / 2, h / 2]], np.float64)
    seen = cam.back_project(frame, 0.0)
    ext = float(np.clip(np.abs(seen).max() + 1, g.half + 1, TABLE_MAX_EXTENT))
    tpu = float(min(ppu, TABLE_TEXTURE_PX / (2 * ext)))
    tsize = int(np.ceil(2 * ext * tpu))
    table, table_kind = table_texture(rng, tsize, tsize, tpu)
    tc = tsize / 2
    keep = (tc - g.half * tpu, tc - g.half * tpu, tc + g.half * tpu, tc + g.half * tpu)
    add_clutter(rng, table, tpu, keep if has_tray else (tc, tc, tc, tc))
    hand = has_tray and rng.random() < hand_p
    if hand:
        ang = rng.uniform(0, 2 * np.pi)
        anchor = (tc + np.cos(ang) * g.half * tpu * HAND_REACH, tc + np.sin(ang) * g.half * tpu * HAND_REACH)
        draw_hand(rng, table, anchor, ang + np.pi + rng.normal(0, HAND_AIM_SIGMA), g.half * tpu * HAND_REACH)
    A = np.array([[1 / tpu, 0, -ext], [0, 1 / tpu, -ext], [0, 0, 1]])
    img = cv2.warpPerspective(table, cam.plane_homography(0.0) @ A, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    return np.asarray(img, np.uint8), table_kind, hand


def render_photo(rng: np.random.Generator, size: int | None = None, set_name: str | None = None,
                 long_side: int | tuple[int, int] | None = None, kind: str | None = None,
                 config: SynthConfig = SynthConfig(),
                 lone_q: bool | None = None) -> tuple[npt.NDArray[np.uint8], PhotoTruth]:
    """Render one photo: (uint8 (H, W, 3) BGR, its truth). See the package docstring
    for the arguments and the truth keys; UsageError for a bad argument,
    EngineMissingError without Pillow or fonts.

    lone_q: print the Qu face as a lone "Q" (True), never (False), or as some French
    dice do (None: for a French set, with probability config.lone_q_p; the truth's
    face is "Qu" either way). Renders of the other editions' sets draw nothing more
    from `rng` for it, so they are the same as before the option."""
    cfg = config
    fonts = find_fonts(tuple(cfg.font_dirs))
    kind, set_name, n = _what_to_draw(rng, cfg, size, set_name, kind)
    w, h = _photo_size(rng, long_side or cfg.long_side)

    edition = pick(rng, cubesets.UNDERLINE_EDITIONS)
    style = face_style(rng, fonts, edition)
    if lone_q is None:
        lone_q = cubesets.edition_of(set_name) == "fr" and rng.random() < cfg.lone_q_p
    if lone_q:
        style = replace(style, lone_q=True)
    pocket = kind == "pocket"
    g = draw_geometry(rng, n, pocket)
    challenge = (not pocket) and rng.random() < cfg.challenge_p
    upright = pocket or rng.random() < cfg.all_upright_p
    rolled, challenge_idx = cubesets.roll(rng, set_name, upright=upright, challenge=challenge)
    bonus: set[int] = set()
    if not pocket and rng.random() < cfg.bonus_p:
        bonus = {int(i) for i in rng.choice(n * n, size=int(rng.integers(1, MAX_BONUS + 1)), replace=False)}
        if challenge_idx is not None:
            bonus.discard(challenge_idx)

    has_tray = not (kind == "spilled" and rng.random() < NO_TRAY_P)
    empty = _empty_cells(rng, kind, n)
    cut_off = kind == "tray" and rng.random() < cfg.cut_off_p
    cam = sample_camera(rng, cfg.max_tilt_deg, w, h, g, cut_off)
    ppu = float(cam.K[0, 0] / cam.depth(np.array([0.0, 0.0, -g.top])))  # photo px per pitch at the board

    img, table_kind, hand = _table_photo(rng, cam, g, ppu, has_tray, cfg.hand_p)
    light = np.array([*rng.normal(0, 1, 2), 1.0])
    light[:2] /= max(np.linalg.norm(light[:2]), 1e-6)
    tray_look = "pocket" if pocket else pick(rng, TRAYS_BY_SIZE[n])
    if has_tray:
        img = draw_tray(img, rng, cam, g, tray_look, light, ppu, empty,
                        [rc.face for rc in rolled] if pocket else None, style)
    cubes = [] if pocket else place_cubes(rng, rolled, g, empty, challenge_idx, bonus, style, kind, has_tray)
    draw_cubes(img, rng, cam, cubes, g, light)
    img = camera_effects(img, rng, cfg.effects)

    tilt = float(np.degrees(np.arccos(np.clip(cam.R[2, 2], -1, 1))))
    camera = CameraTruth(tilt_deg=round(tilt, 2), px_per_pitch=round(ppu, 2))
    corners = grid_corners(cam, g)
    board = None
    if kind in ("tray", "pocket"):
        board, corners = board_truth(rolled, cubes, bonus, challenge_idx, cam, g)
    truth = PhotoTruth(
        size=n if has_tray else None, kind=kind, set=set_name,
        image_size=[w, h], tray=tray_look if has_tray else None, background=table_kind, camera=camera,
        faces=board.faces if board else None, turns=board.turns if board else None,
        centres=board.centres if board else None, bonus=board.bonus if board else [],
        challenge=board.challenge if board else None, no_board=None if board else kind,
        corners=photo_corners(corners) if has_tray else None, underline=edition,
        font=style.font_path.rsplit("/", 1)[-1], hand=bool(hand),
        cut_off=is_cut_off(corners, w, h) if has_tray else False)
    return img, truth
