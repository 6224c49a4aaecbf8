"""The terminal's questions of `scan`: the referee's (questions.decide, through
referee_round), one at a time, the one with most riding on it first, the round
decided again after each answer (one answer often settles others)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..questions import CellDoubt, WordDoubt
from ..referee import RoundRequest, RoundResult, answer, referee_round

if TYPE_CHECKING:
    from ..dictionary import Dictionary
    from ..vision.pipeline import ScanResult
    from ..vision.sheet.types import SheetReading


def ask_round(request: RoundRequest, dictionary: Dictionary, scan: ScanResult | None,
              sheets: dict[str, tuple[SheetReading, Path]]) -> RoundResult:
    """Referee the round, ask its first question, apply the answer, and again until no
    question is open: the result. sheets: name -> (reading, photo) of the players whose
    list holds a sheet's words (each doubt of theirs knows its word on it: its source)."""
    inks: dict[str, dict[int, list[str]]] = {}
    while True:
        result = referee_round(request, dictionary)
        if not result.decision.questions:
            return result
        doubt = result.decision.questions[0].doubt
        if isinstance(doubt, CellDoubt):
            assert scan is not None  # a cell is doubtful only on a board read from the photo
            value = _ask_cell(scan, doubt)
        else:
            value = _ask_entry(doubt, sheets, inks)
        request = answer(request, doubt, value)


def _ask_cell(scan: ScanResult, doubt: CellDoubt) -> str:
    from .scan_round import ask_cell
    r, c = doubt.cell
    return ask_cell(scan.reading.cells[r][c])


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
