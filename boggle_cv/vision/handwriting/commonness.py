"""How common a word is: the prior of the lexicon reading (English only).

A player writes "happy" far more often than "haply", "time" than "tine": when the ink
leaves two lexicon words close, the common one is the better bet (and the reading
stays flagged when the ink does not settle it). The measure is SCOWL's size level of
the word (boggle_cv/data/en-word-levels.txt.gz, written by
scripts/build_dictionary.py with the default dictionary; SCOWL: 10 = the most common
thousands of words ... 80 = the Scrabble-style rest). A word's log prior is
``-PRIOR_PER_RANK * rank``, rank its level's place in SIZES (10 -> 0 ... 80 -> 8); a
word the table does not hold (a name, a word of a user's list) gets UNKNOWN_RANK, the
middle, so it is neither pushed down nor up much.

PRIOR_PER_RANK (0.5, in the natural log units of the reading's scores after the
temperature) and UNKNOWN_RANK were chosen on the "tune" split of the open handwriting
(``python -m boggle_cv.train.word_flags ../shared/handwriting-public --prior``):
Jeremy's tune words 80.0% -> 85.7% top-1 at 0.5 (0.25: 84.5%, 0.75: 85.7% with more
confident errors, 1.0: 85.1%); DHSD's tune names 98.9% at rank 4 for unknowns, 97.9%
at rank 8 (the names would lose to their English neighbours).

Other languages have no table (``log_prior`` gives zeros: the uniform prior). The
table loads on first use (~0.1 s), never on import of boggle_cv.
"""
from __future__ import annotations

import functools
import gzip
from collections.abc import Sequence
from importlib import resources

import numpy as np
import numpy.typing as npt

#: The shipped table, in boggle_cv/data.
LEVELS_FILE = "en-word-levels.txt.gz"
#: SCOWL's size levels, most common first (the sizes of the default dictionary).
SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80)
#: Log prior per level step (see the module docstring for how it was chosen).
PRIOR_PER_RANK = 0.5
#: Rank given to a word the table does not hold (4: size 50, the middle).
UNKNOWN_RANK = 4
#: Languages with a table.
LANGS = ("en",)


@functools.cache
def ranks() -> dict[str, int]:
    """word (a-z) -> rank 0..len(SIZES)-1, from the shipped table."""
    data = (resources.files("boggle_cv") / "data" / LEVELS_FILE).read_bytes()
    out: dict[str, int] = {}
    for line in gzip.decompress(data).decode("ascii").splitlines():
        size, *words = line.split()
        rank = SIZES.index(int(size))
        out.update(dict.fromkeys(words, rank))
    return out


def log_prior(words: Sequence[str], lang: str = "en") -> npt.NDArray[np.float64]:
    """(len(words),) log prior of each word (a-z, folded), up to a constant: 0 for
    the most common, -PRIOR_PER_RANK per level rarer; all zeros for a language
    without a table."""
    if lang not in LANGS or not words:
        return np.zeros(len(words))
    table = ranks()
    return -PRIOR_PER_RANK * np.array([table.get(w, UNKNOWN_RANK) for w in words], np.float64)
