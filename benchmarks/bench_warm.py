"""Warm scans of a 12-megapixel photo: the library's reusable Scanner, and a photo
sent to a running `boggle-cv serve` (the page's path: upload, decode, read, preview).

Renders one 4000 x 3000 tray photo (seeded), then:
  scanner: Scanner("classifier").scan_file(PHOTO), the models already loaded;
  serve:   POST /api/scan with the JPEG as the body to `boggle-cv serve` started on
           a free port of 127.0.0.1 (a real uvicorn process; the time is the whole
           request as the phone's browser waits for it, board and preview made);
each after one warm-up, alternately, and prints the medians.

usage: python benchmarks/bench_warm.py [--runs 9] [--photo PATH]
Target: each at most 0.25 s.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_scan import make_photo


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """`boggle-cv serve --port 0` in its own process; (process, base URL)."""
    proc = subprocess.Popen(["boggle-cv", "serve", "--port", "0", "--db", str(db)], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"serving on (http://[\d.]+:\d+)/", line)
        if m:
            return proc, m.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    sys.exit("boggle-cv serve did not start")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--photo", type=Path)
    a = ap.parse_args()
    import httpx

    from boggle_cv.vision.pipeline import Scanner
    with tempfile.TemporaryDirectory() as tmp:
        photo = a.photo or make_photo(Path(tmp), 5, 3)
        data = photo.read_bytes()
        scanner = Scanner("classifier")
        proc, url = start_server(Path(tmp) / "games.sqlite3")
        try:
            with httpx.Client(timeout=60) as client:
                def served() -> float:
                    t0 = time.perf_counter()
                    res = client.post(url + "/api/scan", content=data, headers={"content-type": "image/jpeg"})
                    took = time.perf_counter() - t0
                    if res.status_code != 200:
                        sys.exit(f"serve answered {res.status_code}: {res.text[:200]}")
                    return took

                def library() -> float:
                    t0 = time.perf_counter()
                    scanner.scan_file(photo)
                    return time.perf_counter() - t0

                served(), library()  # warm-up: models, caches
                lib, web = [], []
                for _ in range(a.runs):
                    lib.append(library())
                    web.append(served())
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"photo: {photo.name} ({len(data) / 1e6:.1f} MB JPEG, 12 MP); cores: {os.cpu_count()}")
    print(f"Scanner.scan_file, warm:          median {statistics.median(lib):.3f} s (min {min(lib):.3f})")
    print(f"POST /api/scan to boggle-cv serve: median {statistics.median(web):.3f} s (min {min(web):.3f})")
    print("target: each at most 0.25 s")


if __name__ == "__main__":
    main()
