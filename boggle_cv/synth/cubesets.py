"""The cube sets as the renderer uses them: which set to draw, and rolling its cubes.

The cubes themselves are `boggle_cv.game.dice.CUBE_SETS` (the one list of the sets in
RULES.md); a set added there is drawn too: `set_names` lists it, and a render with
no `set_name` picks it among the sets of its board size (`sets_of_size`). What is
only about drawing lives here: Pocket Boggle's strips (a 4x4 frame, letters upright,
drawn with the faces of POCKET_CUBES) and the underline bar editions.

A rolled board is a list of `RolledCube` in row-major order: the face on top, the
faces that remain (used for the slanted letters on the visible cube sides) and the
turn (0/90/180/270 degrees the letter is rotated clockwise from upright, in the
board's frame).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import dice

POCKET_SET = "pocket"
"""Pocket Boggle: a 4x4 frame of four letter strips (no cubes; letters upright)."""
POCKET_CUBES = "modern-4"
"""The dice set whose faces the Pocket Boggle strips are drawn with."""

UNDERLINE_EDITIONS = ("MWZ", "NWZ", "MNWZ", "MW", "Z", "N", "")
"""Letters that carry an underline bar, one string per edition drawn (RULES.md
"Underline marks"); a render draws one edition uniformly."""


@dataclass(frozen=True)
class RolledCube:
    """One cube after a roll: `face` on top, `others` the other five, `turn` in degrees
    clockwise (0/90/180/270)."""

    face: str
    others: tuple[str, ...]
    turn: int


def set_names() -> tuple[str, ...]:
    """Every set name the renderer draws: dice.CUBE_SETS sorted by name, then "pocket"."""
    return tuple(sorted(dice.CUBE_SETS)) + (POCKET_SET,)


def cubes_of(set_name: str) -> tuple[tuple[str, ...], ...]:
    """The cubes of a named set (dice.CUBE_SETS order), each 6 canonical faces.

    "pocket" gives the cubes of POCKET_CUBES; an unknown name raises
    boggle_cv.errors.UsageError (from dice.get_set).
    """
    return dice.get_set(POCKET_CUBES if set_name == POCKET_SET else set_name).cubes


def size_of(set_name: str) -> int:
    """Board size N of a named set (4 for "pocket")."""
    return dice.get_set(POCKET_CUBES if set_name == POCKET_SET else set_name).size


def edition_of(set_name: str) -> str:
    """The edition (boggle_cv.game.editions code) of a named set ("pocket": English)."""
    return dice.get_set(POCKET_CUBES if set_name == POCKET_SET else set_name).lang


def sets_of_size(size: int) -> tuple[str, ...]:
    """The sets a render of an N x N board (N = size) with no set_name draws from:
    those of every edition (the French and Italian 4x4 sets too), in CUBE_SETS order."""
    return tuple(name for name, cs in dice.CUBE_SETS.items() if cs.size == size)


def roll(rng: np.random.Generator, set_name: str, *, upright: bool = False,
         challenge: bool = False) -> tuple[list[RolledCube], int | None]:
    """Shake the tray: a random cube in each cell, a random face up, a random turn.

    Returns (cubes, challenge_index): N*N RolledCube in row-major order, and the
    row-major index of the red challenge cube (dice.CHALLENGE_CUBE; None unless
    `challenge`). `upright` makes every turn 0 (Pocket Boggle strips, or players who
    turned every cube).
    """
    cubes = list(cubes_of(set_name))
    order = rng.permutation(len(cubes))
    cubes = [cubes[i] for i in order]
    challenge_index = None
    if challenge:
        challenge_index = int(rng.integers(len(cubes)))
        cubes[challenge_index] = dice.CHALLENGE_CUBE
    out = []
    for cube in cubes:
        k = int(rng.integers(6))
        turn = 0 if upright else int(rng.integers(4)) * 90
        out.append(RolledCube(cube[k], cube[:k] + cube[k + 1:], turn))
    return out, challenge_index
