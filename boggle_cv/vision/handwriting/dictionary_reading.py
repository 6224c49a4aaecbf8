"""Reading a word against a whole dictionary (no board known yet): the candidates.

A sheet photographed before the tray has no board lexicon; its words are still
dictionary words, mostly. A CTC prefix beam search walks the dictionary's letter
graph (``boggle_cv.dictionary.Dictionary.table``: only letters with an edge are
tried, a reading must end on a word's last letter) and keeps the ``KEEP`` most
probable words; those and their dictionary neighbours one edit away become the
crop's lexicon, scored exactly (``ctc.log_likelihoods``) with the prior of common
words, as a board lexicon is (``reading.read_views``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .ctc import LETTERS, _logadd

#: Prefixes kept per frame, and dictionary words handed on to the exact scoring.
BEAM, KEEP = 32, 8
#: A letter whose probability in a frame is under this is not tried there.
FLOOR = 1e-3


def dictionary_candidates(probs: np.ndarray, dictionary: Any, beam: int = BEAM, keep: int = KEEP,
                          floor: float = FLOOR) -> list[str]:
    """The `keep` most probable dictionary words (a-z) for one crop's (T, 27) frame
    probabilities, best first; [] when no word fits. `dictionary`: a
    boggle_cv.dictionary.Dictionary (its ``table``: rows of WIDTH entries, -1 for no
    edge, else (child row << 2) | common << 1 | terminal)."""
    from ...dictionary import LETTERS as N_LETTERS
    from ...dictionary import ROOT, WIDTH
    table = dictionary.table
    t_frames = probs.shape[0]
    if t_frames == 0:
        return []
    logp = np.log(np.maximum(probs.astype(np.float64), 1e-30))
    ninf = -math.inf
    # prefix -> (log P ending in blank, ending in its letter); its graph row; ends a word
    beams: dict[tuple[int, ...], tuple[float, float]] = {(): (0.0, ninf)}
    rows: dict[tuple[int, ...], tuple[int, bool]] = {(): (ROOT * WIDTH, False)}
    for t in range(t_frames):
        row_p = logp[t]
        tried = [c for c in range(1, N_LETTERS + 1) if probs[t, c] >= floor]
        nxt: dict[tuple[int, ...], tuple[float, float]] = {}

        def add(prefix: tuple[int, ...], pb: float, pnb: float) -> None:
            ob, onb = nxt.get(prefix, (ninf, ninf))
            nxt[prefix] = (_logadd(ob, pb), _logadd(onb, pnb))

        for prefix, (pb, pnb) in beams.items():
            total = _logadd(pb, pnb)
            add(prefix, total + row_p[0], ninf)
            last = prefix[-1] if prefix else 0
            if last:
                add(prefix, ninf, pnb + row_p[last])
            row = rows[prefix][0]
            for c in tried:
                v = int(table[row + c - 1])
                if v < 0:
                    continue
                grown = prefix + (c,)
                rows.setdefault(grown, (v >> 2, bool(v & 1)))
                add(grown, ninf, (pb if c == last else total) + row_p[c])
        ranked = sorted(nxt.items(), key=lambda kv: -_logadd(*kv[1]))
        beams = dict(ranked[:beam])
    words = [(p, _logadd(*s)) for p, s in beams.items() if p and rows[p][1]]
    words.sort(key=lambda x: -x[1])
    return ["".join(LETTERS[c - 1] for c in p) for p, _ in words[:keep]]
