"""Table-top textures seen from above: wood, cloth, tablecloths, paper, carpet,
tiles, plain surfaces, with clutter (papers, pencils, coasters, a hand).

`table_texture(rng, w, h, px_per_unit)` returns uint8 (h, w, 3) BGR covering a
region of the table; px_per_unit is the texture's pixels per cell pitch so that
patterns have a physical scale (a tile is ~3-6 pitches, wood grain ~0.1 pitch).
"""
from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]

KINDS = ("wood", "wood", "wood", "cloth", "checks", "stripes", "dots", "paper", "carpet", "tiles",
         "plain", "plain", "plain", "plain", "dark")


def _noise(rng: np.random.Generator, w: int, h: int, cells: float) -> F32:
    """Smooth value noise (h, w) float32 in about -1..1 with `cells` blobs across."""
    gw, gh = max(2, int(cells * w / max(w, h)) + 2), max(2, int(cells * h / max(w, h)) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def _rand_colour(rng: np.random.Generator, lo: float = 40, hi: float = 230) -> F32:
    """A random BGR colour, mostly muted (real tables and cloths are rarely vivid)."""
    c = rng.uniform(lo, hi, 3)
    sat = rng.uniform(0.15, 0.7) if rng.random() < 0.85 else 1.0
    bgr: F32 = (c.mean() + (c - c.mean()) * sat).astype(np.float32)
    return bgr


def table_texture(rng: np.random.Generator, w: int, h: int, px_per_unit: float,
                  kind: str | None = None) -> tuple[U8, str]:
    """A table surface (h, w, 3) uint8 BGR and the name of its kind."""
    kind = kind or str(rng.choice(KINDS))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = px_per_unit
    if kind == "wood":
        base = np.array(rng.choice([[60, 110, 170], [90, 150, 200], [40, 75, 120], [120, 170, 210]]), np.float32)
        base = base * rng.uniform(0.8, 1.15)
        ang = rng.uniform(0, np.pi)
        along = xx * np.cos(ang) + yy * np.sin(ang)
        across = -xx * np.sin(ang) + yy * np.cos(ang)
        warp = _noise(rng, w, h, 3) * u * 0.06
        period = u * rng.uniform(0.05, 0.12)
        grain = np.sin((across + warp) / period * 2 * np.pi + _noise(rng, w, h, 4) * 1.5)
        planks = np.floor((across + 0.1 * warp) / (u * rng.uniform(3, 8)))
        plank_tone = (np.sin(planks * 12.9898) * 43758.5453) % 1.0
        tone = 1 + 0.06 * grain + 0.12 * (plank_tone - 0.5) + 0.05 * _noise(rng, w, h, 20)
        del along
        img = tone[..., None] * base
    elif kind == "cloth":
        c = _rand_colour(rng)
        period = max(2.0, u * rng.uniform(0.03, 0.08))
        weave = 0.5 * (np.sin(xx / period * np.pi) * np.sin(yy / period * np.pi))
        img = (1 + 0.08 * weave + 0.08 * _noise(rng, w, h, 8))[..., None] * c
    elif kind in ("checks", "stripes"):
        c1, c2 = _rand_colour(rng, 120, 250), _rand_colour(rng, 30, 200)
        period = u * rng.uniform(0.8, 3.0)
        ang = rng.uniform(0, np.pi)
        a = (xx * np.cos(ang) + yy * np.sin(ang)) / period
        b = (-xx * np.sin(ang) + yy * np.cos(ang)) / period
        if kind == "checks":
            m = 0.5 * ((np.floor(a) % 2) + (np.floor(b) % 2))
        else:
            m = (np.floor(a) % 2).astype(np.float32)
        m = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 0.8)
        img = c1 * (1 - m[..., None]) + c2 * m[..., None]
        img *= (1 + 0.05 * _noise(rng, w, h, 10))[..., None]
    elif kind == "dots":
        c1, c2 = _rand_colour(rng, 150, 250), _rand_colour(rng, 20, 180)
        period = u * rng.uniform(0.6, 1.5)
        d = np.hypot((xx % period) - period / 2, (yy % period) - period / 2)
        m = np.clip((period * 0.22 - d) / 1.5, 0, 1)
        img = c1 * (1 - m[..., None]) + c2 * m[..., None]
    elif kind == "paper":
        img = np.full((h, w, 3), rng.uniform(215, 250), np.float32) * (1 + 0.03 * _noise(rng, w, h, 6))[..., None]
        if rng.random() < 0.6:
            period = u * rng.uniform(0.4, 0.8)
            line = np.clip(1.2 - np.abs((yy % period) - period / 2), 0, 1)
            img = img * (1 - 0.35 * line[..., None]) + line[..., None] * np.array([200, 150, 110], np.float32) * 0.35
    elif kind == "carpet":
        c = _rand_colour(rng, 60, 200)
        speck = rng.standard_normal((h, w)).astype(np.float32)
        speck = np.asarray(cv2.GaussianBlur(speck, (0, 0), max(0.6, u * 0.01)), np.float32)
        img = (1 + 0.18 * speck + 0.06 * _noise(rng, w, h, 12))[..., None] * c
    elif kind == "tiles":
        c = _rand_colour(rng, 150, 245)
        period = u * rng.uniform(3, 7)
        grout = (np.minimum(xx % period, yy % period) < max(1.5, u * 0.06)).astype(np.float32)
        img = (1 + 0.04 * _noise(rng, w, h, 5))[..., None] * c * (1 - 0.3 * grout[..., None])
    elif kind == "dark":
        c = _rand_colour(rng, 10, 60)
        img = (1 + 0.15 * _noise(rng, w, h, 30))[..., None] * c
    else:  # plain
        c = np.full(3, rng.uniform(150, 245), np.float32) + rng.uniform(-15, 15, 3).astype(np.float32)
        img = (1 + 0.04 * _noise(rng, w, h, 3))[..., None] * c
    return np.clip(img, 0, 255).astype(np.uint8), kind


