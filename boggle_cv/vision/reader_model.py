"""What the face classifier sees and says: class lists and crop preprocessing.

Shared by the run-time reader (cv2.dnn) and the training code (torch), so both use
exactly the same input distribution.

Turn convention: ``turn`` k in 0..3 means the printed face appears rotated
k * 90 degrees CLOCKWISE from upright in the crop; rotating the crop k * 90 degrees
counter-clockwise (``np.rot90(crop, k)``) makes it read upright. Rotating a crop
counter-clockwise by j quarter turns changes its turn from k to (k - j) mod 4.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..game.board import ALL_FACES

#: Face classes in model output order: "A".."Z" without "Q", "An" "Er" "He" "In" "Qu" "Th", "#".
FACES: tuple[str, ...] = tuple(ALL_FACES)
#: Turn classes in model output order, degrees clockwise.
TURNS: tuple[int, ...] = (0, 90, 180, 270)


@dataclass(frozen=True)
class InputSpec:
    """Model input: grey crops of one cell pitch, resized to ``px`` x ``px``,
    standardised per crop to zero mean and unit standard deviation.
    """

    px: int = 48
    min_std: float = 8.0  # grey levels; keeps flat (blank) crops from being blown up


def preprocess(crops_bgr: np.ndarray, spec: InputSpec = InputSpec()) -> np.ndarray:
    """(K, S, S, 3) uint8 BGR crops -> (K, 1, px, px) float32 network input."""
    a = np.asarray(crops_bgr)
    if a.ndim == 3:
        a = a[None]
    if a.ndim != 4 or a.shape[-1] != 3:
        raise ValueError("crops must be (K, S, S, 3) BGR")
    out = np.empty((a.shape[0], 1, spec.px, spec.px), np.float32)
    for i, c in enumerate(a):
        g = cv2.cvtColor(np.ascontiguousarray(c, dtype=np.uint8), cv2.COLOR_BGR2GRAY)
        if g.shape[0] != spec.px or g.shape[1] != spec.px:
            interp = cv2.INTER_AREA if g.shape[0] > spec.px else cv2.INTER_LINEAR
            g = cv2.resize(g, (spec.px, spec.px), interpolation=interp)
        g = g.astype(np.float32)
        out[i, 0] = (g - g.mean()) / max(float(g.std()), spec.min_std)
    return out
