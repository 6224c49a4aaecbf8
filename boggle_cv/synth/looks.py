"""How trays and cubes look: colours of trays, cubes and inks, and drawing one.

Colours are BGR (OpenCV order), 0..255. A choice tuple lists an option once per
share it gets (("white",) * 3 + ("cream",) draws white 3 times in 4).
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple, Sequence, TypeVar

import numpy as np

from .tiles import FaceStyle

T = TypeVar("T")


class TrayLook(NamedTuple):
    """A tray's colours: its body and its grid walls, each with an opacity 0..1."""

    body_bgr: tuple[int, int, int]
    body_opacity: float
    grid_bgr: tuple[int, int, int]
    grid_opacity: float


TRAYS: dict[str, TrayLook] = {
    "orange": TrayLook((20, 125, 245), 1.0, (15, 115, 235), 1.0),
    "blue": TrayLook((170, 60, 15), 1.0, (160, 55, 15), 1.0),
    "navy": TrayLook((95, 30, 15), 1.0, (90, 28, 15), 1.0),
    "black": TrayLook((28, 28, 28), 1.0, (30, 30, 30), 1.0),
    "clear": TrayLook((215, 215, 210), 0.30, (40, 120, 240), 0.75),
}
TRAYS_BY_SIZE: dict[int, tuple[str, ...]] = {
    4: ("orange",) * 5 + ("navy", "blue", "black", "clear"),
    5: ("blue", "blue", "navy", "clear", "clear", "black", "orange"),
    6: ("blue", "blue", "navy", "black", "clear", "orange")}
POCKET_FRAMES: tuple[tuple[int, int, int], ...] = (
    (40, 40, 180), (160, 70, 20), (30, 30, 30), (40, 140, 40), (20, 120, 240))
POCKET_WALL_BGR = (40, 40, 40)   # the outer wall of a Pocket Boggle frame

CUBE_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (238, 241, 243), "cream": (200, 226, 238), "pearl": (222, 222, 215),
    "ivory": (215, 235, 245), "wood": (105, 160, 210)}
CUBE_COLOUR_CHOICES = ("white", "white", "white", "cream", "pearl", "ivory", "wood")
INKS: dict[str, tuple[int, int, int]] = {
    "black": (22, 22, 22), "navy": (95, 35, 20), "blue": (175, 75, 20), "teal": (125, 115, 10),
    "red": (35, 35, 185)}
INK_CHOICES = ("black",) * 8 + ("navy",) * 3 + ("blue",) * 3 + ("teal", "red")
WOOD_INK_CHOICES = ("black", "navy")
CHALLENGE_CUBE_BGR = (45, 45, 190)     # the red challenge cube ...
CHALLENGE_INK_BGR = (235, 238, 240)    # ... with white letters
BONUS_RING_BGR = (40, 40, 200)         # red bonus ring on a cube top

# Ranges (lo, hi), each drawn uniformly per render.
CUBE_GAIN = (0.93, 1.05)         # cube colour x this ...
CUBE_TINT = 6.0                  # ... + up to +-this grey levels per channel
LETTER_HEIGHT = (0.42, 0.56)     # cap height, fraction of the face width
FACE_CORNER = (0.16, 0.32)       # rounded corner radius, fraction of the face width
BEVEL = (0.10, 0.22)             # bevel width, fraction of the face
BEVEL_DARK = (0.12, 0.40)        # darkening at the face's very edge


def pick(rng: np.random.Generator, options: Sequence[T]) -> T:
    """One of `options`, uniformly (one rng.integers draw)."""
    return options[int(rng.integers(len(options)))]


def face_style(rng: np.random.Generator, fonts: Sequence[str], edition: str) -> FaceStyle:
    """The look of one render's cubes: colour, ink, font, letter size, rounding, bevel.

    fonts: font file paths to pick from; edition: the letters that carry an
    underline bar (synth.cubesets.UNDERLINE_EDITIONS).
    """
    colour_name = pick(rng, CUBE_COLOUR_CHOICES)
    wood = colour_name == "wood"
    ink_name = pick(rng, INK_CHOICES) if not wood else pick(rng, WOOD_INK_CHOICES)
    cube = np.array(CUBE_COLOURS[colour_name], np.float64) * rng.uniform(*CUBE_GAIN) \
        + rng.uniform(-CUBE_TINT, CUBE_TINT, 3)
    b, g, r = (float(v) for v in np.clip(cube, 0, 255))
    return FaceStyle(cube_bgr=(b, g, r), ink_bgr=INKS[ink_name],
                     font_path=pick(rng, fonts), letter_height=rng.uniform(*LETTER_HEIGHT),
                     corner_radius=rng.uniform(*FACE_CORNER), bevel=rng.uniform(*BEVEL),
                     bevel_dark=rng.uniform(*BEVEL_DARK), wood=wood, underline=edition)


def challenge_style(style: FaceStyle) -> FaceStyle:
    """The challenge cube's look in a render of `style`: red, white letters, no wood."""
    return replace(style, cube_bgr=CHALLENGE_CUBE_BGR, ink_bgr=CHALLENGE_INK_BGR, wood=False)
