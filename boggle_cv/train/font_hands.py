"""Synthetic writers: handwriting font faces (``font_fetch``) each with a writer's
style drawn once, writing words letter by letter as the real crops look.

A writer is a face plus a ``Style``: pen width (the face's strokes thinned or
thickened to the writer's pen through their signed distance), slant (shear), letter
spacing, a slow baseline wave and drift, per-letter jitter of size, rotation,
baseline and spacing, now and then a stroke joining two letters (print hands),
an elastic distortion field, ink colour and darkness, pressure (ink and width
varying smoothly along the word), paper shade, and the habit of writing a word in
lower case, Capitalised or UPPER. Each word is drawn again with small changes of
that style (nobody writes a word twice alike). Letters are placed at the face's
own advances (kerning kept, so the joins of a script face meet), each drawn alone.
Some writers come out binarised, black on white and tightly cropped, as Jeremy's
crops; the rest dark ink (black, blue ballpoint, pencil) on light paper, as DHSD's
(opaque 256x64 RGBA, the ink in the colour channels). About 25 ms a word on one core.

Lengths in a Style are in em (the face's nominal size in px at drawing time, 40-64
px); angles in degrees; images are BGR uint8 (H, W, 3). Labels are folded to a-z
(``reading.fold_candidate``: ä -> a, ß -> ss), as the reader reads them.

usage: python -m boggle_cv.train.font_hands fetch [--cache DIR] [--jobs 4]
       python -m boggle_cv.train.font_hands sheet [--cache DIR] --real ../shared/handwriting-public
              [--out /tmp/font_hands_sheet.png] [--n 24] [--seed 0]
training: python -m boggle_cv.train.word_finetune ../shared/handwriting-public --out DIR
              --renders N --fonts DIR (the fetched cache) [--render-copies 1]
"""
from __future__ import annotations

import argparse
import functools
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.train.font_fetch import DEFAULT_CACHE, REQUIRED, load_faces

#: Share of the words each kind of face writes (print hands are most lists).
KIND_SHARE = {"print": 0.55, "school": 0.2, "script": 0.25}
INKS = {"black": (35, 35, 40), "blue": (150, 70, 30), "pencil": (95, 95, 100)}


@dataclass(frozen=True)
class Style:
    """One writer's habits. Lengths in em, angles in degrees, shares in 0..1."""
    size: float         # em in px while drawing
    pen: float          # half the stroke width
    pen_var: float      # how much the half-width varies with pressure
    slant: float        # shear: x moved by slant * height above the baseline
    tracking: float     # extra gap between letters
    spacing_sd: float   # sd of each gap
    size_sd: float      # sd of each letter's log scale
    rotate_sd: float    # sd of each letter's rotation
    baseline_sd: float  # sd of each letter's baseline
    wave: float         # amplitude of a slow wave of the baseline
    drift: float        # slope of the baseline, degrees
    elastic: float      # largest move of the elastic field
    elastic_scale: float  # its smoothness (length of a bump)
    tremor: float       # largest move of a fine wobble (bumps 0.12 em long)
    shear_sd: float     # sd of each letter's own slant
    width_sd: float     # sd of each letter's log width
    breaks: float       # pen skips: gaps in the strokes, per em of word length
    blur: float         # sd of a blur of the ink (bleed, focus)
    connect: float      # chance that two neighbouring lower-case letters are joined
    ink: tuple[int, int, int]  # BGR
    darkness: float     # ink opacity
    pressure: float     # how much darkness fades with pressure
    paper: int          # grey level of the paper
    binarised: bool     # black on white, tight (Jeremy's crops)
    margin: float       # paper kept around the ink
    capital: float      # chance a word is Capitalised
    upper: float        # chance a word is UPPER


