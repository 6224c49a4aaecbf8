"""Fit the word reader's calibration (``models/word_doubt.json``): which readings the
player must be asked about.

Sheets composed from crops the models were not trained on (the tune split of
../shared/handwriting-public, read with files trained on the train split only) are
read by ``read_sheet`` exactly as at run time, each against the shared eval tool's
lexicon and, with ``--board``, a second time with a simulated board known
(scripts/sheet_taps.py's ``simulated_board``). Each word read keeps its evidence
(``vision.handwriting.doubt.Evidence``) and is labelled right when the sheet holds
its word (as a multiset: a word written once and read twice is right once). A
logistic regression (L2, Newton's method) over the evidence gives P(right);
``ask_below`` is the highest P(right) under which the readings of the fitting data
leave at most ``--errors-per-1000`` wrong words unasked (the least sure first), so
the file asks about as few words as that allows.

usage: BOGGLE_CV_WORD_READER=TRAIN/word_reader.onnx BOGGLE_CV_WORD_HEAD=TRAIN/word_head.npz \\
       python -m boggle_cv.train.word_doubt SHEETS [SHEETS ...] --out models/word_doubt.json \\
           [--board] [--errors-per-1000 1.0] [--readings CACHE.pkl] [--words ../shared/words/enable2k.txt]
(SHEETS: folders made by ../shared/tools/compose_sheets.py from `scripts/eval_sheets.py
test-crops --split tune` crops; CACHE keeps the readings so that a refit skips reading.)
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from boggle_cv.vision.handwriting import doubt

ROOT = Path(__file__).resolve().parents[2]


def labelled(truth: list[str], words: list) -> list[tuple[doubt.Evidence, bool]]:  # type: ignore[type-arg]
    """(evidence, right) for each counted word read with evidence: right when the
    sheet's words (a multiset) still hold it; the sure readings claim first."""
    want = Counter(truth)
    live = [w for w in words if not w.crossed_out and w.word and w.evidence is not None]
    out = []
    for w in sorted(live, key=lambda w: -(w.evidence.doubt)):
        ok = want[w.word] > 0
        want[w.word] -= ok
        out.append((w.evidence, bool(ok)))
    return out


def read_folders(folders: list[Path], words_file: Path, board: bool) -> list[tuple[str, doubt.Evidence, bool]]:
    """(set, evidence, right) for every word read on every sheet of `folders` (module doc)."""
    import json
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_sheets import sheet_lexicons
    from sheet_taps import simulated_board

    from boggle_cv.vision.sheet import read_sheet
    os.environ["BOGGLE_CV_WORD_DOUBT"] = "none"  # the evidence, not a calibration's flags
    pool = [w.strip() for w in words_file.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    rows: list[tuple[str, doubt.Evidence, bool]] = []
    for folder in folders:
        truth = json.loads((folder / "truth.json").read_text())
        rng = random.Random(1204)
        for name, t, words, lex in sheet_lexicons(truth, words_file):
            runs: list[tuple[list[str], list[str] | None]] = [(sorted(lex), None)]
            if board:
                on_board, lexicon = simulated_board(words, pool, pool_set, rng)
                runs.append((lexicon, on_board))
            for lexicon, on in runs:
                try:
                    read = read_sheet(str(folder / name), lexicon, board_words=on).words
                except Exception as e:  # a refusal: nothing read, nothing to learn
                    print(f"{folder.name}/{name}: {type(e).__name__}: {e}", flush=True)
                    continue
                rows += [(t["set"], ev, ok) for ev, ok in labelled(words, list(read))]
            print(f"{folder.name}/{name}: {len(rows)} readings so far", flush=True)
    return rows


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method: (mean, scale, weights,
    bias) for P(right) = sigmoid(w . (x - mean) / scale + bias)."""
    x = np.clip(x, -doubt.CLIP, doubt.CLIP)
    mean, scale = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    reg = l2 * np.r_[np.ones(z.shape[1] - 1), 0.0]
    for _ in range(100):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) + reg * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[:-1], float(w[-1])


def ask_below(p: np.ndarray, y: np.ndarray, per_1000: float) -> float:
    """The threshold on P(right) that leaves at most `per_1000` wrong readings unasked
    per 1,000 readings: readings are passed most sure first while the wrong ones among
    them stay within the allowance; the threshold sits just above the first one that
    would break it."""
    allowed = per_1000 * len(p) / 1000
    order = np.argsort(-p, kind="stable")
    wrong = 0
    for i in order:
        if not y[i]:
            wrong += 1
            if wrong > allowed:
                return float(min(1.0, p[i] + 1e-9))
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sheets", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--board", action="store_true", help="also read each sheet with a simulated board known")
    ap.add_argument("--errors-per-1000", type=float, default=1.0)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--readings", type=Path, help="a pickle of the readings: made when missing, reused when there")
    a = ap.parse_args()
    if a.readings and a.readings.is_file():
        rows = pickle.loads(a.readings.read_bytes())
    else:
        rows = read_folders(a.sheets, a.words, a.board)
        if a.readings:
            a.readings.write_bytes(pickle.dumps(rows))
    x = np.array([ev.vector() for _, ev, _ in rows], np.float64)
    y = np.array([ok for _, _, ok in rows], np.float64)
    mean, scale, w, b = fit(x, y, a.l2)
    cal = doubt.Calibration(doubt.NAMES, tuple(map(float, mean)), tuple(map(float, scale)), tuple(map(float, w)), b, 0.0)
    p = np.array([cal.p_right(ev) for _, ev, _ in rows])
    cal = doubt.Calibration(cal.names, cal.mean, cal.scale, cal.weights, cal.bias, ask_below(p, y, a.errors_per_1000))
    doubt.write(a.out, cal)
    asked = p < cal.ask_below
    print(f"{len(rows)} readings, {int(len(y) - y.sum())} wrong; ask below P(right) {cal.ask_below:.4f}: "
          f"{int(asked.sum())} asked ({100 * asked.mean():.1f}%), {int(((~asked) & (y == 0)).sum())} wrong not asked")
    for s in sorted({r[0] for r in rows}):
        k = np.array([r[0] == s for r in rows])
        print(f"  {s}: {int(k.sum())} readings, asked {100 * asked[k].mean():.1f}%, "
              f"wrong not asked {int(((~asked) & (y == 0) & k).sum())}")
    print("weights: " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(cal.names, cal.weights)) + f", bias {cal.bias:+.2f}")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
