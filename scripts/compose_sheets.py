#!/usr/bin/env python3
"""Compose photos of players' sheets from real handwritten word crops, with each
word's truth AND its box, for `scripts/eval_sheets.py composed --why` (figures on
these sheets say "composed").

    python scripts/compose_sheets.py CROPS OUT [--count 40] [--seed 77]

CROPS: a folder with a manifest.json of word crops (`eval_sheets.py test-crops
--split tune ...` makes one from ../shared/handwriting-public). Each sheet takes
12-30 crops of one writer (sheets alternate a DHSD writer and Jeremy's scrawl),
writes them top to bottom (two columns on some long lists) on ruled or plain paper
at a line pitch of 70-95 px (paper 1700 x 2200 px), the ink taken from the crop by
its darkness, and photographs it (photograph_page: a plain table around it, light
ones too, rotation up to 12 degrees, perspective, uneven light, blur, noise), a
1600 x 2000 px JPEG: the look of ../shared/tools/compose_sheets.py's sheets.
Writes OUT/sheet-NNN.jpg and OUT/truth.json:
  {file: {"set", "writer", "words": [as written, in order], "files": [their crops],
          "boxes": [[[x, y] x 4] photo px, clockwise from the word's top-left],
          "corners": the paper's 4 corners, photo px, clockwise from its top-left}}
All randomness comes from --seed: same crops and seed, same sheets.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

F32 = npt.NDArray[np.float32]
PAPER = (1700, 2200)     # (W, H) px of the paper drawn on
PHOTO = (1600, 2000)     # (W, H) px of the photo written
STAGE = (2400, 3000)     # (W, H) px the photo is taken at, before shrinking to PHOTO
INKS = ((40, 30, 20), (120, 40, 20), (60, 60, 60), (30, 30, 140))  # BGR: black, blue, pencil, red


def crop_ink(path: Path) -> F32:
    """A crop's ink coverage (H, W) float32 0..1, cut to its ink (alpha over white,
    darkness against the crop's own paper level)."""
    from boggle_cv.train.word_head import load
    grey = cv2.cvtColor(load(path), cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper = max(float(np.percentile(grey, 90)), 1.0)
    ink: F32 = np.clip((paper - grey) / paper, 0.0, 1.0) ** 0.8
    ys, xs = np.nonzero(ink > 0.25)
    if len(ys) == 0:
        return ink
    return ink[max(int(ys.min()) - 1, 0):int(ys.max()) + 2, max(int(xs.min()) - 1, 0):int(xs.max()) + 2]


def write_page(items: list[dict], crops: Path, rng: random.Random) -> tuple[np.ndarray, list[str], list[str], list[list[int]]]:
    """The paper (BGR uint8 PAPER) with the crops written on it, the words written,
    their crops' files and each one's ink box [x0, y0, x1, y1] (paper px)."""
    W, H = PAPER
    tone = rng.randint(226, 250)
    paper = np.full((H, W, 3), tone, np.float32)
    paper[:, :, 0] -= rng.randint(0, 14)
    pitch = rng.randint(70, 95)
    top = 170 + rng.randint(0, 30)
    if rng.random() < 0.6:
        for y in range(top, H - 50, pitch):
            cv2.line(paper, (0, y), (W, y), (226, 192, 162), 2)
    cols = 2 if len(items) > 20 and rng.random() < 0.5 else 1
    per_col = -(-len(items) // cols)
    colour = np.array(rng.choice(INKS), np.float32)
    words: list[str] = []
    files: list[str] = []
    boxes: list[list[int]] = []
    for j, x in enumerate(items):
        c, r = divmod(j, per_col)
        ink = crop_ink(crops / x["file"])
        h = int(pitch * rng.uniform(0.55, 0.8))
        w = min(max(8, round(ink.shape[1] * h / max(ink.shape[0], 1))), W // cols - 170)
        ink = cv2.resize(ink, (w, h), interpolation=cv2.INTER_AREA)
        x0 = 115 + c * (W // cols) + rng.randint(-15, 40)
        y0 = top + r * pitch - h + rng.randint(-5, 6)
        if y0 < 12 or y0 + h > H - 12:
            continue
        region = paper[y0:y0 + h, x0:x0 + w]
        region[:] = region * (1 - ink[..., None]) + colour * ink[..., None]
        ys, xs = np.nonzero(ink > 0.25)
        words.append(x["transcription"])
        files.append(x["file"])
        boxes.append([x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1]
                     if len(ys) else [x0, y0, x0 + w, y0 + h])
    return np.clip(paper, 0, 255).astype(np.uint8), words, files, boxes


TABLES = ((60, 90, 120), (40, 40, 45), (150, 160, 170), (90, 110, 80), (175, 180, 182))  # BGR: wood, dark, light grey, green, pale


def photograph_page(paper: np.ndarray, boxes: list[list[int]], rng: random.Random, seed: int) -> tuple[np.ndarray, list[list[list[float]]], list[list[float]]]:
    """The paper photographed (BGR uint8 PHOTO), each box as 4 photo points and the
    paper's corners (4 photo points): laid on a plain table (light ones too, the
    paper finder's hard case), turned up to 12 degrees, each corner moved up to 60 px
    (perspective), a light falling off across the frame, blur, noise."""
    g = np.random.default_rng(seed)
    ph, pw = paper.shape[:2]
    TW, TH = STAGE
    table = np.empty((TH, TW, 3), np.float32)
    table[:] = np.array(rng.choice(TABLES), np.float32)
    table += g.normal(0, 8, table.shape).astype(np.float32)
    a = np.deg2rad(rng.uniform(-12, 12))
    s = rng.uniform(0.8, 1.1)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    centre = np.array([TW / 2 + rng.uniform(-150, 150), TH / 2 + rng.uniform(-150, 150)])
    dst = (src - [pw / 2, ph / 2]) * s @ rot.T + centre + np.array([[rng.uniform(-60, 60), rng.uniform(-60, 60)] for _ in range(4)])
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    page = cv2.warpPerspective(paper.astype(np.float32), m, (TW, TH))
    cover = cv2.warpPerspective(np.ones((ph, pw), np.float32), m, (TW, TH))[..., None]
    img = table * (1 - cover) + page * cover
    gx = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.85, 1.15), TW, dtype=np.float32)
    gy = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.1), TH, dtype=np.float32)
    img *= (gy[:, None] * gx[None, :])[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 1.6))
    img += g.normal(0, 4, img.shape).astype(np.float32)
    out = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), PHOTO, interpolation=cv2.INTER_AREA)
    shrink = np.array([PHOTO[0] / TW, PHOTO[1] / TH])

    def to_photo(pts: list[list[float]]) -> list[list[float]]:
        q = cv2.perspectiveTransform(np.float32([pts]), m)[0] * shrink
        return [[round(float(x), 1), round(float(y), 1)] for x, y in q]

    quads = [to_photo([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) for x0, y0, x1, y1 in boxes]
    return out, quads, to_photo(src.tolist())


def main() -> None:
    from boggle_cv.vision.handwriting.reading import fold_candidate
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("crops", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=77)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    items = [x for x in json.loads((a.crops / "manifest.json").read_text())
             if x["set"] in ("dhsd", "jeremy-words") and fold_candidate(x["transcription"])]
    by_writer: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for x in items:
        by_writer[(x["set"], x["writer"])].append(x)
    dhsd = sorted(k for k, v in by_writer.items() if k[0] == "dhsd" and len(v) >= 12)
    jeremy = sorted(k for k, v in by_writer.items() if k[0] == "jeremy-words" and len(v) >= 12)
    if not dhsd and not jeremy:
        sys.exit("compose_sheets: no writer with 12 crops in " + str(a.crops))
    a.out.mkdir(parents=True, exist_ok=True)
    truth = {}
    for i in range(a.count):
        keys = (dhsd if i % 2 == 0 else jeremy) or dhsd or jeremy
        key = keys[(i // 2) % len(keys)]
        pool = by_writer[key]
        chosen = rng.sample(pool, min(len(pool), rng.randint(12, 30)))
        paper, words, files, boxes = write_page(chosen, a.crops, rng)
        photo, quads, corners = photograph_page(paper, boxes, rng, a.seed * 1000 + i)
        name = f"sheet-{i:03d}.jpg"
        cv2.imwrite(str(a.out / name), photo, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(75, 92)])
        truth[name] = {"set": key[0], "writer": key[1], "words": words, "files": files, "boxes": quads,
                       "corners": corners}
    (a.out / "truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False))
    print(f"{len(truth)} sheets in {a.out}")


if __name__ == "__main__":
    main()