def add_clutter(rng: np.random.Generator, img: U8, px_per_unit: float,
                keep_out: tuple[float, float, float, float]) -> None:
    """Draw papers, pencils and coasters on a table texture, in place.

    keep_out: (x0, y0, x1, y1) texture pixels where the tray stands (left free).
    """
    h, w = img.shape[:2]
    u = px_per_unit
    for _ in range(int(rng.integers(0, 5))):
        kind = rng.choice(["paper", "pencil", "coaster", "box"])
        for _try in range(6):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if not (keep_out[0] - 2 * u < cx < keep_out[2] + 2 * u and keep_out[1] - 2 * u < cy < keep_out[3] + 2 * u):
                break
        else:
            continue
        ang = rng.uniform(0, 180)
        col: tuple[float, ...]
        if kind == "paper":
            size = (u * rng.uniform(4, 8), u * rng.uniform(5, 10))
            col = (rng.uniform(225, 252),) * 3
        elif kind == "pencil":
            size = (u * rng.uniform(4, 7), u * 0.3)
            col = tuple(float(v) for v in rng.choice([[30, 200, 240], [40, 40, 200], [60, 140, 30], [30, 30, 30]]))
        elif kind == "box":
            size = (u * rng.uniform(2, 6), u * rng.uniform(2, 6))
            col = tuple(float(v) for v in _rand_colour(rng, 20, 230))
        else:
            r = u * rng.uniform(1.5, 3)
            col = tuple(float(v) for v in _rand_colour(rng, 40, 200))
            shadow = (int(cx + u * 0.15), int(cy + u * 0.15))
            cv2.circle(img, shadow, int(r), (0, 0, 0), -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r), col, -1, cv2.LINE_AA)
            continue
        box = cv2.boxPoints(((cx, cy), size, ang)).astype(np.int32)
        cv2.fillConvexPoly(img, box + int(u * 0.1), (0, 0, 0), cv2.LINE_AA)
        cv2.fillConvexPoly(img, box, col, cv2.LINE_AA)
        if kind == "paper" and rng.random() < 0.7:
            step = max(3, int(u * 0.5))
            for k in range(1, int(size[1] / step)):
                p0 = cv2.boxPoints(((cx, cy), size, ang))
                a, b = p0[1], p0[2]
                d, e = p0[0], p0[3]
                t = k * step / size[1]
                cv2.line(img, tuple(np.int32(a + (d - a) * t)), tuple(np.int32(b + (e - b) * t)),
                         (120, 110, 100), 1, cv2.LINE_AA)


def draw_hand(rng: np.random.Generator, img: U8, anchor: tuple[float, float],
              direction: float, scale: float) -> None:
    """A flat hand (palm and four fingers, skin tone) reaching from `anchor`, in place.

    direction: radians the fingers point to; scale: palm width in pixels.
    """
    skin = np.array(rng.choice([[150, 175, 225], [120, 150, 205], [80, 110, 160], [60, 80, 120]]), np.float64)
    skin = skin * rng.uniform(0.9, 1.1)
    dx, dy = np.cos(direction), np.sin(direction)
    ax, ay = anchor
    palm = ((ax, ay), (scale * 1.4, scale), np.degrees(direction))
    cv2.ellipse(img, palm, tuple(skin * 0.8), -1, cv2.LINE_AA)
    cv2.ellipse(img, ((ax - 1, ay - 1), (scale * 1.35, scale * 0.95), np.degrees(direction)), tuple(skin), -1, cv2.LINE_AA)
    for k in range(4):
        off = (k - 1.5) * scale * 0.24
        bx, by = ax + dx * scale * 0.55 - dy * off, ay + dy * scale * 0.55 + dx * off
        length = scale * rng.uniform(0.7, 1.0) * (0.8 if k in (0, 3) else 1.0)
        ex, ey = bx + dx * length, by + dy * length
        cv2.line(img, (int(bx), int(by)), (int(ex), int(ey)), tuple(skin * 0.85), max(2, int(scale * 0.2)), cv2.LINE_AA)
        cv2.line(img, (int(bx), int(by)), (int(ex), int(ey)), tuple(skin), max(1, int(scale * 0.16)), cv2.LINE_AA)
