#!/usr/bin/env python3
"""How big a sheet's word images are, per encoding (the room keeps one per word read:
boggle_cv.web.word_images; docs/web.md, "Handwriting").

    python scripts/measure_word_images.py PHOTO_OR_FOLDER ...

Each photo is read by the sheet reader without a lexicon (only the boxes matter); each
word not crossed out is cut (the box plus its margin, grey, paper evened out, at most
48 x 320 px) and encoded as PNG (grey as cut, and evened), JPEG and WebP at a few
qualities. Prints, per encoding, the bytes of a word (median, 95th percentile, max) and
of a sheet (median, max), then the room's encoding (word_image, with its byte cap) and
the milliseconds it takes a word. Last line: "word_image: W words, median M B, ...".
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.web.word_images import WordImageConfig, _even, _flatten, _scaled, word_image  # noqa: E402

ENCODINGS = {
    "png raw": (".png", [cv2.IMWRITE_PNG_COMPRESSION, 9], False),
    "png evened": (".png", [cv2.IMWRITE_PNG_COMPRESSION, 9], True),
    "jpeg q60": (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 60], True),
    "webp q40": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 40], True),
    "webp q60": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 60], True),
    "webp q80": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80], True),
}


def photos(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for a in args:
        p = Path(a)
        out += sorted(q for q in p.iterdir() if q.suffix.lower() in (".jpg", ".jpeg", ".png")) if p.is_dir() else [p]
    return out


def p95(xs: list[int]) -> int:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="+")
    a = ap.parse_args()
    from boggle_cv import read_sheet
    from boggle_cv.vision.imageio import load_image
    config = WordImageConfig()
    sizes: dict[str, list[int]] = {k: [] for k in [*ENCODINGS, "word_image"]}
    sheets: dict[str, list[int]] = {k: [] for k in sizes}
    ms: list[float] = []
    missing = 0
    for path in photos(a.photos):
        image = load_image(path)
        words = [w for w in read_sheet(image).words if not w.crossed_out]
        per: dict[str, int] = {k: 0 for k in sizes}
        for w in words:
            flat = _flatten(image, w.box, config.margin)
            if flat is None:
                continue
            for name, (ext, params, even) in ENCODINGS.items():
                grey = _scaled(_even(flat) if even else flat, config.height, config.max_width)
                n = len(cv2.imencode(ext, grey, params)[1])
                sizes[name].append(n)
                per[name] += n
            t0 = time.perf_counter()
            data = word_image(image, w.box, config)
            ms.append(1000 * (time.perf_counter() - t0))
            if data is None:
                missing += 1
                continue
            sizes["word_image"].append(len(data))
            per["word_image"] += len(data)
        for k in sizes:
            sheets[k].append(per[k])
        print(f"{path.name}: {len(words)} words, word_image {per['word_image']} B", flush=True)
    for k, xs in sizes.items():
        if xs:
            print(f"{k:12s} a word: median {statistics.median(xs):.0f} B, p95 {p95(xs)}, max {max(xs)}; "
                  f"a sheet: median {statistics.median(sheets[k]):.0f} B, max {max(sheets[k])}")
    xs = sizes["word_image"]
    print(f"word_image: {len(xs)} words, median {statistics.median(xs):.0f} B, p95 {p95(xs)}, max {max(xs)}, "
          f"over the cap {missing}, {statistics.median(ms):.1f} ms a word (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
