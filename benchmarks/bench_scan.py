"""Whole `boggle-cv scan` on a 12-megapixel photo with four players' lists.

Renders one 4000 x 3000 tray photo with the synthetic renderer (seeded), writes four
players' lists, then runs the installed command end to end (a fresh interpreter each
time, as a user would) and prints the median wall time and the median of each stage
(from the JSON document's timings_ms).

usage: python benchmarks/bench_scan.py [--runs 7] [--size 5] [--photo PATH]
Target (issue 6): at most 1.5 s wall per run on the 2-core reference machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np


def make_photo(folder: Path, size: int, seed: int) -> tuple[Path, list[list[str]]]:
    from boggle_cv.synth import render_photo
    img, truth = render_photo(np.random.default_rng(seed), size=size, long_side=4000, kind="tray")
    h, w = img.shape[:2]
    if (w, h) != (4000, 3000) and (w, h) != (3000, 4000):
        img = cv2.resize(img, (4000, 3000) if w >= h else (3000, 4000), interpolation=cv2.INTER_AREA)
    path = folder / "tray-12mp.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path, truth["faces"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--photo", type=Path)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        photo = a.photo or make_photo(folder, a.size, a.seed)[0]
        img = cv2.imread(str(photo))
        print(f"photo: {photo.name} {img.shape[1]}x{img.shape[0]} ({img.shape[0] * img.shape[1] / 1e6:.1f} MP)")
        from boggle_cv.board import Board
        from boggle_cv.scoring import board_words
        # four lists of real words from the board as read once, so scoring does real work
        first = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", str(photo), "--json"],
                               capture_output=True, text=True)
        if first.returncode != 0:
            sys.exit(f"scan failed: {first.stderr.strip()}")
        board = Board.from_rows(json.loads(first.stdout)["board"]["faces"])
        words = [w.word for w in board_words(board)]
        args = []
        for k in range(4):
            p = folder / f"player{k}.txt"
            p.write_text("\n".join(words[k::3][:40] + ["zzzq", "cat"]) + "\n")
            args += ["--player", f"p{k}={p}"]
        walls, stages = [], {}
        for _ in range(a.runs):
            t0 = time.perf_counter()
            out = subprocess.run(["boggle-cv", "scan", str(photo), "--json", *args], capture_output=True, text=True)
            walls.append(time.perf_counter() - t0)
            if out.returncode != 0:
                sys.exit(f"scan failed: {out.stderr.strip()}")
            for k, v in json.loads(out.stdout)["timings_ms"].items():
                stages.setdefault(k, []).append(v)
        print(f"wall per scan (interpreter start included): median {statistics.median(walls):.3f} s, "
              f"min {min(walls):.3f} s over {a.runs} runs")
        print("stages (median ms): " + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in stages.items()))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import cv2, numpy"], check=True)
        print(f"floor: python + import cv2, numpy: {time.perf_counter() - t0:.3f} s")


if __name__ == "__main__":
    main()
