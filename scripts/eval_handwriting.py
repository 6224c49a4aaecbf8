#!/usr/bin/env python3
"""Measure boggle_cv.read_words on handwritten word crops (the shared protocol; the
same as ../shared/tools/eval_handwriting.py, plus --split).

Protocol: crops are taken in groups of 40 (a sheet's worth) in manifest order; each
group is read against one lexicon of 1,000: the group's true words, every ENABLE2k
word one edit away from any of them, and random ENABLE2k words of 3-10 letters to
fill. Truths are folded to a-z (ä -> a, ß -> ss); entries that are not letters after
folding are skipped. Reported: top-1, top-3, confident errors (wrong and not
flagged), flagged share, free reading (the lexicon-less read_words) exact, ms a word
(both readings, halved).

--split train|tune|test|held-out keeps one part of the open crops (DHSD by writer,
Jeremy by word: boggle_cv.train.word_head.split_of): the handwriting head is trained
on "train", the flag threshold and temperature are set on "tune", and "test" is
neither (held-out = tune + test). Figures for the head belong on --split test.

usage: PYTHONPATH=$PWD python scripts/eval_handwriting.py ../shared/handwriting-public \
           --set dhsd|jeremy-words [--split test] [--limit N] [--seed 1201] [--enable PATH]
--dictionary also reads each crop with no lexicon against the whole English dictionary
(read_words(images, dictionary=load_default("en")): a sheet read before the board is
known) and reports its exact share and its confident errors (wrong, not flagged).
Last line: "handwriting: top1 ... top3 ... confident errors ... flagged ... free ... n=... ms/word ..."
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import unicodedata
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ENABLE = ROOT.parent / "shared" / "words" / "enable2k.txt"


def fold(s: str) -> str:
    s = s.replace("ß", "ss").replace("ẞ", "SS")
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isascii()).lower()


def load(path: Path) -> np.ndarray:
    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if im is None:
        raise SystemExit(f"cannot read {path}")
    return im  # read_words takes grey, BGR and BGRA


def neighbours(t: str, words: set[str]) -> set[str]:
    """The words of `words` one edit away from `t` (the reader's own rule, reading.one_edit)."""
    from boggle_cv.vision.handwriting.reading import one_edit
    return {w for w in one_edit(t) if w in words}


def group_lexicon(truths: set[str], enable: list[str], eset: set[str], rng: random.Random) -> list[str]:
    """The protocol's lexicon for one group of crops: its true words, every word of
    `enable` one edit away from one, random words of `enable` up to 1,000 (fewer when
    the list is too small to fill it), sorted and then shuffled by `rng`."""
    lex = set(truths)
    for t in truths:
        lex |= neighbours(t, eset)
    size = min(1000, len(lex | eset))  # a small word list (tests) cannot fill 1,000
    while len(lex) < size:
        lex.add(rng.choice(enable))
    lexicon = sorted(lex)
    rng.shuffle(lexicon)
    return lexicon


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--set", dest="only", default=None)
    ap.add_argument("--split", choices=("all", "train", "tune", "test", "held-out"), default="all")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1201)
    ap.add_argument("--enable", type=Path, default=DEFAULT_ENABLE)
    ap.add_argument("--misses", action="store_true", help="print each word read wrong (file, writer, truth, reading)")
    ap.add_argument("--dictionary", action="store_true",
                    help="also read each crop against the whole English dictionary (no board: read_words(dictionary=...))")
    a = ap.parse_args()
    from boggle_cv import read_words
    from boggle_cv.train.word_head import split_of
    items = json.loads((a.folder / "manifest.json").read_text())
    items = [x for x in items if x["set"] != "jeremy-raw" and (a.only is None or x["set"] == a.only)]
    if a.split == "held-out":
        items = [x for x in items if split_of(x) != "train"]
    elif a.split != "all":
        items = [x for x in items if split_of(x) == a.split]
    pairs = [(x, fold(x["transcription"])) for x in items]
    pairs = [(x, t) for x, t in pairs if t.isalpha() and len(t) >= 2]
    rng = random.Random(a.seed)
    if a.limit:
        pairs = rng.sample(pairs, min(a.limit, len(pairs)))
    enable = [w.strip() for w in a.enable.open() if 3 <= len(w.strip()) <= 10]
    eset = set(enable)
    n = top1 = top3 = confident_wrong = flagged = free = whole = whole_wrong = 0
    if a.dictionary:
        from boggle_cv.game.dictionary import load_default
        english = load_default("en")
    t_read = 0.0
    for g in range(0, len(pairs), 40):
        group = pairs[g:g + 40]
        lexicon = group_lexicon({t for _, t in group}, enable, eset, rng)
        images = [load(a.folder / x["file"]) for x, _ in group]
        t0 = time.perf_counter()
        readings = read_words(images, lexicon=lexicon)
        plain = read_words(images)
        t_read += time.perf_counter() - t0
        against = read_words(images, dictionary=english) if a.dictionary else plain
        for (x, t), r, p, d in zip(group, readings, plain, against):
            n += 1
            alts = [w for w, _ in r.alternatives][:3]
            ok = r.word == t
            if a.misses and not ok:
                print(f"miss: {x['file']} writer {x['writer']}: {t!r} read {r.word!r} "
                      f"({r.confidence:.2f}{', flagged' if r.flagged else ''}; then {alts[1:]})")
            top1 += ok
            top3 += t in alts or ok
            flagged += bool(r.flagged)
            confident_wrong += (not ok) and not r.flagged
            free += fold(p.word) == t
            whole += d.word == t
            whole_wrong += d.word != t and not d.flagged
    if not n:
        print("handwriting: no items")
        return 1

    def pct(k: int) -> str:
        return f"{100 * k / n:.1f}%"

    print(f"handwriting: top1 {pct(top1)} top3 {pct(top3)} confident errors {pct(confident_wrong)} "
          f"flagged {pct(flagged)} free {pct(free)} n={n} ms/word {1000 * t_read / n / 2:.0f}"
          + (f" dictionary {pct(whole)} (confident errors {pct(whole_wrong)})" if a.dictionary else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
