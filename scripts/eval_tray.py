#!/usr/bin/env python3
"""Measure the tray finder on a folder of photos with a truth.json.

usage: python scripts/eval_tray.py FOLDER [--mosaic-dir DIR] [--annotate-dir DIR]
       [--limit K] [--quiet]

FOLDER/truth.json: {"photos": [{"file", "size", "corners" (4x2 or null)}]}; a photo
whose corners are null, or that has a non-null "no_board" (synthetic renders: empty
tray, incomplete, spilled), must be refused (NoBoardError). Prints per photo: size found
vs true, mean corner error as % of the board's side (best over the 8 corner
orderings, since a tray has no fixed top), time in ms (load + find); then totals.

--mosaic-dir writes, per photo, a PNG mosaic of the N x N cells cut by a plain
perspective warp from the found corners, to check by eye that each crop holds
one whole cube.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.errors import BoggleError, NoBoardError
from boggle_cv.vision.annotate import draw_tray
from boggle_cv.vision.imageio import load_image
from boggle_cv.vision.metrics import corner_error
from boggle_cv.vision.stages import DebugImages
from boggle_cv.vision.tray import TrayConfig, find_tray


def mosaic(image: np.ndarray, corners: np.ndarray, n: int, cell: int = 64) -> np.ndarray:
    """(n*(cell+2), n*(cell+2), 3) BGR: the cells of a plain warp, with gaps."""
    dst = np.array([[0, 0], [n * cell, 0], [n * cell, n * cell], [0, n * cell]], np.float32)
    H = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    top = cv2.warpPerspective(image, H, (n * cell, n * cell), flags=cv2.INTER_AREA)
    g = cell + 2
    out = np.full((n * g, n * g, 3), 255, np.uint8)
    for r in range(n):
        for c in range(n):
            out[r * g:r * g + cell, c * g:c * g + cell] = top[r * cell:(r + 1) * cell,
                                                              c * cell:(c + 1) * cell]
    return out


def _write_fails(folder: Path, stem: str, img: np.ndarray, size, cfg) -> None:
    """Rerun find_tray with a debug sink and write its stage images (small PNGs)."""
    folder.mkdir(parents=True, exist_ok=True)
    sink = DebugImages()
    try:
        find_tray(img, config=cfg, debug=sink)
    except BoggleError:
        pass  # a refusal's stages are in the sink too
    for k, im in sink.images.items():
        if k[:1] in "345" or k.startswith("d"):
            cv2.imwrite(str(folder / f"{stem}_{k}.png"), im)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--mosaic-dir", type=Path)
    ap.add_argument("--annotate-dir", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--quiet", action="store_true", help="print only failures and totals")
    ap.add_argument("--split", choices=("all", "train", "val"), default="all",
                    help="photos with a 'layout' (boggle-boards): only the layouts the cube "
                         "detector trained on (train) or the held-out ones (val)")
    ap.add_argument("--fails-dir", type=Path,
                    help="write the stage debug images of every failure here")
    ap.add_argument("--sources", default=None,
                    help="comma-separated candidate sources in order (TrayConfig.sources), "
                         "e.g. blobs for the classical finder alone")
    a = ap.parse_args(argv)
    cfg = TrayConfig(sources=tuple(a.sources.split(","))) if a.sources else TrayConfig()
    truth = json.loads((a.folder / "truth.json").read_text())["photos"]
    if a.split != "all":
        from boggle_cv.train.detector_data import is_val_layout
        truth = [p for p in truth if "layout" in p and is_val_layout(p["layout"]) == (a.split == "val")]
    if a.limit:
        truth = truth[: a.limit]
    for d in (a.mosaic_dir, a.annotate_dir):
        if d:
            d.mkdir(parents=True, exist_ok=True)
    n_board = n_right = n_neg = n_neg_ok = 0
    errs, times = [], []
    sources: dict[str, int] = {}
    for p in truth:
        path = a.folder / p["file"]
        t0 = time.perf_counter()
        try:
            img = load_image(path)
            res = find_tray(img, config=cfg)
            err_msg = None
        except NoBoardError as exc:
            res, err_msg = None, exc.message
        except BoggleError as exc:
            res, err_msg = None, exc.message
        dt = time.perf_counter() - t0
        times.append(dt)
        true_n = p.get("size") if p.get("corners") and not p.get("no_board") else None
        if true_n is None:
            n_neg += 1
            ok = res is None
            n_neg_ok += ok
            line = f"{p['file']}: true none, found {res.size if res else 'none'}"
        else:
            n_board += 1
            if res is None:
                ok = False
                line = f"{p['file']}: true {true_n}, found none ({err_msg})"
            else:
                e = corner_error(res.corners.tolist(), p["corners"])
                ok = res.size == true_n
                n_right += ok
                if ok:
                    errs.append(e)
                src = "blobs" if "blobs" in res.timings else "detector"
                sources[src] = sources.get(src, 0) + 1
                line = (f"{p['file']}: true {true_n}, found {res.size}, corner error "
                        f"{100 * e:.1f}%, conf {res.confidence:.2f}, via {src}")
        line += f", {1000 * dt:.0f} ms" + ("" if ok else "  <-- WRONG")
        if not a.quiet or not ok:
            print(line)
        if not ok and a.fails_dir:
            _write_fails(a.fails_dir, Path(p["file"]).stem, img, true_n, cfg)
        if res is not None and a.mosaic_dir:
            cv2.imwrite(str(a.mosaic_dir / (Path(p["file"]).stem + ".png")),
                        mosaic(img, res.corners, res.size))
        if res is not None and a.annotate_dir:
            ann = draw_tray(img, res)
            s = 900 / max(ann.shape[:2])
            if s < 1:
                ann = cv2.resize(ann, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(a.annotate_dir / (Path(p["file"]).stem + ".png")), ann)
    print(f"boards: right size {n_right}/{n_board} ({100 * n_right / max(1, n_board):.1f}%)"
          f"; refusals right {n_neg_ok}/{n_neg}")
    if errs:
        print(f"corner error (right size): mean {100 * statistics.mean(errs):.2f}% "
              f"median {100 * statistics.median(errs):.2f}% max {100 * max(errs):.2f}% "
              f"of the side; >5%: {sum(e > 0.05 for e in errs)}")
    if sources:
        print("boards found via: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    print(f"time per photo: median {1000 * statistics.median(times):.0f} ms, "
          f"max {1000 * max(times):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
