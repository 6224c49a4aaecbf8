#!/usr/bin/env python3
"""Measure the red marks (bonus rings, the challenge cube) against the truth.

usage: python scripts/eval_marks.py FOLDER
       python scripts/eval_marks.py --synth SEED COUNT

FOLDER/truth.json: {"photos": [{"file", "faces", "bonus" ([[r, c], ...], optional),
"challenge" ([r, c] or null, optional)}]}; a photo without "bonus"/"challenge" has
no red mark. --synth renders COUNT trays (seeds SEED...) that all carry rings and some
a red cube (SynthConfig bonus_p=1, challenge_p=0.4). Each photo is scanned by the
shipped pipeline; its marks are compared with the truth under the four turns of the
grid (a tray has no fixed top). Prints each false mark, then the counts, for the
shipped rule ("now": sure / doubtful) and for the rule without the circle test, every
mark counted ("no circle").
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from boggle_cv.errors import NoBoardError
from boggle_cv.vision.cells import cut_cells
from boggle_cv.vision.imageio import load_image
from boggle_cv.vision.marks import MarkConfig, MarkEvidence, find_marks
from boggle_cv.vision.pipeline import CELL_PX, Scanner, mark_evidence

Cell = tuple[int, int]
Photo = tuple[str, np.ndarray, set[Cell], set[Cell]]
RULES = {"now": MarkConfig(), "no circle": MarkConfig(ring_circle_min=0.0, ring_sure=0.0, challenge_sure=0.0)}


def turned(cells: set[Cell], n: int) -> list[set[Cell]]:
    """The cells under the four quarter turns of an n x n grid."""
    out = [cells]
    for _ in range(3):
        out.append({(c, n - 1 - r) for r, c in out[-1]})
    return out


def synth_photos(seed: int, count: int) -> Iterator[Photo]:
    from boggle_cv.synth import SynthConfig, render_photo
    config = dataclasses.replace(SynthConfig(), bonus_p=1.0, challenge_p=0.4)
    for s in range(seed, seed + count):
        img, t = render_photo(np.random.default_rng(s), kind="tray", config=config)
        yield (f"synth {s}", img, {(int(r), int(c)) for r, c in t["bonus"]},
               {(int(t["challenge"][0]), int(t["challenge"][1]))} if t["challenge"] else set())


def folder_photos(folder: Path) -> Iterator[Photo]:
    for p in json.loads((folder / "truth.json").read_text())["photos"]:
        if p.get("faces"):
            yield (p["file"], load_image(folder / p["file"]), {(int(r), int(c)) for r, c in p.get("bonus") or []},
                   {(int(p["challenge"][0]), int(p["challenge"][1]))} if p.get("challenge") else set())


def compare(name: str, found: list[MarkEvidence], bonus: set[Cell], challenge: set[Cell], n: int,
            counts: collections.Counter[tuple[str, ...]], rule: str) -> None:
    """Count the marks found against the truth, under the turn that matches most."""
    truths = list(zip(turned(bonus, n), turned(challenge, n)))
    best = max(truths, key=lambda t: sum(m.cell in (t[0] if m.kind == "bonus" else t[1]) for m in found))
    for kind, truth in zip(("bonus", "challenge"), best):
        seen = {m.cell: m for m in found if m.kind == kind}
        for cell in truth:
            m = seen.get(cell)
            counts[(rule, kind, "true", "lost" if m is None else "sure" if m.sure else "doubtful")] += 1
        for cell, m in seen.items():
            if cell not in truth:
                counts[(rule, kind, "false", "sure" if m.sure else "doubtful")] += 1
                print(f"{rule}: {name}: false {kind} at {cell}, strength {m.strength:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--synth", nargs=2, type=int, metavar=("SEED", "COUNT"))
    a = ap.parse_args()
    if (a.folder is None) == (a.synth is None):
        ap.error("give a FOLDER or --synth SEED COUNT")
    photos = synth_photos(*a.synth) if a.synth else folder_photos(a.folder)
    scanner = Scanner()
    counts: collections.Counter[tuple[str, ...]] = collections.Counter()
    for name, img, bonus, challenge in photos:
        try:
            res = scanner.scan_image(img)
        except NoBoardError:
            counts[("photos", "refused")] += 1
            continue
        counts[("photos", "read")] += 1
        n = res.board.size
        crops = cut_cells(img, res.tray.corners, n, CELL_PX, centres=res.tray.cell_centres)
        for rule, config in RULES.items():
            found = mark_evidence(find_marks(crops, config), res.reading)
            if rule != "now":
                found = [dataclasses.replace(m, sure=True) for m in found]
            compare(name, found, bonus, challenge, n, counts, rule)
    for key, value in sorted(counts.items()):
        print(" ".join(key), value)


if __name__ == "__main__":
    main()
