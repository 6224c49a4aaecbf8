"""A paper round, cold, against a tray-only scan and against the code before sheets.

The sheet reader's speed goals, measured as a user meets them (fresh interpreters, the
package's bytecode compiled first, as after an install):
  sheets:  boggle-cv scan samples/sample-4x4-a.jpg --sheet p0=... --sheet p3=...
           (the tray and four rendered 40-word sheets, 12 MP phone-size JPEGs)
  tray:    boggle-cv scan samples/sample-4x4-a.jpg --player p0=... (four typed lists)
  import:  python -c "import boggle_cv"
With `--baseline DIR` (a checkout of an older commit, e.g. made by
`git worktree add /tmp/base 5b9e8fb`, the last commit before the sheet reader) the
tray-only scan and the import also run from that checkout, alternately with today's,
and the ratio today/baseline is printed pair by pair (the machine's speed drifts; a
ratio from the same run does not).

The sheets are rendered (`boggle_cv.synth.sheets`: OpenCV's Hershey script face, not
real handwriting): 40 words each, 30 of the board's words and 10 dictionary words not
on it, ruled paper, one column, tilted, on a table.

usage: python benchmarks/bench_sheets.py [--runs 5] [--baseline DIR]
Goals: tray + 4 sheets at most 8 s; the import and the tray-only scan not
slower than before the sheet reader (ratio about 1).
"""
from __future__ import annotations

import argparse
import compileall
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TRAY = ROOT / "samples" / "sample-4x4-a.jpg"
BOARD = "DRML/HCNL/XEHD/YTOC"  # the sample tray's letters (README)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scan import timed  # noqa: E402  (one run of a command: wall time and peak memory)


def make_sheets(folder: Path, seed: int) -> tuple[list[str], list[str]]:
    """Four rendered 12 MP sheet photos and four typed lists of the same words.
    Returns (the scan's --sheet arguments, the scan's --player arguments)."""
    from boggle_cv.game.board import Board
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.scoring import solve
    from boggle_cv.synth.sheets import photograph, render_paper
    on_board = sorted({w.word.lower() for w in solve(Board.parse(BOARD)) if w.word.isalpha()})
    pool = [w for w in load_default().words() if 3 <= len(w) <= 7 and w.isalpha() and w not in set(on_board)]
    rnd = random.Random(seed)
    sheet_args: list[str] = []
    player_args: list[str] = []
    for k in range(4):
        words = rnd.sample(on_board, min(30, len(on_board))) + rnd.sample(pool, 10)
        rnd.shuffle(words)
        g = np.random.default_rng(seed * 10 + k)
        paper, _ = render_paper([[w] for w in words], g, columns=2, pitch=64, scale=1.5, size=(1400, 1800))
        photo, _ = photograph(paper, g, size=(1500, 2000), angle=rnd.uniform(-8, 8), tilt=0.04)
        big = cv2.resize(photo, (3000, 4000), interpolation=cv2.INTER_CUBIC)  # a phone's 12 MP
        path = folder / f"sheet{k}.jpg"
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
        typed = folder / f"p{k}.txt"
        typed.write_text("\n".join(words) + "\n")
        sheet_args += ["--sheet", f"p{k}={path}"]
        player_args += ["--player", f"p{k}={typed}"]
    return sheet_args, player_args


def summary(name: str, walls: list[float], mems: list[float]) -> None:
    print(f"{name}: median {statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}), "
          f"peak memory {max(mems):.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--baseline", type=Path, help="a checkout of an older commit to compare with")
    a = ap.parse_args()
    for tree in filter(None, [ROOT, a.baseline]):
        compileall.compile_dir(str(tree / "boggle_cv"), quiet=1)
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sheet_args, player_args = make_sheets(folder, a.seed)
        scan = [py, "-m", "boggle_cv", "scan", str(TRAY), "--json"]
        runs: dict[str, tuple[list[str], Path]] = {
            "tray + 4 sheets (today)": ([*scan, *sheet_args], ROOT),
            "tray, 4 typed lists (today)": ([*scan, *player_args], ROOT),
            "import boggle_cv (today)": ([py, "-c", "import boggle_cv"], ROOT),
        }
        if a.baseline:
            runs["tray, 4 typed lists (baseline)"] = ([*scan, *player_args], a.baseline)
            runs["import boggle_cv (baseline)"] = ([py, "-c", "import boggle_cv"], a.baseline)
        print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {a.runs} runs each, "
              "taken in turn")
        for cmd, tree in runs.values():  # warm the file cache
            timed(cmd, tree)
        walls: dict[str, list[float]] = {k: [] for k in runs}
        mems: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(a.runs):
            for name, (cmd, tree) in runs.items():
                w, m = timed(cmd, tree)
                walls[name].append(w)
                mems[name].append(m)
        for name in runs:
            summary(name, walls[name], mems[name])
        extra = [s - t for s, t in zip(walls["tray + 4 sheets (today)"], walls["tray, 4 typed lists (today)"])]
        print(f"the four sheets add, pair by pair: median {statistics.median(extra):.2f} s "
              f"({statistics.median(extra) / 4:.2f} s a 40-word sheet); goal: tray + 4 sheets at most 8 s")
        if a.baseline:
            for what in ("tray, 4 typed lists", "import boggle_cv"):
                r = [x / y for x, y in zip(walls[f"{what} (today)"], walls[f"{what} (baseline)"])]
                print(f"{what}: today/baseline pair by pair median {statistics.median(r):.2f} "
                      f"(min {min(r):.2f}, max {max(r):.2f}); goal about 1")
        print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
