"""The legend of an annotated photo: which drawn path spells which word.

Each path drawn on the photo (vision.overlay) starts at a numbered disc of its
colour; the legend, a white band added under the photo, lists the same numbers with
the word, its points and who found it. Sizes follow the photo's width (a phone
shows the whole width): the text is LegendStyle.text_share of it, about 16 CSS
pixels on a phone 390 pixels wide, whatever the photo's resolution. Text is drawn
with Pillow in a Unicode font (DejaVu Sans where the system has it, else Pillow's
own), so a name such as "Zoë" or "Łukasz" shows as written.

Images are BGR uint8 (H, W, 3); colours are BGR.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..game.board import BLANK
from .stages import ImageU8

#: Fonts tried first (a Unicode font with Latin, Greek, Cyrillic), then Pillow's own.
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
              "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/Library/Fonts/Arial Unicode.ttf",
              "/System/Library/Fonts/Supplemental/Arial Unicode.ttf", "C:/Windows/Fonts/arial.ttf")


@dataclass(frozen=True)
class PathLabel:
    """What one drawn path spells: the word, its points on the board (None: not
    known), who found it (None: not known; (): nobody), and crossed (found by several:
    crossed off their lists)."""

    word: str
    points: int | None = None
    found_by: tuple[str, ...] | None = None
    crossed: bool = False

    def text(self) -> str:
        """"QUEST · 2 points · missed", "TALES · 2 points · found by Ann"."""
        parts = [self.word.upper()]
        if self.points is not None:
            parts.append(f"{self.points} point{'s' if self.points != 1 else ''}")
        if self.found_by is not None:
            if not self.found_by:
                parts.append("missed")
            else:
                names = ", ".join(self.found_by[:-1]) + " and " + self.found_by[-1] if len(self.found_by) > 1 \
                    else self.found_by[0]
                parts.append(f"found by {names}" + (" (crossed off)" if self.crossed else ""))
        return " · ".join(parts)


@dataclass(frozen=True)
class LegendStyle:
    """Sizes as shares of the photo's width; colours BGR."""

    text_share: float = 0.042     # text height (px) per px of the photo's width
    min_text_px: int = 16
    line_spacing: float = 1.6     # line height per text height
    background: tuple[int, int, int] = (255, 255, 255)
    ink: tuple[int, int, int] = (30, 30, 30)


def spelled_by(faces: Sequence[Sequence[str]], path: Sequence[tuple[int, int]]) -> str:
    """The word a path spells on the faces ("Qu" counts as its two letters)."""
    return "".join("" if faces[r][c] == BLANK else faces[r][c].lower() for r, c in path)


@functools.lru_cache(maxsize=16)
def _font(px: int) -> Any:
    from PIL import ImageFont
    for name in FONT_FILES:
        if Path(name).is_file():
            try:
                return ImageFont.truetype(name, px)
            except OSError:
                continue
    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # Pillow before 10.1: a small bitmap font only
        return ImageFont.load_default()


def text_px(width: int, style: LegendStyle = LegendStyle()) -> int:
    """The legend's text height for a photo `width` pixels wide."""
    return max(style.min_text_px, int(round(style.text_share * width)))


def draw_number(image: ImageU8, centre: tuple[float, float], radius: int, number: int,
                colour: tuple[int, int, int]) -> None:
    """A disc of `colour` ringed in white with `number` in white, drawn on `image` in
    place (clipped at its edges)."""
    from PIL import Image, ImageDraw
    ring = max(2, radius // 5)
    side = 2 * (radius + ring) + 1
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.ellipse((0, 0, side - 1, side - 1), fill=(255, 255, 255, 255))
    draw.ellipse((ring, ring, side - 1 - ring, side - 1 - ring), fill=(*colour[::-1], 255))
    draw.text((side / 2, side / 2), str(number), fill=(255, 255, 255, 255), font=_font(int(radius * 1.3)),
              anchor="mm")
    rgba = np.asarray(sprite)
    x0, y0 = int(round(centre[0])) - side // 2, int(round(centre[1])) - side // 2
    h, w = image.shape[:2]
    ix0, iy0, ix1, iy1 = max(0, x0), max(0, y0), min(w, x0 + side), min(h, y0 + side)
    if ix0 >= ix1 or iy0 >= iy1:
        return
    patch = rgba[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0]
    alpha = patch[:, :, 3:4].astype(np.float32) / 255.0
    region = image[iy0:iy1, ix0:ix1].astype(np.float32)
    image[iy0:iy1, ix0:ix1] = np.round(region * (1 - alpha) + patch[:, :, 2::-1] * alpha).astype(np.uint8)


def apart(points: Sequence[tuple[float, float]], radius: float) -> list[tuple[float, float]]:
    """The points moved so that no two discs of `radius` around them overlap: a
    point too near an earlier one steps right by a disc until it is clear (two paths
    that start on one cube keep both numbers readable)."""
    out: list[tuple[float, float]] = []
    for x, y in points:
        while any((x - a) ** 2 + (y - b) ** 2 < (2.1 * radius) ** 2 for a, b in out):
            x += 1.2 * radius
            y -= 0.9 * radius
        out.append((x, y))
    return out


def band_height(width: int, lines: int, style: LegendStyle = LegendStyle()) -> int:
    """The height of the legend's band of `lines` labels under a photo `width` pixels
    wide (0 without labels)."""
    if not lines:
        return 0
    px = text_px(width, style)
    return 2 * (px // 2) + int(round(px * style.line_spacing)) * lines


def legend_band(width: int, labels: Sequence[PathLabel], colours: Sequence[tuple[int, int, int]],
                style: LegendStyle = LegendStyle()) -> ImageU8:
    """The band to put under a photo `width` pixels wide: one line a label, its
    number in a disc of its path's colour, then its text (cut with "…" to fit)."""
    from PIL import Image, ImageDraw
    px = text_px(width, style)
    line = int(round(px * style.line_spacing))
    pad = px // 2
    band = Image.new("RGB", (width, band_height(width, len(labels), style)), style.background[::-1])
    draw = ImageDraw.Draw(band)
    font = _font(px)
    radius = int(round(px * 0.62))
    for k, label in enumerate(labels):
        cy = pad + k * line + line // 2
        colour = tuple(int(v) for v in colours[k % len(colours)][::-1])
        cx = pad + radius
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
        draw.text((cx, cy), str(k + 1), fill=(255, 255, 255), font=font, anchor="mm")
        x0 = cx + radius + px // 2
        text = _fitted(draw, label.text(), font, width - x0 - pad)
        draw.text((x0, cy), text, fill=style.ink[::-1], font=font, anchor="lm")
    return np.ascontiguousarray(np.asarray(band)[:, :, ::-1])


def _fitted(draw: Any, text: str, font: Any, room: int) -> str:
    """`text`, cut with "…" to fit `room` pixels."""
    if draw.textlength(text, font=font) <= room:
        return text
    while text and draw.textlength(text + "…", font=font) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def with_legend(image: ImageU8, labels: Sequence[PathLabel], colours: Sequence[tuple[int, int, int]],
                style: LegendStyle = LegendStyle()) -> ImageU8:
    """The photo with the legend's band under it (the photo itself when there are no labels)."""
    if not labels:
        return image
    band = legend_band(image.shape[1], labels, colours, style)
    out: ImageU8 = np.concatenate([image, band], axis=0)
    return out
