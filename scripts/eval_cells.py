#!/usr/bin/env python3
"""Cell accuracy of the reader on cells cut from TRUTH corners (tray finder not involved).

usage: python scripts/eval_cells.py [--photos ../shared/real-photos]
           [--boards ../shared/boggle-boards] [--engine classifier] [--no-tta]
           [--no-prior] [--errors /tmp/errors.png] [--verbose] [--synth DIR] [--lang fr]

real-photos: every photo with corners. boggle-boards: only the layouts held out
from training (listed in models/reader_metrics.json). A board is compared with the
truth under the four turns of the grid (best counts), as tools/eval_photos.py does.
Prints one line per set: cells right, boards right, and M/W/Z/N/Qu cells right.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.vision.cells import cut_cells, mosaic
from boggle_cv.vision.decode import DecodeConfig, decode
from boggle_cv.vision.engines import make_reader
from boggle_cv.vision.reader import ClassifierReader

SPECIAL = ("M", "W", "Z", "N", "Qu")
CELL_PX = 64


def turns(grid):
    g = [list(r) for r in grid]
    for _ in range(4):
        yield g
        g = [list(r) for r in zip(*g[::-1])]


def compare(read, truth):
    """(cells right, best-turn truth grid, quarter turns) under the best turn of the truth grid."""
    best, best_t, best_k = -1, None, 0
    for k, t in enumerate(turns(truth)):
        right = sum(a.lower() == b.lower() for ra, rb in zip(t, read) for a, b in zip(ra, rb))
        if right > best:
            best, best_t, best_k = right, t, k
    return best, best_t, best_k


def truth_marks(p):
    """N x N grid of '', 'bonus', 'challenge' from a synth truth record (board frame)."""
    n = p["size"]
    g = [["" for _ in range(n)] for _ in range(n)]
    for r, c in p.get("bonus") or []:
        g[r][c] = "bonus"
    if p.get("challenge"):
        r, c = p["challenge"]
        g[r][c] = "challenge"
    return g


def evaluate(name, folder: Path, photos, reader, use_prior, verbose, errs, marks=False, lang="en"):
    from boggle_cv.vision.marks import find_marks
    mk = {"tp": 0, "fp": 0, "fn": 0}
    cells = total = boards = 0
    sp_right = sp_total = 0
    times = []
    for p in photos:
        img = cv2.imread(str(folder / p["file"]), cv2.IMREAD_COLOR)
        n = p["size"]
        crops = cut_cells(img, np.array(p["corners"], float), n, CELL_PX)
        t0 = time.perf_counter()
        rd = reader.read(crops.reshape(-1, CELL_PX, CELL_PX, 3))
        br = decode(rd, n, DecodeConfig(edition=lang), use_prior=use_prior)
        times.append(time.perf_counter() - t0)
        read = br.board.to_rows()
        right, tgrid, k = compare(read, p["faces"])
        if marks:
            found = find_marks(crops)
            tm = list(turns(truth_marks(p)))[k]
            for i in range(n):
                for j in range(n):
                    pr, pc = br.cells[i][j].photo_cell
                    fm = found[pr][pc]
                    got = "challenge" if fm.challenge else ("bonus" if fm.bonus else "")
                    if got and got == tm[i][j]:
                        mk["tp"] += 1
                    else:
                        mk["fp"] += bool(got)
                        mk["fn"] += bool(tm[i][j])
        cells += right
        total += n * n
        boards += right == n * n
        wrong = []
        for i in range(n):
            for j in range(n):
                t, r = tgrid[i][j], read[i][j]
                if t in SPECIAL:
                    sp_total += 1
                    sp_right += t.lower() == r.lower()
                if t.lower() != r.lower():
                    c = br.cells[i][j]
                    wrong.append(f"{t}->{r}({c.confidence:.2f})")
                    pr, pc = c.photo_cell
                    crop = cv2.resize(crops[pr, pc], (64, 64))
                    crop = cv2.copyMakeBorder(crop, 0, 16, 0, 0, cv2.BORDER_CONSTANT, value=(0, 0, 0))
                    cv2.putText(crop, f"{t}>{r}", (2, 76), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1)
                    errs.append(crop)
        if verbose or wrong:
            print(f"  {p['file']}: {right}/{n * n} flagged {len(br.flagged)} sets {br.sets} "
                  f"{' '.join(wrong)}")
    pct = 100.0 * cells / max(total, 1)
    print(f"{name}: cells {cells}/{total} ({pct:.2f}%) boards {boards}/{len(photos)} "
          f"M/W/Z/N/Qu {sp_right}/{sp_total} read+decode median {1000 * float(np.median(times)):.1f} ms/board"
          + (f"; red marks right {mk['tp']}, false {mk['fp']}, missed {mk['fn']}" if marks else ""))
    return cells, total


def main() -> int:
    ap = argparse.ArgumentParser()
    root = Path(__file__).resolve().parents[1]
    ap.add_argument("--photos", type=Path, default=root.parent / "shared" / "real-photos")
    ap.add_argument("--boards", type=Path, default=root.parent / "shared" / "boggle-boards")
    ap.add_argument("--metrics", type=Path, default=root / "models" / "reader_metrics.json")
    ap.add_argument("--model", type=Path, default=None)
    ap.add_argument("--engine", default="classifier")
    ap.add_argument("--no-tta", action="store_true")
    ap.add_argument("--no-prior", action="store_true")
    ap.add_argument("--errors", type=Path, default=None, help="write a PNG mosaic of the wrong cells")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--synth", type=Path, default=None,
                    help="a folder made by `boggle-cv synth` (truth.json with corners): also scored, with red marks")
    ap.add_argument("--synth-limit", type=int, default=200)
    ap.add_argument("--lang", default="en", help="the edition whose cube sets are the prior (boggle_cv.game.editions)")
    a = ap.parse_args()
    if a.engine == "classifier":
        reader = ClassifierReader(a.model, tta=not a.no_tta)
    else:
        reader = make_reader(a.engine, a.model)
    errs: list = []
    if (a.photos / "truth.json").exists():
        ph = [p for p in json.loads((a.photos / "truth.json").read_text())["photos"]
              if p.get("corners") and p.get("faces")]
        evaluate("real-photos", a.photos, ph, reader, not a.no_prior, a.verbose, errs, lang=a.lang)
    else:
        print(f"no {a.photos}/truth.json; skipped real-photos", file=sys.stderr)
    if (a.boards / "truth.json").exists() and a.metrics.exists():
        held = set(json.loads(a.metrics.read_text())["heldout_layouts"])
        ph = [p for p in json.loads((a.boards / "truth.json").read_text())["photos"] if p["layout"] in held]
        evaluate(f"boggle-boards held-out ({len(held)} layouts)", a.boards, ph, reader, not a.no_prior,
                 a.verbose, errs, lang=a.lang)
    if a.synth and (a.synth / "truth.json").exists():
        ph = [p for p in json.loads((a.synth / "truth.json").read_text())["photos"]
              if p.get("corners") and p.get("faces") and not p.get("no_board")][:a.synth_limit]
        evaluate(f"synthetic photos {a.synth.name}", a.synth, ph, reader, not a.no_prior, a.verbose, errs,
                 marks=True, lang=a.lang)
    if a.errors and errs:
        cv2.imwrite(str(a.errors), mosaic(np.stack(errs)))
        print(f"wrote {a.errors} ({len(errs)} wrong cells)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
