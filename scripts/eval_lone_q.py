#!/usr/bin/env python3
"""How the reader takes the Qu and O cells of synthetic photos, from TRUTH corners.

usage: python scripts/eval_lone_q.py DIR [DIR ...] [--lang fr] [--model reader.onnx]

DIR: a folder made by `boggle-cv synth` (e.g. `--set fr-4 --lone-q`: every Qu face
printed as a lone Q). Cells are cut from the truth corners (the tray finder is not
involved), read and decoded as `scripts/eval_cells.py` does, and compared with the
truth under the best turn of the grid. Prints one line per folder:

  Qu cells: read Qu / read O / flagged "O or Qu?" (an O with Qu as runner-up, the
  French lone-Q check of decode);
  O cells: read O / read Qu / flagged by the lone-Q check alone (flagged with the
  check, not flagged without it: DecodeConfig(lone_q_min=2.0)).
Exit status 0, or 2 when a folder has no truth.json.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.vision.cells import cut_cells
from boggle_cv.vision.decode import DecodeConfig, decode
from boggle_cv.vision.reader import ClassifierReader

CELL_PX = 64


def _turns(grid):
    g = [list(r) for r in grid]
    for _ in range(4):
        yield g
        g = [list(r) for r in zip(*g[::-1])]


def _best_turn(read, truth):
    """The truth grid under the turn that matches the reading best."""
    return max(_turns(truth), key=lambda t: sum(a.lower() == b.lower() for ra, rb in zip(t, read)
                                                 for a, b in zip(ra, rb)))


def count(folder: Path, reader: ClassifierReader, lang: str) -> dict[str, int]:
    """The counts of the module docstring for the photos of folder that show a board."""
    photos = [p for p in json.loads((folder / "truth.json").read_text())["photos"]
              if p.get("corners") and p.get("faces") and not p.get("no_board")]
    on, off = DecodeConfig(edition=lang), replace(DecodeConfig(edition=lang), lone_q_min=2.0)
    c = dict.fromkeys(("photos", "qu", "qu_qu", "qu_o", "qu_flag_o_qu", "o", "o_o", "o_qu", "o_new_flag"), 0)
    for p in photos:
        img = cv2.imread(str(folder / p["file"]), cv2.IMREAD_COLOR)
        n = p["size"]
        crops = cut_cells(img, np.array(p["corners"], float), n, CELL_PX)
        rd = reader.read(crops.reshape(-1, CELL_PX, CELL_PX, 3))
        br, b0 = decode(rd, n, on), decode(rd, n, off)
        read = br.board.to_rows()
        truth = _best_turn(read, p["faces"])
        c["photos"] += 1
        for i in range(n):
            for j in range(n):
                t, cell = truth[i][j], br.cells[i][j]
                if t == "Qu":
                    c["qu"] += 1
                    c["qu_qu"] += cell.face == "Qu"
                    c["qu_o"] += cell.face == "O"
                    c["qu_flag_o_qu"] += cell.face == "O" and cell.flagged and cell.runner_up == "Qu"
                elif t == "O":
                    c["o"] += 1
                    c["o_o"] += cell.face == "O"
                    c["o_qu"] += cell.face == "Qu"
                    c["o_new_flag"] += cell.flagged and not b0.cells[i][j].flagged
    return c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--lang", default="fr", help="the edition the photos are decoded as (boggle_cv.game.editions)")
    ap.add_argument("--model", type=Path, default=None, help="reader ONNX file (default: the shipped one)")
    a = ap.parse_args()
    missing = [f for f in a.folders if not (f / "truth.json").is_file()]
    if missing:
        print(f"eval_lone_q.py: error: no truth.json in {missing[0]} (make it with boggle-cv synth)",
              file=sys.stderr)
        return 2
    reader = ClassifierReader(a.model)
    for folder in a.folders:
        c = count(folder, reader, a.lang)
        print(f"{folder.name} ({c['photos']} boards, --lang {a.lang}): "
              f"Qu cells {c['qu']}: read Qu {c['qu_qu']}, read O {c['qu_o']}, "
              f"flagged O-or-Qu {c['qu_flag_o_qu']}; O cells {c['o']}: read O {c['o_o']}, "
              f"read Qu {c['o_qu']}, newly flagged by the lone-Q check {c['o_new_flag']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
