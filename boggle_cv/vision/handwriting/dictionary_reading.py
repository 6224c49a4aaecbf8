"""Reading a word against a whole dictionary (no board known yet): the candidates.

A sheet photographed before the tray has no board lexicon; its words are still
dictionary words, mostly. A CTC prefix beam search walks the dictionary's letter
graph (``boggle_cv.game.dictionary.Dictionary.table``: only letters with an edge are
tried, a reading must end on a word's last letter) and keeps the ``KEEP`` most
probable words; those and their dictionary neighbours one edit away become the
crop's lexicon, scored exactly (``ctc.log_likelihoods``) with the prior of common
words, as a board lexicon is (``reading.read_views``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .ctc import LETTERS, prefix_beam

#: Prefixes kept per frame, and dictionary words handed on to the exact scoring.
BEAM, KEEP = 32, 8
#: A letter whose probability in a frame is under this is not tried there.
FLOOR = 1e-3


def dictionary_candidates(probs: np.ndarray, dictionary: Any, beam: int = BEAM, keep: int = KEEP,
                          floor: float = FLOOR) -> list[str]:
    """The `keep` most probable dictionary words (a-z) for one crop's (T, 27) frame
    probabilities, best first; [] when no word fits. `dictionary`: a
    boggle_cv.game.dictionary.Dictionary (its ``table``: rows of WIDTH entries, -1 for no
    edge, else (child row << 2) | common << 1 | terminal)."""
    from ...game.dictionary import ROOT, WIDTH
    table = dictionary.table
    # each prefix met: its graph row and whether its last edge ends a word
    rows: dict[tuple[int, ...], tuple[int, bool]] = {(): (ROOT * WIDTH, False)}

    def grow(prefix: tuple[int, ...], c: int) -> float | None:
        v = int(table[rows[prefix][0] + c - 1])
        if v < 0:
            return None
        rows.setdefault(prefix + (c,), (v >> 2, bool(v & 1)))
        return 0.0

    def end(prefix: tuple[int, ...]) -> float | None:
        return 0.0 if rows[prefix][1] else None

    found = prefix_beam(probs, grow, end, beam, floor)
    return ["".join(LETTERS[c - 1] for c in p) for p, _ in found[:keep]]
