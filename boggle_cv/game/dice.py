"""The cube sets (RULES.md) and whether a board could come from one.

A cube is a tuple of 6 canonical faces (boggle_cv.game.board: "A".."Z", "Qu", "An", "Er",
"He", "In", "Th", BLANK "#"). A set is N*N cubes for an N x N tray. Editions
differ and some lists are unconfirmed, so use these as a soft prior
(`unmatched_cells`), never to overrule a confident reading.

A new set is one more `_set(...)` entry in CUBE_SETS: the decoder weighs it and the
synthetic renderer (boggle_cv.synth.cubesets) draws it, with no other change.

Each set belongs to one edition (`CubeSet.lang`, boggle_cv.game.editions): the decoder
of an English scan weighs the English sets only, a French scan the French set
("fr-4"), an Italian one Il Paroliere's ("it-4"); no set is known for the German,
Spanish and Dutch boxes, so their scans read without a prior (docs/editions.md).
Some French dice print the Qu face as a lone "Q": it is the same face ("Qu", two
letters), as board.normalise_face reads a lone Q.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from .board import BLANK, Board
from ..errors import UsageError


def _cube(spec: str) -> tuple[str, ...]:
    """"AACIOT" -> 6 faces, Q -> Qu; "[An Er He In Qu Th]" / "[E I O # # #]" -> listed faces."""
    if spec.startswith("["):
        faces = tuple(BLANK if f in ("#", "blank") else f for f in spec[1:-1].split())
    else:
        faces = tuple("Qu" if ch == "Q" else ch for ch in spec)
    if len(faces) != 6:
        raise ValueError(f"a cube has 6 faces: {spec}")
    return faces


@dataclass(frozen=True)
class CubeSet:
    """A named set of cubes for an N x N tray, of one edition (lang: editions code)."""

    name: str
    size: int
    cubes: tuple[tuple[str, ...], ...]
    description: str = ""
    lang: str = "en"

    def __post_init__(self) -> None:
        if len(self.cubes) != self.size * self.size:
            raise ValueError(f"{self.name}: {len(self.cubes)} cubes for a {self.size}x{self.size} tray")


def _set(name: str, size: int, specs: str, description: str, lang: str = "en") -> CubeSet:
    parts, buf = [], ""
    for tok in specs.split():
        if buf:
            buf += " " + tok
            if tok.endswith("]"):
                parts.append(buf)
                buf = ""
        elif tok.startswith("[") and not tok.endswith("]"):
            buf = tok
        else:
            parts.append(tok)
    return CubeSet(name, size, tuple(_cube(p) for p in parts), description, lang)


CHALLENGE_CUBE: tuple[str, ...] = _cube("IKLMQU")
"""The red challenge cube (Big Boggle Deluxe): I K L M Qu U."""

_BIG_1979 = ("AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY BJKQXZ CCENST CEIILT "
             "CEILPT CEIPST DDHNOT DHHLOR DHLNOR DHLNOR EIIITT EMOTTT ENSSSU FIPRSY GORRVW "
             "IPRRRY NOOTUW OOOTTU")
_BIG_DELUXE = (_BIG_1979.replace("CCENST", "CCNSTW").replace("DDHNOT", "DDLNOR")
               .replace("DHLNOR DHLNOR", "DHHNOT DHLNOR").replace("IPRRRY", "HIPRRY"))

CUBE_SETS: dict[str, CubeSet] = {s.name: s for s in (
    _set("classic-4", 4, "AACIOT ABILTY ABJMOQ ACDEMP ACELRS ADENVZ AHMORS BIFORX DENOSW DKNOTU "
         "EEFHIY EGINTV EGKLUY EHINPS ELPSTU GILRUW", "Boggle 4x4, 1976-86"),
    _set("modern-4", 4, "AAEEGN ABBJOO ACHOPS AFFKPS AOOTTW CIMOTU DEILRX DELRVY DISTTY EEGHNW "
         "EEINSU EHRTVW EIOSST ELRTTY HIMNQU HLNNRZ", "Boggle 4x4, 1987 on"),
    _set("big-1979", 5, _BIG_1979, "Big Boggle 5x5, 1979"),
    _set("big-deluxe", 5, _BIG_DELUXE, "Boggle Master / Big Boggle Deluxe 5x5, 1993/96"),
    _set("super-big-6", 6, "AAAFRS AAEEEE AAEEOO AAFIRS ABDEIO ADENNN AEEEEM AEEGMU AEGMNN AEILMN "
         "AEINOU AFIRSY [An Er He In Qu Th] BBJKXZ CCENST CDDLNN CEIITT CEIPST CFGNUY DDHNOT "
         "DHHLOR DHHNOW DHLNOR EHILRS EIILST EILPST [E I O # # #] EMOTTT ENSSSU GORRVW HIRSTV "
         "HOPRST IPRSYY JKQWXZ NOOTUW OOOTTU", "Super Big Boggle 6x6, 2011"),
    _set("fr-4", 4, "AAEIOT ABILRT ABJMOQ ACDEMP ACELRS ADENVZ AFIORX AIMORS DENOST EEFHIS EGINTV "
         "EGLNUY EHINRS EILRUW EKNOTU ELPSTU", "Boggle 4x4, French edition (Parker)", "fr"),
    _set("it-4", 4, "AAEIOT ABILRT ABMOOQ ACDEMP ACELRS ACFIOR ADENVZ AIMORS CENOTU DENOST EEFHIS "
         "EGINTV EGLNOU EHINRS EILORU ELPSTU", "Il Paroliere 4x4, Italian edition (no J K W X Y)", "it"),
)}
DEFAULT_SET_FOR_SIZE = {4: "modern-4", 5: "big-1979", 6: "super-big-6"}


def get_set(name: str) -> CubeSet:
    """The cube set called `name` (see CUBE_SETS); UsageError naming the known ones."""
    try:
        return CUBE_SETS[name]
    except KeyError:
        raise UsageError(f"unknown cube set {name!r}", "known: " + ", ".join(CUBE_SETS)) from None


def sets_of_size(size: int, lang: str = "en") -> tuple[str, ...]:
    """Names of edition `lang`'s sets for an N x N tray (N = size), in CUBE_SETS
    order; () for none (every size of de, es and nl)."""
    return tuple(name for name, cs in CUBE_SETS.items() if cs.size == size and cs.lang == lang)


def _cubes(cube_set: CubeSet, challenge: bool) -> list[tuple[str, ...]]:
    cubes = list(cube_set.cubes)
    if challenge:
        cubes.append(CHALLENGE_CUBE)  # any one cube may be swapped for it: N*N + 1 candidates
    return cubes


def max_matching(board: Board, cube_set: CubeSet, challenge: bool = False) -> dict[tuple[int, int], int]:
    """A largest assignment cell (row, col) -> cube index with the cell's face on the cube.

    Kuhn's augmenting paths on the bipartite graph cells x cubes (at most 36 x 37).
    With `challenge`, the challenge cube is one more candidate (index N*N).
    """
    cubes = _cubes(cube_set, challenge)
    cells = list(board.cells())
    options = [[k for k, cube in enumerate(cubes) if board.face(r, c) in cube] for r, c in cells]
    owner: dict[int, int] = {}  # cube index -> cell index

    def augment(ci: int, seen: set[int]) -> bool:
        for k in options[ci]:
            if k in seen:
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = ci
                return True
        return False

    for ci in range(len(cells)):
        augment(ci, set())
    return {cells[ci]: k for k, ci in owner.items()}


def unmatched_cells(board: Board, cube_set: CubeSet | str, challenge: bool = False) -> int:
    """How many cells no cube of the set can explain at best (0: the set could produce it).

    A board of another size than the set's gets N*N (nothing can be matched).
    """
    cs = get_set(cube_set) if isinstance(cube_set, str) else cube_set
    n2 = board.size * board.size
    if cs.size != board.size:
        return n2
    return n2 - len(max_matching(board, cs, challenge))


def can_produce(board: Board, cube_set: CubeSet | str, challenge: bool = False) -> bool:
    """True if one cube per cell of the set can show the board's faces."""
    return unmatched_cells(board, cube_set, challenge) == 0


