#!/usr/bin/env python3
"""How big a sheet's word images are, per encoding (the room keeps one per word read:
boggle_cv.web.word_images; docs/web.md, "Handwriting").

    python scripts/measure_word_images.py PHOTO_OR_FOLDER ...

Each photo is read by the sheet reader without a lexicon (only the boxes matter); each
word not crossed out is cut (the box plus its margin, grey, paper evened out, at most
48 x 320 px) and encoded as PNG (grey as cut, and evened), JPEG and WebP at a few
qualities. Prints, per encoding, the bytes of a word (median, 95th percentile, max) and
of a sheet (median, max), then the room's encoding (word_image, with its byte cap) and
the milliseconds it takes a word, and what a room's view (GET /api/rooms/CODE, fetched
by every phone at every change) would weigh with one player per photo, its words read,
the lists locked: without images, with the image ids it carries, and with the images
inlined (base64) instead. Last line: "view: ...".
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boggle_cv.web.word_images import WordImageConfig, _even, _flatten, _scaled, word_image  # noqa: E402

ENCODINGS = {
    "png raw": (".png", [cv2.IMWRITE_PNG_COMPRESSION, 9], False),
    "png evened": (".png", [cv2.IMWRITE_PNG_COMPRESSION, 9], True),
    "jpeg q60": (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 60], True),
    "webp q40": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 40], True),
    "webp q60": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 60], True),
    "webp q80": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80], True),
}


def photos(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for a in args:
        p = Path(a)
        out += sorted(q for q in p.iterdir() if q.suffix.lower() in (".jpg", ".jpeg", ".png")) if p.is_dir() else [p]
    return out


def p95(xs: list[int]) -> int:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="+")
    a = ap.parse_args()
    from boggle_cv import read_sheet
    from boggle_cv.vision.imageio import load_image
    config = WordImageConfig()
    sizes: dict[str, list[int]] = {k: [] for k in [*ENCODINGS, "word_image"]}
    sheets: dict[str, list[int]] = {k: [] for k in sizes}
    ms: list[float] = []
    missing = 0
    lists: list[list[tuple[str, bytes | None]]] = []
    for path in photos(a.photos):
        image = load_image(path)
        words = [w for w in read_sheet(image).words if not w.crossed_out]
        per: dict[str, int] = {k: 0 for k in sizes}
        lists.append([])
        for w in words:
            flat = _flatten(image, w.box, config.margin)
            if flat is None:
                continue
            for name, (ext, params, even) in ENCODINGS.items():
                grey = _scaled(_even(flat) if even else flat, config.height, config.max_width)
                n = len(cv2.imencode(ext, grey, params)[1])
                sizes[name].append(n)
                per[name] += n
            t0 = time.perf_counter()
            data = word_image(image, w.box, config)
            ms.append(1000 * (time.perf_counter() - t0))
            lists[-1].append((w.word, data))
            if data is None:
                missing += 1
                continue
            sizes["word_image"].append(len(data))
            per["word_image"] += len(data)
        for k in sizes:
            sheets[k].append(per[k])
        print(f"{path.name}: {len(words)} words, word_image {per['word_image']} B", flush=True)
    for k, xs in sizes.items():
        if xs:
            print(f"{k:12s} a word: median {statistics.median(xs):.0f} B, p95 {p95(xs)}, max {max(xs)}; "
                  f"a sheet: median {statistics.median(sheets[k]):.0f} B, max {max(sheets[k])}")
    xs = sizes["word_image"]
    print(f"word_image: {len(xs)} words, median {statistics.median(xs):.0f} B, p95 {p95(xs)}, max {max(xs)}, "
          f"over the cap {missing}, {statistics.median(ms):.1f} ms a word (median)")
    print(view_sizes(lists))
    return 0


def view_sizes(lists: list[list[tuple[str, bytes | None]]]) -> str:
    """A locked room with one player per list: its view's JSON bytes without images,
    with their ids (as served), and with the images inlined as base64."""
    import base64
    import json

    from boggle_cv.room.model import Phase, Player, Room, Round, new_image_id
    from boggle_cv.room.view import room_view
    room = Room("ABCDEFG", "g", "x", 0.0)
    room.round = Round(1, Phase.locked)
    for i, items in enumerate(lists):
        p = Player(f"p{i}abcdef", f"P{i}", "d", 0.0)
        room.players.append(p)
        room.round.lists[p.id] = [w for w, _ in items if w]
    bare = len(json.dumps(room_view(room, True, None, 0.0)))
    for p, items in zip(room.players, lists):
        room.round.images[p.id] = {w: new_image_id() for w, data in items if w and data}
    ids = len(json.dumps(room_view(room, True, None, 0.0)))
    inline = bare + sum(len(json.dumps({w: base64.b64encode(d).decode()})) for items in lists for w, d in items if w and d)
    return (f"view: {len(lists)} players, {sum(len(x) for x in lists)} words: {bare} B without images, {ids} B with "
            f"their ids, {inline} B with the images inlined")


if __name__ == "__main__":
    raise SystemExit(main())
