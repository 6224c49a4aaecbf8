"""The adapted head: a small correction, learnt on real handwriting, to the base
recogniser's letter odds (``models/word_head.npz``, SHA-256 in ``word_head.npz.sha256``).

Per frame t, with the base model's folded probabilities p_t (27,) and its features
f_t (120,), c_t = [f_{t-r}, ..., f_t, ..., f_{t+r}] (120 (2r + 1),; zeros beyond the
ends; r from the first matrix's rows): logits_t = log p_t + c_t @ W + b (W (360, 27),
b (27,)), or with a hidden layer
(the file holds W1, b1 too) logits_t = log p_t + relu(c_t @ W1 + b1) @ W + b; then a
softmax over the 27 classes. W = 0, b = 0 is the base model. Without the file (or with $BOGGLE_CV_WORD_HEAD=none) the base model
is used as it is. Training: ``boggle_cv/train/word_head.py``.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from . import shipped

FILE = "word_head.npz"
ENV = "BOGGLE_CV_WORD_HEAD"


Weights = tuple[np.ndarray, ...]


@lru_cache(maxsize=2)
def _load(path_str: str, mtime_ns: int) -> Weights:
    path = Path(path_str)
    shipped.verified_bytes(path, "handwriting head")
    with np.load(path) as z:
        names = ("W1", "b1", "W", "b") if "W1" in z.files else ("W", "b")
        return tuple(np.asarray(z[n], np.float32) for n in names)


def weights() -> Weights | None:
    """(W, b) or (W1, b1, W, b) of the head in use ($BOGGLE_CV_WORD_HEAD, else the
    shipped file), or None."""
    key = shipped.in_use(ENV, FILE, "handwriting head")
    return None if key is None else _load(*key)


def context(features: np.ndarray, width: int = 3) -> np.ndarray:
    """(T, D) -> (T, width * D): each frame's features beside its (width - 1) / 2
    neighbours' on each side (zeros past the ends)."""
    r = width // 2
    t = features.shape[0]
    z = np.zeros((r, features.shape[1]), features.dtype)
    padded = np.concatenate([z, features, z])
    return np.concatenate([padded[i:i + t] for i in range(width)], axis=1)


def apply(probs: np.ndarray, features: np.ndarray) -> np.ndarray:
    """(T, 27) base probabilities and (T, 120) features -> (T, 27) corrected probabilities."""
    w = weights()
    if w is None or probs.shape[0] == 0:
        return probs
    x = context(features, w[0].shape[0] // features.shape[1])
    if len(w) == 4:
        x = np.maximum(x @ w[0] + w[1], 0.0)
    logits = np.log(np.maximum(probs, 1e-8)) + x @ w[-2] + w[-1]
    logits -= logits.max(1, keepdims=True)
    e = np.exp(logits)
    return np.asarray(e / e.sum(1, keepdims=True), np.float32)
