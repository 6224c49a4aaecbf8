"""Print how many synthetic photos per second the renderer makes (target: >= 5/s at 1000 px).

Usage: python benchmarks/bench_synth.py [--count 40] [--long-side 1000] [--seed 0]
Renders `count` mixed photos (sizes, kinds as in the default SynthConfig) in this
process, one warm-up photo first (fonts, caches), and prints photos/s and ms/photo.
Encoding to JPEG files is not included (write_dataset adds about 5 ms a photo).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from boggle_cv.synth import render_photo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--long-side", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    render_photo(np.random.default_rng([a.seed, 10_000]), long_side=a.long_side)
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    for i in range(a.count):
        render_photo(np.random.default_rng([a.seed, i]), long_side=a.long_side)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    print(f"synth: {a.count} photos at {a.long_side} px long side in {wall:.2f} s: "
          f"{a.count / wall:.1f} photos/s ({1000 * wall / a.count:.0f} ms/photo wall, "
          f"{1000 * cpu / a.count:.0f} ms/photo CPU)")


if __name__ == "__main__":
    main()
