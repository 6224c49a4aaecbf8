#!/usr/bin/env python3
"""Count the free reading's letter model (boggle_cv/data/letter-trigrams.npy) from the
shipped dictionaries of every edition (boggle_cv.vision.handwriting.charlm).

Each edition's words (folded to a-z as shipped) are counted as trigrams over a-z and
the word's ends, each edition weighing the same (a reading does not know its
language), then add-k smoothed. The same dictionaries give the same bytes.

usage: python scripts/build_letter_model.py [--out boggle_cv/data/letter-trigrams.npy]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from boggle_cv.game.dictionary import load_default  # noqa: E402
from boggle_cv.game.editions import EDITIONS  # noqa: E402
from boggle_cv.vision.handwriting.charlm import TABLE_FILE, count, normalise  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "boggle_cv" / "data" / TABLE_FILE)
    a = ap.parse_args()
    t0 = time.perf_counter()
    total = np.zeros((27, 27, 27))
    for lang in sorted(EDITIONS):
        words = [w for w in load_default(lang).words() if w.isascii() and w.isalpha()]
        total += count(words)
        print(f"{lang}: {len(words)} words", file=sys.stderr)
    np.save(a.out, normalise(total))
    print(f"{a.out}: {a.out.stat().st_size} bytes, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
