"""The word recogniser: PP-OCRv6 small's text recogniser (CTC; its last layer cut
to the 384 classes that fold to a letter, ``train/word_model.py``), run through
cv2.dnn and folded to 27 classes: CTC blank (0) and a-z (1..26).

``frame_probs(images)`` -> one (T, 27) float32 array per image: per output frame, the
probability of blank and of each letter, summed over the model's classes that fold
to it (upper and lower case, accented forms: ä, à, Ä... -> a; a few Cyrillic/Greek
look-alikes); the model's softmax runs over the kept classes only, so its mass on
digits, punctuation and other scripts is dropped (a word on a Boggle sheet is letters). T = crop width / 8 px.

The network and its class map load on first use (``onnx_models.WORD_READER``), so
``import boggle_cv`` and a tray scan never pay for them.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from . import preprocess

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Folded classes: blank, then a-z.
N_CLASSES = 27
#: Crops are run in batches of about this many input px of width.
BATCH_PX = 6000
#: How many frames wider than a crop's own its batch may be. The network mixes context
#: across the whole width, so right-padding changes a crop's own frames too, and a
#: padded short word puts letter mass past its own frames (its last letter lost when
#: they are cut). At 0 a batch holds crops of one width in frames only, each blob as
#: wide as the crop's alone, and a batch reads exactly as each crop alone. On the 379
#: crops of 10 rendered 40-word sheets (``scripts/eval_sheets.py rendered``), against
#: each read alone: 0 frames, the same; 1 frame, the same words, confidences up to 0.27
#: apart; 2 frames, 2 words changed; 6 frames (48 px), 12 words changed.
MAX_PAD_FRAMES = 0
#: The network's outputs: per-frame probabilities over its kept classes, and the
#: 120-wide features its last layer reads.
OUTPUTS = ("probs", "features")
#: Probability floor per frame and class (keeps logs finite).
FLOOR = 1e-8


@lru_cache(maxsize=2)
def _fold_targets(charset_path: str) -> np.ndarray:
    """For each of the model's output classes, its folded class (0 blank, 1..26 a-z)."""
    spec = json.loads(Path(charset_path).read_text(encoding="utf-8"))
    return np.asarray(spec["fold"], np.int64)


def _charset_path() -> Path:
    from ..onnx_models import WORD_READER, model_path
    return model_path(WORD_READER).with_name("word_reader_charset.json")


def _net() -> cv2.dnn.Net:
    from ..onnx_models import WORD_READER, load_net
    return load_net(WORD_READER)


def fold(probs: np.ndarray, target: np.ndarray) -> np.ndarray:
    """(..., C) model probabilities -> (..., 27) folded and renormalised float32;
    ``target[c]`` is class c's folded class."""
    out = np.zeros(probs.shape[:-1] + (N_CLASSES,), np.float32)
    for k in range(N_CLASSES):  # 27 small sums; np.add.at on the last axis is slower
        out[..., k] = probs[..., target == k].sum(-1)
    out = np.maximum(out, FLOOR)
    return np.asarray(out / out.sum(-1, keepdims=True), np.float32)


def _frames(crop: np.ndarray) -> int:
    """A HEIGHT-high crop's width in output frames (its blob's width / FRAME_PX)."""
    return int(-(-crop.shape[1] // preprocess.FRAME_PX))


def frame_outputs(images: Sequence[np.ndarray], stretch: float = 1.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per image: the base model's folded (T_i, 27) frame probabilities and its
    (T_i, 120) features (what the adapted head reads)."""
    if not images:
        return []
    bgr = [preprocess.to_bgr(im) for im in images]
    # a crop without ink (or without pixels) has no frames: it reads as nothing
    return prepared_outputs([preprocess.resized(preprocess.normalise(b), stretch) if preprocess.has_ink(b)
                             else b[:0, :0] for b in bgr])


def prepared_outputs(crops: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """``frame_outputs`` of crops already as the network reads them (BGR uint8
    (HEIGHT, W, 3): ``preprocess.resized(preprocess.normalise(...))``; an empty array
    for a crop without ink): per crop, its folded (T, 27) probabilities and (T, 120)
    features, T = ceil(W / FRAME_PX)."""
    if not crops:
        return []
    net = _net()
    target = _fold_targets(str(_charset_path()))
    order = sorted((i for i in range(len(crops)) if crops[i].size), key=lambda i: crops[i].shape[1])
    out: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(crops)
    start = 0
    while start < len(order):
        frames0 = _frames(crops[order[start]])
        end = start + 1
        while end < len(order) and _frames(crops[order[end]]) <= frames0 + MAX_PAD_FRAMES \
                and (end - start + 1) * crops[order[end]].shape[1] <= BATCH_PX * 4:
            end += 1
        members = order[start:end]
        blob, frames = preprocess.batch_blob([crops[i] for i in members])
        net.setInput(blob)
        probs, feats = net.forward(list(OUTPUTS))  # (n, T, C), (n, T, 120)
        folded = fold(np.asarray(probs), target)
        feats = np.asarray(feats, np.float32)
        for j, i in enumerate(members):
            out[i] = (folded[j, :frames[j]], feats[j, :frames[j]])
        start = end
    empty = (np.zeros((0, N_CLASSES), np.float32), np.zeros((0, 120), np.float32))
    return [o if o is not None else empty for o in out]


def frame_probs(images: Sequence[np.ndarray], stretch: float = 1.0) -> list[np.ndarray]:
    """One (T_i, 27) float32 array per image (BGR, grey or BGRA uint8): the base
    model's folded probabilities, corrected by the adapted head when one is shipped
    (``head.apply``)."""
    from . import head
    return [head.apply(p, f) for p, f in frame_outputs(images, stretch)]
