"""Contact sheet of synthetic renders next to real photos, for judging realism by eye.

Usage: python scripts/contact_sheet.py OUT.jpg [--shared ../shared] [--count 12] [--seed 0]
Real photos are read from SHARED/real-photos and SHARED/boggle-boards (never copied
into the project); write OUT outside the project (e.g. /tmp/sheet.jpg). Rows
alternate: real photos, then renders.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.synth import contact_sheet, render_photo


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared")
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cols", type=int, default=6)
    a = ap.parse_args()
    if a.out.resolve().is_relative_to(Path(__file__).resolve().parents[1]):
        print("contact_sheet: write the sheet outside the project (e.g. /tmp/sheet.jpg)", file=sys.stderr)
        return 2
    real = sorted(p for p in (a.shared / "real-photos").glob("*") if p.suffix.lower() in (".jpg", ".png"))
    boards = sorted((a.shared / "boggle-boards").glob("*.jpg"))
    rng = np.random.default_rng(a.seed)
    real = real[:a.count // 2]
    if boards:
        k = min(len(boards), a.count - len(real))
        real += [boards[i] for i in rng.choice(len(boards), size=k, replace=False)]
    if not real:
        print(f"contact_sheet: no real photos under {a.shared}", file=sys.stderr)
        return 2
    renders = [render_photo(np.random.default_rng([a.seed, i]), long_side=1000)[0] for i in range(a.count)]
    images, labels = [], []
    for start in range(0, a.count, a.cols):
        for p in real[start:start + a.cols]:
            images.append(cv2.imread(str(p)))
            labels.append("real: " + p.name)
        for k in range(start, min(start + a.cols, a.count)):
            images.append(renders[k])
            labels.append(f"render {k}")
    cv2.imwrite(str(a.out), contact_sheet(images, labels, cell=300, cols=a.cols), [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
