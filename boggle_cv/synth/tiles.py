"""Square textures of one cube face (top or side), drawn face-on.

A tile is uint8 (S, S, 4) BGRA: the rounded-square face of a cube in its colour,
shaded towards its bevelled edges, with the letter (rotated `turn` degrees
clockwise), the edition's underline bar, an optional red bonus ring and a specular
highlight. Tile row 0 is the face's "up" edge in the board frame (before turn).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from .fonts import glyph_mask

F32 = npt.NDArray[np.float32]
GLYPH_EM_BUCKETS = (24, 40, 64, 96, 144, 220, 320)


@dataclass(frozen=True)
class FaceStyle:
    """How the faces of one set of cubes look. Colours are BGR floats 0..255."""

    cube_bgr: tuple[float, float, float] = (235.0, 240.0, 242.0)
    ink_bgr: tuple[float, float, float] = (20.0, 20.0, 20.0)
    font_path: str = ""
    letter_height: float = 0.50      # cap height as a fraction of the face width
    corner_radius: float = 0.22      # rounded corner radius, fraction of face width
    bevel: float = 0.16              # width of the darkened bevel, fraction of face
    bevel_dark: float = 0.35         # how much the bevel darkens at the very edge
    wood: bool = False               # wood-grain texture on the face
    underline: str = "MWZ"           # letters printed with a bar under them
    letter_jitter: float = 0.03      # random offset of the letter, fraction of face
    lone_q: bool = False             # print the Qu face as a lone "Q" (some French dice)


@dataclass
class TileExtras:
    """Per-face extras: red bonus ring, specular highlight (position in tile 0..1)."""

    ring_bgr: tuple[float, float, float] | None = None
    glare: float = 0.0
    glare_xy: tuple[float, float] = (0.3, 0.3)
    light_xy: tuple[float, float] = field(default=(0.0, -1.0))
    brightness: float = 1.0


@lru_cache(maxsize=256)
def _shape_maps(s: int, radius_q: int, bevel_q: int) -> tuple[F32, F32, F32]:
    """(alpha, edge, (gx, gy)) maps of a rounded square of side s (float32 (s, s)).

    edge is 0 deep inside and 1 at the border (over the bevel width); gx, gy point
    from the centre outwards (unit-ish) so that a light direction can shade the bevel.
    """
    r = radius_q / 100.0 * s
    bw = max(1.0, bevel_q / 100.0 * s)
    c = (s - 1) / 2.0
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    px, py = np.abs(xx - c), np.abs(yy - c)
    h = s / 2.0
    qx, qy = px - (h - r), py - (h - r)
    outside = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2) + np.minimum(np.maximum(qx, qy), 0) - r
    inside = -outside  # distance to the border, positive inside
    alpha = np.clip(inside + 0.5, 0, 1)
    edge = np.clip(1.0 - inside / bw, 0, 1) ** 2
    nx, ny = (xx - c) / h, (yy - c) / h
    grad = np.stack([nx, ny])
    for a in (alpha, edge, grad):
        a.setflags(write=False)
    return alpha, edge, grad


def _letter_mask(s: int, face: str, style: FaceStyle, rng: np.random.Generator) -> F32:
    """Ink coverage (s, s) float32 of the face's letter(s) and underline, upright."""
    mask = np.zeros((s, s), np.float32)
    if face == "#":
        return mask
    target_h = style.letter_height * s
    em = next((b for b in GLYPH_EM_BUCKETS if b * 0.72 >= target_h), GLYPH_EM_BUCKETS[-1])
    glyph = "Q" if face == "Qu" and style.lone_q else face
    g = glyph_mask(style.font_path, glyph, em)
    gh, gw = g.shape
    scale = target_h / max(gh, 1)
    max_w = (0.80 if len(glyph) > 1 else 0.70) * s
    if len(glyph) == 1:
        scale = min(scale, max_w / max(gw, 1))
    else:
        scale = min(scale * 0.9, max_w / max(gw, 1))
    nh, nw = max(1, int(round(gh * scale))), max(1, int(round(gw * scale)))
    g = np.asarray(cv2.resize(g, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR),
                   np.float32)
    bar = face in style.underline and len(face) == 1
    bar_h = max(1, int(round(0.065 * s)))
    gap = max(1, int(round(0.05 * s)))
    total_h = nh + (gap + bar_h if bar else 0)
    j = style.letter_jitter * s
    x0 = int(round((s - nw) / 2 + rng.uniform(-j, j)))
    y0 = int(round((s - total_h) / 2 + rng.uniform(-j, j)))
    x0, y0 = max(0, min(s - nw, x0)), max(0, min(s - total_h, y0))
    mask[y0:y0 + nh, x0:x0 + nw] = g
    if bar:
        bw = int(round(nw * rng.uniform(0.7, 0.95)))
        bx = x0 + (nw - bw) // 2
        mask[y0 + nh + gap:y0 + nh + gap + bar_h, bx:bx + bw] = 1.0
    return mask


def _wood(s: int, rng: np.random.Generator) -> F32:
    """Multiplicative wood-grain pattern (s, s) float32 around 1."""
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s
    ang = rng.uniform(0, np.pi)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    freq = rng.uniform(8, 20)
    wob = 0.015 * np.sin(v * rng.uniform(3, 9) + rng.uniform(0, 6))
    grain: F32 = (1.0 + 0.05 * np.sin((u + wob) * freq * 2 * np.pi) + 0.03 * np.sin(u * freq * 5.3)).astype(np.float32)
    return grain


def face_tile(s: int, face: str, turn: int, style: FaceStyle, rng: np.random.Generator,
              extras: TileExtras | None = None, inked: bool = True) -> npt.NDArray[np.uint8]:
    """Draw one cube face as a BGRA uint8 (s, s, 4) tile.

    face: a canonical face ("A", "Qu", "Th", "#"); turn: 0/90/180/270 degrees the
    letter is rotated clockwise; `inked=False` gives a bare face (no letter).
    """
    ex = extras or TileExtras()
    alpha, edge, grad = _shape_maps(s, int(round(style.corner_radius * 100)), int(round(style.bevel * 100)))
    lx, ly = ex.light_xy
    light = (grad[0] * lx + grad[1] * ly) * edge * 0.35
    shade = ex.brightness * (1.0 - style.bevel_dark * edge + light)
    if style.wood:
        shade = shade * _wood(s, rng)
    base = shade[..., None] * np.asarray(style.cube_bgr, np.float32)
    if inked and face != "#":
        m = _letter_mask(s, face, style, rng)
        if turn:
            m = np.rot90(m, k=-(turn // 90))
        ink = np.asarray(style.ink_bgr, np.float32) * (0.85 + 0.15 * shade[..., None])
        m3 = m[..., None]
        base = base * (1 - m3) + ink * m3
    if ex.ring_bgr is not None:
        ring = np.zeros((s, s), np.float32)
        cv2.circle(ring, (s // 2, s // 2), int(s * 0.40), 1.0, max(1, int(s * 0.045)), cv2.LINE_AA)
        r3 = ring[..., None]
        base = base * (1 - r3) + np.asarray(ex.ring_bgr, np.float32) * r3
    if ex.glare > 0:
        yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s
        gx, gy = ex.glare_xy
        g = np.exp(-(((xx - gx) / 0.16) ** 2 + ((yy - gy) / 0.11) ** 2)) * ex.glare * 255
        base = base + g[..., None]
    out = np.empty((s, s, 4), np.uint8)
    out[..., :3] = np.clip(base, 0, 255)
    out[..., 3] = (alpha * 255).astype(np.uint8)
    return out
