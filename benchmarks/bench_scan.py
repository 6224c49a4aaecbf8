"""Cold `boggle-cv scan` of a 12-megapixel photo against its floor, side by side.

Renders one 4000 x 3000 tray photo (seeded synthetic renderer) and four players'
lists, then runs, alternately, in fresh interpreters:
  scan:  boggle-cv scan PHOTO --json --player ... (x4)          (what a user runs)
  floor: python -c "import cv2, numpy; cv2.imread(PHOTO, IMREAD_REDUCED_COLOR_2)"
         (the interpreter, OpenCV and a half-size decode: no program can do less)
and prints each one's median wall time, the ratio scan/floor pair by pair (the
machine's speed drifts; a ratio from the same run does not), the scan's median
stage times (its JSON timings_ms), and the peak resident memory of each.

Both run as after a normal install: the package's bytecode is compiled first and
PYTHONDONTWRITEBYTECODE is cleared for them (with it set, every run would compile
the package's modules again, which no installed copy does).

usage: python benchmarks/bench_scan.py [--runs 9] [--size 5] [--photo PATH]
Target: the ratio at most 2.5; peak memory at most 175 MB.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np


def make_photo(folder: Path, size: int, seed: int) -> Path:
    """A 12 MP JPEG of a rendered tray (4000 x 3000, quality 90)."""
    from boggle_cv.synth import render_photo
    img, _truth = render_photo(np.random.default_rng(seed), size=size, long_side=4000, kind="tray")
    h, w = img.shape[:2]
    if (w, h) not in ((4000, 3000), (3000, 4000)):
        img = cv2.resize(img, (4000, 3000) if w >= h else (3000, 4000), interpolation=cv2.INTER_AREA)
    path = folder / "tray-12mp.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path


def timed(cmd: list[str], pythonpath: Path | None = None) -> tuple[float, float]:
    """(wall seconds, peak resident memory in MB) of one run of cmd (output discarded);
    with `pythonpath`, PYTHONPATH is set to it so the package of that checkout is imported."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: the command, its output to /dev/null
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        if pythonpath is not None:
            os.environ["PYTHONPATH"] = str(pythonpath)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd[:4])} ... failed (exit {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_maxrss / 1024


def players(folder: Path, photo: Path) -> list[str]:
    """Four players' lists of real words on the board (scoring does real work)."""
    first = subprocess.run(["boggle-cv", "scan", str(photo), "--json"], capture_output=True, text=True)
    if first.returncode != 0:
        sys.exit(f"scan failed: {first.stderr.strip()}")
    from boggle_cv.game.board import Board
    from boggle_cv.game.scoring import solve
    words = [w.word for w in solve(Board.from_rows(json.loads(first.stdout)["board"]["faces"]))]
    args = []
    for k in range(4):
        p = folder / f"player{k}.txt"
        p.write_text("\n".join(words[k::3][:40] + ["zzzq", "cat"]) + "\n")
        args += ["--player", f"p{k}={p}"]
    return args


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--photo", type=Path)
    a = ap.parse_args()
    exe = shutil.which("boggle-cv")
    if exe is None:
        sys.exit("boggle-cv is not on PATH (pip install -e .)")
    import boggle_cv
    compileall.compile_dir(str(Path(boggle_cv.__file__).parent), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        photo = a.photo or make_photo(folder, a.size, a.seed)
        img = cv2.imread(str(photo))
        print(f"photo: {photo.name} {img.shape[1]}x{img.shape[0]} ({img.shape[0] * img.shape[1] / 1e6:.1f} MP); "
              f"boggle-cv: {exe}")
        args = players(folder, photo)
        scan_cmd = [exe, "scan", str(photo), "--json", *args]
        floor_cmd = [sys.executable, "-c",
                     f"import cv2, numpy; cv2.imread({str(photo)!r}, cv2.IMREAD_REDUCED_COLOR_2)"]
        scans, floors, ratios, scan_mem, floor_mem = [], [], [], [], []
        stages: dict[str, list[float]] = {}
        timed(scan_cmd)  # warm the file cache
        for _ in range(a.runs):
            s, sm = timed(scan_cmd)
            f, fm = timed(floor_cmd)
            scans.append(s)
            floors.append(f)
            ratios.append(s / f)
            scan_mem.append(sm)
            floor_mem.append(fm)
        out = subprocess.run(scan_cmd, capture_output=True, text=True)
        for k, v in json.loads(out.stdout)["timings_ms"].items():
            stages.setdefault(k, []).append(v)
        print(f"scan  (boggle-cv scan, 4 players): median {statistics.median(scans):.3f} s "
              f"(min {min(scans):.3f}), peak memory {max(scan_mem):.0f} MB")
        print(f"floor (python + cv2 + half decode): median {statistics.median(floors):.3f} s "
              f"(min {min(floors):.3f}), peak memory {max(floor_mem):.0f} MB")
        print(f"ratio scan/floor, pair by pair over {a.runs} runs: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f}); target at most 2.5")
        print("scan stages (ms, one run): " + ", ".join(f"{k} {v[0]:.0f}" for k, v in stages.items()))


if __name__ == "__main__":
    main()
