"""Frame probabilities a handwriting recogniser could give for a word: the tests' ink."""
from __future__ import annotations

import numpy as np


def frames(word: str, sure: float = 0.9, tail: tuple[str, float] | None = None) -> np.ndarray:
    """(T, 27) frame probabilities (class 0 the blank, 1-26 a-z) that spell `word`: each
    letter at `sure`, then a blank; `tail` (letter, p): one more letter, written so
    faintly that it reads at p."""
    rows = []
    for c in word:
        for cls in (ord(c) - 96, 0):
            row = np.full(27, (1 - sure) / 26)
            row[cls] = sure
            rows.append(row)
    if tail is not None:
        row = np.full(27, (1 - tail[1]) / 26)
        row[ord(tail[0]) - 96] = tail[1]
        row[0] += 1 - row.sum()
        rows += [row, rows[-1]]
    return np.array(rows)
