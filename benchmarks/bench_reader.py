#!/usr/bin/env python3
"""Time reading all cells of a board with the classifier (cv2.dnn), per board.

usage: python benchmarks/bench_reader.py [--size 5] [--repeat 30] [--no-tta]

Crops come from the synthetic crop renderer when the training extra is installed,
else from random pixels (speed does not depend on content). Prints the median and
90th-percentile milliseconds for read (all N*N cells) and read + decode, and the
one-off model load time.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from boggle_cv.vision.decode import decode
from boggle_cv.vision.reader import ClassifierReader


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--cell-px", type=int, default=64)
    ap.add_argument("--no-tta", action="store_true")
    a = ap.parse_args()
    n = a.size
    try:
        from boggle_cv.train.crops import CropRenderer, RenderConfig
        crops = CropRenderer(1, RenderConfig(canvas_px=a.cell_px)).batch(n * n)[0]
    except ImportError:
        crops = np.random.default_rng(0).integers(0, 256, (n * n, a.cell_px, a.cell_px, 3), dtype=np.uint8)
    t0 = time.perf_counter()
    reader = ClassifierReader(tta=not a.no_tta)
    load_ms = 1000 * (time.perf_counter() - t0)
    reader.read(crops)  # warm-up
    tr, td = [], []
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        rd = reader.read(crops)
        t1 = time.perf_counter()
        decode(rd, n)
        t2 = time.perf_counter()
        tr.append(t1 - t0)
        td.append(t2 - t0)
    tr, td = 1000 * np.array(tr), 1000 * np.array(td)
    print(f"{n}x{n} board, tta={'off' if a.no_tta else 'on'}: model load {load_ms:.0f} ms; "
          f"read median {np.median(tr):.1f} ms (p90 {np.percentile(tr, 90):.1f}); "
          f"read+decode median {np.median(td):.1f} ms (p90 {np.percentile(td, 90):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
