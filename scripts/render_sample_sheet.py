"""Render the shipped sample sheet: a player's list for samples/sample-4x4-a.jpg,
written in OpenCV's Hershey script face (a handwriting-like font, not real
handwriting), on ruled paper, photographed on a table at an angle and turned on its
side; one word crossed out, scores in the margin, two words on a line split by a comma.

    python scripts/render_sample_sheet.py      # writes samples/sheets/sheet-4x4-a.jpg
                                               # and samples/sheets/sheet-4x4-a.truth.txt (truth)
The truth file lists the words that count (the crossed-out word left out), in
writing order. Same seed, same pixels.
"""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from boggle_cv.synth.sheets import photograph, render_paper  # noqa: E402

LINES = [["hex"], ["cote"], ["dote", "doth"], ["net"], ["tho"], ["cod"], ["hoe"], ["toe"], ["dose"], ["they"]]
STRUCK = ("dose",)
SCORES = ("1", "1", "1", "1")


def main() -> None:
    rng = np.random.default_rng(22)
    paper, _ = render_paper(LINES, rng, struck=STRUCK, margin_marks=SCORES, separator=", ", size=(1100, 1400))
    photo, _ = photograph(paper, rng, size=(1400, 1050), angle=-7.0, tilt=0.04, fill=0.8, turn=270)
    out = ROOT / "samples" / "sheets" / "sheet-4x4-a.jpg"
    cv2.imwrite(str(out), photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
    words = [w for line in LINES for w in line if w not in STRUCK]
    (ROOT / "samples" / "sheets" / "sheet-4x4-a.truth.txt").write_text(
        "# rendered (scripts/render_sample_sheet.py, Hershey script face): the words that count\n"
        + "\n".join(words) + "\n")
    print(f"{out}: {len(words)} words that count, {len(STRUCK)} crossed out")


if __name__ == "__main__":
    main()
