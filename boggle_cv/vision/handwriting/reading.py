"""read_words: handwritten word crops -> readings, against a lexicon or free.

With a lexicon, each candidate's exact CTC likelihood under the image
(``ctc.log_likelihoods``) becomes a posterior by a softmax over the lexicon
(temperature ``TEMPERATURE``, times the prior of how common each word is,
``commonness.log_prior``: English only, uniform for other languages, and a bonus per
letter, ``LENGTH_BONUS``, that undoes the reader's lean to short words):
``.alternatives`` best first (up to TOP_K),
``.confidence`` the top posterior, ``.flagged`` when it is below FLAG_BELOW or the
runner-up is within FLAG_MARGIN of it (a Boggle lexicon is dense: seat, sat, seats),
or when the greedy reading finds no letter at all (a blank crop: the lexicon is a
closed set, so its best word can be "certain" without any ink).
Without one, the word is the free reading (below), its confidence the CTC posterior
of that string against its one-edit neighbours (how sure the network is of each
letter); or, given a whole dictionary, a lexicon is found in it for each crop
(``read_against_dictionary``). ``.free`` is always the free reading: CTC prefix beam search with the
letter model of ``charlm`` (LETTER_WEIGHT, LETTER_BONUS), so that a word off the
lexicon is shown as written rather than as the network's noisiest path.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

# the words near a word live with the game (its sheet lexicon uses them too); named here as well
from ...game.near_words import MAX_LEN as MAX_LEN, board_lexicon as board_lexicon, clean_lexicon, fold_candidate as fold_candidate, one_edit
from . import board_check, charlm, commonness, ctc, doubt, recogniser
from .board_check import BoardCheck
from .word_odds import LENGTH_BONUS as LENGTH_BONUS, TEMPERATURE as TEMPERATURE

#: How many alternatives a reading keeps.
TOP_K = 5
#: Flag a reading whose top posterior is below this...
FLAG_BELOW = 0.90
#: ...or whose runner-up's posterior is within this of the top one.
FLAG_MARGIN = 0.0
#: Each crop is read at these horizontal stretches and the candidates' CTC
#: log-likelihoods are averaged (test-time augmentation; +2.5 points top-1 on Jeremy's
#: tune split for 1.0 + 1.25 with the head alone, none lost on DHSD's). The free
#: reading uses the first. With the fine-tuned reader one stretch is
#: better on that tune split: 1.0 alone 80.0% top-1 / 92.6% top-3, 1.0 + 1.25 78.1% /
#: 94.1%, 1.0 + 1.5 78.5%, 0.85 + 1.0 + 1.25 + 1.5 80.8% (4x the time); so one pass.
#: Tried on the same tune split (the head before the neck's fine-tuning; 489 words):
#: adding 1.5 gave 76.7% against 74.8% for +50% time, adding a slant of +-0.25,
#: thicker or thinner strokes, or 0.85 gave 74.8-75.7%, none kept.
STRETCHES = (1.0,)
#: A second look: a lexicon reading under RECHECK_BELOW is read again at these stretches too (its candidates' log-likelihoods averaged over all
#: the views), so the time goes to the doubtful words only (about a third of Jeremy's).
#: Chosen on the tune split with the length bonus and the frequency prior:
#: read so at every word, 1.0 + 0.85 + 1.2 gave Jeremy 90.0% -> 91.0% top-1, confident
#: errors 1.2% -> 0.6%, and his words cut from composed tune sheets
#: (`scripts/eval_sheets.py boxes`) 84.9% -> 88.1% (1.0 + 1.25: 86.9%), DHSD unchanged,
#: for 2.5 times the reading time (a 40-word rendered sheet 0.74 -> 1.85 s). Only the
#: words under 0.95 or 0.99 read again: the same figures; under 0.90 (the reader's own
#: flag) the same top-1 but confident errors 1.2%. At 0.95 a 40-word rendered sheet
#: takes 0.97 s (0.77 s at 0.90; 20 sheets, `scripts/eval_sheets.py rendered`).
SECOND_LOOK = (0.85, 1.2)
RECHECK_BELOW = 0.95
#: The free reading's letter model: its weight and a bonus per letter (log units),
#: chosen on the tune split (exact free readings, `charlm` table of the six editions'
#: words): greedy DHSD 72.6% / Jeremy 35.2%; beam search alone 72.6 / 35.6; weight
#: 0.3-0.5 with bonus 1-2 75.8-76.8 / 37.8-39.9 (0.5 and 1.0: 75.8 / 39.7); weight
#: 1.2 loses (51.6-67.4 on DHSD). About 1 ms a word.
LETTER_WEIGHT = 0.5
LETTER_BONUS = 1.0
#: A log-prior bonus (natural log units, beside the prior of common words) for a
#: lexicon word that can be traced on the board (``read_words(board_words=...)``): a
#: player writes the words they found on the board far more often than a dictionary
#: neighbour of one, so where the ink leaves "five" and "fire" close, the one on the
#: board is the better bet. A word off the board still wins when its ink says so.
BOARD_BONUS = 3.0


@dataclass(frozen=True)
class WordReading:
    """One written word read: ``word`` a-z ('' when nothing legible), ``confidence``
    its probability 0..1, ``alternatives`` best first with ``alternatives[0][0] ==
    word``, ``flagged`` doubtful (ask the player), ``free`` the lexicon-less reading."""

    word: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    flagged: bool
    free: str
    #: what the reading says about how sure it is (doubt.Evidence; lexicon readings
    #: only), and the calibration's P(right) from it (None without a calibration)
    evidence: doubt.Evidence | None = field(default=None, compare=False, repr=False)
    p_right: float | None = field(default=None, compare=False)
    #: with a board known: what the ink says without the board (the open reading:
    #: board_check), always among the alternatives of a doubtful word; '' otherwise
    written: str = ""
    #: with a board known: the lexicon word checked against the open reading
    board_check: BoardCheck | None = field(default=None, compare=False, repr=False)


def _softmax(scores: np.ndarray, prior: np.ndarray | None = None) -> np.ndarray:
    """Posterior from log-likelihoods (softened by TEMPERATURE) and an optional log prior."""
    z = scores / TEMPERATURE
    if prior is not None:
        z = z + prior
    z = z - z.max()
    e = np.exp(z)
    return np.asarray(e / e.sum())


def _decide(words: Sequence[str], scores: np.ndarray, free: str, prior: np.ndarray | None = None) -> WordReading:
    """The reading from candidates, their log-likelihoods and (optionally) log priors."""
    if not len(words) or not np.isfinite(scores).any() or scores.max() <= ctc.NEG_INF / 2:
        return WordReading("", 0.0, (), True, free)
    post = _softmax(scores, prior)
    order = np.argsort(-post, kind="stable")[:TOP_K]
    alts = tuple((words[i], float(post[i])) for i in order)
    top = alts[0][1]
    second = alts[1][1] if len(alts) > 1 else 0.0
    flagged = top < FLAG_BELOW or top - second < FLAG_MARGIN or not free
    return WordReading(alts[0][0], top, alts, flagged, free)


def lexicon_scores(views: Sequence[np.ndarray], encoded: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Mean CTC log-likelihood of each candidate over the views (one (T, 27) array per
    stretch of the same crop)."""
    return np.asarray(np.mean(view_scores(views, encoded), axis=0))


