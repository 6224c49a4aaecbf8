"""The board informs, the ink decides: a word read against a board's lexicon stands as
a word of the board, without a question, only when the ink prefers it clearly over
every reading of the same ink that is not on the board.

A board's lexicon is a closed set (its words and their dictionary neighbours), and
the board's words are weighed up (reading.BOARD_BONUS): a word the player wrote that is
not on the board (a misspelling, a path that skips a cube, a word one cube away) would
otherwise read as the nearest board word that scores. So each lexicon reading is
weighed against what the ink says without the board (a likelihood-ratio test against
the best readings off the board):

  score      what the ink says of a string with no board known: log P(string | ink)
             / word_odds.TEMPERATURE + its prior of common words + word_odds.LENGTH_BONUS
             a letter (nats; the logit the open reading ranks the dictionary's words
             by), under the crop's first view
  written    the open reading: the dictionary's best word for the ink (the reading of
             a sheet before its board is known: reading.read_against_dictionary),
             else the free reading; the board's word itself where it is the free
             reading (the ink spells it)
  rivals     the readings of the ink that are not on the board: the dictionary's
             words among the open reading's and the lexicon's alternatives and every
             dictionary word one edit from the board's word (the near-words a player
             writes), and the strings no dictionary holds (the free reading, a
             lexicon word the dictionary lacks)
  margins    word_margin = score(board word) - the best dictionary rival's score;
             other_margin = score(board word) - the best other rival's score

A board word stands ("kept") when both margins are at least the rule's
(``BoardRule.word_margin``, ``BoardRule.other_margin``); a kept word that the
calibration finds doubtful is still asked about, the written word first. Otherwise it
is asked ("asked"): the written word first, the board's word beside it, then what else
the ink says (the rivals, the open reading's and the lexicon's alternatives, the greedy
reading), best first, at most ``top``. A board word whose score is more than
``BoardRule.offer_gap`` below the written word's is never offered: where none is left,
the written reading stands as it is ("written"; 0 points where it is not on the board,
the referee says so). A lexicon word that is not on the board gains nothing from the
board: the written reading stands, the lexicon word among its alternatives. Either way
the written word is the reading's ``written`` and among its alternatives.

The rule is fitted on the tune split (``boggle_cv/train/word_board.py``) and shipped in
``models/word_doubt.json`` ("board"); ``DEFAULT_RULE`` holds without that file.
"""
from __future__ import annotations

from collections.abc import Collection, Container, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from . import commonness, ctc
from .word_odds import LENGTH_BONUS, TEMPERATURE
from ...game.near_words import one_edit


@dataclass(frozen=True)
class BoardRule:
    """When a board word stands (nats of score, module doc): kept when it beats every
    dictionary rival off the board by `word_margin` and every other rival by
    `other_margin`; a board word more than `offer_gap` below the written word is not
    offered."""

    word_margin: float
    other_margin: float
    offer_gap: float

    def to_dict(self) -> dict[str, float]:
        return {"word_margin": self.word_margin, "other_margin": self.other_margin, "offer_gap": self.offer_gap}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> BoardRule:
        rule = cls(float(doc["word_margin"]), float(doc["other_margin"]), float(doc["offer_gap"]))
        if rule.offer_gap < 0:
            raise ValueError(f"offer_gap {rule.offer_gap} below 0")
        return rule


#: The rule without a calibration file (the shipped file's numbers).
DEFAULT_RULE = BoardRule(word_margin=2.5, other_margin=-3.0, offer_gap=7.0)


@dataclass(frozen=True)
class BoardCheck:
    """A lexicon reading weighed against the ink's other readings (module doc):
    `lexicon_word` and whether it is `on_board`, the `written` word, every candidate's
    `scores` (string, score: best first; nats), the `board` words among them, which of
    them are `words` of the dictionary, and the two margins (+inf without a rival)."""

    lexicon_word: str
    on_board: bool
    written: str
    scores: tuple[tuple[str, float], ...]
    board: frozenset[str]
    words: frozenset[str]
    word_margin: float
    other_margin: float

    def outcome(self, rule: BoardRule) -> str:
        """"kept", "asked" or "written" (module doc; "written" for a word off the board)."""
        if self.on_board and self.word_margin >= rule.word_margin and self.other_margin >= rule.other_margin:
            return "kept"
        return "asked" if self.offered(rule) else "written"

    def score(self, word: str) -> float:
        return dict(self.scores).get(word, ctc.NEG_INF)

    def offered(self, rule: BoardRule) -> tuple[str, ...]:
        """The board words a question may offer: within `offer_gap` of the written word."""
        floor = self.score(self.written) - rule.offer_gap
        return tuple(w for w, s in self.scores if w in self.board and s >= floor)


