"""How common a word is: the prior of the lexicon reading (English only).

A player writes "happy" far more often than "haply", "value" than "valve": when the
ink leaves two lexicon words close, the common one is the better bet (and the reading
stays flagged when the ink does not settle it). The measure is the word's Zipf
frequency (log10 of its uses per billion words) from the wordfreq package's English
data, shipped as boggle_cv/data/en-word-zipf.txt.gz (written by
scripts/build_word_frequencies.py; CC BY-SA 4.0, its notice beside it). A word's log
prior is ``ZIPF_WEIGHT * zipf``; a word the table does not hold (a name, a word of a
user's list, a word wordfreq never saw) gets UNKNOWN_ZIPF, a rare word's frequency;
none counts for more than ZIPF_CAP.

ZIPF_WEIGHT (1.0, in the natural log units of the reading's scores after the
temperature) and UNKNOWN_ZIPF (2.0) were chosen on the "tune" split of the open
handwriting (``python -m boggle_cv.train.word_flags ../shared/handwriting-public
--prior``); they replaced a prior from SCOWL's size levels (0.5 a level),
which sorts words into 9 coarse sizes where the frequency tells "value" from "valve":
Jeremy's tune words 89.6% top-1 and 1.2% confident errors both ways, flagged 42.5% ->
34.2%; DHSD's tune names 98.9% both; on sheets composed of the tune crops
(``scripts/eval_sheets.py boxes``, sheets of scripts/compose_sheets.py --seed 77)
Jeremy's words cut at their true boxes 81.0% -> 84.7%, DHSD's 99.2% -> 97.7% (a name
the table lacks loses more often to a common English neighbour when the ink is
blurred). SCOWL's levels (``ranks``, en-word-levels.txt.gz) still say which words are
common for train.word_renders.

Other languages have no table (``log_prior`` gives zeros: the uniform prior). The
tables load on first use (~0.1 s), never on import of boggle_cv.
"""
from __future__ import annotations

import functools
import gzip
from collections.abc import Iterator, Sequence
from importlib import resources

import numpy as np
import numpy.typing as npt

#: The shipped table, in boggle_cv/data.
LEVELS_FILE = "en-word-levels.txt.gz"
#: SCOWL's size levels, most common first (the sizes of the default dictionary).
SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80)
#: Languages with a table.
LANGS = ("en",)
#: The shipped frequency table, in boggle_cv/data: "<zipf x 10> word word ..." lines.
ZIPF_FILE = "en-word-zipf.txt.gz"
#: Log prior per unit of Zipf frequency (a factor of 10 in use).
ZIPF_WEIGHT = 1.0
#: Zipf frequency given to a word the table does not hold.
UNKNOWN_ZIPF = 2.0
#: Frequencies above this count as this: the commonest words of running text ("the"
#: 7.7, "and", "you") are not written on a Boggle sheet in proportion, and a board's
#: "tho" must not lose to "the" by 4 nats for that (at 5.5 it loses by 2, and its ink
#: decides). No loss on the tune split (word_flags --prior: Jeremy 89.6% -> 90.0%).
ZIPF_CAP = 5.5


def _grouped(name: str) -> Iterator[tuple[int, list[str]]]:
    """The lines of a shipped table, boggle_cv/data/`name` (gzip, "<number> word word
    ..."): (number, words) each."""
    data = (resources.files("boggle_cv") / "data" / name).read_bytes()
    for line in gzip.decompress(data).decode("ascii").splitlines():
        number, *words = line.split()
        yield int(number), words


@functools.cache
def ranks() -> dict[str, int]:
    """word (a-z) -> rank 0..len(SIZES)-1, from the shipped table."""
    return {w: SIZES.index(size) for size, words in _grouped(LEVELS_FILE) for w in words}


@functools.cache
def frequencies() -> dict[str, float]:
    """word (a-z) -> Zipf frequency (0.1 steps), from the shipped table."""
    return {w: tenths / 10 for tenths, words in _grouped(ZIPF_FILE) for w in words}


def log_prior(words: Sequence[str], lang: str = "en") -> npt.NDArray[np.float64]:
    """(len(words),) log prior of each word (a-z, folded), up to a constant:
    ZIPF_WEIGHT x its Zipf frequency up to ZIPF_CAP (UNKNOWN_ZIPF for a word the table
    lacks); all zeros for a language without a table."""
    if lang not in LANGS or not words:
        return np.zeros(len(words))
    table = frequencies()
    return ZIPF_WEIGHT * np.minimum(np.array([table.get(w, UNKNOWN_ZIPF) for w in words], np.float64), ZIPF_CAP)