def style(rng: np.random.Generator, kind: str = "print") -> Style:
    """A writer's style, drawn from `rng`; a "script" face gets less letter jitter
    and no extra spacing (its letters must meet), and no added joins."""
    script = kind == "script"
    calm = 0.4 if script else 1.0
    ink = str(rng.choice(list(INKS), p=[0.45, 0.4, 0.15]))
    upper = 0.85 if rng.random() < 0.05 else float(rng.uniform(0, 0.05))
    upper = upper / 10 if script else upper  # joined hands rarely write in capitals
    return Style(
        size=float(rng.uniform(40, 64)), pen=float(rng.uniform(0.022, 0.06)), pen_var=float(rng.uniform(0, 0.35)),
        slant=float(rng.normal(0.05, 0.12)), tracking=0.0 if script else float(rng.uniform(-0.03, 0.12)),
        spacing_sd=calm * float(rng.uniform(0.0, 0.05)), size_sd=calm * float(rng.uniform(0.02, 0.09)),
        rotate_sd=calm * float(rng.uniform(0.5, 5.0)), baseline_sd=calm * float(rng.uniform(0.005, 0.04)),
        wave=float(rng.uniform(0, 0.05)), drift=float(rng.normal(0, 1.5)),
        elastic=float(rng.uniform(0.02, 0.07)), elastic_scale=float(rng.uniform(0.3, 0.7)),
        tremor=float(rng.uniform(0.0, 0.025)), shear_sd=calm * float(rng.uniform(0.0, 0.1)),
        width_sd=calm * float(rng.uniform(0.0, 0.1)),
        breaks=float(rng.uniform(0, 0.25)) if rng.random() < 0.3 else 0.0, blur=float(rng.uniform(0, 0.02)),
        connect=0.0 if script else float(rng.uniform(0, 0.25)) if rng.random() < 0.5 else 0.0,
        ink=tuple(int(np.clip(c + rng.normal(0, 12), 0, 255)) for c in INKS[ink]),  # type: ignore[arg-type]
        darkness=float(rng.uniform(0.65, 0.9) if ink == "pencil" else rng.uniform(0.8, 1.0)),
        pressure=float(rng.uniform(0, 0.3)), paper=int(rng.integers(225, 256)),
        binarised=bool(rng.random() < 0.2), margin=float(rng.uniform(0.03, 0.3)),
        capital=float(rng.uniform(0.0, 0.35)), upper=upper)


def varied(s: Style, rng: np.random.Generator) -> Style:
    """The same writer on another word: size, pen, slant and drift a little changed."""
    return replace(s, size=s.size * float(np.exp(rng.normal(0, 0.08))), pen=s.pen * float(np.exp(rng.normal(0, 0.1))),
                   slant=s.slant + float(rng.normal(0, 0.03)), drift=s.drift + float(rng.normal(0, 0.7)))


@functools.lru_cache(maxsize=4096)
def _font(path: str, px: int):
    from PIL import ImageFont
    return ImageFont.truetype(path, px)


def _glyph(path: str, ch: str, px: int) -> tuple[np.ndarray, int, int]:
    """(coverage (h, w) float32 0..1, x, y of the pen's origin on the baseline in it)."""
    from PIL import Image, ImageDraw
    font = _font(path, px)
    left, top, right, bottom = font.getbbox(ch, anchor="ls")
    pad = px // 4 + 2
    im = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(im).text((pad - left, pad - top), ch, font=font, fill=255, anchor="ls")
    return np.asarray(im, np.float32) / 255.0, pad - left, pad - top


