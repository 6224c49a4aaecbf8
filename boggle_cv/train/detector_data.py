"""Training data for the cube-top detector: real boards, synthetic renders, augmentation.

No torch here (the layout split is also used by scripts/eval_tray.py).

A *sample* is (image uint8 (H, W, 3) BGR, centres float (K, 2) (x, y) photo pixels of
the cube tops' centres, sides float (K,) approximate cube side in photo pixels).
A photo without cubes (empty tray) has K = 0.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..synth.effects import jpeg_roundtrip

VAL_MOD = 5  # one layout in five is held out


def is_val_layout(layout: str) -> bool:
    """True for the ~20% of boggle-boards layouts held out from detector training
    (crc32 of the layout name, so the split is fixed and needs no file)."""
    return zlib.crc32(layout.encode()) % VAL_MOD == 0


def load_boards(folder: Path, split: str) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Samples from ../shared/boggle-boards (truth.json with per-cube boxes).

    split: "train" (layouts not held out), "val" or "all". Centres are the box
    centres; sides the geometric mean of the box's width and height.
    """
    photos = json.loads((folder / "truth.json").read_text())["photos"]
    out = []
    for p in photos:
        val = is_val_layout(p["layout"])
        if (split == "train" and val) or (split == "val" and not val):
            continue
        img = cv2.imread(str(folder / p["file"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        b = np.array([bx[:4] for bx in p["boxes"]], np.float64)
        c = np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], 1)
        s = np.sqrt(np.maximum(1, b[:, 2] - b[:, 0]) * np.maximum(1, b[:, 3] - b[:, 1]))
        out.append((img, c, s))
    return out


def _grid_sides(centres: np.ndarray) -> np.ndarray:
    """(N, N, 2) cube centres -> (N*N,) cube side estimate: 0.85 x the local pitch
    (mean distance to the grid neighbours)."""
    n = centres.shape[0]
    sides = np.zeros((n, n))
    for r in range(n):
        for c in range(n):
            d = []
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    d.append(np.hypot(*(centres[rr, cc] - centres[r, c])))
            sides[r, c] = 0.85 * float(np.mean(d))
    return sides.reshape(-1)


def steep_synth_config():
    """SynthConfig of the extra steep-tilt set: camera tilt up to 75 degrees (the
    renderer draws 30% near top-down, the rest uniform up to the maximum, so ~33% of
    the renders are grazing views of 40-75 degrees where the cubes' lettered sides
    look as big as their tops), more 4x4 boards (small boards in a big frame come
    from the renderer's board-size range 0.3-0.95 of the short side)."""
    from boggle_cv.synth.scene import SynthConfig
    return SynthConfig(max_tilt_deg=75.0, size_weights=(0.55, 0.25, 0.20))


def render_synth(out: Path, count: int, seed: int, long_side: tuple[int, int] = (400, 640),
                 config=None) -> None:
    """Render `count` synthetic photos (trays and empty trays) into out/ as JPEG +
    labels.json; renders that are incomplete or spilled are skipped (no cube labels).
    config: a boggle_cv.synth SynthConfig (None: the renderer's default).
    Deterministic for a seed."""
    from boggle_cv.synth import render_photo
    from boggle_cv.synth.scene import SynthConfig
    config = config or SynthConfig()

    out.mkdir(parents=True, exist_ok=True)
    lab_path = out / "labels.json"
    labels: list[dict] = []
    rng = np.random.default_rng(seed)
    i = 0
    while len(labels) < count:
        sub = np.random.default_rng([seed, i])
        i += 1
        ls = int(rng.integers(long_side[0], long_side[1] + 1))
        kind = "empty-tray" if rng.random() < 0.06 else "tray"
        img, t = render_photo(sub, long_side=ls, kind=kind, config=config)
        name = f"s{i:05d}.jpg"
        if t.get("centres"):
            c = np.array(t["centres"], np.float64)
            cen = c.reshape(-1, 2).tolist()
            sides = _grid_sides(c).tolist()
        elif kind == "empty-tray":
            cen, sides = [], []
        else:
            continue
        cv2.imwrite(str(out / name), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        labels.append({"file": name, "centres": cen, "sides": sides})
        if len(labels) % 100 == 0:
            lab_path.write_text(json.dumps(labels))
    lab_path.write_text(json.dumps(labels))


def load_synth(folder: Path) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Samples rendered by render_synth."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for lab in labels:
        img = cv2.imread(str(folder / lab["file"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        out.append((img, np.array(lab["centres"], np.float64).reshape(-1, 2),
                    np.array(lab["sides"], np.float64).reshape(-1)))
    return out


@dataclass(frozen=True)
class AugConfig:
    """Augmentation ranges. in_side: network input side (px); scale: zoom range
    relative to letterboxing the photo into the input; persp: corner jitter as a
    fraction of the input side; shift: translation fraction; with probability
    steep_p the corner jitter is steep instead (a strong keystone: one side of the
    photo shrunk, as in a grazing view)."""

    in_side: int = 320
    scale: tuple[float, float] = (0.7, 1.8)
    persp: float = 0.08
    shift: float = 0.2
    steep_p: float = 0.0
    steep: float = 0.22


def letterbox_matrix(w: int, h: int, side: int) -> np.ndarray:
    """3x3 affine mapping photo (x, y) into a side x side letterbox (centred)."""
    s = side / max(w, h)
    return np.array([[s, 0, (side - s * w) / 2], [0, s, (side - s * h) / 2], [0, 0, 1]])


def augment(rng: np.random.Generator, img: np.ndarray, centres: np.ndarray, sides: np.ndarray,
            cfg: AugConfig = AugConfig(), crop: int | None = None):
    """Random view of a sample: (input uint8 (C, C, 3) BGR, centres (K, 2) and sides
    (K,) in input px, for cubes inside the input). The view is a random C x C window
    (C = crop, a multiple of 4; default the whole S x S input) of the augmented
    letterboxed input."""
    h, w = img.shape[:2]
    S = cfg.in_side
    M = letterbox_matrix(w, h, S)
    ang = rng.uniform(0, 2 * np.pi)
    sc = np.exp(rng.uniform(np.log(cfg.scale[0]), np.log(cfg.scale[1])))
    c, s = np.cos(ang) * sc, np.sin(ang) * sc
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    T0 = np.array([[1, 0, -S / 2], [0, 1, -S / 2], [0, 0, 1]])
    tx, ty = rng.uniform(-cfg.shift, cfg.shift, 2) * S
    T1 = np.array([[1, 0, S / 2 + tx], [0, 1, S / 2 + ty], [0, 0, 1]])
    A = T1 @ R @ T0 @ M
    src = np.float32([[0, 0], [S, 0], [S, S], [0, S]])
    dst = src + rng.uniform(-cfg.persp, cfg.persp, (4, 2)).astype(np.float32) * S
    if cfg.steep_p > 0 and rng.random() < cfg.steep_p:  # keystone: squeeze one side (then the view is rotated)
        k = rng.uniform(0.3, 1.0) * cfg.steep * S
        side = int(rng.integers(4))
        a, b = side, (side + 1) % 4
        mid = (src[a] + src[b]) / 2
        for j in (a, b):
            d = mid - src[j]
            dst[j] += (d / np.linalg.norm(d) * k).astype(np.float32)
    P = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    H = P @ A
    C = crop or S
    if C < S:
        ox, oy = (int(v) // 4 * 4 for v in rng.integers(0, S - C + 1, 2))
        H = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64) @ H
        S = C
    border = tuple(int(v) for v in rng.integers(0, 256, 3)) if rng.random() < 0.5 else (0, 0, 0)
    out = cv2.warpPerspective(img, H, (S, S), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    if len(centres):
        pts = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), H).reshape(-1, 2)
        # local scale of the mapping at each point
        off = cv2.perspectiveTransform((centres + [1.0, 0]).reshape(-1, 1, 2), H).reshape(-1, 2)
        off2 = cv2.perspectiveTransform((centres + [0, 1.0]).reshape(-1, 1, 2), H).reshape(-1, 2)
        loc = np.sqrt(np.hypot(*(off - pts).T) * np.hypot(*(off2 - pts).T))
        sd = sides * loc
        mg = 0.5 * sd  # cubes just outside the view still shape the heat at its edge
        keep = (pts[:, 0] >= -mg) & (pts[:, 0] < S + mg) & (pts[:, 1] >= -mg) & (pts[:, 1] < S + mg)
        pts, sd = pts[keep], sd[keep]
    else:
        pts, sd = np.zeros((0, 2)), np.zeros((0,))
    out = _photometric(rng, out)
    return out, pts, sd


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Colour cast, brightness/contrast, gamma, blur, noise, JPEG."""
    f = img.astype(np.float32)
    f = f * rng.uniform(0.75, 1.25, 3)[None, None, :]
    f = (f - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-40, 40)
    f = np.clip(f, 0, 255)
    if rng.random() < 0.3:
        f = 255 * (f / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:  # a gradient of light across the photo
        S = img.shape[0]
        g = np.linspace(rng.uniform(0.5, 1.0), rng.uniform(1.0, 1.3), S, dtype=np.float32)
        g = g[:, None] if rng.random() < 0.5 else g[None, :]
        f = f * g[..., None]
    if rng.random() < 0.35:
        k = rng.uniform(0.5, 2.0)
        f = cv2.GaussianBlur(f, (0, 0), k)
    if rng.random() < 0.4:
        f = f + rng.normal(0, rng.uniform(2, 10), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        out = jpeg_roundtrip(out, int(rng.integers(30, 90)))
    return out


def targets(centres: np.ndarray, sides: np.ndarray, in_side: int, stride: int = 4):
    """(heat float32 (S/stride, S/stride) Gaussian peaks with sigma = side/6 (at least
    0.7 output px), size float32 (same) log(side in input px) at peak cells, mask
    float32 (same) 1 where the size is supervised)."""
    m = in_side // stride
    heat = np.zeros((m, m), np.float32)
    size = np.zeros((m, m), np.float32)
    mask = np.zeros((m, m), np.float32)
    yy, xx = np.mgrid[0:m, 0:m].astype(np.float32)
    for (x, y), s in zip(centres, sides):
        cx, cy = x / stride - 0.5, y / stride - 0.5
        sig = max(0.7, s / stride / 6)
        r = int(3 * sig) + 1
        x0, x1 = max(0, int(np.floor(cx)) - r), min(m, int(np.floor(cx)) + r + 2)
        y0, y1 = max(0, int(np.floor(cy)) - r), min(m, int(np.floor(cy)) + r + 2)
        if x0 >= x1 or y0 >= y1:
            continue
        g = np.exp(-((xx[y0:y1, x0:x1] - cx) ** 2 + (yy[y0:y1, x0:x1] - cy) ** 2) / (2 * sig ** 2))
        heat[y0:y1, x0:x1] = np.maximum(heat[y0:y1, x0:x1], g)
        ix, iy = int(round(cx)), int(round(cy))
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                px, py = ix + dx, iy + dy
                if 0 <= px < m and 0 <= py < m:
                    size[py, px] = np.log(max(2.0, s))
                    mask[py, px] = 1.0
    return heat, size, mask
