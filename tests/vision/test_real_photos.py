"""End to end on the real photos in ../shared (evaluation only, never trained on):
the whole pipeline, tray finder included, must keep reading them right.

Skipped when ../shared/real-photos is absent. Compared under the four turns of the
grid, as ../shared/tools/eval_photos.py does.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from boggle_cv.errors import NoBoardError

SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
PHOTOS = SHARED / "real-photos"
HARD_LETTERS = {"M", "W", "Z", "N", "Qu"}


def _turns(grid):
    g = [list(r) for r in grid]
    for _ in range(4):
        yield g
        g = [list(r) for r in zip(*g[::-1])]


@pytest.fixture(scope="module")
def readings():
    if not (PHOTOS / "truth.json").exists():
        pytest.skip(f"{PHOTOS} not available")
    from boggle_cv.vision.pipeline import Scanner
    scanner = Scanner("classifier")
    out = []
    for p in json.loads((PHOTOS / "truth.json").read_text())["photos"]:
        try:
            res, _ = scanner.scan_file(PHOTOS / p["file"])
            out.append((p, res.board.to_rows()))
        except NoBoardError:
            out.append((p, None))
    return out


def test_full_boards_are_found_with_the_right_size(readings):
    for p, faces in readings:
        if p.get("faces"):
            assert faces is not None, f"{p['file']}: no board found"
            assert len(faces) == p["size"], p["file"]


def test_photo_without_a_full_board_is_refused(readings):
    refused = [p["file"] for p, faces in readings if not p.get("faces")]
    assert refused, "the set holds a product shot with an incomplete tray"
    for p, faces in readings:
        if not p.get("faces"):
            assert faces is None, f"{p['file']}: a board was reported in a photo without a full one"


def test_cells_and_hard_letters(readings):
    right = total = 0
    hard_wrong = []
    for p, faces in readings:
        if not p.get("faces") or faces is None:
            continue
        best, best_turn = -1, None
        for t in _turns(p["faces"]):
            n = sum(a.lower() == b.lower() for ra, rb in zip(t, faces) for a, b in zip(ra, rb))
            if n > best:
                best, best_turn = n, t
        right += best
        total += len(faces) ** 2
        hard_wrong += [(p["file"], a, b) for ra, rb in zip(best_turn, faces) for a, b in zip(ra, rb)
                       if a in HARD_LETTERS and a != b]
    assert total > 0
    assert right / total >= 0.98, f"{right}/{total} cells"
    assert not hard_wrong, hard_wrong


BOARDS = SHARED / "boggle-boards"


def test_held_out_boggle_boards_layouts_end_to_end():
    """The Boggle Boards layouts the reader never trained on (models/reader_metrics.json):
    found and read end to end (the tray finder was tuned on the whole set)."""
    if not (BOARDS / "truth.json").exists():
        pytest.skip(f"{BOARDS} not available")
    from boggle_cv.files.resources import model_file
    from boggle_cv.vision.pipeline import Scanner
    held = set(json.loads(model_file("reader_metrics.json").read_text())["heldout_layouts"])
    scanner = Scanner("classifier")
    right = total = refused = 0
    for p in json.loads((BOARDS / "truth.json").read_text())["photos"]:
        if p["layout"] not in held:
            continue
        total += p["size"] ** 2
        try:
            res, _ = scanner.scan_file(BOARDS / p["file"])
        except NoBoardError:
            refused += 1
            continue
        faces = res.board.to_rows()
        right += max(sum(a.lower() == b.lower() for ra, rb in zip(t, faces) for a, b in zip(ra, rb))
                     for t in _turns(p["faces"]))
    assert total > 0
    assert refused <= 2, f"{refused} held-out photos refused"
    assert right / total >= 0.93, f"{right}/{total} cells"  # measured 673/711 (94.7%), 2 refused
