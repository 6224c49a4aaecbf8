"""Cube sets, editions and rolling a board for the renderer.

The cube lists come from `boggle_cv.dice` when that module provides them (named
sets "classic-4", "modern-4", "big-1979", "big-deluxe", "super-big-6"); until then
(and for older checkouts) a private copy of the lists in docs/RULES.md is used.

A rolled board is a list of `RolledCube` in row-major order: the face on top, the
faces that remain (used for the slanted letters on the visible cube sides) and the
turn (0/90/180/270 degrees the letter is rotated clockwise from upright, in the
board's frame).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Faces: "Qu" for Q, two-letter faces spelled as on the cube, "#" blank.
_PRIVATE_SETS: dict[str, list[list[str]]] = {}


def _parse_cubes(text: str) -> list[list[str]]:
    cubes = []
    for tok in text.split():
        cubes.append(["Qu" if ch == "Q" else ch for ch in tok])
    return cubes


_PRIVATE_SETS["classic-4"] = _parse_cubes(
    "AACIOT ABILTY ABJMOQ ACDEMP ACELRS ADENVZ AHMORS BIFORX "
    "DENOSW DKNOTU EEFHIY EGINTV EGKLUY EHINPS ELPSTU GILRUW")
_PRIVATE_SETS["modern-4"] = _parse_cubes(
    "AAEEGN ABBJOO ACHOPS AFFKPS AOOTTW CIMOTU DEILRX DELRVY "
    "DISTTY EEGHNW EEINSU EHRTVW EIOSST ELRTTY HIMNQU HLNNRZ")
_PRIVATE_SETS["big-1979"] = _parse_cubes(
    "AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY "
    "BJKQXZ CCENST CEIILT CEILPT CEIPST DDHNOT DHHLOR DHLNOR DHLNOR EIIITT EMOTTT ENSSSU "
    "FIPRSY GORRVW IPRRRY NOOTUW OOOTTU")
_PRIVATE_SETS["big-deluxe"] = _parse_cubes(
    "AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY "
    "BJKQXZ CCNSTW CEIILT CEILPT CEIPST DDLNOR DHHLOR DHHNOT DHLNOR EIIITT EMOTTT ENSSSU "
    "FIPRSY GORRVW HIPRRY NOOTUW OOOTTU")
_PRIVATE_SETS["super-big-6"] = _parse_cubes(
    "AAAFRS AAEEEE AAEEOO AAFIRS ABDEIO ADENNN AEEEEM AEEGMU AEGMNN AEILMN AEINOU AFIRSY "
    "BBJKXZ CCENST CDDLNN CEIITT CEIPST CFGNUY DDHNOT DHHLOR DHHNOW DHLNOR EHILRS EIILST "
    "EILPST EMOTTT ENSSSU GORRVW HIRSTV HOPRST IPRSYY JKQWXZ NOOTUW OOOTTU") + [
    ["An", "Er", "He", "In", "Qu", "Th"], ["E", "I", "O", "#", "#", "#"]]

CHALLENGE_CUBE = ["I", "K", "L", "M", "Qu", "U"]
POCKET_SET = "pocket"

SETS_BY_SIZE = {4: ("classic-4", "modern-4"), 5: ("big-1979", "big-deluxe"), 6: ("super-big-6",)}

# Letters that carry an underline bar, by edition (docs/RULES.md "Underline marks").
UNDERLINE_EDITIONS = ("MWZ", "NWZ", "MNWZ", "MW", "Z", "N", "")


@dataclass(frozen=True)
class RolledCube:
    """One cube after a roll: `face` on top, `others` the other five, `turn` in degrees."""

    face: str
    others: tuple[str, ...]
    turn: int


def set_names() -> tuple[str, ...]:
    """Every cube set name the renderer knows (plus "pocket")."""
    return tuple(sorted(_PRIVATE_SETS)) + (POCKET_SET,)


def cubes_of(set_name: str) -> list[list[str]]:
    """The cubes of a named set, each a list of six canonical faces.

    Uses boggle_cv.dice when it exists and knows the name; raises KeyError otherwise
    for an unknown name.
    """
    try:  # the project's own cube sets, when that module is there
        from .. import dice  # type: ignore[attr-defined]
        getter = getattr(dice, "cubes_of", None) or getattr(dice, "get_set", None)
        if getter is not None:
            got = getter(set_name)
            cubes = getattr(got, "cubes", got)
            out = [[str(f) for f in cube] for cube in cubes]
            if out and all(len(c) == 6 for c in out):
                return out
    except Exception:  # noqa: BLE001 - dice.py missing or different API: fall back
        pass
    if set_name == POCKET_SET:
        return _PRIVATE_SETS["modern-4"]
    return [list(c) for c in _PRIVATE_SETS[set_name]]


def size_of(set_name: str) -> int:
    """Board size N of a named set."""
    if set_name == POCKET_SET:
        return 4
    n = int(round(len(cubes_of(set_name)) ** 0.5))
    return n


def roll(rng: np.random.Generator, set_name: str, *, upright: bool = False,
         challenge: bool = False) -> tuple[list[RolledCube], int | None]:
    """Shake the tray: a random cube in each cell, a random face up, a random turn.

    Returns (cubes, challenge_index): N*N RolledCube in row-major order, and the
    row-major index of the red challenge cube (None unless `challenge`). `upright`
    makes every turn 0 (Pocket Boggle strips, or players who turned every cube).
    """
    cubes = cubes_of(set_name)
    order = rng.permutation(len(cubes))
    cubes = [cubes[i] for i in order]
    challenge_index = None
    if challenge:
        challenge_index = int(rng.integers(len(cubes)))
        cubes[challenge_index] = list(CHALLENGE_CUBE)
    out = []
    for cube in cubes:
        k = int(rng.integers(6))
        turn = 0 if upright else int(rng.integers(4)) * 90
        out.append(RolledCube(cube[k], tuple(cube[:k] + cube[k + 1:]), turn))
    return out, challenge_index
