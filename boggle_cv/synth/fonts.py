"""Bold sans-serif fonts from the system's font packages, and letter masks.

Fonts are looked up by file name in the usual font folders (Debian packages
fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf, fonts-noto-core,
fonts-open-sans, fonts-roboto, fonts-lato, fonts-urw-base35); none is shipped with
the project. Letters are drawn with Pillow (an optional dependency: the `train`
extra); without it, or without any font, `find_fonts` raises EngineMissingError.

A glyph mask is a float32 array (H, W) in 0..1, tightly cropped around the ink.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

from ..errors import EngineMissingError

FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/Library/Fonts",
             "C:/Windows/Fonts")

# Bold, fairly geometric sans-serifs of the weight printed on Boggle cubes.
FONT_FILES = (
    "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "LiberationSans-Bold.ttf",
    "FreeSansBold.ttf", "NotoSans-Bold.ttf", "OpenSans-Bold.ttf", "OpenSans-ExtraBold.ttf",
    "OpenSans-Semibold.ttf", "Roboto-Bold.ttf", "Roboto-Medium.ttf", "Lato-Bold.ttf",
    "Lato-Heavy.ttf", "Lato-Black.ttf", "NimbusSans-Bold.otf", "Arial Bold.ttf", "arialbd.ttf",
)


@lru_cache(maxsize=4)
def find_fonts(extra_dirs: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Paths of the usable bold sans fonts found on this machine, sorted.

    Raises EngineMissingError when Pillow is missing or no font is found.
    """
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:
        raise EngineMissingError("the synthetic renderer needs Pillow to draw letters",
                                 "pip install 'boggle-cv[train]'") from None
    wanted = set(FONT_FILES)
    found: dict[str, str] = {}
    for d in tuple(extra_dirs) + FONT_DIRS:
        root = Path(d)
        if not root.is_dir():
            continue
        for p in root.rglob("*"):
            if p.name in wanted and p.name not in found:
                found[p.name] = str(p)
    if not found:
        raise EngineMissingError("no bold sans-serif font found for the synthetic renderer",
                                 "apt-get install fonts-dejavu-core fonts-liberation")
    return tuple(sorted(found.values()))


@lru_cache(maxsize=64)
def _font(path: str, px: int) -> FreeTypeFont:
    from PIL import ImageFont
    return ImageFont.truetype(path, px)


@lru_cache(maxsize=4096)
def glyph_mask(font_path: str, text: str, px: int) -> npt.NDArray[np.float32]:
    """Anti-aliased ink mask of `text` drawn at `px` pixels em size.

    Returns float32 (H, W) in 0..1, cropped to the ink; read-only (cached). "Qu" is
    drawn as printed on the cube: capital Q, a smaller lower-case u.
    """
    from PIL import Image, ImageDraw
    font = _font(font_path, px)
    pad = px // 2
    canvas = Image.new("L", (px * (len(text) + 1) + 2 * pad, px * 2 + 2 * pad), 0)
    draw = ImageDraw.Draw(canvas)
    if text == "Qu":
        draw.text((pad, pad), "Q", font=font, fill=255)
        qw = draw.textlength("Q", font=font)
        small = _font(font_path, max(4, int(px * 0.78)))
        draw.text((pad + qw * 0.98, pad + px * 0.20), "u", font=small, fill=255)
    else:
        draw.text((pad, pad), text, font=font, fill=255)
    arr = np.asarray(canvas, dtype=np.float32) / 255.0
    ys, xs = np.nonzero(arr > 0.02)
    if len(xs) == 0:
        out = np.zeros((1, 1), np.float32)
    else:
        out = arr[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()
    out.setflags(write=False)
    return out
