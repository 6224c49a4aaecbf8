"""A letter model for the free reading: how likely each letter is after the two before
it in a word (a trigram over a-z and the word's ends), so that a reading with no
lexicon prefers "grabendorf" to "gxabendosf" when the ink leaves both close.

The table (boggle_cv/data/letter-trigrams.npy, float32 (27, 27, 27) of log
P(c | a, b), index 0 = a word's end or start, 1..26 = a..z) is counted by
``scripts/build_letter_model.py`` from the words of every shipped dictionary (the six
editions', folded to a-z, each edition weighing the same), add-k smoothed: a reading
does not know which language it is in. Loaded on first use, never on import.
"""
from __future__ import annotations

import functools
from importlib import resources

import numpy as np
import numpy.typing as npt

#: The shipped table, in boggle_cv/data.
TABLE_FILE = "letter-trigrams.npy"
#: Index of a word's start/end in the table (letters are 1..26).
EDGE = 0


@functools.cache
def table() -> npt.NDArray[np.float32]:
    """(27, 27, 27) log P(c | a, b): [a, b, c]."""
    with (resources.files("boggle_cv") / "data" / TABLE_FILE).open("rb") as f:
        t = np.load(f)
    return np.asarray(t, np.float32)


def count(words: list[str]) -> npt.NDArray[np.float64]:
    """(27, 27, 27) trigram counts of `words` (a-z), each word framed by two starts
    and one end, divided by the number of words (so that each source weighs 1): to
    be summed over sources and then ``normalise``d."""
    c = np.zeros((27, 27, 27))
    for w in words:
        codes = [EDGE, EDGE] + [ord(ch) - 96 for ch in w] + [EDGE]
        idx = np.array(codes)
        np.add.at(c, (idx[:-2], idx[1:-1], idx[2:]), 1.0)
    return c / max(len(words), 1)


def normalise(counts: npt.NDArray[np.float64], k: float = 1e-4) -> npt.NDArray[np.float32]:
    """log P(c | a, b) from summed counts, add-k smoothed, float32."""
    c = counts + k
    return np.asarray(np.log(c / c.sum(axis=2, keepdims=True)), np.float32)


def word_log_prob(word: str, t: npt.NDArray[np.float32] | None = None) -> float:
    """log P(word) under the letter model (its letters and its end)."""
    t = table() if t is None else t
    codes = [EDGE, EDGE] + [ord(ch) - 96 for ch in word] + [EDGE]
    return float(sum(t[a, b, c] for a, b, c in zip(codes, codes[1:], codes[2:])))
