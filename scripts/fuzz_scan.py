"""Longer fuzz run of mutated photos through the scan code path (the short run is tests/errors/test_fuzz.py).

    python scripts/fuzz_scan.py [--cases 5000] [--seed 1] [--photo samples/sample-4x4-a.jpg]
                                [--side 480] [--full] [--cli 20] [--keep DIR]

Each case mutates a JPEG, PNG or WebP encoding of the photo (bit flips, byte runs,
truncation, dropped or repeated chunks, swapped headers; tests/errors/fuzzing.py)
and runs load -> tray -> cells in process (--full: the whole Scanner with the trained
reader). Only our errors (boggle_cv.errors) may come out: anything else is printed
with the case number and, with --keep, the file is saved. --cli N also runs N cases
through `python -m boggle_cv scan` and checks the exit code and the one-line stderr.
Prints the count per exit code and the time; exits 1 if any case crashed.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "errors"))

from fuzzing import mutate, scan_bytes  # noqa: E402  (tests/errors/fuzzing.py)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--photo", type=Path, default=REPO / "samples" / "sample-4x4-a.jpg")
    ap.add_argument("--side", type=int, default=480, help="long side of the encoded photo (pixels)")
    ap.add_argument("--full", action="store_true", help="run the whole Scanner (needs the reader model)")
    ap.add_argument("--cli", type=int, default=0, help="also run this many cases through the CLI")
    ap.add_argument("--keep", type=Path, help="save crashing inputs here")
    a = ap.parse_args()

    import cv2
    img = cv2.imread(str(a.photo))
    if img is None:
        print(f"cannot read {a.photo}", file=sys.stderr)
        return 2
    f = a.side / max(img.shape[:2])
    img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    seeds = {ext: cv2.imencode(ext, img)[1].tobytes() for ext in (".jpg", ".png", ".webp")}
    scanner = None
    if a.full:
        from boggle_cv.vision.pipeline import Scanner
        scanner = Scanner("classifier")
    rng = random.Random(a.seed)
    codes: Counter = Counter()
    crashes = 0
    t0 = time.perf_counter()
    for i in range(a.cases):
        ext = rng.choice(list(seeds))
        kind, data = mutate(seeds[ext], rng)
        try:
            codes[scan_bytes(data, scanner)] += 1
        except Exception as e:
            crashes += 1
            print(f"case {i} ({ext}, {kind}): {type(e).__name__}: {e}")
            if a.keep:
                a.keep.mkdir(parents=True, exist_ok=True)
                (a.keep / f"crash-{a.seed}-{i}{ext}").write_bytes(data)
    dt = time.perf_counter() - t0
    print(f"{a.cases} cases in {dt:.1f} s ({1000 * dt / max(a.cases, 1):.1f} ms each): "
          + ", ".join(f"exit {k}: {v}" for k, v in sorted(codes.items())) + f", crashes: {crashes}")
    if a.cli:
        bad = 0
        with tempfile.TemporaryDirectory() as d:
            for i in range(a.cli):
                ext = rng.choice(list(seeds))
                p = Path(d) / f"c{i}{ext}"
                p.write_bytes(mutate(seeds[ext], rng)[1])
                r = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", str(p), "--json"],
                                   capture_output=True, text=True, timeout=300)
                lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
                ok = r.returncode in (0, 3, 4, 5, 6) and "Traceback" not in r.stderr and (
                    r.returncode == 0 or len(lines) == 1)
                if not ok:
                    bad += 1
                    print(f"cli case {i}: exit {r.returncode}: {r.stderr[-300:]}")
        print(f"{a.cli} CLI cases: {bad} bad")
        crashes += bad
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
