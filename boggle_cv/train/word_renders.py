"""Words drawn in handwriting fonts: more writers for the word reader's fine-tuning.

The open real handwriting has 14 training writers of German names (DHSD) and one
English scrawl (Jeremy); a new writer's hand is what the reader must read. Debian's
handwriting-like fonts (OFL/GPL; installed at training time only, never shipped:
``apt-get install -y fonts-dkg-handwriting fonts-breip fonts-bwht fonts-dancingscript
fonts-ecolier-court fonts-femkeklaver fonts-humor-sans fonts-kaushanscript fonts-klee
fonts-kristi fonts-comic-neue fonts-levien-typoscript``) give more hands, each word
drawn at a random size, stroke weight and ink, lower case, Capitalised or UPPER, and
then distorted like the real crops (``word_head.distort``) by the caller.

Words: English ones from the commonness table (SCOWL sizes <= 50, 3-12 letters) and,
when ``/usr/share/dict/ngerman`` is installed (Debian ``wngerman``), German ones with
their umlauts and ß, Capitalised as the DHSD names are. Labels are folded to a-z
(``reading.fold_candidate``: ä -> a, ß -> ss), as the reader reads them.

More hands: ``font_hands`` writes these words letter by letter with some hundred
synthetic writers (npm's handwriting faces, fetched by ``font_fetch``, each with a
style of its own); ``word_finetune --renders N --fonts DIR`` trains on them.
"""
from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

FONT_DIRS = ("/usr/share/fonts/truetype/fifthhorseman", "/usr/share/fonts/truetype/breip",
             "/usr/share/fonts/opentype/bwht", "/usr/share/fonts/opentype/dancingscript",
             "/usr/share/fonts/truetype/ecolier-court", "/usr/share/fonts/truetype/femkeklaver",
             "/usr/share/fonts/truetype/humor-sans", "/usr/share/fonts/opentype/kaushanscript",
             "/usr/share/fonts/truetype/klee", "/usr/share/fonts/truetype/kristi",
             "/usr/share/fonts/opentype/comic-neue", "/usr/share/fonts/opentype/levien")
GERMAN = Path("/usr/share/dict/ngerman")


def handwriting_fonts(dirs: tuple[str, ...] = FONT_DIRS) -> list[Path]:
    """The installed handwriting font files (.ttf/.otf), sorted."""
    return sorted(p for d in dirs for p in Path(d).glob("*") if p.suffix.lower() in (".ttf", ".otf"))


def word_pool(rng: np.random.Generator) -> tuple[list[str], list[str]]:
    """(English words, German words) to draw from, each shuffled."""
    from boggle_cv.vision.handwriting.commonness import ranks
    english = sorted(w for w, r in ranks().items() if r <= 4 and 3 <= len(w) <= 12)
    german: list[str] = []
    if GERMAN.is_file():
        german = sorted({w for w in GERMAN.read_text(encoding="utf-8").split()
                         if 3 <= len(w) <= 12 and w.isalpha() and w[0].isupper()})
    rng.shuffle(english)
    rng.shuffle(german)
    return english, german


@functools.lru_cache(maxsize=None)
def _glyph(font: Path, ch: str) -> bytes:
    from PIL import ImageFont
    return bytes(ImageFont.truetype(str(font), 32).getmask(ch))


def has_glyphs(font: Path, text: str) -> bool:
    """Whether `font` draws every character of `text` (not its "missing" box: the
    drawing of an unassigned code point)."""
    missing = _glyph(font, "\u0378")
    return all(ch == " " or _glyph(font, ch) != missing for ch in set(text))


def draw(word: str, font: Path, rng: np.random.Generator) -> np.ndarray:
    """`word` in `font`: BGR uint8, dark ink on light paper, cropped to the ink with a
    small margin, about 40-70 px high."""
    from PIL import Image, ImageDraw, ImageFont
    size = int(rng.integers(36, 64))
    face = ImageFont.truetype(str(font), size)
    left, top, right, bottom = face.getbbox(word)
    pad = size // 3
    im = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 255)
    stroke = int(rng.integers(0, 2))
    ink = int(rng.integers(0, 90))
    ImageDraw.Draw(im).text((pad - left, pad - top), word, font=face, fill=ink, stroke_width=stroke, stroke_fill=ink)
    grey = np.asarray(im)
    ys, xs = np.nonzero(grey < 160)
    if len(ys):
        m = max(2, size // 8)
        grey = grey[max(ys.min() - m, 0):ys.max() + m + 1, max(xs.min() - m, 0):xs.max() + m + 1]
    paper = int(rng.integers(215, 256))
    grey = (grey.astype(np.float32) * paper / 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def renders(count: int, seed: int = 0, german_share: float = 0.5) -> list[tuple[np.ndarray, str]]:
    """`count` (image, folded word) pairs, fonts and words drawn at random."""
    from boggle_cv.vision.handwriting.reading import fold_candidate
    rng = np.random.default_rng(seed)
    fonts = handwriting_fonts()
    if not fonts:
        raise SystemExit("no handwriting fonts installed (see boggle_cv/train/word_renders.py)")
    english, german = word_pool(rng)
    out: list[tuple[np.ndarray, str]] = []
    while len(out) < count:
        use_german = german and rng.random() < german_share
        pool = german if use_german else english
        word = str(pool[int(rng.integers(len(pool)))])
        if not use_german:
            case = rng.random()
            word = word.capitalize() if case < 0.3 else word.upper() if case < 0.4 else word
        label = fold_candidate(word)
        if not label:
            continue
        font = fonts[int(rng.integers(len(fonts)))]
        if not has_glyphs(font, word):
            continue
        try:
            out.append((draw(word, font, rng), label))
        except (OSError, ValueError):  # a font without a glyph table PIL can use
            continue
    return out
