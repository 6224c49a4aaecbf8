#!/usr/bin/env python3
"""Print how long loading the default dictionary takes, where the time goes, and its memory.

Usage: python benchmarks/bench_dictionary.py [--repeat N] [--scan PHOTO]
Figures:
  * in-process, median of N: reading the file, decoding the edge arrays, filling the
    transition table, and the whole `load_default()`;
  * the table's size in memory, and the Python heap a load allocates (tracemalloc);
  * a cold `python -c "load_default()"` minus a cold `python -c "import boggle_cv.game.dictionary"`
    (subprocesses, median of 5), beside the floor `python -c "import cv2, numpy"`;
  * with --scan PHOTO: a cold `boggle-cv scan PHOTO --json` (median of 5) and the cold
    load's share of it.
Also the coverage/extra-word figures recorded at build time (default-dict.json).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import tracemalloc
from importlib import resources
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.game import dictionary as D  # noqa: E402


def ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:6.1f} ms"


def cold(code: str, runs: int = 5) -> list[float]:
    """Wall seconds of `python -c code` in fresh processes."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--scan", type=Path, help="a photo: also time a cold `boggle-cv scan` with and without the load")
    args = ap.parse_args()
    path = resources.files("boggle_cv") / "data" / D.DEFAULT_BIN
    t_read, t_arr, t_table, t_all = [], [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        data = path.read_bytes()
        t1 = time.perf_counter()
        n = int.from_bytes(data[8:12], "little")
        keys = np.frombuffer(data, dtype="<u4", count=n, offset=16).astype(np.int64)
        vals = np.frombuffer(data, dtype="<u4", count=n, offset=16 + 4 * n).astype(np.int64)
        t2 = time.perf_counter()
        table = D.table_from_edges(keys, vals)
        t3 = time.perf_counter()
        D.load_edition.cache_clear()
        D.load_default()
        t4 = time.perf_counter()
        t_read.append(t1 - t0)
        t_arr.append(t2 - t1)
        t_table.append(t3 - t2)
        t_all.append(t4 - t3)
    D.load_edition.cache_clear()
    tracemalloc.start()
    d = D.load_default()
    heap = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    common = d.meta.get("common_words")
    print(f"default dictionary: {len(d):,} words" + (f" ({common:,} common)" if isinstance(common, int) else "")
          + f", {n:,} edges (DAWG), {len(data) / 1e6:.2f} MB file")
    print(f"  read file        {ms(t_read)}")
    print(f"  decode arrays    {ms(t_arr)}")
    print(f"  fill table       {ms(t_table)}")
    print(f"  load_default()   {ms(t_all)}   (in-process, median of {args.repeat})")
    print(f"  memory: table {table.nbytes / 1e6:.1f} MB ({len(table) // D.WIDTH:,} states x {D.WIDTH} int32); "
          f"a load allocates {heap[0] / 1e6:.1f} MB kept, {heap[1] / 1e6:.1f} MB at its peak (tracemalloc)")
    bare = cold("import boggle_cv.game.dictionary")
    load = cold("from boggle_cv.game.dictionary import load_default; load_default()")
    floor = cold("import cv2, numpy")
    added = [a - b for a, b in zip(load, bare)]
    print(f"  cold process: load_default() adds {ms(added)} "
          f"(import alone {ms(bare)}; floor `import cv2, numpy` {ms(floor)}; median of 5)")
    if args.scan:
        scan = [sys.executable, "-m", "boggle_cv", "scan", str(args.scan), "--json"]
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(scan, check=True, stdout=subprocess.DEVNULL)
            runs.append(time.perf_counter() - t0)
        share = statistics.median(added) / statistics.median(runs)
        print(f"  cold `boggle-cv scan {args.scan.name} --json`: {ms(runs)}; the dictionary load is "
              f"{share * 100:.0f}% of it")
    e = d.meta.get("enable2k")
    if isinstance(e, dict):
        print(f"ENABLE2K 3-16-letter coverage: {e['covered']:,} of {e['words_3_16']:,} = "
              f"{e['coverage_percent']}%; words ENABLE2K lacks: {e['extra_words_3_16']:,} "
              f"(measured by scripts/build_dictionary.py)")


if __name__ == "__main__":
    main()
