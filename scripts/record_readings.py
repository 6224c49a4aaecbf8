#!/usr/bin/env python3
"""Record what the reader makes of every photo in some folders, and compare two records.

A restructuring must not change a single reading: record the folders with the code
before and after the change (PYTHONPATH picks the checkout) and compare.

usage:
  python scripts/record_readings.py record OUT.jsonl FOLDER [FOLDER ...]
  python scripts/record_readings.py compare BEFORE.jsonl AFTER.jsonl

One JSON line per photo (sorted by path within each folder): the board as read, the
doubtful cells, the rotation, the tray's corners and confidence, the mean
confidence, every cell's (face, confidence, turn, runner-up), the red marks and the
cube sets; or the refusal (error type and its one line). Write OUT outside the
project: it is derived from the photos.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}


def record(out: Path, folders: list[Path]) -> None:
    from boggle_cv.errors import BoggleError
    from boggle_cv.vision.pipeline import Scanner
    scanner = Scanner("classifier")
    with open(out, "w", encoding="utf-8") as f:
        for folder in folders:
            for p in sorted(folder.rglob("*")):
                if p.suffix.lower() not in PHOTO_SUFFIXES:
                    continue
                try:
                    d = scanner.scan_file(p)[0].to_dict()
                    b = d["board"]
                    rec = {"photo": str(p), "faces": b["faces"], "flagged": b["flagged"],
                           "rotation": b["rotation"], "corners": d["tray"]["corners"],
                           "tconf": d["tray"]["confidence"], "mean": b["mean_confidence"],
                           "cells": [(c["face"], c["confidence"], c["turn"], c["runner_up"]) for c in b["cells"]],
                           "marks": d["marks"], "sets": d["sets"]}
                except BoggleError as e:
                    rec = {"photo": str(p), "error": type(e).__name__, "msg": e.one_line()}
                f.write(json.dumps(rec) + "\n")
                f.flush()


def compare(before: Path, after: Path) -> int:
    a = [json.loads(line) for line in before.open(encoding="utf-8")]
    b = [json.loads(line) for line in after.open(encoding="utf-8")]
    if [r["photo"] for r in a] != [r["photo"] for r in b]:
        print(f"the records hold different photos ({len(a)} and {len(b)})")
        return 1
    differing = [(x["photo"], sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))) for x, y in zip(a, b) if x != y]
    for photo, keys in differing[:20]:
        print(f"  {photo}: {', '.join(keys)}")
    print(f"{len(a)} photos compared, {len(differing)} differing "
          f"({sum('error' in r for r in a)} refusals in the first record)")
    return 1 if differing else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("folders", type=Path, nargs="+")
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    a = ap.parse_args()
    if a.what == "record":
        record(a.out, a.folders)
    else:
        sys.exit(compare(a.before, a.after))


if __name__ == "__main__":
    main()