def _smooth_field(shape: tuple[int, int], scale_px: float, rng: np.random.Generator) -> np.ndarray:
    """A smooth random field of `shape`, bumps about `scale_px` long, in -1..1."""
    h, w = shape
    gh, gw = max(2, int(h / scale_px) + 2), max(2, int(w / scale_px) + 2)
    f = cv2.resize(rng.uniform(-1, 1, (gh, gw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(f, -1, 1)


def _join(canvas: np.ndarray, a: np.ndarray, b: np.ndarray, width: float, rng: np.random.Generator) -> None:
    """Draw a pen stroke on `canvas` from the lowest ink of mask `a`'s right part to
    the lowest ink of mask `b`'s left part (both placed masks, canvas-sized bool),
    when they are close."""
    pts = []
    for m, right in ((a, True), (b, False)):
        ys, xs = np.nonzero(m)
        if len(xs) < 4:
            return
        lo, hi = xs.min(), xs.max()
        cut = hi - 0.25 * (hi - lo) if right else lo + 0.25 * (hi - lo)
        sel = xs >= cut if right else xs <= cut
        i = np.argmax(ys[sel])
        pts.append((float(xs[sel][i]), float(ys[sel][i])))
    (x0, y0), (x1, y1) = pts
    if not 0 < x1 - x0 < 6 * width + 0.4 * canvas.shape[0] or abs(y1 - y0) > 0.25 * canvas.shape[0]:
        return
    t = np.linspace(0, 1, 12)[:, None]
    mid = np.array([(x0 + x1) / 2, max(y0, y1) + rng.uniform(0, 1.5) * width])
    curve = (1 - t) ** 2 * np.array([x0, y0]) + 2 * t * (1 - t) * mid + t ** 2 * np.array([x1, y1])
    cv2.polylines(canvas, [np.round(curve * 4).astype(np.int32)], False, 1.0,
                  max(1, int(round(width))), cv2.LINE_AA, shift=2)


def _letters(word: str, path: str, s: Style, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """The word's coverage (H, W) float32 0..1, letters placed one by one, and the
    row of its baseline (at the start of the word)."""
    em = s.size
    base = _font(path, int(round(em)))
    placed = []  # (glyph, x, y of its top-left)
    x = 0.0
    for i, ch in enumerate(word):
        scale = float(np.exp(rng.normal(0, s.size_sd)))
        g, ox, oy = _glyph(path, ch, max(8, int(round(em * scale))))
        ang = np.deg2rad(rng.normal(0, s.rotate_sd))
        sx, sh = float(np.exp(rng.normal(0, s.width_sd))), float(rng.normal(0, s.shear_sd))
        # about the pen's origin: turned by ang, its width scaled by sx and sheared by sh
        m = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) @ np.array([[sx, -sh], [0, 1]])
        m = np.hstack([m, (np.array([ox, oy]) - m @ np.array([ox, oy]))[:, None]]).astype(np.float32)
        g = cv2.warpAffine(g, m, (g.shape[1], g.shape[0]), flags=cv2.INTER_LINEAR)
        y = (s.wave * np.sin(x / (2.5 * em) + rng.uniform(0, 0.3)) + rng.normal(0, s.baseline_sd)) * em
        y -= np.tan(np.deg2rad(s.drift)) * x
        placed.append((g, x - ox, y - oy, ch))
        nxt = word[i + 1] if i + 1 < len(word) else ""
        adv = base.getlength(ch + nxt) - (base.getlength(nxt) if nxt else 0.0)
        x += adv * scale * sx + (s.tracking + rng.normal(0, s.spacing_sd)) * em
    x0 = min(p[1] for p in placed)
    y0 = min(p[2] for p in placed)
    w = int(np.ceil(max(p[1] + p[0].shape[1] for p in placed) - x0)) + 2
    h = int(np.ceil(max(p[2] + p[0].shape[0] for p in placed) - y0)) + 2
    canvas: np.ndarray = np.zeros((h, w), np.float32)
    masks = []
    for g, gx, gy, _ in placed:
        c, r = int(round(gx - x0)), int(round(gy - y0))
        part = canvas[r:r + g.shape[0], c:c + g.shape[1]]
        np.maximum(part, g[:part.shape[0], :part.shape[1]], out=part)
        masks.append((r, c, g > 0.5))
    if s.connect:
        for i in range(len(word) - 1):
            if word[i].islower() and word[i + 1].islower() and rng.random() < s.connect:
                a: np.ndarray = np.zeros((h, w), bool)
                b: np.ndarray = np.zeros((h, w), bool)
                for m, (r, c, g) in ((a, masks[i]), (b, masks[i + 1])):
                    m[r:r + g.shape[0], c:c + g.shape[1]] = g[:h - r, :w - c]
                _join(canvas, a, b, 2 * s.pen * em, rng)
    return canvas, -y0


def _pen(cover: np.ndarray, s: Style, rng: np.random.Generator) -> np.ndarray:
    """Coverage redrawn with the writer's pen: the strokes' signed distance moved so
    that their half-width is ``s.pen`` em (varying with pressure), never thinned below
    40% of the face's own; returns (H, W) float32 0..1."""
    ink = (cover > 0.5).astype(np.uint8)
    if not ink.any():
        return cover
    inside = cv2.distanceTransform(ink, cv2.DIST_L2, 5)
    outside = cv2.distanceTransform(1 - ink, cv2.DIST_L2, 5)
    sdf = inside - outside + (cover - 0.5)  # px, positive in the ink; sub-pixel at the edges
    own = 2.0 * float(inside[ink > 0].mean())  # the face's stroke half-width (2 x mean distance)
    field = _smooth_field(cover.shape, 1.2 * s.size, rng)
    want = s.pen * s.size * (1.0 + s.pen_var * field)
    delta = np.maximum(want - own, -0.6 * own)
    return np.clip(sdf + delta + 0.5, 0, 1).astype(np.float32)


def _skip(cover: np.ndarray, s: Style, rng: np.random.Generator) -> None:
    """Gaps where the pen skipped (in place): about ``s.breaks`` a word's em of
    length, each a disk of the pen's width wiped off the ink."""
    ys, xs = np.nonzero(cover > 0.5)
    if not len(xs):
        return
    for i in rng.choice(len(xs), rng.poisson(s.breaks * cover.shape[1] / s.size)):
        r = max(1, int(round(s.pen * s.size * rng.uniform(0.7, 1.3))))
        cv2.circle(cover, (int(xs[i]), int(ys[i])), r, 0.0, -1, cv2.LINE_AA)


def write(word: str, face: Path | str, s: Style, rng: np.random.Generator) -> np.ndarray:
    """`word` (as written: case kept) by the writer (`face`, `s`): BGR uint8 (H, W, 3),
    cropped to the ink plus ``s.margin`` em, H about 0.8-2 em."""
    cover, baseline = _letters(word, str(face), s, rng)
    pad = int(0.4 * s.size) + 4
    cover = cv2.copyMakeBorder(cover, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h, w = cover.shape
    shear = np.float32([[1, -s.slant, max(s.slant, 0.0) * h], [0, 1, 0]])  # leaning right when slant > 0
    wide = w + int(abs(s.slant) * h) + 2
    cover = cv2.warpAffine(cover, shear, (wide, h), flags=cv2.INTER_LINEAR)
    step = s.elastic_scale * s.size
    dx = _smooth_field(cover.shape, step, rng) * s.elastic * s.size
    dy = _smooth_field(cover.shape, step, rng) * s.elastic * s.size
    gy, gx = np.mgrid[0:cover.shape[0], 0:cover.shape[1]].astype(np.float32)
    if s.tremor:
        fine = 0.12 * s.size
        dx += _smooth_field(cover.shape, fine, rng) * s.tremor * s.size
        dy += _smooth_field(cover.shape, fine, rng) * s.tremor * s.size
    cover = cv2.remap(cover, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0)
    cover = _pen(cover, s, rng)
    if s.breaks:
        _skip(cover, s, rng)
    if s.blur:
        cover = cv2.GaussianBlur(cover, (0, 0), max(0.3, s.blur * s.size))
    ys, xs = np.nonzero(cover > 0.3)
    if len(xs):
        m = int(round(s.margin * s.size)) + 1 if not s.binarised else int(rng.integers(0, 3))
        cover = cover[max(ys.min() - m, 0):ys.max() + m + 1, max(xs.min() - m, 0):xs.max() + m + 1]
    if s.binarised:
        grey = np.where(cover > 0.5, 0, 255).astype(np.uint8)
        return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    dark = s.darkness * (1.0 - s.pressure * (0.5 + 0.5 * _smooth_field(cover.shape, s.size, rng)))
    a = (cover * dark)[:, :, None]
    paper = s.paper + rng.normal(0, 1.0, cover.shape + (1,))
    out = paper * (1 - a) + np.array(s.ink, np.float32) * a
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Writer:
    """A face (its manifest entry, ``font_fetch.load_faces``) and its style."""
    face: dict
    style: Style


def writers(faces: list[dict], seed: int = 0, per_face: int = 1) -> list[Writer]:
    """`per_face` writers per face, each style drawn from (seed, face, k) alone, so
    a writer keeps its style whatever other faces are fetched."""
    import zlib
    out = []
    for f in faces:
        for k in range(per_face):
            key = zlib.crc32(f"{f['family']}-{f['weight']}".encode())
            out.append(Writer(f, style(np.random.default_rng([seed, key, k]), f.get("kind", "print"))))
    return out


def cased(word: str, german: bool, s: Style, rng: np.random.Generator) -> str:
    """`word` as the writer writes it in a list: UPPER (chance ``s.upper``),
    Capitalised (``s.capital``; a German noun always) or lower case."""
    r = rng.random()
    if r < s.upper:
        return word.upper()
    if german or r < s.upper + s.capital:
        return word[:1].upper() + word[1:].lower()
    return word.lower()


def renders(count: int, seed: int = 0, cache: Path = DEFAULT_CACHE, german_share: float = 0.3,
            per_face: int = 1) -> list[tuple[np.ndarray, str]]:
    """`count` (BGR uint8 image, folded word) pairs: each word a random writer's
    (kinds in ``KIND_SHARE``) of the faces fetched into `cache`, the words from
    ``word_renders.word_pool`` (German ones when /usr/share/dict/ngerman is there)."""
    from boggle_cv.train.word_renders import word_pool
    from boggle_cv.vision.handwriting.reading import fold_candidate
    rng = np.random.default_rng(seed)
    hands = writers(load_faces(cache), seed, per_face)
    kinds = sorted({w.face.get("kind", "print") for w in hands})
    share = np.array([KIND_SHARE.get(k, 0.2) for k in kinds])
    by_kind = {k: [w for w in hands if w.face.get("kind", "print") == k] for k in kinds}
    english, german = word_pool(rng)
    allowed = set(REQUIRED)
    out: list[tuple[np.ndarray, str]] = []
    while len(out) < count:
        use_german = bool(german) and rng.random() < german_share
        pool = german if use_german else english
        hand_pool = by_kind[kinds[rng.choice(len(kinds), p=share / share.sum())]]
        hand = hand_pool[int(rng.integers(len(hand_pool)))]
        word = cased(str(pool[int(rng.integers(len(pool)))]), use_german, hand.style, rng)
        label = fold_candidate(word)
        if not label or not set(word) <= allowed:
            continue
        out.append((write(word, hand.face["path"], varied(hand.style, rng), rng), label))
    return out


def contact_sheet(cache: Path, real: Path, out: Path, n: int = 24, seed: int = 0) -> Path:
    """A PNG at `out`: `n` synthetic words (left) beside `n` real crops of `real`
    (../shared/handwriting-public: half DHSD, half Jeremy; right), each as the reader
    sees it (``preprocess.normalise``, ``resized``: 48 px high), its label beside it."""
    import json

    from boggle_cv.train.word_head import load
    from boggle_cv.vision.handwriting import preprocess
    rng = np.random.default_rng(seed)
    synth = renders(n, seed, cache)
    items = json.loads((real / "manifest.json").read_text())
    picked = []
    for s in ("dhsd", "jeremy-words"):
        xs = [x for x in items if x["set"] == s]
        picked += [xs[i] for i in rng.choice(len(xs), n - n // 2 if s == "dhsd" else n // 2, replace=False)]
    reals = [(load(real / x["file"]), x["transcription"]) for x in picked]
    colw = 110 + preprocess.MAX_WIDTH // 2
    sheet = np.full((n * (preprocess.HEIGHT + 6) + 6, 2 * colw + 10, 3), 200, np.uint8)
    for col, pairs in enumerate((synth, reals)):
        for row, (im, label) in enumerate(pairs):
            crop = preprocess.resized(preprocess.normalise(im))[:, :colw - 110]
            y, x = 6 + row * (preprocess.HEIGHT + 6), col * (colw + 10)
            sheet[y:y + preprocess.HEIGHT, x + 105:x + 105 + crop.shape[1]] = crop
            cv2.putText(sheet, label[:12], (x + 3, y + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 150), 1, cv2.LINE_AA)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), sheet)
    return out


def main(argv: list[str] | None = None) -> None:
    from boggle_cv.train import font_fetch
    ap = argparse.ArgumentParser(prog="python -m boggle_cv.train.font_hands")
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fetch", help="fetch and check the handwriting faces into the cache (needs npm)")
    f.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    f.add_argument("--jobs", type=int, default=4, help="npm calls at a time")
    f.add_argument("--families", default="", help="comma-separated @fontsource names (default: all listed)")
    s = sub.add_parser("sheet", help="synthetic words beside real crops, at the reader's input size")
    s.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    s.add_argument("--real", type=Path, required=True, help="the handwriting-public folder")
    s.add_argument("--out", type=Path, default=Path("/tmp/font_hands_sheet.png"))
    s.add_argument("--n", type=int, default=24)
    s.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    if a.command == "fetch":
        names = tuple(x.strip() for x in a.families.split(",") if x.strip()) or None
        print(font_fetch.summary(font_fetch.fetch(a.cache, names, a.jobs)))
    else:
        print(contact_sheet(a.cache, a.real, a.out, a.n, a.seed))


if __name__ == "__main__":
    main()
