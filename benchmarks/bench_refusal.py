"""A refusal beside a reading: how long `boggle-cv scan` takes to say a photo holds no
board, next to the time it takes to read a tray's photo.

Makes twelve-megapixel photos (4000 x 3000 JPEGs, seeded; nothing read from
elsewhere): a rendered 5x5 tray (synth.render_photo), and photos with no board, from
the plainest to the busiest (the detector sees candidate cube tops all over those):
  table       a wooden table top (synth.backgrounds, no clutter)
  clutter     a plain table with papers, pencils and coasters on it
  sheet       a sheet of handwriting on a table (synth.sheets)
  room        a room: a wall, a window, a sofa, a bookshelf of coloured spines, a floor
  text        a printed page of two columns of text on a table, at an angle
  keyboard    a laptop keyboard at an angle: staggered rows of lettered square keys
  tiles       a floor of square tiles in perspective, two shoes on it
  tablecloth  a cross-stitch tablecloth: rows of diamonds and hearts, at an angle
  shelf       a bookshelf close up: four shelves of spines with their titles
  dots        a polka-dot tablecloth with a plate and a cup
then runs `boggle-cv scan PHOTO --json` on each in fresh processes, the photos in
turn, and prints per photo the median wall and CPU seconds of the whole process and
its exit code (0 read, 5 no board), then the tray finder's own CPU seconds on each
photo in this process (models loaded: the search alone), how many views of the photo
it searched and how many detector passes that took.

usage: python benchmarks/bench_refusal.py [--runs 5] [--seed 7] [--only NAME,...]
                                          [--search-only] [--write DIR]
--search-only: only the tray finder in this process (no `boggle-cv` runs).
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
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

SIZE = (4000, 3000)  # (width, height): 12 MP
WORDS = ("the of and to in is that it was for on are as with his they at be this from have or by one had not but "
         "what all were when we there can an your which their said if do will each about how up out them then she "
         "many some so these would other into has more her two like him see time could no make than first been its "
         "who now people my made over did down only way find use may water long little very after words called "
         "just where most know get through back much before go good new write our used me man too any day same "
         "right look think also around another came come work three word must because does part even place well "
         "such here take why things help put years different away again off went old number great tell men say "
         "small every found still between name should home big give air line set own under read last never us "
         "left end along while might next sound below saw something thought").split()
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX)


def _camera(flat: np.ndarray, rng: np.random.Generator, background: np.ndarray, fill: float, tilt: float,
            angle: float) -> np.ndarray:
    """`flat` (H, W, 3) laid over `background` (SIZE) in perspective: covering about
    `fill` of the frame (more than 1: the frame cuts it), turned `angle` degrees, each
    corner moved by up to `tilt` of the side; lit unevenly, a little noise and blur."""
    w, h = SIZE
    ph, pw = flat.shape[:2]
    s = fill * min(w / pw, h / ph)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
    dst = (src - [pw / 2, ph / 2]) * s @ rot.T + [w / 2, h / 2]
    dst += rng.uniform(-tilt, tilt, (4, 2)) * [pw * s, ph * s]
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    warped = cv2.warpPerspective(flat, m, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), m, (w, h))
    out = np.where(mask[..., None] > 127, warped, background).astype(np.float32)
    noise = rng.normal(0, 3, out.shape).astype(np.float32)
    out = out * np.linspace(0.88, 1.04, w, dtype=np.float32)[None, :, None] + noise
    return np.clip(cv2.GaussianBlur(out, (0, 0), 0.8), 0, 255).astype(np.uint8)


def _wood(rng: np.random.Generator) -> np.ndarray:
    from boggle_cv.synth.backgrounds import table_texture
    return table_texture(rng, SIZE[0], SIZE[1], 300.0, kind="wood")[0]


def tray(rng: np.random.Generator) -> np.ndarray:
    """A rendered 5x5 tray, 4000 x 3000."""
    from boggle_cv.synth import render_photo
    img, _ = render_photo(rng, size=5, long_side=1000, kind="tray")
    upright = np.asarray(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE) if img.shape[0] > img.shape[1] else img, np.uint8)
    return np.asarray(cv2.resize(upright, SIZE, interpolation=cv2.INTER_CUBIC), np.uint8)


def table(rng: np.random.Generator) -> np.ndarray:
    """A wooden table top seen from above."""
    return _wood(rng)


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
    for shelf_row in range(6):
        for book in range(12):
            x, y = 2200 + book * 110, 200 + shelf_row * 180
            cv2.rectangle(img, (x, y), (x + int(rng.uniform(60, 100)), y + 160), rng.uniform(30, 230, 3).tolist(), -1)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 1.2), 0, 255).astype(np.uint8)


def text(rng: np.random.Generator) -> np.ndarray:
    """A printed page of two columns of text lying on a table, at an angle."""
    w, h = 1700, 2200
    page = np.full((h, w, 3), 238, np.uint8)
    font = FONTS[int(rng.integers(len(FONTS)))]
    for col in range(2):
        x0, y = 120 + col * 760, 160
        while y < h - 120:
            x = x0
            while True:
                word = str(rng.choice(WORDS))
                (tw, _), _ = cv2.getTextSize(word, font, 1.0, 2)
                if x + tw > x0 + 700:
                    break
                cv2.putText(page, word, (x, y), font, 1.0, (30, 30, 30), 2, cv2.LINE_AA)
                x += tw + 18
            y += 46 if rng.random() > 0.08 else 92
    return _camera(page, rng, _wood(rng), 0.85, 0.06, rng.uniform(-8, 8))


def keyboard(rng: np.random.Generator) -> np.ndarray:
    """A laptop keyboard at an angle: staggered rows of square keys with letters."""
    rows = ("1234567890", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
    offsets = (0.0, 0.5, 0.75, 1.25)
    pitch, key = 120, 104
    body = np.full((int(pitch * 5.6), int(pitch * 13.5), 3), 0, np.uint8)
    dark = rng.random() < 0.5
    body[:] = (40, 40, 42) if dark else (200, 200, 205)
    keycol, ink = ((25, 25, 25), (235, 235, 235)) if dark else ((245, 245, 245), (40, 40, 40))
    for r, (letters, off) in enumerate(zip(rows, offsets)):
        for c, ch in enumerate(letters):
            x, y = int(40 + (c + off) * pitch), int(40 + r * pitch)
            cv2.rectangle(body, (x, y), (x + key, y + key), keycol, -1, cv2.LINE_AA)
            cv2.putText(body, ch, (x + 30, y + 72), cv2.FONT_HERSHEY_SIMPLEX, 1.6, ink, 3, cv2.LINE_AA)
    cv2.rectangle(body, (40 + 3 * pitch, 40 + 4 * pitch), (40 + 9 * pitch, 40 + 4 * pitch + key), keycol, -1)
    return _camera(body, rng, _wood(rng), 0.9, 0.08, rng.uniform(-10, 10))


def tiles(rng: np.random.Generator) -> np.ndarray:
    """A floor of square tiles seen at an angle, two shoes on it."""
    n, p = 12, 200
    floor = np.full((n * p, n * p, 3), rng.uniform(200, 240), np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    for k in range(n + 1):
        cv2.line(floor, (k * p, 0), (k * p, n * p), (120, 120, 120), 8)
        cv2.line(floor, (0, k * p), (n * p, k * p), (120, 120, 120), 8)
    out = np.clip(floor + rng.normal(0, 5, floor.shape), 0, 255).astype(np.uint8)
    for _ in range(2):
        cx, cy = rng.uniform(600, 1800, 2)
        cv2.ellipse(out, (int(cx), int(cy)), (90, 230), rng.uniform(0, 180), 0, 360, (30, 30, 60), -1)
    return _camera(out, rng, np.full((SIZE[1], SIZE[0], 3), 90, np.uint8), 1.6, 0.12, rng.uniform(-20, 20))


def tablecloth(rng: np.random.Generator) -> np.ndarray:
    """A cross-stitch tablecloth at an angle: rows of blue diamonds and pink hearts on cream."""
    w, h = 2400, 1800
    cloth = np.full((h, w, 3), (200, 225, 235), np.float32)
    blue, pink = (150, 90, 60), (150, 120, 200)
    for j, y in enumerate(range(90, h, 180)):
        for i, x in enumerate(range(90, w, 180)):
            if (i + j) % 2:
                cv2.polylines(cloth, [np.array([(x, y - 60), (x + 60, y), (x, y + 60), (x - 60, y)], np.int32)],
                              True, blue, 10)
                cv2.circle(cloth, (x, y), 14, blue, -1)
            else:
                cv2.circle(cloth, (x - 22, y - 10), 28, pink, -1)
                cv2.circle(cloth, (x + 22, y - 10), 28, pink, -1)
                cv2.fillConvexPoly(cloth, np.array([(x - 48, y), (x + 48, y), (x, y + 55)], np.int32), pink)
    cloth *= (1 + 0.06 * np.sin(np.arange(w)[None, :] * 1.3) * np.sin(np.arange(h)[:, None] * 1.3))[..., None]
    return _camera(np.clip(cloth, 0, 255).astype(np.uint8), rng, _wood(rng), 0.95, 0.1, rng.uniform(-15, 15))


def shelf(rng: np.random.Generator) -> np.ndarray:
    """A bookshelf close up: four shelves of book spines with titles along them."""
    w, h = 2400, 1800
    img = np.full((h, w, 3), (60, 90, 130), np.uint8)
    for s in range(4):
        y0, x = 30 + s * 440, 30
        while x < w - 80:
            bw, bh = int(rng.uniform(50, 130)), int(rng.uniform(300, 400))
            col = tuple(float(v) for v in rng.uniform(30, 230, 3))
            spine = np.zeros((bw, bh, 3), np.uint8)
            spine[:] = col
            cv2.putText(spine, " ".join(rng.choice(WORDS, 2)).upper(), (10, bw // 2 + 10), cv2.FONT_HERSHEY_SIMPLEX,
                        0.9, (240, 240, 240) if np.mean(col) < 130 else (20, 20, 20), 2, cv2.LINE_AA)
            img[y0 + 400 - bh:y0 + 400, x:x + bw] = np.rot90(spine, 1)
            x += bw + int(rng.uniform(2, 8))
        cv2.rectangle(img, (0, y0 + 400), (w, y0 + 430), (40, 70, 110), -1)
    return _camera(img, rng, np.full((SIZE[1], SIZE[0], 3), 170, np.uint8), 1.1, 0.05, rng.uniform(-4, 4))


def dots(rng: np.random.Generator) -> np.ndarray:
    """A polka-dot tablecloth with a plate and a cup on it."""
    from boggle_cv.synth.backgrounds import table_texture
    img, _ = table_texture(rng, SIZE[0], SIZE[1], 300.0, kind="dots")
    cv2.circle(img, (1200, 1500), 420, (235, 235, 235), -1)
    cv2.circle(img, (2900, 900), 260, (80, 60, 170), -1)
    return img


PHOTOS: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "tray": tray, "table": table, "clutter": clutter, "sheet": sheet, "room": room, "text": text,
    "keyboard": keyboard, "tiles": tiles, "tablecloth": tablecloth, "shelf": shelf, "dots": dots}


def write_photos(folder: Path, seed: int, names: list[str]) -> dict[str, Path]:
    """The photos named `names` as JPEGs (quality 90) in folder: name -> path. Each
    has its own generator (seed + its place in PHOTOS), whichever others are made."""
    out = {}
    for k, (name, make) in enumerate(PHOTOS.items()):
        if name in names:
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


def search_cost(photo: Path) -> tuple[float, int, int, str]:
    """(CPU s of the tray search alone, views searched, detector passes, outcome) in
    this process (the models loaded by a search before)."""
    from boggle_cv.errors import NoBoardError
    from boggle_cv.vision.imageio import TRAY_LOAD, load_image
    from boggle_cv.vision.tray import detector, find_tray, finder
    image = load_image(photo, TRAY_LOAD)
    counts = [0, 0]
    real_search, real_pass = getattr(finder, "search_image"), getattr(detector, "_pass")

    def count(k: int, real: Callable[..., object]) -> Callable[..., object]:
        def counted(*args: object, **kwargs: object) -> object:
            counts[k] += 1
            return real(*args, **kwargs)
        return counted

    # every view searched goes through search_image, every detector pass through _pass
    setattr(finder, "search_image", count(0, real_search))
    setattr(detector, "_pass", count(1, real_pass))
    try:
        t0 = resource.getrusage(resource.RUSAGE_SELF)
        try:
            outcome = f"{find_tray(image).size}x board"
        except NoBoardError:
            outcome = "refused"
        t1 = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        setattr(finder, "search_image", real_search)
        setattr(detector, "_pass", real_pass)
    return (t1.ru_utime + t1.ru_stime) - (t0.ru_utime + t0.ru_stime), counts[0], counts[1], outcome


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", help="the photos to make, by name, comma-separated (default: all)")
    ap.add_argument("--search-only", action="store_true", help="only the tray finder in this process")
    ap.add_argument("--write", type=Path, help="only write the photos into this folder")
    a = ap.parse_args()
    names = a.only.split(",") if a.only else list(PHOTOS)
    unknown = sorted(set(names) - set(PHOTOS))
    if unknown:
        sys.exit(f"unknown photo(s) {', '.join(unknown)}: choose from {', '.join(PHOTOS)}")
    if a.write is not None:
        a.write.mkdir(parents=True, exist_ok=True)
        for name, path in write_photos(a.write, a.seed, names).items():
            print(f"{name}: {path}")
        return
    exe = shutil.which("boggle-cv")
    if exe is None and not a.search_only:
        sys.exit("boggle-cv is not on PATH (pip install -e .)")
    with tempfile.TemporaryDirectory() as tmp:
        photos = write_photos(Path(tmp), a.seed, names)
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in photos}
        if not a.search_only and exe is not None:
            for path in photos.values():
                timed([exe, "scan", str(path), "--json"])  # the file cache warm
            for _ in range(a.runs):
                for name, path in photos.items():
                    runs[name].append(timed([exe, "scan", str(path), "--json"]))
            print(f"boggle-cv scan PHOTO --json, {a.runs} runs each, photos in turn (12 MP JPEGs); "
                  f"boggle-cv: {exe}; load average at start: {os.getloadavg()[0]:.1f}")
        search_cost(photos[names[0]])  # the models loaded
        for name, path in photos.items():
            cpu, views, passes, outcome = search_cost(path)
            head = ""
            if runs[name]:
                walls, cpus, codes = zip(*runs[name])
                head = (f"wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}), "
                        f"CPU median {statistics.median(cpus):.2f} s, exit {sorted(set(codes))}; ")
            print(f"{name:10} {head}tray search alone {cpu:.2f} s CPU, {views} views, {passes} detector passes: "
                  f"{outcome}")


if __name__ == "__main__":
    main()
