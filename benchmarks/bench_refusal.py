"""A refusal beside a reading: how long `boggle-cv scan` takes to say a photo holds no
board, next to the time it takes to read a tray's photo.

Makes five 12-megapixel photos (4000 x 3000 JPEGs, seeded; nothing read from
elsewhere): a rendered 5x5 tray (synth.render_photo), and four with no board:
  table    a wooden table top (synth.backgrounds, no clutter)
  clutter  a plain table with papers, pencils and coasters on it
  sheet    a sheet of handwriting on a table (synth.sheets)
  room     a room: a wall, a window, a sofa, a bookshelf of coloured spines, a floor
then runs `boggle-cv scan PHOTO --json` on each in fresh processes, the photos in
turn, and prints per photo the median wall and CPU seconds of the whole process and
its exit code (0 read, 5 no board), then the tray finder's own CPU seconds on each
photo in this process (models loaded: the search alone) and how many views of the
photo it searched.

usage: python benchmarks/bench_refusal.py [--runs 5] [--seed 7] [--write DIR]
--write DIR: only write the photos into DIR (to time them with another tool).
Target: every refusal under 1 s of wall time on an idle machine.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

SIZE = (4000, 3000)  # (width, height): 12 MP


def tray(rng: np.random.Generator) -> np.ndarray:
    """A rendered 5x5 tray, 4000 x 3000."""
    from boggle_cv.synth import render_photo
    img, _ = render_photo(rng, size=5, long_side=1000, kind="tray")
    upright = np.asarray(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE) if img.shape[0] > img.shape[1] else img, np.uint8)
    return np.asarray(cv2.resize(upright, SIZE, interpolation=cv2.INTER_CUBIC), np.uint8)


def table(rng: np.random.Generator) -> np.ndarray:
    """A wooden table top seen from above."""
    from boggle_cv.synth.backgrounds import table_texture
    img, _ = table_texture(rng, SIZE[0], SIZE[1], 300.0, kind="wood")
    return img


def clutter(rng: np.random.Generator) -> np.ndarray:
    """A plain table with papers, pencils and coasters."""
    from boggle_cv.synth.backgrounds import add_clutter, table_texture
    img, _ = table_texture(rng, SIZE[0], SIZE[1], 300.0, kind="plain")
    add_clutter(rng, img, 300.0, (0, 0, 0, 0))
    return img


def sheet(rng: np.random.Generator) -> np.ndarray:
    """A ruled sheet of handwritten words lying on a table."""
    from boggle_cv.synth.sheets import photograph, render_paper
    words = [["cat", "dog"], ["house", "tree"], ["runner"], ["sheet", "paper", "ink"], ["boggle"],
             ["letters", "words"]] * 3
    paper, _ = render_paper(words, rng, size=(1200, 1600))
    photo, _ = photograph(paper, rng, size=SIZE, angle=5.0)
    return photo


def room(rng: np.random.Generator) -> np.ndarray:
    """A room: a lit wall, a window with its bars, a sofa, a bookshelf, a floor."""
    w, h = SIZE
    img = np.zeros((h, w, 3), np.float32)
    img[:] = np.linspace(180, 140, h, dtype=np.float32)[:, None, None] * np.array([0.9, 1.0, 1.05], np.float32)
    img[int(h * 0.7):] = (60, 90, 120)
    cv2.rectangle(img, (300, 300), (1300, 1500), (250, 245, 240), -1)
    cv2.line(img, (800, 300), (800, 1500), (90, 90, 90), 25)
    cv2.line(img, (300, 900), (1300, 900), (90, 90, 90), 25)
    cv2.rectangle(img, (1800, 1400), (3600, 2400), (40, 40, 120), -1)
    for shelf in range(6):
        for book in range(12):
            x, y = 2200 + book * 110, 200 + shelf * 180
            cv2.rectangle(img, (x, y), (x + int(rng.uniform(60, 100)), y + 160), rng.uniform(30, 230, 3).tolist(), -1)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 1.2), 0, 255).astype(np.uint8)


PHOTOS = {"tray": tray, "table": table, "clutter": clutter, "sheet": sheet, "room": room}


def write_photos(folder: Path, seed: int) -> dict[str, Path]:
    """The photos as JPEGs (quality 90) in folder: name -> path."""
    out = {}
    for k, (name, make) in enumerate(PHOTOS.items()):
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), make(np.random.default_rng(seed + k)), [cv2.IMWRITE_JPEG_QUALITY, 90])
        out[name] = path
    return out


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s, exit code) of one run of cmd, its output thrown away."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def search_cost(photo: Path) -> tuple[float, int, str]:
    """(CPU s of the tray search alone, views searched, outcome) in this process."""
    from boggle_cv.errors import NoBoardError
    from boggle_cv.vision.imageio import TRAY_LOAD, load_image
    from boggle_cv.vision.tray import find_tray, finder
    image = load_image(photo, TRAY_LOAD)
    views = [0]
    real = getattr(finder, "search_image")

    def counted(*args: object, **kwargs: object) -> object:
        views[0] += 1
        return real(*args, **kwargs)

    setattr(finder, "search_image", counted)  # every view searched goes through it
    try:
        t0 = resource.getrusage(resource.RUSAGE_SELF)
        try:
            outcome = f"{find_tray(image).size}x board"
        except NoBoardError:
            outcome = "refused"
        t1 = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        setattr(finder, "search_image", real)
    return (t1.ru_utime + t1.ru_stime) - (t0.ru_utime + t0.ru_stime), views[0], outcome


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--write", type=Path, help="only write the photos into this folder")
    a = ap.parse_args()
    if a.write is not None:
        a.write.mkdir(parents=True, exist_ok=True)
        for name, path in write_photos(a.write, a.seed).items():
            print(f"{name}: {path}")
        return
    exe = shutil.which("boggle-cv")
    if exe is None:
        sys.exit("boggle-cv is not on PATH (pip install -e .)")
    with tempfile.TemporaryDirectory() as tmp:
        photos = write_photos(Path(tmp), a.seed)
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in photos}
        for path in photos.values():
            timed([exe, "scan", str(path), "--json"])  # the file cache warm
        for _ in range(a.runs):
            for name, path in photos.items():
                runs[name].append(timed([exe, "scan", str(path), "--json"]))
        print(f"boggle-cv scan PHOTO --json, {a.runs} runs each, photos in turn (12 MP JPEGs); boggle-cv: {exe}")
        for name, path in photos.items():
            walls, cpus, codes = zip(*runs[name])
            cpu, views, outcome = search_cost(path)
            print(f"{name:8} wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}), "
                  f"CPU median {statistics.median(cpus):.2f} s, exit {sorted(set(codes))}; "
                  f"tray search alone {cpu:.2f} s CPU, {views} views: {outcome}")


if __name__ == "__main__":
    main()
