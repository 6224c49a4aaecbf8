"""The board informs, the ink decides: a word read against a board's lexicon stands as
that lexicon's word only when the ink supports it about as well as the open reading.

A board's lexicon is a closed set (its words and their dictionary neighbours), and
the board's words are weighed up (reading.BOARD_BONUS): a word the player wrote that is
not on the board (a misspelling, a path that skips a cube, a word one cube away) would
otherwise read as the nearest board word that scores. So each lexicon reading is
checked against what the ink says without the board (out-of-vocabulary rejection):

  open reading   the best word of the whole dictionary for the ink (the reading of a
                 sheet before its board is known: reading.read_against_dictionary),
                 else the free reading (``WordReading.free``)
  gap            log P(open reading | ink) - log P(lexicon word | ink): nats (natural
                 log), under the crop's first view (stretch 1). Word against word: the
                 free reading's own likelihood is no yardstick, a scrawl's free
                 reading being a string no word comes near.

The lexicon word is kept when it is the open word or the free reading, or when the gap
is at most ``BoardRule.keep_gap`` (a kept word that is doubtful all the same is asked
about as below: the open word first); with a gap up to ``BoardRule.ask_gap`` the player
is asked, the open word first ("as written") and the lexicon word beside it; beyond that
the word stands as written: the open reading, exactly as it is read with no board
(0 points where it is not on the board; the referee says so). Either way the open
word is the reading's ``written`` and among its alternatives, so that a question
always offers what the ink says, and a board word that the ink supports less than
``ask_gap`` below the open reading is no alternative (it could not be asked). The two gaps are fitted on the tune split
(``boggle_cv/train/word_board.py``) and shipped in ``models/word_doubt.json``
("board"); ``DEFAULT_RULE`` holds without that file.
"""
from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from . import ctc


@dataclass(frozen=True)
class BoardRule:
    """When a lexicon word stands (nats of the gap, module doc): kept at most
    `keep_gap`, asked at most `ask_gap`, else the open reading stands."""

    keep_gap: float
    ask_gap: float

    def to_dict(self) -> dict[str, float]:
        return {"keep_gap": self.keep_gap, "ask_gap": self.ask_gap}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> BoardRule:
        keep, ask = float(doc["keep_gap"]), float(doc["ask_gap"])
        if not keep <= ask:
            raise ValueError(f"keep_gap {keep} above ask_gap {ask}")
        return cls(keep, ask)


#: The rule without a calibration file (the shipped file's numbers, rounded).
DEFAULT_RULE = BoardRule(keep_gap=3.0, ask_gap=14.0)


@dataclass(frozen=True)
class BoardCheck:
    """One lexicon reading checked against its open reading: `lexicon_word` (what the
    board's lexicon read), `open_word` (the dictionary's best word, else the free
    reading), their log-likelihoods under the first view (nats), the `gap` (module
    doc) and the `outcome`: "kept", "asked" or "written"."""

    lexicon_word: str
    open_word: str
    lexicon_ll: float
    open_ll: float
    free_ll: float
    gap: float
    outcome: str


def log_likelihood(view: np.ndarray, word: str) -> float:
    """log P(word | one view's (T, 27) frames); NEG_INF for no word or no frames."""
    if not word or view.shape[0] == 0:
        return ctc.NEG_INF
    return float(ctc.log_likelihoods(view, *ctc.encode([word]))[0])


def check(lexicon_word: str, open_word: str, free: str, view: np.ndarray, rule: BoardRule) -> BoardCheck:
    """The check of `lexicon_word` against `open_word` under `view` (module doc; the
    `free` reading's likelihood is kept for the record)."""
    ll_word = log_likelihood(view, lexicon_word)
    ll_open = log_likelihood(view, open_word)
    ll_free = log_likelihood(view, free)
    gap = ll_open - ll_word
    if lexicon_word in (open_word, free) or gap <= rule.keep_gap:
        outcome = "kept"
    elif gap <= rule.ask_gap:
        outcome = "asked"
    else:
        outcome = "written"
    return BoardCheck(lexicon_word, open_word, ll_word, ll_open, ll_free, float(gap), outcome)


