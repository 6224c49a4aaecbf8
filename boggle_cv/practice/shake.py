"""The virtual shake: the real cubes of a size and edition, shaken (dice.roll: the
cubes shuffled into the tray, each showing one of its six faces at random).

The cube set is the edition's set for that size (dice.CUBE_SETS: English 4x4 the
modern set, 5x5 Big Boggle 1979, 6x6 Super Big Boggle; French and Italian 4x4 their
own boxes), or the one the player names (`--dice`: the classic 4x4 set, the Deluxe
5x5, or another edition's dice for an edition whose cubes are not known: German,
Spanish and Dutch). A shake has a seed: the same seed, size and dice give the same
board again.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..game.board import Board
from ..game.dice import CUBE_SETS, DEFAULT_SET_FOR_SIZE, CubeSet, get_set, roll, sets_of_size
from ..game.editions import get_edition
from ..errors import UsageError

#: The sizes of tray with known cubes (4x4, Big Boggle 5x5, Super Big Boggle 6x6).
SIZES = (4, 5, 6)
#: Seeds are whole numbers from 0 to MAX_SEED.
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Deal:
    """One shaken board: the board, the cube set's name (dice.CUBE_SETS) and the seed."""

    board: Board
    dice: str
    seed: int


def check_size(size: object) -> int:
    """`size` as one of SIZES; UsageError (exit 2) otherwise."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise UsageError(f"unknown size {size!r}: practice boards are 4x4, 5x5 or 6x6",
                         "give the size as 4, 5 or 6")
    return size


def dice_for(size: int, lang: str, dice: str | None = None) -> CubeSet:
    """The cube set to shake for an N x N tray (N = size) of edition `lang`: `dice` if
    given (of that size), else the edition's own. UsageError (exit 2) for an unknown
    size, edition or set, a set of another size, or an edition with no known cubes
    of that size (the hint names the sets to choose from)."""
    size = check_size(size)
    edition = get_edition(lang)
    of_size = [name for name, cs in CUBE_SETS.items() if cs.size == size]
    if dice is not None:
        cs = get_set(dice)
        if cs.size != size:
            raise UsageError(f"cube set {dice!r} is for a {cs.size}x{cs.size} tray, not {size}x{size}",
                             f"for {size}x{size}: " + ", ".join(of_size))
        return cs
    own = sets_of_size(size, edition.code)
    if not own:
        raise UsageError(f"the cubes of the {edition.name} edition's {size}x{size} box are not known",
                         f"shake another edition's cubes with --dice ({', '.join(of_size)}), "
                         "or play a real tray with --tray")
    preferred = DEFAULT_SET_FOR_SIZE.get(size)
    return get_set(preferred if preferred in own else own[0])


def check_seed(seed: object) -> int:
    """`seed` as a whole number from 0 to MAX_SEED; UsageError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed {seed!r} is not a whole number from 0 to 2^63 - 1")
    return seed


def shake(size: int, lang: str = "en", dice: str | None = None, seed: int | None = None) -> Deal:
    """Shake the tray of `size` and edition `lang` (dice_for); a random seed unless given."""
    cs = dice_for(size, lang, dice)
    seed = secrets.randbelow(MAX_SEED + 1) if seed is None else check_seed(seed)
    return Deal(roll(cs, seed), cs.name, seed)
