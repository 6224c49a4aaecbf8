"""A refereed round drawn on its photo: the reading as corrected, the paths of the
best words listed and of the best words nobody found, each numbered at its start
and named in the legend under the photo with its points and who found it
(vision.overlay.draw_scan, vision.legend), and every special cell the score used
(bonus rings, the challenge cube) or left doubtful. Above the referee and the vision stages,
so that neither imports the other.

Images are BGR uint8 (H, W, 3).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..game.referee import RoundResult
from ..game.scoring import ScoredWord
from .legend import PathLabel
from .overlay import OverlayStyle, draw_scan
from .stages import ImageU8

if TYPE_CHECKING:
    from .pipeline import ScanResult


def round_labels(result: RoundResult, words: Sequence[ScoredWord]) -> list[PathLabel]:
    """What each of `words` (words of the round's board) is: its points on the board
    and who listed it (scored, or crossed off when several did)."""
    finders: dict[str, list[str]] = {}
    for player in result.sheet.players:
        for w in player.words:
            if w.status in ("scored", "crossed_off"):
                finders.setdefault(w.word, []).append(player.name)
    return [PathLabel(w.word, w.points, tuple(finders.get(w.word, ())), len(finders.get(w.word, ())) > 1)
            for w in words]


def drawn_words(result: RoundResult, missed: int = 3, found: int = 0) -> list[ScoredWord]:
    """The words to draw: the `found` best words a player listed, then the `missed`
    best words nobody did."""
    listed = {w.word for p in result.sheet.players for w in p.words if w.status in ("scored", "crossed_off")}
    best_found = [w for w in result.sheet.words if w.word in listed][:found]
    return best_found + list(result.sheet.missed[:missed])


def draw_round(image: ImageU8, scan: ScanResult, result: RoundResult, missed: int = 3, found: int = 0,
               style: OverlayStyle = OverlayStyle()) -> ImageU8:
    """The photo of a refereed round: the reading as corrected, the paths of the
    `found` best words listed and the `missed` best words nobody found, and the
    legend naming each (word, points, who found it)."""
    words = drawn_words(result, missed, found)
    style = dataclasses.replace(style, max_paths=len(words))
    return draw_scan(image, scan, result.board.to_rows(), [w.path for w in words], style,
                     round_labels(result, words), special_cells(result))


def special_cells(result: RoundResult) -> list[tuple[str, tuple[int, int], bool]]:
    """The special cells to draw: every bonus cell and the challenge cube's cell the
    score used (counted), then the red marks seen too faintly to count (not counted)."""
    rules = result.rules
    used = [("bonus", cell, True) for cell in sorted(rules.bonus_cells)]
    if rules.challenge_cell is not None and rules.variant == "challenge":
        used.append(("challenge", rules.challenge_cell, True))
    return used + [(kind, cell, False) for kind, cell in result.doubtful_marks]