def merged(first: Sequence[tuple[str, float]], second: Sequence[tuple[str, float]], share: float,
           top: int) -> tuple[tuple[str, float], ...]:
    """Two readings' alternatives as one list: `first`'s probabilities times `share`,
    `second`'s times 1 - share, a word in both summed; `first`'s best word first, then
    the rest best first, at most `top`."""
    total: dict[str, float] = {}
    for words, weight in ((first, share), (second, 1.0 - share)):
        for w, p in words:
            total[w] = total.get(w, 0.0) + weight * float(p)
    lead = first[0][0] if first else None
    rest = sorted((kv for kv in total.items() if kv[0] != lead), key=lambda kv: -kv[1])
    head = [(lead, total[lead])] if lead is not None else []
    return tuple(head + rest)[:top]


def with_written(alternatives: Sequence[tuple[str, float]], written: str, top: int,
                 floor: float) -> tuple[tuple[str, float], ...]:
    """`alternatives` with `written` among them (at least `floor`, in the last place
    when there is no room), best first after the first."""
    alts = list(alternatives)
    if not written or any(w == written for w, _ in alts):
        return tuple(alts)
    entry = (written, floor)
    if len(alts) >= top:
        alts = alts[:top - 1]
    return tuple(alts + [entry])


#: The share of a question's probability that goes to the open reading's words
#: (an "asked" outcome: the ink leans to them, the board to the lexicon's).
ASKED_SHARE = 0.5
#: The least probability the written word holds among a kept reading's alternatives
#: (questions.MIN_P drops what is under 0.005).
WRITTEN_FLOOR = 0.02


def supported(alternatives: Sequence[tuple[str, float]], on_board: Container[str], view: np.ndarray,
              best_ll: float, ask_gap: float, keep: str) -> tuple[tuple[str, float], ...]:
    """`alternatives` without the board's words that the ink supports less than
    `ask_gap` nats below `best_ll` (the open reading's log-likelihood): a board word is
    offered only where it could be asked about (`keep`: a word kept whatever its fit)."""
    return tuple((w, p) for w, p in alternatives
                 if w == keep or w not in on_board or best_ll - log_likelihood(view, w) <= ask_gap)


def decide(board_reading: Any, open_reading: Any, view: np.ndarray, rule: BoardRule, top: int,
           on_board: Container[str] | None = None) -> Any:
    """The reading that stands (module doc), a handwriting.WordReading: the board's,
    with the open word among its alternatives ("kept"); the open word first and the
    board's beside it, asked ("asked"); or the open reading as it is ("written").
    Each carries the open word as `written` and the BoardCheck as `board_check`. A word
    of `on_board` (the board's words) that the ink supports less than the rule's
    `ask_gap` below the open reading is no alternative (supported; None: no word is
    taken away)."""
    written = open_reading.word or open_reading.free
    if not board_reading.word or not written:
        return replace(board_reading, written=written)
    c = check(board_reading.word, written, board_reading.free, view, rule)
    board = on_board if on_board is not None else frozenset()
    best = c.open_ll
    if c.outcome == "kept" and not (board_reading.flagged and board_reading.word != written):
        alts = supported(with_written(board_reading.alternatives, written, top, WRITTEN_FLOOR), board, view, best,
                         rule.ask_gap, board_reading.word)
        return replace(board_reading, alternatives=alts, written=written, board_check=c)
    if c.outcome in ("asked", "kept"):  # asked, or kept but doubtful: the ink's word first, the board's beside it
        alts = merged(open_reading.alternatives or ((written, 1.0),), board_reading.alternatives, ASKED_SHARE, top)
        alts = supported(alts, board, view, best, rule.ask_gap, alts[0][0])
        return replace(open_reading, word=alts[0][0], confidence=alts[0][1], alternatives=alts, flagged=True,
                       written=written, board_check=c)
    alts = supported(open_reading.alternatives, board, view, best, rule.ask_gap, written)
    return replace(open_reading, alternatives=alts or open_reading.alternatives, written=written, board_check=c)
