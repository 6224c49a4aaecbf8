"""CTC for a lexicon: the exact log-likelihood of each candidate word under one
image's frame probabilities (forward algorithm, all candidates at once), and the
best-path (greedy) reading.

Classes: 0 is the blank, 1..26 are a..z (``recogniser`` folds the model to these).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

LETTERS = "abcdefghijklmnopqrstuvwxyz"
NEG_INF = -1e30


def encode(words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Words (a-z) -> (labels (K, Lmax) int64 in 1..26, 0-padded; lengths (K,))."""
    lmax = max((len(w) for w in words), default=0)
    labels = np.zeros((len(words), max(lmax, 1)), np.int64)
    lengths = np.zeros(len(words), np.int64)
    for i, w in enumerate(words):
        codes = [ord(c) - 96 for c in w]
        labels[i, :len(codes)] = codes
        lengths[i] = len(codes)
    return labels, lengths


def log_likelihoods(probs: np.ndarray, labels: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """log P(word | image) for each candidate, by the CTC forward algorithm.

    probs: (T, 27) per-frame class probabilities (rows sum to 1, no zeros);
    labels: (K, L) int label codes 1..26 (padded with anything past each length);
    lengths: (K,) word lengths >= 1. Returns (K,) float64; NEG_INF where the word
    cannot fit in T frames. Runs in probability space, rescaled every frame (the
    scale's log is accumulated), so it is exact up to float64 rounding.
    """
    t_frames = probs.shape[0]
    k, lmax = labels.shape
    if t_frames == 0 or k == 0:
        return np.full(k, NEG_INF)
    s = 2 * lmax + 1
    ext = np.zeros((k, s), np.int64)
    ext[:, 1::2] = labels
    # a skip from s-2 to s is allowed onto a letter that differs from the letter before
    skip = np.zeros((k, s), bool)
    skip[:, 3::2] = labels[:, 1:] != labels[:, :-1]
    p = probs.astype(np.float64)
    alpha = np.zeros((k, s))
    alpha[:, 0] = p[0, 0]
    alpha[:, 1] = p[0, ext[:, 1]]
    logscale = np.zeros(k)
    for t in range(1, t_frames):
        c = alpha.sum(1, keepdims=True)
        c[c <= 0] = 1.0
        alpha /= c
        logscale += np.log(c[:, 0])
        nxt = alpha.copy()
        nxt[:, 1:] += alpha[:, :-1]
        nxt[:, 2:] += np.where(skip[:, 2:], alpha[:, :-2], 0.0)
        alpha = nxt * p[t, ext]
    end = 2 * lengths
    rows = np.arange(k)
    last = alpha[rows, end] + alpha[rows, end - 1]
    with np.errstate(divide="ignore"):
        out = np.log(last) + logscale
    out[~np.isfinite(out)] = NEG_INF
    return np.asarray(out)


def greedy(probs: np.ndarray) -> tuple[str, float]:
    """Best-path decoding: (a-z text, probability of that path's frames)."""
    if probs.shape[0] == 0:
        return "", 0.0
    best = probs.argmax(1)
    p = float(np.exp(np.log(probs[np.arange(len(best)), best]).sum()))
    text, prev = [], 0
    for b in best:
        if b != prev and b != 0:
            text.append(LETTERS[b - 1])
        prev = int(b)
    return "".join(text), p


def _logadd(a: float, b: float) -> float:
    if a < b:
        a, b = b, a
    return a if b == -math.inf else a + math.log1p(math.exp(b - a))


#: A letter's extra log score after a prefix (None: not allowed there), and a
#: prefix's extra log score for ending the word (None: it cannot end there).
Grow = Callable[[tuple[int, ...], int], "float | None"]
End = Callable[[tuple[int, ...]], "float | None"]


def prefix_beam(probs: np.ndarray, grow: Grow, end: End, beam: int = 16,
                floor: float = 1e-3) -> list[tuple[tuple[int, ...], float]]:
    """CTC prefix beam search: the readings (prefixes of letter codes 1..26) that can
    end, with their log scores (path probability summed over alignments, plus what
    `grow` adds per letter and `end` at the end), best first.

    probs: (T, 27) frame probabilities, class 0 the blank. ``beam`` prefixes are kept
    each frame; a letter whose probability in a frame is under ``floor`` is not tried
    there. A letter repeated needs a blank between (CTC's rule)."""
    t_frames = probs.shape[0]
    if t_frames == 0:
        return []
    logp = np.log(np.maximum(probs.astype(np.float64), 1e-30))
    tried_at = [(np.nonzero(probs[t, 1:] >= floor)[0] + 1).tolist() for t in range(t_frames)]
    ninf = -math.inf
    beams: dict[tuple[int, ...], tuple[float, float]] = {(): (0.0, ninf)}  # prefix -> (log P ends in blank, in a letter)
    for t in range(t_frames):
        row = logp[t].tolist()
        tried = tried_at[t]
        nxt: dict[tuple[int, ...], tuple[float, float]] = {}

        def add(prefix: tuple[int, ...], pb: float, pnb: float) -> None:
            ob, onb = nxt.get(prefix, (ninf, ninf))
            nxt[prefix] = (_logadd(ob, pb), _logadd(onb, pnb))

        for prefix, (pb, pnb) in beams.items():
            total = _logadd(pb, pnb)
            add(prefix, total + row[0], ninf)  # a blank
            last = prefix[-1] if prefix else 0
            if last:
                add(prefix, ninf, pnb + row[last])  # the same letter held
            for c in tried:
                extra = grow(prefix, c)
                if extra is None:
                    continue
                # a doubled letter starts after a blank only
                add(prefix + (c,), ninf, (pb if c == last else total) + row[c] + extra)
        ranked = sorted(nxt.items(), key=lambda kv: -_logadd(*kv[1]))
        beams = dict(ranked[:beam])
    ended = [(p, _logadd(*s), end(p)) for p, s in beams.items()]
    out = [(p, score + e) for p, score, e in ended if e is not None]
    return sorted(out, key=lambda x: -x[1])


def beam_search(probs: np.ndarray, letters: np.ndarray, weight: float, bonus: float,
                beam: int = 16, floor: float = 1e-3) -> str:
    """The best a-z reading by CTC prefix beam search with a letter model.

    probs: (T, 27) frame probabilities; letters: (27, 27, 27) log P(c | a, b) (index
    0 = a word's start or end: ``charlm.table``), added times ``weight`` for each
    letter and for the word's end; ``bonus`` is added per letter (the letter model
    would otherwise prefer short readings). With weight 0 and bonus 0 this is the
    most probable labelling (summed over its paths), which the greedy reading
    approximates."""
    def two(prefix: tuple[int, ...]) -> tuple[int, int]:
        return (prefix[-2] if len(prefix) > 1 else 0), (prefix[-1] if prefix else 0)

    def grow(prefix: tuple[int, ...], c: int) -> float:
        a, b = two(prefix)
        return weight * float(letters[a, b, c]) + bonus

    def end(prefix: tuple[int, ...]) -> float:
        a, b = two(prefix)
        return weight * float(letters[a, b, 0])

    found = prefix_beam(probs, grow, end, beam, floor)
    return "".join(LETTERS[c - 1] for c in found[0][0]) if found else ""