def scores(view: np.ndarray, words: Sequence[str], lang: str = "en") -> np.ndarray:
    """(len(words),) each string's score under one view's (T, 27) frames (module doc)."""
    if not words:
        return np.zeros(0)
    ll = ctc.log_likelihoods(view, *ctc.encode(list(words))) if view.shape[0] else np.full(len(words), ctc.NEG_INF)
    return np.asarray(ll / TEMPERATURE + commonness.log_prior(list(words), lang)
                      + LENGTH_BONUS * np.array([len(w) for w in words], np.float64))


def weigh(board_reading: Any, open_reading: Any, view: np.ndarray, dictionary: Container[str],
          on_board: Collection[str], lang: str = "en") -> BoardCheck:
    """The BoardCheck of a lexicon reading (a handwriting.WordReading) against the open
    reading of the same ink (None where the lexicon word is its own free reading: the
    ink spells it), under `view` (the first view's (T, 27) frames); `dictionary`: the
    edition's words, `on_board`: the board's words."""
    word, free = str(board_reading.word), str(board_reading.free)
    written = free if open_reading is None else str(open_reading.word or open_reading.free)
    opened = () if open_reading is None else tuple(w for w, _ in open_reading.alternatives)
    near = {n for n in one_edit(word) if n in dictionary} if word in on_board else set()
    cands = [word, written, *(w for w, _ in board_reading.alternatives), *opened, free, ctc.greedy(view)[0],
             *sorted(near)]
    cands = list(dict.fromkeys(w for w in cands if w))
    ranked = sorted(zip(cands, (float(s) for s in scores(view, cands, lang))), key=lambda ws: -ws[1])
    board = frozenset(w for w in cands if w in on_board)
    words = frozenset(w for w in cands if w in dictionary)
    mine = dict(ranked)[word]
    rivals = [(w, s) for w, s in ranked if w != word and w not in board]
    word_margin = mine - max((s for w, s in rivals if w in words), default=-np.inf)
    other_margin = mine - max((s for w, s in rivals if w not in words), default=-np.inf)
    return BoardCheck(word, word in on_board, written, tuple(ranked), board, words, float(word_margin),
                      float(other_margin))


#: The least probability an offered word holds in a question (questions.MIN_P drops
#: what is under 0.005, and an offered word is to be seen).
OFFER_FLOOR = 0.01
#: The least probability the written word holds among a kept reading's alternatives.
WRITTEN_FLOOR = 0.02


def with_written(alternatives: Sequence[tuple[str, float]], written: str, top: int,
                 floor: float) -> tuple[tuple[str, float], ...]:
    """`alternatives` with `written` among them (at least `floor`, in the last place
    when there is no room), best first after the first."""
    alts = list(alternatives)
    if not written or any(w == written for w, _ in alts):
        return tuple(alts)
    if len(alts) >= top:
        alts = alts[:top - 1]
    return tuple(alts + [(written, floor)])


def offered_alternatives(c: BoardCheck, rule: BoardRule, top: int, first: str,
                         second: str = "") -> tuple[tuple[str, float], ...]:
    """A question's options from what the ink says: `first`, then `second` (when it
    may be offered), then the other candidates best first, a board word only within
    `offer_gap` of the written word; probabilities from the scores (a softmax over
    those offered, each at least OFFER_FLOOR)."""
    board_ok = set(c.offered(rule))
    allowed = [w for w, _ in c.scores if w not in c.board or w in board_ok]
    lead = [w for w in (first, second) if w and w in allowed]
    chosen = list(dict.fromkeys([*lead, *allowed]))[:top]
    s = np.array([c.score(w) for w in chosen])
    p = np.exp(s - s.max())
    p = np.maximum(p / p.sum(), OFFER_FLOOR)
    return tuple((w, float(q)) for w, q in zip(chosen, p / p.sum()))


def decide(board_reading: Any, open_reading: Any, c: BoardCheck, rule: BoardRule, top: int) -> Any:
    """The reading that stands (module doc), a handwriting.WordReading: the board's,
    with the written word among its alternatives ("kept"; the written word first when
    the calibration finds it doubtful); or the written word first with the board's
    words the ink supports beside it, asked ("asked"); or the written reading as it is
    ("written"). Each carries `written` and the BoardCheck as `board_check`."""
    written, word = c.written, str(board_reading.word)
    base = open_reading if open_reading is not None else board_reading
    outcome = c.outcome(rule)
    if outcome == "kept" and not (board_reading.flagged and word != written):
        alts = with_written(board_reading.alternatives, written, top, WRITTEN_FLOOR)
        alts = tuple((w, p) for w, p in alts if w == word or w not in c.board or w in c.offered(rule))
        return replace(board_reading, alternatives=alts, written=written, board_check=c)
    alts = offered_alternatives(c, rule, top, written, word)
    asked = outcome != "written" or any(w in c.board for w, _ in alts)
    flagged = True if asked else bool(base.flagged)
    return replace(base, word=alts[0][0], confidence=alts[0][1], alternatives=alts, flagged=flagged,
                   free=board_reading.free, written=written, board_check=c)
