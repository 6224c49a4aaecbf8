#!/usr/bin/env python3
"""Read each photo of a folder with every --size: the right one must read the board,
a wrong one must be refused naming --size.

usage: python scripts/eval_sizes.py FOLDER [--limit K]

FOLDER/truth.json: {"photos": [{"file", "size", "faces"}]} (photos without faces are
skipped). Prints each photo whose right size is refused or whose wrong size is read,
then the counts: (right|wrong, what came of it).
"""
from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from boggle_cv.errors import NoBoardError
from boggle_cv.vision.imageio import load_image
from boggle_cv.vision.pipeline import Scanner
from boggle_cv.vision.tray import SIZES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=None, help="only the first K photos with faces")
    a = ap.parse_args()
    photos = [p for p in json.loads((a.folder / "truth.json").read_text())["photos"] if p.get("faces")]
    scanner = Scanner()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for p in photos[:a.limit]:
        image = load_image(a.folder / p["file"])
        for n in SIZES:
            right = n == p["size"]
            try:
                size = scanner.scan_image(image, n).board.size
                out = f"read {size}x{size}"
            except NoBoardError as err:
                out = "refused naming --size" if f"--size {n}" in err.one_line() else "refused"
                if right:
                    print(f"{p['file']} --size {n}: {err.one_line()}", flush=True)
            if not right and out.startswith("read"):
                print(f"{p['file']} --size {n}: {out}", flush=True)
            counts[("right" if right else "wrong", out)] += 1
    for (kind, out), value in sorted(counts.items()):
        print(f"{kind} size, {out}: {value}")


if __name__ == "__main__":
    main()
