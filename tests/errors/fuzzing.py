"""Mutations of image files for the scan fuzz tests and scripts/fuzz_scan.py.

Seeded: `mutate(data, rng)` returns (name, bytes) of one mutation of `data` (bit
flips, byte runs set, truncation, chunk dropped or repeated, header swapped).
`scan_bytes(data, scanner)` runs the scan code path in process and returns the exit
code it would give (0 read, else our error's code); anything else propagates.
"""
from __future__ import annotations

import random

HEADERS = (b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"II*\x00", b"BM",
           b"GIF89a", b"\x00\x00\x00\x18ftypheic")


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    b = bytearray(data)
    kind = rng.choice(("flip", "flip", "run", "truncate", "drop", "repeat", "header", "header+flip"))
    if kind in ("flip", "header+flip"):
        for _ in range(rng.choice((1, 2, 8, 64))):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    if kind == "run":
        i = rng.randrange(len(b))
        b[i:i + rng.randint(1, 512)] = bytes([rng.choice((0, 255, rng.randrange(256)))]) * rng.randint(1, 512)
    if kind == "truncate":
        b = b[:rng.randrange(1, len(b))]
    if kind in ("drop", "repeat"):
        i, n = rng.randrange(len(b)), rng.randint(1, 4096)
        b = b[:i] + b[i + n:] if kind == "drop" else b[:i + n] + b[i:]
    if kind.startswith("header"):
        h = rng.choice(HEADERS)
        b = bytearray(h) + b[len(h):]
    return kind, bytes(b)


def scan_bytes(data: bytes, scanner=None) -> int:
    """Exit code of scanning `data`: load (bounded), find the tray, cut cells, and read
    them when `scanner` (a pipeline.Scanner) is given. Only BoggleError is caught."""
    from boggle_cv.errors import BoggleError
    from boggle_cv.vision.cells import cut_cells
    from boggle_cv.vision.imageio import load_image_bytes
    from boggle_cv.vision.tray import find_tray
    try:
        img = load_image_bytes(data, "fuzz")
        if scanner is not None:
            scanner.scan_image(img)
        else:
            r = find_tray(img)
            cut_cells(img, r.corners, r.size, 96, centres=r.cell_centres)
        return 0
    except BoggleError as e:
        return e.exit_code
