"""A written word drawn in a terminal: its ink as text, two pixels a character (the
upper and lower half blocks), so that a doubtful word can be checked against its
handwriting where the question is asked.

`ink_lines(grey, rows, max_columns)`: grey uint8 (h, w) (dark ink on light paper) ->
`rows` strings of at most `max_columns` characters; the ink is told from the paper by
Otsu's threshold on the crop, after its light is evened (a shadow across a word is not
ink). An empty list for a crop with no ink.
"""
from __future__ import annotations

import cv2
import numpy as np

#: (upper pixel inked, lower pixel inked) -> the character that draws it.
_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}
#: Text rows of a preview (two pixel rows each) and its widest line.
ROWS = 8
MAX_COLUMNS = 60
#: Less ink than this share of the crop's pixels: nothing to draw.
MIN_INK = 0.005


def ink_lines(grey: np.ndarray, rows: int = ROWS, max_columns: int = MAX_COLUMNS) -> list[str]:
    """The crop's ink as `rows` lines of half blocks (module doc), at most
    `max_columns` wide, the word's aspect kept (a character cell is about twice as
    tall as wide, so each half block is about square)."""
    if grey.ndim != 2 or grey.size == 0 or rows < 1 or max_columns < 1:
        return []
    h, w = grey.shape
    paper = cv2.dilate(grey, np.ones((max(3, h // 3), max(3, h // 3)), np.uint8))
    evened = cv2.divide(grey, np.maximum(paper, 1), scale=255)
    _, ink = cv2.threshold(evened, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if np.count_nonzero(ink) < MIN_INK * ink.size or np.count_nonzero(ink) > 0.6 * ink.size:
        return []
    ys, xs = np.nonzero(ink)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = ink.shape
    px_rows = 2 * rows
    columns = max(1, min(max_columns, int(round(w * px_rows / max(h, 1)))))
    # strokes thickened to about a pixel of the preview first, so a thin pen survives the shrink
    k = max(1, int(h / px_rows * 0.6))
    ink = cv2.dilate(ink, np.ones((k, k), np.uint8))
    small = cv2.resize(ink, (columns, px_rows), interpolation=cv2.INTER_AREA) > 90
    return ["".join(_BLOCKS[(bool(small[2 * r, c]), bool(small[2 * r + 1, c]))] for c in range(columns)).rstrip()
            for r in range(rows)]
