"""New words in a writer's own hand: letters cut from their real crops and joined.

Jeremy's open crops hold 706 different words (train split), and the test asks for
words never seen. This module cuts each training crop into its letters where the
reader (the files in use: ``BOGGLE_CV_WORD_READER`` / ``_HEAD``) aligns them, and joins
letters of different crops into other words, so the fine-tuning sees the writer's
letters in new company (``word_finetune --recombined N``).

    letter_pieces(crops)        -> {letter: [Piece, ...]}
    recombined(pieces, words, count, rng) -> [(BGR uint8 (48, W, 3), word), ...]

Shapes: a crop is normalised and resized as the reader reads it (``preprocess``:
paper white, ink black, 48 px high); a frame of the reader is 8 px of it. A crop is
cut only where the reader's best path reads its label exactly (its alignment is then
the reader's own); the cut between two letters is midway between the last frame of
the one and the first of the next. A piece goes back to its crop's own scale (the
writer's letters keep their size and stroke width), and joined pieces sit on one
baseline: where the core band (the x-height rows, where most of the ink is) of each
one's crop ends.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from boggle_cv.vision.handwriting import ctc, head, preprocess, recogniser

#: A row is in the core band when its ink is at least this share of the busiest row's.
CORE_SHARE = 0.45
#: Rows of jitter (each way) in where a piece's baseline is put.
BASELINE_JITTER = 1


@dataclass(frozen=True)
class Piece:
    """One letter cut from a crop, at the crop's own scale (as written, after the
    reader's trim): grey uint8 (h, w), paper 255; `baseline` the row (from its top)
    where its crop's core band ends."""

    image: np.ndarray
    baseline: int


def core_band(grey: np.ndarray) -> tuple[int, int]:
    """Rows (top, bottom exclusive) of a word's x-height: the widest run of rows around
    the busiest one whose ink is at least CORE_SHARE of it. grey: uint8 (H, W), ink dark."""
    ink = (grey < 128).sum(axis=1).astype(np.float64)
    ink = np.convolve(ink, np.ones(3) / 3, mode="same")
    peak = int(ink.argmax())
    if ink[peak] <= 0:
        return 0, grey.shape[0]
    top = bottom = peak
    while top > 0 and ink[top - 1] >= CORE_SHARE * ink[peak]:
        top -= 1
    while bottom < len(ink) - 1 and ink[bottom + 1] >= CORE_SHARE * ink[peak]:
        bottom += 1
    return top, bottom + 1


def best_path(probs: np.ndarray, word: str) -> np.ndarray | None:
    """Viterbi alignment of `word` (a-z) to (T, 27) frame probabilities: per frame the
    index of the letter it emits (0-based) or -1 for a blank; None when it cannot fit."""
    labels = [ord(c) - 96 for c in word]
    ext = [0]
    for c in labels:
        ext += [c, 0]
    S, T = len(ext), probs.shape[0]
    if T < len(labels):
        return None
    lp = np.log(np.maximum(probs, 1e-12))
    score = np.full((T, S), -np.inf)
    back = np.zeros((T, S), np.int64)
    score[0, 0] = lp[0, 0]
    if S > 1:
        score[0, 1] = lp[0, ext[1]]
    for t in range(1, T):
        for s in range(S):
            cands = [(score[t - 1, s], s)]
            if s >= 1:
                cands.append((score[t - 1, s - 1], s - 1))
            if s >= 2 and ext[s] != 0 and ext[s] != ext[s - 2]:
                cands.append((score[t - 1, s - 2], s - 2))
            best, arg = max(cands)
            score[t, s] = best + lp[t, ext[s]]
            back[t, s] = arg
    end = S - 1 if score[T - 1, S - 1] >= score[T - 1, S - 2] else S - 2
    if not np.isfinite(score[T - 1, end]):
        return None
    path = np.empty(T, np.int64)
    s = end
    for t in range(T - 1, -1, -1):
        path[t] = (s - 1) // 2 if ext[s] != 0 else -1
        s = back[t, s]
    return path


