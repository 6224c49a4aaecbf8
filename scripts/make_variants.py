#!/usr/bin/env python3
"""Harder variants of labelled photos, for evaluation: turned, tilted, shrunk, relit.

usage: python scripts/make_variants.py SRC_FOLDER OUT_FOLDER [--seed 0]

SRC_FOLDER holds photos and a truth.json (photos[] with file, size, faces, optional
corners), e.g. ../shared/real-photos. For every photo with faces, OUT_FOLDER gets:
  *_rot90, *_rot_free   turned by a quarter / by a random angle (canvas grown to fit)
  *_tilt                a perspective warp as if shot 25-35 degrees off vertical
  *_small               shrunk so the long side is 480 px
  *_dim, *_warm         darker with a light gradient / a warm colour cast + noise
With --harsh, harder ones instead:
  *_turn_crop           turned 20-70 degrees on the SAME canvas (the photo's corners
                        are lost: a tray near the edge loses cubes)
  *_steep               a perspective warp as if shot 40-50 degrees off vertical
  *_tiny                shrunk so the long side is 320 px
  *_half                shrunk to half its size (a 416 px photo: 208 px)
  *_blur                defocused (Gaussian sigma 0.25% of the long side) + JPEG 40
  *_night               dark (x0.3, gamma) with sensor noise
and a truth.json with the faces and the corners moved with the photo. Then run
  python ../shared/tools/eval_photos.py OUT_FOLDER
With --sheets, SRC_FOLDER holds sheet photos made by ../shared/tools/compose_sheets.py
(truth.json: {file: {set, words}}) and OUT_FOLDER gets one folder per variant, each
with its sheets and truth.json, so that each is measured on its own by
  python ../shared/tools/eval_sheets.py OUT_FOLDER/VARIANT
The sheet variants (sizes fit a page of handwriting, not a tray):
  rot90, rot180         turned by a quarter / upside down
  rot_free              turned by a random 15-75 degrees (canvas grown to fit)
  tilt                  shot 25-35 degrees off vertical
  small                 shrunk so the long side is 1,200 px (a 1 MP photo; never enlarged)
  dim, warm             darker with a light gradient / a warm colour cast + noise
  blur                  defocused (sigma 0.1% of the long side) + JPEG 40
  shadow                a sharp shadow (a phone's under a ceiling light) over the part
                        beyond a random line through the middle: 25-55% darker
With --sheets --harsh, harder sheet variants instead:
  steep                 shot 40-50 degrees off vertical
  far                   the sheet at 55% of its size in the middle of a grey table (a
                        photo from further away)
  jpeg                  JPEG quality 15 (a photo sent through a chat app)
  night                 dark (x0.55, gamma 1.2) with sensor noise (sigma 8)
  bright                overexposed (x1.35 + 20, clipped): faint pencil washes out
The outputs are derived from the source photos: write them outside the project.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.synth.effects import jpeg_roundtrip


def _warp(img, H, size):
    return cv2.warpPerspective(img, H, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 90, 90))


def _rotation(img, deg):
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    c, s = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    M[0, 2] += nw / 2 - w / 2
    M[1, 2] += nh / 2 - h / 2
    return np.vstack([M, [0, 0, 1]]), (nw, nh)


def _keystone(img, rng, k_range):
    """(3x3 H, (w, h)): a perspective warp that squeezes one random edge of the photo
    towards its middle by 2k of its length, k drawn from k_range, as if that edge
    were farther from the camera."""
    h, w = img.shape[:2]
    k = rng.uniform(*k_range)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    side = rng.integers(4)
    dst = src.copy()
    a, b = side, (side + 1) % 4
    mid = (src[a] + src[b]) / 2
    dst[a] = src[a] + (mid - src[a]) * 2 * k
    dst[b] = src[b] + (mid - src[b]) * 2 * k
    return cv2.getPerspectiveTransform(src, dst), (w, h)


def _standard_variants(img, rng):
    """name -> (3x3 H, (w, h), effect(img, rng) or None) of the default set."""
    h, w = img.shape[:2]
    out = {"rot90": (*_rotation(img, 90), None),
           "rot_free": (*_rotation(img, float(rng.uniform(15, 75))), None),
           "tilt": (*_keystone(img, rng, (0.12, 0.2)), None)}
    s = 480 / max(h, w)
    out["small"] = (np.diag([s, s, 1.0]), (int(w * s), int(h * s)), None)
    out["dim"] = (np.eye(3), (w, h), lambda v, r: _relight(v, r, False))
    out["warm"] = (np.eye(3), (w, h), lambda v, r: _relight(v, r, True))
    return out


def _harsh_variants(img, rng):
    """name -> (3x3 H, (w, h), effect(img, rng) or None) of the --harsh set."""
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.choice([-1, 1]) * rng.uniform(20, 70)), 1.0)
    out = {"turn_crop": (np.vstack([M, [0, 0, 1]]), (w, h), None)}
    out["steep"] = (*_keystone(img, rng, (0.22, 0.3)), None)
    s = 320 / max(h, w)
    out["tiny"] = (np.diag([s, s, 1.0]), (int(w * s), int(h * s)), None)
    out["half"] = (np.diag([0.5, 0.5, 1.0]), (w // 2, h // 2), None)
    out["blur"] = (np.eye(3), (w, h), _defocus)
    out["night"] = (np.eye(3), (w, h), _night)
    return out


def _sheet_variants(img, rng):
    """name -> (3x3 H, (w, h), effect(img, rng) or None) of the --sheets set."""
    h, w = img.shape[:2]
    out = {"rot90": (*_rotation(img, 90), None), "rot180": (*_rotation(img, 180), None),
           "rot_free": (*_rotation(img, float(rng.uniform(15, 75))), None),
           "tilt": (*_keystone(img, rng, (0.12, 0.2)), None)}
    s = min(1.0, 1200 / max(h, w))  # never enlarged
    out["small"] = (np.diag([s, s, 1.0]), (int(w * s), int(h * s)), None)
    out["dim"] = (np.eye(3), (w, h), lambda v, r: _relight(v, r, False))
    out["warm"] = (np.eye(3), (w, h), lambda v, r: _relight(v, r, True))
    out["blur"] = (np.eye(3), (w, h),
                   lambda v, r: jpeg_roundtrip(cv2.GaussianBlur(v, (0, 0), 0.001 * max(v.shape[:2])), 40))
    out["shadow"] = (np.eye(3), (w, h), _sharp_shadow)
    return out


def _harsh_sheet_variants(img, rng):
    """name -> (3x3 H, (w, h), effect(img, rng) or None) of the --sheets --harsh set."""
    h, w = img.shape[:2]
    out = {"steep": (*_keystone(img, rng, (0.22, 0.3)), None)}
    s = 0.55
    out["far"] = (np.array([[s, 0, w * (1 - s) / 2], [0, s, h * (1 - s) / 2], [0, 0, 1]]), (w, h), None)
    out["jpeg"] = (np.eye(3), (w, h), lambda v, r: jpeg_roundtrip(v, 15))
    out["night"] = (np.eye(3), (w, h), _sheet_night)
    out["bright"] = (np.eye(3), (w, h),
                     lambda v, r: np.clip(v.astype(np.float32) * 1.35 + 20, 0, 255).astype(np.uint8))
    return out


def _sheet_night(img, rng):
    f = (img.astype(np.float32) / 255.0) ** 1.2 * 255 * 0.55
    f += rng.normal(0, 8, f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def _sharp_shadow(img, rng):
    """img with the part beyond a random line through its middle third 25-55% darker,
    the edge 6 px soft."""
    h, w = img.shape[:2]
    ang = rng.uniform(0, np.pi)
    cx, cy = rng.uniform(0.33, 0.67) * w, rng.uniform(0.33, 0.67) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((np.cos(ang) * (xx - cx) + np.sin(ang) * (yy - cy)) > 0).astype(np.float32)
    f = 1.0 - rng.uniform(0.25, 0.55) * cv2.GaussianBlur(side, (0, 0), 6)
    return np.clip(img.astype(np.float32) * f[..., None], 0, 255).astype(np.uint8)


def _sheets(src: Path, out: Path, rng: np.random.Generator, harsh: bool = False) -> None:
    """The --sheets mode: OUT/VARIANT/ with the variants of every sheet and its truth
    (the --harsh set with `harsh`)."""
    variants = _harsh_sheet_variants if harsh else _sheet_variants
    truth = json.loads((src / "truth.json").read_text())
    made: dict[str, dict] = {}
    for name, t in sorted(truth.items()):
        img = cv2.imread(str(src / name), cv2.IMREAD_COLOR)
        if img is None:
            continue
        for variant, (H, size, effect) in variants(img, rng).items():
            v = _warp(img, H, size) if effect is None else effect(img, rng)
            (out / variant).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / variant / name), v, [cv2.IMWRITE_JPEG_QUALITY, 90])
            made.setdefault(variant, {})[name] = t
    for variant, entries in made.items():
        (out / variant / "truth.json").write_text(json.dumps(entries, indent=1, ensure_ascii=False))
    print(f"wrote {len(made)} variants of {len(truth)} sheets to {out}")


def _defocus(img, rng):
    return jpeg_roundtrip(cv2.GaussianBlur(img, (0, 0), 0.0025 * max(img.shape[:2])), 40)


def _night(img, rng):
    f = (img.astype(np.float32) / 255.0) ** 1.3 * 255 * 0.3
    f += rng.normal(0, 5, f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def _relight(img, rng, warm):
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    if warm:
        f *= np.array([0.75, 0.95, 1.15], np.float32)
        f += rng.normal(0, 6, f.shape).astype(np.float32)
    else:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, 2 * np.pi)
        g = (np.cos(ang) * xx / w + np.sin(ang) * yy / h)
        g = (g - g.min()) / (np.ptp(g) + 1e-6)
        f *= (0.35 + 0.5 * g)[..., None]
    return np.clip(f, 0, 255).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--harsh", action="store_true", help="the harder set (see the docstring)")
    ap.add_argument("--sheets", action="store_true", help="SRC holds composed sheets (see the docstring)")
    a = ap.parse_args()
    if (Path(__file__).resolve().parents[1] in a.out.resolve().parents) or a.out.resolve() == Path(__file__).resolve().parents[1]:
        raise SystemExit("write variants outside the project")
    rng = np.random.default_rng(a.seed)
    if a.sheets:
        _sheets(a.src, a.out, rng, a.harsh)
        return
    truth = json.loads((a.src / "truth.json").read_text())["photos"]
    a.out.mkdir(parents=True, exist_ok=True)
    out = []
    for p in truth:
        if not p.get("faces"):
            continue
        img = cv2.imread(str(a.src / p["file"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        stem = Path(p["file"]).stem
        corners = np.array(p["corners"], np.float64).reshape(-1, 1, 2) if p.get("corners") else None
        variants = (_harsh_variants if a.harsh else _standard_variants)(img, rng)
        for name, (H, size, effect) in variants.items():
            # a variant either moves the photo (H) or changes its light (effect)
            v = _warp(img, H, size) if effect is None else effect(img, rng)
            fname = f"{stem}_{name}.jpg"
            cv2.imwrite(str(a.out / fname), v, [cv2.IMWRITE_JPEG_QUALITY, 90])
            entry = {"file": fname, "size": p["size"], "faces": p["faces"]}
            if corners is not None:
                entry["corners"] = cv2.perspectiveTransform(corners, H).reshape(-1, 2).round(1).tolist()
            out.append(entry)
    (a.out / "truth.json").write_text(json.dumps({"photos": out}, indent=1))
    print(f"wrote {len(out)} variants to {a.out}")


if __name__ == "__main__":
    main()
