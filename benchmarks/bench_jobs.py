"""A folder of photos: `boggle-cv scan --jobs 2` against `--jobs 1`, side by side.

Renders 100 tray photos (seeded synthetic renderer, 2000 px long side, boards of
every size, a few without a board), then times the whole command
`boggle-cv scan PHOTO ... --json --jobs N` for N = 1 and N = 2 alternately and
prints each median and the speed-up pair by pair. The outputs of both are checked
equal (but for timings).

usage: python benchmarks/bench_jobs.py [--count 100] [--runs 3] [--jobs 2]
Target: --jobs 2 at least 1.7x faster than --jobs 1 on 2 cores.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(photos: list[Path], jobs: int) -> tuple[float, list[dict[str, object]]]:
    t0 = time.perf_counter()
    out = subprocess.run(["boggle-cv", "scan", *map(str, photos), "--json", "--jobs", str(jobs)],
                         capture_output=True, text=True)
    took = time.perf_counter() - t0
    if out.returncode not in (0, 5):
        sys.exit(f"scan --jobs {jobs} failed ({out.returncode}): {out.stderr[-300:]}")
    docs = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    for d in docs:
        d.pop("timings_ms", None)
    return took, docs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["boggle-cv", "synth", tmp, "--count", str(a.count), "--seed", "1616", "--long-side", "2000"],
                       check=True, capture_output=True)
        photos = sorted(Path(tmp).glob("*.jpg"))
        ones, many, gains = [], [], []
        for _ in range(a.runs):
            t1, d1 = run(photos, 1)
            tn, dn = run(photos, a.jobs)
            if d1 != dn:
                sys.exit("--jobs changed the output")
            ones.append(t1)
            many.append(tn)
            gains.append(t1 / tn)
    print(f"{len(photos)} photos (2000 px), {os.cpu_count()} cores, {len(d1)} boards read; outputs equal")
    print(f"--jobs 1: median {statistics.median(ones):.1f} s; --jobs {a.jobs}: median {statistics.median(many):.1f} s")
    print(f"speed-up pair by pair over {a.runs} runs: median {statistics.median(gains):.2f}x "
          f"(min {min(gains):.2f}, max {max(gains):.2f}); target at least 1.7x")


if __name__ == "__main__":
    main()
