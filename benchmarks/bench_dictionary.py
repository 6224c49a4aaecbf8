#!/usr/bin/env python3
"""Print how long loading the default dictionary takes, and where the time goes.

Usage: python benchmarks/bench_dictionary.py [--repeat N]
Figures: file read, array decoding, dict construction (in-process, median of N),
and a cold `python -c "load_default()"` minus a bare `python -c pass` (subprocess).
Also the coverage/extra-word figures recorded at build time (default-dict.json).
"""
from __future__ import annotations

import argparse
import array
import statistics
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv import dictionary as D  # noqa: E402


def ms(xs):
    return f"{statistics.median(xs) * 1000:6.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    path = resources.files("boggle_cv") / "data" / D.DEFAULT_BIN
    t_read, t_arr, t_dict, t_all, t_cpu = [], [], [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        data = path.read_bytes()
        t1 = time.perf_counter()
        n = int.from_bytes(data[8:12], "little")
        k, v = array.array("I"), array.array("I")
        k.frombytes(data[16:16 + 4 * n])
        v.frombytes(data[16 + 4 * n:])
        kl, vl = k.tolist(), v.tolist()
        t2 = time.perf_counter()
        edges = dict(zip(kl, vl))
        t3 = time.perf_counter()
        D.load_default.cache_clear()
        c3 = time.process_time()
        D.load_default()
        t_cpu.append(time.process_time() - c3)
        t4 = time.perf_counter()
        t_read.append(t1 - t0)
        t_arr.append(t2 - t1)
        t_dict.append(t3 - t2)
        t_all.append(t4 - t3)
    d = D.load_default()
    print(f"default dictionary: {len(d):,} words, {len(edges):,} edges (DAWG), "
          f"{len(data) / 1e6:.2f} MB file")
    print(f"  read file        {ms(t_read)}")
    print(f"  decode arrays    {ms(t_arr)}")
    print(f"  build dict       {ms(t_dict)}   <- most of the time: one hash insert per edge")
    print(f"  load_default()   {ms(t_all)} wall, {ms(t_cpu)} CPU   (in-process, median of {args.repeat})")
    cold, bare = [], []
    code = "from boggle_cv.dictionary import load_default; load_default()"
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import boggle_cv.dictionary"], check=True)
        t1 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        t2 = time.perf_counter()
        bare.append(t1 - t0)
        cold.append(t2 - t1)
    print(f"  cold process load minus import: {ms([c - b for c, b in zip(cold, bare)])} "
          f"(median of 5; import alone {ms(bare)})")
    e = d.meta.get("enable2k")
    if e:
        print(f"ENABLE2K 3-16-letter coverage: {e['covered']:,} of {e['words_3_16']:,} = "
              f"{e['coverage_percent']}%; words ENABLE2K lacks: {e['extra_words_3_16']:,} "
              f"(measured by scripts/build_dictionary.py)")


if __name__ == "__main__":
    main()
