#!/usr/bin/env python3
"""Print the solver's median time per dice-rolled board (4x4 modern, 5x5 Big Boggle
1979, 6x6 Super Big Boggle) with the default dictionary, and where the time goes.

Usage: python benchmarks/bench_solver.py [--boards N] [--dict PATH]
Three figures per size: the median wall time of single runs (each board solved
once), the median CPU time (time.process_time) of single runs (not counting time the
process waits for a core on a busy shared machine), and the median of each board's
best of 3 wall times. Boards: dice.roll(set, seed) for
seeds 0..N-1.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.dice import roll  # noqa: E402
from boggle_cv.dictionary import load_default, load_word_list  # noqa: E402
from boggle_cv.scoring import Rules, board_words  # noqa: E402
from boggle_cv.solver import solve  # noqa: E402

SETS = (("4x4", "modern-4"), ("5x5", "big-1979"), ("6x6", "super-big-6"))


class CountingDict(dict):
    """The edge table with a counter on get (to count trie steps; slow)."""

    calls = 0

    def get(self, key, default=None):
        CountingDict.calls += 1
        return super().get(key, default)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--dict", type=Path)
    args = ap.parse_args()
    d = load_word_list(args.dict) if args.dict else load_default()
    print(f"dictionary: {d.source}, {len(d):,} words; {args.boards} boards per size; "
          f"Python {sys.version.split()[0]}")
    for label, name in SETS:
        boards = [roll(name, s) for s in range(args.boards)]
        single, cpu, best, counts, pts = [], [], [], [], []
        for b in boards:
            t0 = time.perf_counter()
            c0 = time.process_time()
            res = solve(b, d)
            cpu.append(time.process_time() - c0)
            single.append(time.perf_counter() - t0)
        for b in boards:
            runs = []
            for _ in range(3):
                t0 = time.perf_counter()
                res = solve(b, d)
                runs.append(time.perf_counter() - t0)
            best.append(min(runs))
            counts.append(len(res))
        for b in boards[:50]:
            pts.append(sum(w.points for w in board_words(b, d, Rules(size=b.size))))
        print(f"{label} {name:12s} median {statistics.median(single) * 1e3:6.3f} ms wall, "
              f"{statistics.median(cpu) * 1e3:6.3f} ms CPU (single runs), "
              f"{statistics.median(best) * 1e3:6.3f} ms (best of 3); "
              f"mean {statistics.mean(counts):.0f} words, {statistics.mean(pts):.0f} points")
    # where the time goes, on the 4x4 boards
    boards = [roll("modern-4", s) for s in range(args.boards)]
    from boggle_cv.dictionary import Dictionary, from_words
    empty = from_words(["zzzzzz"])
    t0 = time.perf_counter()
    for b in boards:
        solve(b, empty)
    setup = (time.perf_counter() - t0) / len(boards)
    cd = Dictionary(CountingDict(d.edges), len(d))
    hits = 0
    for b in boards:
        hits += len(solve(b, cd))
    steps = CountingDict.calls / len(boards)
    t0 = time.perf_counter()
    for b in boards:
        solve(b, d)
    total = (time.perf_counter() - t0) / len(boards)
    print(f"where the time goes (4x4, mean per board {total * 1e3:.3f} ms): per-board set-up "
          f"(faces, neighbour tables, result objects of an empty search) {setup * 1e3:.3f} ms; "
          f"the depth-first search makes {steps:.0f} dictionary steps "
          f"(one dict.get each) for {hits / len(boards):.0f} words, "
          f"about {(total - setup) / steps * 1e9:.0f} ns a step including the Python call per cell.")


if __name__ == "__main__":
    main()
