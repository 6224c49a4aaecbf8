"""Each word of a sheet as it was written: a small image of its handwriting, cut from
the photo along the word's box, for the page to show beside the reading.

`word_image(photo, box)`: the box (4 (x, y) photo px, clockwise from the word's
top-left as written, vision.sheet.types.SheetWord.box) is widened by a margin (tall
letters, tails), warped square-on, made grey, its paper evened out to white
(contrast stretched between the ink's and the paper's grey), scaled to at most
`WordImageConfig.height` px high and `max_width` px wide (never up), and encoded as
lossy greyscale WebP; when that is over `max_bytes` it is encoded again smaller
(lower quality, then a narrower scale), and None when nothing fits. Measured on the
shipped sample sheet and composed sheets: docs/web.md, "Handwriting".
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..room.sheets import MAX_IMAGE_BYTES
from ..vision.sheet.word_crop import flat_word
from ..vision.stages import ImageU8


@dataclass(frozen=True)
class WordImageConfig:
    """height / max_width: the image's largest size (px); margin: added around the box
    on every side, as a share of its height; quality: WebP quality (0-100), lowered by
    `step` down to `min_quality` while the image is over max_bytes (bytes)."""

    height: int = 48
    max_width: int = 320
    margin: float = 0.15
    quality: int = 60
    min_quality: int = 20
    step: int = 20
    max_bytes: int = MAX_IMAGE_BYTES


def _even(grey: np.ndarray) -> np.ndarray:
    """Paper to white, ink kept dark: the grey levels stretched between the darkest ink
    (2nd percentile) and the paper (70th percentile: a word covers well under a third)."""
    lo, hi = (float(v) for v in np.percentile(grey, (2, 70)))
    if hi - lo < 8:
        return np.full_like(grey, 255)
    out = (grey.astype(np.float32) - lo) * (255.0 / (hi - lo))
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def _scaled(grey: np.ndarray, height: int, max_width: int) -> np.ndarray:
    h, w = grey.shape[:2]
    scale = min(1.0, height / h, max_width / w)
    if scale >= 1.0:
        return grey
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), np.uint8)


def encode(grey: np.ndarray, config: WordImageConfig) -> bytes | None:
    """The grey image as WebP within config.max_bytes (lower quality, then 3/4 the size,
    until it fits); None when even the smallest try is over."""
    image = grey
    for _ in range(4):
        for quality in range(config.quality, config.min_quality - 1, -config.step):
            ok, buf = cv2.imencode(".webp", image, [cv2.IMWRITE_WEBP_QUALITY, quality])
            if ok and len(buf) <= config.max_bytes:
                return bytes(buf.tobytes())
        h, w = image.shape[:2]
        if min(h, w) < 8:
            break
        image = np.asarray(cv2.resize(image, (max(1, w * 3 // 4), max(1, h * 3 // 4)),
                                      interpolation=cv2.INTER_AREA), np.uint8)
    return None


def word_image(photo: ImageU8, box: Sequence[Sequence[float]],
               config: WordImageConfig = WordImageConfig()) -> bytes | None:
    """The handwriting inside `box` (4 (x, y) photo px) of `photo` (BGR or grey uint8)
    as a small WebP (see the module docstring); None for a box without area or an
    image over config.max_bytes at every size."""
    flat = flat_word(photo, box, config.margin)
    if flat is None:
        return None
    return encode(_scaled(_even(flat), config.height, config.max_width), config)


def word_images(photo: ImageU8, words: Sequence[dict[str, object]],
                config: WordImageConfig = WordImageConfig()) -> list[bytes | None]:
    """One image per word of a sheet's reading (SheetWord.to_dict each: its "box"),
    None for a crossed-out word (never added to a list) or one without a box."""
    out: list[bytes | None] = []
    for w in words:
        box = w.get("box")
        ok = not w.get("crossed_out") and isinstance(box, (list, tuple)) and len(box) == 4
        out.append(word_image(photo, box, config) if ok and isinstance(box, (list, tuple)) else None)
    return out
