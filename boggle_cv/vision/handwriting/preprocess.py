"""Word crops -> the recogniser's input: white paper, dark ink, 48 px high.

``to_bgr`` accepts BGR (H, W, 3), grey (H, W) and BGRA (H, W, 4, composited on
white) uint8 arrays. ``normalise`` stretches the contrast (pencil, grey paper) so the
paper is near 255 and the ink near 0, and trims empty margins. ``batch_blob`` resizes
each crop to HEIGHT px keeping its aspect ratio (times ``stretch`` in x), pads on the
right with paper, and stacks them into one (N, 3, HEIGHT, Wmax) float32 blob scaled
to -1..1, as PP-OCR's recogniser expects; it also returns each crop's width in model
frames (the recogniser emits one frame per ``FRAME_PX`` input px).
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: The recogniser's input height in px.
HEIGHT = 48
#: Input px per output frame (the network's horizontal stride).
FRAME_PX = 8
#: Narrowest and widest input, in px (a crop wider than MAX_WIDTH is squeezed).
MIN_WIDTH, MAX_WIDTH = 64, 640


def to_bgr(image: np.ndarray) -> np.ndarray:
    """A BGR uint8 (H, W, 3) copy of a BGR, grey or BGRA uint8 image (alpha over white)."""
    im = np.asarray(image)
    if im.dtype != np.uint8:
        im = np.clip(im, 0, 255).astype(np.uint8)
    if im.ndim == 2:
        return cv2.cvtColor(im, cv2.COLOR_GRAY2BGR)
    if im.ndim == 3 and im.shape[2] == 1:
        return cv2.cvtColor(im[:, :, 0], cv2.COLOR_GRAY2BGR)
    if im.ndim == 3 and im.shape[2] == 4:
        a = im[:, :, 3:4].astype(np.float32) / 255.0
        out = im[:, :, :3].astype(np.float32) * a + 255.0 * (1.0 - a)
        return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)
    if im.ndim == 3 and im.shape[2] == 3:
        return im
    raise ValueError(f"a word image must be (H, W), (H, W, 3) or (H, W, 4), not {im.shape}")


#: Least grey-level spread (paper's 90th percentile minus ink's 1st) that counts as writing.
MIN_CONTRAST = 12.0


def has_ink(bgr: np.ndarray) -> bool:
    """Does the crop hold anything darker than its paper (MIN_CONTRAST)?"""
    if bgr.size == 0:
        return False
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    return float(np.percentile(grey, 90)) - float(np.percentile(grey, 1)) >= MIN_CONTRAST


def even_paper(grey: np.ndarray) -> np.ndarray:
    """Light evened across the crop: each pixel divided by the paper's brightness
    around it (a grey-level closing wider than a stroke, then smoothed), so a shadow
    or a lamp's fall-off leaves the paper one grey; (H, W) uint8 -> (H, W) uint8."""
    h, w = grey.shape
    k = max(7, min(h, w) // 3) | 1
    paper = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    paper = cv2.GaussianBlur(paper, (0, 0), k / 4).astype(np.float32)
    level = float(np.percentile(paper, 90))
    out = grey.astype(np.float32) * (level / np.maximum(paper, 1.0))
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def normalise(bgr: np.ndarray, margin: float = 0.15) -> np.ndarray:
    """Light evened (``even_paper``), grey-level stretch (paper -> 255, ink -> 0) and
    trim to the ink's bounding box plus ``margin`` of the ink's height; returns BGR
    uint8. A blank crop comes back stretched but untrimmed."""
    grey = even_paper(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    paper = float(np.percentile(grey, 90))
    ink = float(np.percentile(grey, 1))
    if paper - ink < MIN_CONTRAST:  # nothing written (or a flat crop): leave it
        return bgr
    g = (grey.astype(np.float32) - ink) * (255.0 / (paper - ink))
    g = np.clip(g, 0, 255).astype(np.uint8)
    mask = g < 128
    ys, xs = np.nonzero(mask)
    if len(xs) >= 4:
        h = int(ys.max() - ys.min() + 1)
        pad = max(2, int(margin * h))
        y0, y1 = max(0, int(ys.min()) - pad), min(g.shape[0], int(ys.max()) + 1 + pad)
        x0, x1 = max(0, int(xs.min()) - pad), min(g.shape[1], int(xs.max()) + 1 + pad)
        g = g[y0:y1, x0:x1]
    return np.asarray(cv2.cvtColor(g, cv2.COLOR_GRAY2BGR))


def resized(bgr: np.ndarray, stretch: float = 1.0) -> np.ndarray:
    """BGR resized to HEIGHT px high, width = aspect * HEIGHT * stretch (MIN..MAX_WIDTH)."""
    h, w = bgr.shape[:2]
    width = int(round(HEIGHT * w / max(h, 1) * stretch))
    width = min(MAX_WIDTH, max(MIN_WIDTH, width))
    interp = cv2.INTER_AREA if h > HEIGHT else cv2.INTER_LINEAR
    return cv2.resize(bgr, (width, HEIGHT), interpolation=interp)


def batch_blob(crops: Sequence[np.ndarray]) -> tuple[np.ndarray, list[int]]:
    """Stack HEIGHT-high BGR crops into (N, 3, HEIGHT, Wmax) float32 in -1..1, padded
    on the right with paper (+1); also each crop's width in frames (ceil(w / FRAME_PX))."""
    wmax = max(c.shape[1] for c in crops)
    wmax = -(-wmax // FRAME_PX) * FRAME_PX
    blob = np.ones((len(crops), 3, HEIGHT, wmax), np.float32)
    frames = []
    for i, c in enumerate(crops):
        w = c.shape[1]
        blob[i, :, :, :w] = c.transpose(2, 0, 1).astype(np.float32) / 127.5 - 1.0
        frames.append(-(-w // FRAME_PX))
    return blob, frames