def view_scores(views: Sequence[np.ndarray], encoded: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
    """Each view's (K,) CTC log-likelihoods of the candidates."""
    labels, lengths = encoded
    return [ctc.log_likelihoods(p, labels, lengths) for p in views]


def _one(view: np.ndarray, word: str) -> float:
    """log P(word | one view's frames); NEG_INF for no word or no frames."""
    if not word or view.shape[0] == 0:
        return ctc.NEG_INF
    return float(ctc.log_likelihoods(view, *ctc.encode([word]))[0])


def evidence(views: Sequence[np.ndarray], lexicon: Sequence[str], per_view: Sequence[np.ndarray],
             prior: np.ndarray, common: np.ndarray, board: np.ndarray, reading: WordReading) -> doubt.Evidence:
    """The evidence of a lexicon reading (doubt.Evidence): from the views' frames, the
    candidates' log-likelihoods per view, the full log prior the posterior used
    (`prior`), the commonness part of it (`common`) and the board mask (`board`)."""
    alts = reading.alternatives
    p1 = min(alts[0][1], 1.0 - 1e-12)
    p2 = alts[1][1] if len(alts) > 1 else 1e-12
    i1 = list(lexicon).index(reading.word)
    word_ll = _one(views[0], reading.word)
    free_ll = _one(views[0], reading.free)
    others = [int(np.argmax(_softmax(s, prior))) == i1 for s in per_view[1:]]
    agree = float(sum(others)) if others else 2.0
    frames = max(views[0].shape[0], 1)
    sure, same = -float(np.log1p(-p1)), float(reading.word == reading.free)
    return doubt.Evidence(
        doubt=sure, margin=float(np.log(p1 / max(p2, 1e-12))),
        fit_gap=float(free_ll - word_ll) if reading.free else doubt.CLIP,
        same=same, misfit=edit_distance(reading.word, reading.free) / max(len(reading.word), 1),
        agree=agree, length=float(len(reading.word)), common=float(common[i1]), on_board=float(board[i1]),
        per_frame=word_ll / frames)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (inserts, deletes, substitutions) between two strings."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[:], i
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
    return row[-1]


def read_views(views: Sequence[np.ndarray], lexicon: Sequence[str] | None,
               encoded: tuple[np.ndarray, np.ndarray] | None = None,
               prior: np.ndarray | None = None, board: np.ndarray | None = None,
               free: str | None = None) -> WordReading:
    """One reading from one crop's frame probabilities at each of STRETCHES (the first
    is stretch 1, for the free reading); ``lexicon`` already cleaned
    (``clean_lexicon``), ``encoded`` its ``ctc.encode`` when the caller has it,
    ``prior`` its log prior (``commonness.log_prior``; None: uniform), ``board`` 1.0
    for each candidate on the board (weighed up by BOARD_BONUS; None: no board). The
    free reading (no lexicon) uses no prior: it shows what is written. A lexicon
    reading carries its evidence and, with a calibration (doubt.calibration), is
    flagged when its P(right) is under the calibration's ask_below. ``free``: the free
    reading of ``views[0]`` when the caller has it (a second look at the same crop)."""
    if free is None:
        inked = bool(ctc.greedy(views[0])[0])
        free = ctc.beam_search(views[0], charlm.table(), LETTER_WEIGHT, LETTER_BONUS) if inked else ""
    if lexicon is None:
        if not free:
            return WordReading("", 0.0, (), True, "")
        cands = [free] + sorted(one_edit(free))
        r = _decide(cands, lexicon_scores(views, ctc.encode(cands)), free)
        # the free word is the answer; its confidence is its share among its neighbours
        conf = dict(r.alternatives).get(free, 0.0)
        alts = ((free, conf),) + tuple(a for a in r.alternatives if a[0] != free)
        return WordReading(free, conf, alts[:TOP_K], conf < FLAG_BELOW, free)
    if not lexicon:
        return WordReading("", 0.0, (), True, free)
    per_view = view_scores(views, encoded or ctc.encode(lexicon))
    common = prior if prior is not None else np.zeros(len(lexicon))
    mask = board if board is not None else np.zeros(len(lexicon))
    full = with_length_bonus(lexicon, common + BOARD_BONUS * mask)
    r = _decide(lexicon, np.asarray(np.mean(per_view, axis=0)), free, full)
    if not r.word:
        return r
    return calibrated(replace(r, evidence=evidence(views, lexicon, per_view, full, common, mask, r)))


def calibrated(r: WordReading, ev: doubt.Evidence | None = None) -> WordReading:
    """The reading with its evidence (`ev`, else its own) and, with a calibration,
    its P(right) and the flag that follows from it (asked under ask_below)."""
    ev = ev if ev is not None else r.evidence
    cal = doubt.calibration()
    if cal is None or ev is None:
        return replace(r, evidence=ev)
    p = cal.p_right(ev)
    return replace(r, evidence=ev, p_right=p, flagged=p < cal.ask_below or not r.free)


def with_length_bonus(lexicon: Sequence[str], prior: np.ndarray | None) -> np.ndarray:
    """(len(lexicon),) log prior: ``prior`` (None: uniform) plus LENGTH_BONUS per letter."""
    bonus = LENGTH_BONUS * np.array([len(w) for w in lexicon], np.float64)
    return bonus if prior is None else prior + bonus


def crop_views(images: Sequence[np.ndarray]) -> list[list[np.ndarray]]:
    """Per image, its (T, 27) frame probabilities at each of STRETCHES."""
    per_stretch = [recogniser.frame_probs(images, s) for s in STRETCHES]
    return [[v[i] for v in per_stretch] for i in range(len(images))]


#: With a whole dictionary as the lexicon, the one-edit neighbours of this many of the
#: beam's best words join its candidates (what a near miss of the beam may be).
NEIGHBOURS_OF = 3
#: The open reading is the free reading where that outscores the dictionary's best word
#: by more than this (nats, board_check.scores): the ink spells a word no dictionary
#: holds (a name), and the dictionary's nearest word ("under" for "kuhndorf") is not
#: what was written. On the tune split's sheets read by files that never saw it
#: (models/README.md), no written dictionary word was more than 3.9 nats below its free
#: reading, while 590 of the 647 DHSD names that their free reading spelled outscored
#: the dictionary's word by more than 6.
FREE_OVER_DICTIONARY = 6.0


def read_against_dictionary(views: Sequence[np.ndarray], dictionary: Any, lang: str = "en") -> WordReading:
    """One crop read against a whole dictionary (no board known): the words of
    ``dictionary_reading.dictionary_candidates`` and their dictionary neighbours one
    edit away, scored exactly with the prior of common words; the free reading
    (flagged) when no dictionary word fits the ink, or when it outscores the best one
    by more than FREE_OVER_DICTIONARY (that word among its alternatives)."""
    from .dictionary_reading import dictionary_candidates
    cands = dictionary_candidates(views[0], dictionary) if ctc.greedy(views[0])[0] else []
    if not cands:
        return _flagged_free_reading(views)
    near = {n for w in cands[:NEIGHBOURS_OF] for n in one_edit(w) if n in dictionary}
    lex = clean_lexicon(cands + sorted(near - set(cands)))
    r = read_views(views, lex, None, commonness.log_prior(lex, lang))
    if not r.word or not r.free or r.word == r.free:
        return r
    free_score, word_score = board_check.scores(views[0], [r.free, r.word], lang)
    if free_score - word_score <= FREE_OVER_DICTIONARY:
        return r
    return _flagged_free_reading(views, r.free, also=r.word)


def _flagged_free_reading(views: Sequence[np.ndarray], free: str | None = None, also: str = "") -> WordReading:
    """The crop's free reading (``free`` when the caller has it), flagged, with ``also``
    (a word the ink may be: the dictionary's best) among its alternatives."""
    f = read_views(views, None, free=free)
    alts = board_check.with_written(f.alternatives, also, TOP_K, board_check.WRITTEN_FLOOR)
    return WordReading(f.word, f.confidence, alts, True, f.free)


def board_mask(lexicon: Sequence[str], board_words: Iterable[str] | None) -> np.ndarray | None:
    """(len(lexicon),) 1.0 for each (cleaned) lexicon word among ``board_words``
    (folded as the lexicon is), 0.0 for the others; None when no board is given."""
    if board_words is None:
        return None
    on_board = set(clean_lexicon(board_words))
    return np.array([w in on_board for w in lexicon], np.float64)


def read_words(images: Sequence[np.ndarray], lexicon: Iterable[str] | None = None, *,
               lang: str = "en", dictionary: Any = None,
               board_words: Iterable[str] | None = None) -> list[WordReading]:
    """One reading per image (BGR uint8 (H, W, 3); grey (H, W) and BGRA accepted),
    each a single written word. ``lexicon``: the words it may be (e.g.
    ``board_lexicon``); None reads freely, or, given a ``dictionary``
    (boggle_cv.game.dictionary.Dictionary: no board known yet), against all its words
    (``read_against_dictionary``). ``lang``: the lexicon's language, for the prior of
    how common each word is (``commonness``; uniform for a language without a table).
    ``board_words``: the lexicon's words that can be traced on the board (the solver's
    words), each weighed up by BOARD_BONUS; None when no board is known. With a board
    known, each reading is checked against the open reading (``ink_decides``, against
    ``dictionary``, else the edition's): the ink decides whether a board's word stands."""
    images = list(images)
    if not images:
        return []
    if lexicon is None and dictionary is not None:
        return [read_against_dictionary(views, dictionary, lang) for views in crop_views(images)]
    lex = clean_lexicon(lexicon) if lexicon is not None else None
    encoded = ctc.encode(lex) if lex else None
    prior = commonness.log_prior(lex, lang) if lex else None
    board = board_mask(lex, board_words) if lex else None
    views = crop_views(images)
    out = [read_views(v, lex, encoded, prior, board) for v in views]
    if lex:  # a second look at the doubtful ones (SECOND_LOOK)
        again = [i for i, r in enumerate(out) if r.word and r.confidence < RECHECK_BELOW]
        if again and SECOND_LOOK:
            more = [recogniser.frame_probs([images[i] for i in again], s) for s in SECOND_LOOK]
            for k, i in enumerate(again):
                second = read_views(views[i] + [m[k] for m in more], lex, encoded, prior, board, out[i].free)
                out[i] = second if second.word else out[i]  # a view no candidate fits: keep the first look
    if lex and board is not None:  # the board informs, the ink decides
        opened = dictionary if dictionary is not None else _edition_dictionary(lang)
        on_board = frozenset(w for w, b in zip(lex, board) if b)
        if opened is not None:
            out = [ink_decides(r, v, opened, lang, on_board) for r, v in zip(out, views)]
    return out


def ink_decides(reading: WordReading, views: Sequence[np.ndarray], dictionary: Any, lang: str,
                on_board: frozenset[str] = frozenset()) -> WordReading:
    """A board lexicon's reading weighed against what the same ink says without the
    board (board_check: the open reading, read_against_dictionary, and the rivals off
    the board; `on_board`: the board's words). A dictionary word off the board is
    read as the sheet is read with no board, even where the ink spells it (the
    dictionary's prior of common words may prefer another: "agon" spelled, "again"
    written), so that the board never reads fewer words right than no board; it
    stands as read where the open reading agrees. A board word the ink spells needs
    no open reading, nor does a lexicon word the dictionary lacks (a caller's own
    lexicon): the ink spells it."""
    if not reading.word:
        return replace(reading, written=reading.free)
    spelled = reading.word == reading.free
    opened: WordReading | None
    if spelled and reading.word not in on_board:
        if reading.word not in dictionary:
            return replace(reading, written=reading.free)
        opened = read_against_dictionary(views, dictionary, lang)
        if str(opened.word or reading.word) == reading.word:
            return replace(reading, written=reading.free)
    else:
        opened = None if spelled else read_against_dictionary(views, dictionary, lang)
    check = board_check.weigh(reading, opened, views[0], dictionary, on_board, lang)
    return board_check.decide(reading, opened, check, doubt.board_rule(), TOP_K)  # type: ignore[no-any-return]


def _edition_dictionary(lang: str) -> Any:
    """The edition's shipped dictionary, the open reading's (None for an unknown edition)."""
    from ...errors import BoggleError
    from ...game.dictionary import load_default
    try:
        return load_default(lang)
    except BoggleError:
        return None
