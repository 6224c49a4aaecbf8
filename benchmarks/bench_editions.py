#!/usr/bin/env python3
"""Each edition's shipped dictionary against the English one: load time, size, solving.

Usage: python benchmarks/bench_editions.py [--repeat N] [--boards N] [--cold N]
Figures per edition (goals: load <= 1.5x English, solver no slower per board):
  * file size (MB) and words;
  * in-process `load_default(lang)` (cache cleared), median of N rounds that take
    the editions in turn (so a busy machine slows them alike), and its ratio to English;
  * with --cold N: a fresh `python -c "load_default(lang)"` minus a fresh
    `import boggle_cv.game.dictionary`, median of N rounds taking them in turn, and its
    ratio (noisy on a busy machine: a few ms out of ~150);
  * the solver: median ms per board over N random 4x4 boards (the edition's cube set
    where it has one, else letters by the dictionary's own letter frequency), and its
    ratio to English on English boards.
The wheel's growth is the sum of the non-English files (printed last).
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.game import dice  # noqa: E402
from boggle_cv.game import dictionary as D  # noqa: E402
from boggle_cv.game.board import Board  # noqa: E402
from boggle_cv.game.editions import EDITIONS, LANGS  # noqa: E402
from boggle_cv.game.solver import find_words  # noqa: E402


def boards_for(lang: str, n: int, d: D.Dictionary, seed: int = 23) -> list[Board]:
    """n random 4x4 boards of edition `lang`: rolled from its cube set, else drawn letter
    by letter with the frequency of letters in its dictionary (a 'q' drawn is the Qu face)."""
    sets = dice.sets_of_size(4, lang)
    if sets:
        return [dice.roll(sets[-1], seed + i) for i in range(n)]
    freq = letter_frequency(d)
    rng = random.Random(seed)
    letters, weights = zip(*sorted(freq.items()))
    out = []
    for _ in range(n):
        faces = ["Qu" if ch == "q" else ch.upper() for ch in rng.choices(letters, weights, k=16)]
        out.append(Board(tuple(tuple(faces[r * 4:r * 4 + 4]) for r in range(4))))
    return out


def letter_frequency(d: D.Dictionary, sample: int = 50_000) -> Counter[str]:
    """Letter counts over the first `sample` words of `d` (alphabetical walk: every
    letter still appears; enough for a board generator)."""
    c: Counter[str] = Counter()
    for i, w in enumerate(d.words()):
        if i >= sample:
            break
        c.update(w)
    return c


def cold_loads(runs: int) -> dict[str, float]:
    """Edition -> median seconds a fresh `python -c "load_default(lang)"` takes beyond a
    fresh `import boggle_cv.game.dictionary`; the processes of all editions and the bare
    import are started in turn, `runs` rounds, so a busy machine slows them alike."""
    codes = {"": "import boggle_cv.game.dictionary",
             **{lang: f"from boggle_cv.game.dictionary import load_default; load_default({lang!r})" for lang in LANGS}}
    times: dict[str, list[float]] = {k: [] for k in codes}
    for _ in range(runs):
        for k, code in codes.items():
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times[k].append(time.perf_counter() - t0)
    bare = statistics.median(times[""])
    return {lang: statistics.median(times[lang]) - bare for lang in LANGS}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--cold", type=int, default=0, help="fresh-process runs per edition (0: skip)")
    args = ap.parse_args()
    times: dict[str, list[float]] = {k: [] for k in LANGS}
    for _ in range(args.repeat):
        for lang in LANGS:
            D.load_edition.cache_clear()
            t0 = time.perf_counter()
            D.load_default(lang)
            times[lang].append(time.perf_counter() - t0)
    base = statistics.median(times["en"])
    pkg = resources.files("boggle_cv") / "data"
    colds = cold_loads(args.cold) if args.cold else {}
    solve_base = 0.0
    grown = 0
    print(f"{'edition':8} {'MB':>6} {'words':>9} {'load ms':>8} {'ratio':>6}"
          + (f" {'cold ms':>8} {'ratio':>6}" if args.cold else "") + f" {'ms/board':>9} {'ratio':>6} {'words/board':>11}")
    for lang in LANGS:
        stem = EDITIONS[lang].dictionary
        size = len((pkg / f"{stem}.bin").read_bytes())
        if lang != "en":
            grown += size + sum(len((pkg / f"{stem}.{ext}").read_bytes()) for ext in ("json", "LICENSE"))
        d = D.load_default(lang)
        t = statistics.median(times[lang])
        line = f"{lang:8} {size / 1e6:6.2f} {len(d):9,} {t * 1000:8.1f} {t / base:6.2f}"
        if args.cold:
            line += f" {colds[lang] * 1000:8.1f} {colds[lang] / colds['en']:6.2f}"
        boards = boards_for(lang, args.boards, d)
        per = []
        found = 0
        for b in boards:
            t0 = time.perf_counter()
            found += len(find_words(b, d, 3))
            per.append(time.perf_counter() - t0)
        s = statistics.median(per)
        if lang == "en":
            solve_base = s
        line += f" {s * 1000:9.2f} {s / solve_base:6.2f} {found / len(boards):11.1f}"
        print(line, flush=True)
    print(f"wheel growth (the five editions' .bin, .json, .LICENSE): {grown / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
