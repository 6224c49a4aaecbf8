"""Choose the handwriting reader's softmax temperature and flag threshold on the
"tune" split (writers / words neither trained on nor used for the figures), with the
protocol of scripts/eval_handwriting.py (groups of 40, lexicons of 1,000).

usage: python -m boggle_cv.train.word_flags ../shared/handwriting-public [--prior] [--length]
Prints, per temperature and threshold, top-1 and, per set, confident errors and
flagged share. With --prior, also per weight of the prior of common words
(commonness.ZIPF_WEIGHT a unit of Zipf frequency: 0 is the uniform prior) and the
frequency given to words the table lacks (UNKNOWN_ZIPF); with --length, per bonus a
letter (reading.LENGTH_BONUS: 0 is none).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from boggle_cv.train.word_head import split_of
from boggle_cv.vision.handwriting import commonness, ctc
from boggle_cv.vision.handwriting.reading import LENGTH_BONUS, clean_lexicon, crop_views, lexicon_scores


Scored = tuple[np.ndarray, int, bool, np.ndarray, np.ndarray]


def scores(folder: Path, setname: str, split: str, enable: Path, seed: int = 1201) -> list[Scored]:
    """Per crop: its candidates' log-likelihoods, the true word's index, whether the
    free reading found ink, each candidate's Zipf frequency (-1: not in the table)
    and length."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from eval_handwriting import fold, group_lexicon, load  # type: ignore
    items = json.loads((folder / "manifest.json").read_text())
    items = [x for x in items if x["set"] == setname and split_of(x) == split]
    pairs = [(x, fold(x["transcription"])) for x in items]
    pairs = [(x, t) for x, t in pairs if t.isalpha() and len(t) >= 2]
    rng = random.Random(seed)
    words = [w.strip() for w in enable.open() if 3 <= len(w.strip()) <= 10]
    eset = set(words)
    out = []
    for g in range(0, len(pairs), 40):
        group = pairs[g:g + 40]
        lexicon = clean_lexicon(group_lexicon({t for _, t in group}, words, eset, rng))
        encoded = ctc.encode(lexicon)
        table = commonness.frequencies()
        zipf = np.array([table.get(w, -1.0) for w in lexicon])
        lengths = np.array([len(w) for w in lexicon], np.float64)
        for (x, t), views in zip(group, crop_views([load(folder / x["file"]) for x, _ in group])):
            free, _ = ctc.greedy(views[0])
            out.append((lexicon_scores(views, encoded), lexicon.index(t), bool(free), zipf, lengths))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--split", default="tune")
    ap.add_argument("--enable", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--prior", action="store_true", help="also sweep the prior of common words")
    ap.add_argument("--length", action="store_true", help="also sweep the bonus per letter")
    a = ap.parse_args()
    data = {s: scores(a.folder, s, a.split, a.enable) for s in ("dhsd", "jeremy-words")}
    weights = (0.0, 0.5, 0.75, 1.0, 1.25) if a.prior else (commonness.ZIPF_WEIGHT,)
    unknowns = (1.0, 2.0, 3.0) if a.prior else (commonness.UNKNOWN_ZIPF,)
    bonuses = (0.0, 0.5, 1.0, 1.5, 2.0) if a.length else (LENGTH_BONUS,)
    grid = [(w, u, b, temp, thr) for w in weights for u in unknowns for b in bonuses
            for temp in (1.0, 1.5, 2.0, 3.0) for thr in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)]
    for weight, unknown, bonus, temp, thr in grid:
        row = [f"prior={weight:.2f} unknown={unknown:.1f} length={bonus:.1f} T={temp:.1f} thr={thr:.2f}"]
        for s, rows in data.items():
            n = top1 = conf_wrong = flagged = 0
            for ll, truth, has_ink, zipf, lengths in rows:
                z = ll / temp + weight * np.minimum(np.where(zipf < 0, unknown, zipf), commonness.ZIPF_CAP) + bonus * lengths
                z = np.exp(z - z.max())
                post = z / z.sum()
                best = int(post.argmax())
                f = post[best] < thr or not has_ink
                n += 1
                top1 += best == truth
                flagged += f
                conf_wrong += best != truth and not f
            row.append(f"{s}: top1 {100 * top1 / n:.1f}% conf.err {100 * conf_wrong / n:.1f}% "
                       f"flagged {100 * flagged / n:.1f}% (n={n})")
        print(" | ".join(row), flush=True)


if __name__ == "__main__":
    main()
