"""Draw a sheet's reading on its photo (`--annotate`): each word's box, green when it
counts, orange when doubtful, red when crossed out, with its reading beside it."""
from __future__ import annotations

import cv2
import numpy as np

from ..stages import ImageU8
from .types import SheetReading


def draw_sheet(photo: ImageU8, reading: SheetReading) -> ImageU8:
    """A copy of photo (BGR uint8 (H, W, 3)) with the paper outline and each word's
    box (photo px) and reading drawn."""
    out: ImageU8 = photo.copy()
    lw = max(2, int(max(out.shape[:2]) / 600))
    cv2.polylines(out, [np.asarray(reading.corners, np.float64).astype(np.int32)], True, (255, 160, 0), lw)
    for w in reading.words:
        colour = (0, 0, 220) if w.crossed_out else (0, 140, 255) if w.flagged else (0, 170, 0)
        quad = np.asarray(w.box, np.float64).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, lw)
        x, y = int(quad[:, 0].max()) + 6, int(quad[:, 1].mean()) + 8
        text = (w.word or w.free or "?") + (" ?" if w.flagged else "")
        scale = max(0.6, lw / 3)
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), lw + 3, cv2.LINE_AA)
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, lw, cv2.LINE_AA)
    return out
