"""The editions of the game: one per language (docs/editions.md has the sources).

An edition picks the shipped dictionary, the folding of letters (boggle_cv.game.folding),
the shortest word on a 4x4 board, the scoring table and the cube sets the photo
reader uses as its soft prior (boggle_cv.game.dice). English ("en") is the default and
is the game of RULES.md unchanged.

All five other editions score with the standard table of RULES.md (3-4 letters 1,
5 -> 2, 6 -> 3, 7 -> 5, 8+ -> 11; from 4 letters on 5x5 and 6x6); only the Italian
box differs in its shortest word (4 letters on 4x4; `--min-length 3` for the
players who play it from 3, as many Italian sets' leaflets do).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError


@dataclass(frozen=True)
class Edition:
    """One edition.

    code: the ISO 639-1 code used on the command line and in JSON ("fr");
    name: the language's English name; dictionary: the shipped dictionary's file
    stem in boggle_cv/data (`<stem>.bin`, `<stem>.json`); min_length_4x4: the
    shortest word (letters) on a 4x4 board, None for the size's default of RULES.md
    (3 on 4x4, 4 on 5x5 and 6x6); lone_q_dice: some of its dice print the Qu face as
    a lone "Q" (the decoder flags an O that may be one). An edition's cube sets are the dice.CUBE_SETS
    entries of its `lang` (dice.sets_of_size(size, code)).
    """

    code: str
    name: str
    dictionary: str
    min_length_4x4: int | None = None
    lone_q_dice: bool = False


EDITIONS: dict[str, Edition] = {e.code: e for e in (
    Edition("en", "English", "default-dict"),
    Edition("fr", "French", "fr-dict", lone_q_dice=True),
    Edition("de", "German", "de-dict"),
    Edition("es", "Spanish", "es-dict"),
    Edition("it", "Italian", "it-dict", min_length_4x4=4),
    Edition("nl", "Dutch", "nl-dict"),
)}
#: The edition codes, English (the default) first.
LANGS = tuple(EDITIONS)
DEFAULT_LANG = "en"


def get_edition(code: str) -> Edition:
    """The edition called `code` (case-insensitive); UsageError (exit 2) listing the editions."""
    e = EDITIONS.get(code.strip().lower()) if isinstance(code, str) else None
    if e is None:
        raise UsageError(f"unknown edition {code!r}", "editions: " + ", ".join(
            f"{x.code} ({x.name})" for x in EDITIONS.values()))
    return e


def default_min_length(size: int, lang: str = DEFAULT_LANG) -> int:
    """The shortest word (letters) on an N x N board (N = size) in edition `lang`:
    the edition's 4x4 minimum on boards up to 4x4, else 4 (RULES.md: 5x5 and 6x6)."""
    e = get_edition(lang)
    if size >= 5:
        return 4
    return e.min_length_4x4 if e.min_length_4x4 is not None else 3
