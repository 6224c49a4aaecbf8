"""What the light and the phone do to a photo: uneven light, shadows, glare, colour
cast, blur, sensor noise and JPEG compression.

`camera_effects(img, rng, config)` takes and returns uint8 (H, W, 3) BGR. Smooth
fields are drawn at a low resolution and scaled up, so the cost is a few passes
over the full-size image.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]
Pixel = TypeVar("Pixel", np.uint8, np.float32)


@dataclass(frozen=True)
class EffectsConfig:
    """Ranges of the photographic effects (each drawn uniformly)."""

    exposure: tuple[float, float] = (0.72, 1.12)
    gradient: float = 0.35            # brightness change across the frame, +-
    shadow_p: float = 0.35            # chance of a cast shadow (hand, phone, head)
    shadow_depth: tuple[float, float] = (0.25, 0.6)
    glare_p: float = 0.45             # chance of glare spots
    glare_strength: tuple[float, float] = (40.0, 170.0)   # added grey levels at the peak
    cast: float = 0.07                # per-channel gain spread (white balance)
    blur_sigma_px: tuple[float, float] = (0.0, 1.4)       # at 1000 px long side
    motion_p: float = 0.12
    noise_sigma: tuple[float, float] = (1.0, 6.0)         # grey levels
    jpeg_quality: tuple[int, int] = (45, 95)
    low_res: int = 48                 # side of the low-resolution light fields


def _field(rng: np.random.Generator, cfg: EffectsConfig, w: int, h: int) -> F32:
    """Multiplicative brightness (h, w) float32 at low resolution."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx, yy = xx / w - 0.5, yy / h - 0.5
    g = rng.uniform(-cfg.gradient, cfg.gradient, 2)
    f = rng.uniform(*cfg.exposure) * (1 + g[0] * xx + g[1] * yy)
    for _ in range(int(rng.integers(0, 4))):
        cx, cy, r = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.15, 0.5)
        f = f * (1 + rng.uniform(-0.25, 0.25) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / r ** 2))
    f *= 1 - rng.uniform(0, 0.35) * (xx ** 2 + yy ** 2) * 2  # vignetting
    if rng.random() < cfg.shadow_p:
        mask = np.zeros((h, w), np.float32)
        n = int(rng.integers(3, 6))
        side = int(rng.integers(4))
        pts = rng.uniform(0, 1, (n, 2))
        pts[0, side % 2] = 0.0 if side < 2 else 1.0
        pts[1, side % 2] = pts[0, side % 2]
        poly = (pts * [w, h]).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(poly)], 1.0)
        soft = rng.uniform(0.3, 6.0)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), soft), np.float32)
        f = f * (1 - rng.uniform(*cfg.shadow_depth) * mask)
    out: F32 = f.astype(np.float32)
    return out


def _glare(rng: np.random.Generator, cfg: EffectsConfig, w: int, h: int) -> F32:
    """Additive glare (h, w) float32 grey levels at low resolution."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx, yy = xx / w, yy / h
    g = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0.2, 0.8, 2)
        rx, ry = rng.uniform(0.02, 0.15, 2)
        ang = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang)
        v = -(xx - cx) * np.sin(ang) + (yy - cy) * np.cos(ang)
        g += rng.uniform(*cfg.glare_strength) * np.exp(-((u / rx) ** 2 + (v / ry) ** 2))
    return g


def camera_effects(img: U8, rng: np.random.Generator, cfg: EffectsConfig = EffectsConfig()) -> U8:
    """Apply light, blur, noise and JPEG to a uint8 BGR photo; returns a new array."""
    h, w = img.shape[:2]
    lw = cfg.low_res
    lh = max(4, int(round(lw * h / w)))
    field = cv2.resize(_field(rng, cfg, lw, lh), (w, h), interpolation=cv2.INTER_LINEAR)
    gains = (1 + rng.uniform(-cfg.cast, cfg.cast, 3)).astype(np.float32)
    if rng.random() < 0.3:  # warm indoor light
        gains *= np.array([0.82, 0.95, 1.08], np.float32)
    out = img.astype(np.float32) * field[..., None] * gains
    if rng.random() < cfg.glare_p:
        glare = cv2.resize(_glare(rng, cfg, lw * 2, lh * 2), (w, h), interpolation=cv2.INTER_LINEAR)
        out += glare[..., None]
    scale = max(w, h) / 1000.0
    sigma = rng.uniform(*cfg.blur_sigma_px) * scale
    out = np.clip(out, 0, 255).astype(np.uint8)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < cfg.motion_p:
        n = max(3, int(rng.uniform(3, 9) * scale)) | 1
        out = motion_blur(out, n, rng.uniform(0, 180))
    noise = rng.standard_normal((h, w), dtype=np.float32) * rng.uniform(*cfg.noise_sigma)
    u8 = cv2.add(out, cv2.merge([noise] * 3), dtype=cv2.CV_8U)
    q = int(rng.integers(cfg.jpeg_quality[0], cfg.jpeg_quality[1] + 1))
    return jpeg_roundtrip(np.asarray(u8, np.uint8), q)


def motion_blur(img: npt.NDArray[Pixel], n: int, angle_deg: float,
                border: int = cv2.BORDER_DEFAULT) -> npt.NDArray[Pixel]:
    """Camera shake: img blurred along a line n px long (odd) at angle_deg; same shape
    and dtype. border: how cv2.filter2D extends the image (cv2.BORDER_*)."""
    k = np.zeros((n, n), np.float32)
    k[n // 2, :] = 1.0 / n
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), angle_deg, 1.0)
    k = np.asarray(cv2.warpAffine(k, rot, (n, n)), np.float32)
    # ddepth -1: the result has img's dtype
    return cast(npt.NDArray[Pixel], cv2.filter2D(img, -1, k / max(k.sum(), 1e-6), borderType=border))


def jpeg_roundtrip(img: U8, quality: int) -> U8:
    """img (uint8 (H, W, 3) BGR) encoded as JPEG at quality (0-100) and decoded again:
    its compression artefacts. img itself if encoding or decoding fails."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return img if out is None else np.asarray(out, np.uint8)