def _prepared(bgr: np.ndarray) -> tuple[np.ndarray, int]:
    """A crop as the reader sees it, BGR uint8 (48, W, 3), and the height (px) of the
    trimmed crop it was resized from."""
    trimmed = preprocess.normalise(preprocess.to_bgr(bgr))
    return preprocess.resized(trimmed), int(trimmed.shape[0])


def _frame_probs(crop48: np.ndarray) -> np.ndarray:
    """(T, 27) frame probabilities of one prepared crop (as recogniser.frame_probs, without
    normalising it again)."""
    ((probs, feats),) = recogniser.prepared_outputs([crop48])
    return head.apply(probs, feats)


def letter_pieces(crops: Sequence[tuple[np.ndarray, str]]) -> dict[str, list[Piece]]:
    """The letters of the crops (BGR image, word a-z) that the reader reads exactly,
    cut where its best path puts them."""
    out: dict[str, list[Piece]] = {}
    for bgr, word in crops:
        if not preprocess.has_ink(preprocess.to_bgr(bgr)):
            continue
        crop, height = _prepared(bgr)
        probs = _frame_probs(crop)
        if ctc.greedy(probs)[0] != word:
            continue
        path = best_path(probs, word)
        if path is None:
            continue
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        back = height / grey.shape[0]  # the reader's 48 px -> the crop's own px
        baseline = int(round(core_band(grey)[1] * back))
        spans = [np.nonzero(path == i)[0] for i in range(len(word))]
        if any(len(s) == 0 for s in spans):
            continue
        cuts = [0] + [int(round((spans[i][-1] + 1 + spans[i + 1][0]) / 2 * preprocess.FRAME_PX))
                      for i in range(len(word) - 1)] + [grey.shape[1]]
        for i, ch in enumerate(word):
            x0, x1 = cuts[i], max(cuts[i + 1], cuts[i] + 2)
            w = max(2, int(round((x1 - x0) * back)))
            piece = cv2.resize(grey[:, x0:x1], (w, height), interpolation=cv2.INTER_LINEAR)
            out.setdefault(ch, []).append(Piece(np.ascontiguousarray(piece), baseline))
    return out


def joined(pieces: Sequence[Piece], rng: np.random.Generator) -> np.ndarray:
    """Pieces side by side at their own scale, baselines on one row (+-BASELINE_JITTER),
    overlapping by 0-2 px (the darker ink wins). BGR uint8 (H, W, 3), paper white."""
    shifts = [int(rng.integers(-BASELINE_JITTER, BASELINE_JITTER + 1)) for _ in pieces]
    above = max(p.baseline + d for p, d in zip(pieces, shifts))
    below = max(p.image.shape[0] - p.baseline - d for p, d in zip(pieces, shifts))
    out = np.full((above + below, sum(p.image.shape[1] for p in pieces)), 255, np.uint8)
    x = 0
    for i, (p, d) in enumerate(zip(pieces, shifts)):
        if i:
            x = max(0, x - int(rng.integers(0, 3)))
        h, w = p.image.shape
        y = above - p.baseline - d
        out[y:y + h, x:x + w] = np.minimum(out[y:y + h, x:x + w], p.image)
        x += w
    return np.asarray(cv2.cvtColor(out[:, :x], cv2.COLOR_GRAY2BGR))


def recombined(pieces: dict[str, list[Piece]], words: Sequence[str], count: int,
               rng: np.random.Generator) -> list[tuple[np.ndarray, str]]:
    """`count` words drawn from `words` (a-z; those with a letter no piece has are
    skipped), each joined from a random piece of each of its letters."""
    usable = [w for w in words if w and all(c in pieces for c in w)]
    out = []
    for k in rng.choice(len(usable), size=count, replace=len(usable) < count):
        w = usable[int(k)]
        out.append((joined([pieces[c][int(rng.integers(len(pieces[c])))] for c in w], rng), w))
    return out
