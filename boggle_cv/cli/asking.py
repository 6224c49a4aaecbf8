"""The terminal's questions of `scan`: the referee's (questions.decide, through
referee_round), one at a time, the one with most riding on it first, the round
decided again after each answer (one answer often settles others)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..game.board import normalise_face
from ..game.questions import CellDoubt, WordDoubt
from ..game.referee import RoundRequest, RoundResult, answer, referee_round

if TYPE_CHECKING:
    import numpy as np

    from ..game.dictionary import Dictionary
    from ..vision.decode import CellReading
    from ..vision.pipeline import ScanResult
    from ..vision.sheet.types import SheetReading


def ask_round(request: RoundRequest, dictionary: Dictionary, scan: ScanResult | None,
              sheets: dict[str, tuple[SheetReading, Path]], image: np.ndarray | None = None) -> RoundResult:
    """Referee the round, ask its first question, apply the answer, and again until no
    question is open: the result. sheets: name -> (reading, photo) of the players whose
    list holds a sheet's words (each doubt of theirs knows its word on it: its source)."""
    inks: dict[str, dict[int, list[str]]] = {}
    shown = False
    while True:
        result = referee_round(request, dictionary)
        if not result.asked:
            return result
        if not shown and scan is not None and result.read_board is not None:
            from .questions import show_board
            show_board(scan, result.board)  # the board as read, before the first question
            shown = True
        doubt = result.asked[0].doubt
        if isinstance(doubt, CellDoubt):
            assert scan is not None  # a cell is doubtful only on a board read from the photo
            value = _ask_cell(scan, doubt, image)
        else:
            value = _ask_entry(doubt, sheets, inks)
        request = answer(request, doubt, value)


def _ask_cell(scan: ScanResult, doubt: CellDoubt, image: np.ndarray | None) -> str:
    """A doubtful cell's question, its cube drawn above it (questions.cube_pictures)."""
    from .questions import cube_pictures, say
    r, c = doubt.cell
    cell = scan.reading.cells[r][c]
    for line in cube_pictures(image, scan, [cell]).get((r, c), []):
        say("    " + line)
    return ask_cell(cell)


def _ask_entry(doubt: WordDoubt, sheets: dict[str, tuple[SheetReading, Path]],
               inks: dict[str, dict[int, list[str]]]) -> str:
    """A sheet word's question, beside its handwriting (the ink of the sheet's doubtful
    words, drawn once a sheet)."""
    from .sheets import ask_word, ink_of
    reading, photo = sheets[doubt.player]
    i = doubt.source if doubt.source is not None else [
        k for k, w in enumerate(reading.words) if w.word or w.free][doubt.index]
    if doubt.player not in inks:
        inks[doubt.player] = ink_of(photo, reading)
    return ask_word(doubt.player, i, reading, inks[doubt.player].get(i, []), sys.stdin, doubt.kind == "crossed")


def ask_cell(c: CellReading) -> str:
    """One doubtful cell asked on the terminal ("row 2, col 3: M (62%) or W (35%)? [M]")
    until the answer is a face; Enter (or the end of input) keeps the reading."""
    prompt = (f"row {c.row + 1}, col {c.col + 1}: {c.face} ({c.confidence:.0%}) or "
              f"{c.runner_up} ({c.runner_up_confidence:.0%})? [{c.face}] ")
    from .questions import say
    while True:
        say(prompt, end="")
        answer = sys.stdin.readline().strip()  # "" at the end of input: keep the reading
        if not answer:
            return c.face
        try:
            return normalise_face(answer)
        except ValueError:
            say("  a letter, Qu, An Er He In Th, or # for a blank")
