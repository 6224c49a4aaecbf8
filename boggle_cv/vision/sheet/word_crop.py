"""One written word cut from a sheet's photo along its box, square-on, for a person to
look at beside its reading (the room's small images of the handwriting, the terminal's
preview of a doubtful word).

`flat_word(photo, box, margin)`: the box (4 (x, y) photo px, clockwise from the word's
top-left as written: SheetWord.box) widened by `margin` of its height on every side
(tall letters, tails), warped square-on, grey uint8 (h, w) at the photo's resolution;
None for a box that is not 4 finite points or has no area.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..stages import ImageU8

#: The largest flat crop (px): a box across a whole page is cut no wider or taller.
MAX_WIDTH = 4000
MAX_HEIGHT = 1000


def flat_word(photo: ImageU8, box: Sequence[Sequence[float]], margin: float = 0.15) -> np.ndarray | None:
    """The box's content square-on (grey uint8 (h, w), photo resolution), margin included."""
    if len(box) != 4:
        return None
    src = np.asarray(box, np.float32).reshape(4, 2)
    if not np.all(np.isfinite(src)):
        return None
    width = float(np.linalg.norm(src[1] - src[0]) + np.linalg.norm(src[2] - src[3])) / 2
    height = float(np.linalg.norm(src[3] - src[0]) + np.linalg.norm(src[2] - src[1])) / 2
    if width < 2 or height < 2:
        return None
    pad = margin * height
    w, h = int(round(width + 2 * pad)), int(round(height + 2 * pad))
    dst = np.asarray([[pad, pad], [pad + width, pad], [pad + width, pad + height], [pad, pad + height]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    grey = photo if photo.ndim == 2 else cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    flat = cv2.warpPerspective(grey, matrix, (min(w, MAX_WIDTH), min(h, MAX_HEIGHT)), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(flat, np.uint8)