def fewest_unmatched(board: Board, names: Iterable[str] | None = None) -> int | None:
    """The fewest cells any of the sets `names` (None: every known set of the board's
    size, every edition) leaves unexplained, with and without the challenge cube;
    None where there is no such set."""
    sets = ([CUBE_SETS[n] for n in names] if names is not None
            else [cs for cs in CUBE_SETS.values() if cs.size == board.size])
    if not sets:
        return None
    return min(unmatched_cells(board, cs, challenge) for cs in sets for challenge in (False, True))


def sets_for_board(board: Board, challenge: bool = False, lang: str | None = None) -> list[str]:
    """Names of the sets that could have produced the board, in CUBE_SETS order: of
    edition `lang` only, or of every edition (None)."""
    return [name for name, cs in CUBE_SETS.items()
            if (lang is None or cs.lang == lang) and can_produce(board, cs, challenge)]


def roll(cube_set: CubeSet | str, seed: int | None = None, challenge: bool = False) -> Board:
    """Shake the tray: a random placement of the cubes and a random face of each.

    seed: for random.Random (same seed, same board). With `challenge`, one random
    cube is swapped for the challenge cube first.
    """
    cs = get_set(cube_set) if isinstance(cube_set, str) else cube_set
    rng = random.Random(seed)
    cubes = list(cs.cubes)
    if challenge:
        cubes[rng.randrange(len(cubes))] = CHALLENGE_CUBE
    rng.shuffle(cubes)
    faces = [rng.choice(c) for c in cubes]
    n = cs.size
    return Board(tuple(tuple(faces[r * n:(r + 1) * n]) for r in range(n)))
