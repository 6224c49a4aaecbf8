"""Ctrl-C during a scan of several photos: how long from the key to the exit, and what
is left.

Runs `boggle-cv scan` on eight photos (the shipped samples, twice) with --debug-dir,
on a pseudo-terminal, one after another (--jobs 1) and in worker processes (--jobs
2), and presses Ctrl-C (the terminal's own: the whole foreground job gets SIGINT) at
a random moment of the run; times the exit from the key, and checks each run: exit
130, `boggle-cv: interrupted` last, no traceback, no stage image or folder left, no
worker left. Prints each run and the median and the worst.

usage: python benchmarks/bench_ctrl_c.py [--tries 25] [--seed 1] [--latest 5.0]
Target: every run clean, the worst under 1 s.
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
TRAYS = ["sample-4x4-a.jpg", "sample-4x4-b.jpg", "sample-5x5-a.jpg", "sample-5x5-b.jpg"]


def children(pid: int) -> list[int]:
    kids = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(k) for k in kids.read_text().split()] if kids.exists() else []


def alive(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def one(folder: Path, jobs: int, at: float) -> tuple[float, bool, str]:
    """A run interrupted `at` seconds in: (seconds from Ctrl-C to exit, clean?, why not)."""
    photos = [str(p) for p in sorted(folder.glob("*.jpg"))]
    debug = folder / "debug"
    child = pexpect.spawn(sys.executable, ["-m", "boggle_cv", "scan", *photos, "--debug-dir", str(debug),
                                           "--jobs", str(jobs)], dimensions=(40, 100), encoding="utf-8",
                          codec_errors="replace", timeout=120)
    seen, workers = "", set()
    end = time.monotonic() + at
    while time.monotonic() < end:
        workers |= set(children(child.pid))
        try:
            seen += child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            return 0.0, False, "ended before the Ctrl-C"
    t0 = time.monotonic()
    child.sendintr()
    child.expect(pexpect.EOF)
    took = time.monotonic() - t0
    child.close()
    out = seen + child.before
    problems = []
    if child.exitstatus != 130:
        problems.append(f"exit {child.exitstatus} (signal {child.signalstatus})")
    if not out.rstrip().endswith("boggle-cv: interrupted") or "Traceback" in out:
        problems.append("screen: " + repr(out[-200:]))
    if debug.exists():
        problems.append(f"{len(list(debug.iterdir()))} files left in --debug-dir")
        shutil.rmtree(debug)
    if any(alive(pid) for pid in workers):
        problems.append("a worker is left")
    return took, not problems, "; ".join(problems)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tries", type=int, default=25, help="runs for each of --jobs 1 and 2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--latest", type=float, default=5.0, help="the latest moment of the Ctrl-C, in seconds")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for k in range(2):
            for name in TRAYS:
                shutil.copy(SAMPLES / name, folder / f"{k}-{name}")
        for jobs in (1, 2):
            times, bad = [], 0
            for _ in range(args.tries):
                at = round(rng.uniform(0.5, args.latest), 2)
                took, clean, why = one(folder, jobs, at)
                times.append(took)
                bad += not clean
                print(f"--jobs {jobs}  Ctrl-C at {at:4.2f} s: exit {took:.2f} s after it" + ("" if clean else f"  {why}"))
            print(f"--jobs {jobs}: {len(times)} runs, {bad} not clean; from Ctrl-C to exit: median "
                  f"{statistics.median(times):.2f} s, worst {max(times):.2f} s")


if __name__ == "__main__":
    main()
