#!/usr/bin/env python3
"""Time the tray finder, stage by stage, on a photo (default: a 12 MP photo).

usage: python benchmarks/bench_tray.py [PHOTO] [--repeat R] [--refusal]

Prints the median over R runs of: decode (load_image), then find_tray's stages
(reduce; per candidate source tried: detector or blobs, lattice_<source>,
grid_<source>) and the total including decode, in milliseconds. The first run (model
load, caches) is reported apart as "cold".
Without PHOTO it uses ../shared/real-photos/nsinghvi-5x5-clear-a.jpg (3024x4032).
--refusal: also the cost of refusing a photo with no board in it (seeded noise at
12 MP and at 416 px; the fallbacks look only where the detector saw something), median of 3.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from boggle_cv.errors import NoBoardError

from boggle_cv.vision.imageio import load_image
from boggle_cv.vision.tray import find_tray

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "real-photos" / \
    "nsinghvi-5x5-clear-a.jpg"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photo", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--refusal", action="store_true")
    a = ap.parse_args()
    rows: dict[str, list[float]] = {}
    cold = None
    for _ in range(a.repeat + 1):  # first run warms caches and is dropped
        t0 = time.perf_counter()
        img = load_image(a.photo)
        t1 = time.perf_counter()
        res = find_tray(img)
        t2 = time.perf_counter()
        stages = {"decode": t1 - t0, **{k: v for k, v in res.timings.items() if k != "total"},
                  "find_tray": t2 - t1, "total": t2 - t0}
        if cold is None:
            cold = t2 - t0
        for k, v in stages.items():
            rows.setdefault(k, []).append(v)
    print(f"{a.photo.name}: {img.shape[1]}x{img.shape[0]} px, board {res.size}x{res.size}, "
          f"median of {a.repeat} runs")
    for k, v in rows.items():
        print(f"  {k:16s} {1000 * statistics.median(v[1:]):7.1f} ms")
    print(f"  {'cold (1st run)':16s} {1000 * cold:7.1f} ms")
    if a.refusal:
        rng = np.random.default_rng(0)
        for w, h in ((4000, 3000), (416, 416)):
            noise = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            took = []
            for _ in range(3):
                t0 = time.perf_counter()
                try:
                    find_tray(noise)
                except NoBoardError:
                    pass
                took.append(time.perf_counter() - t0)
            print(f"  refusing {w}x{h} noise (the fallbacks as shipped): {statistics.median(took):.2f} s")


if __name__ == "__main__":
    main()
