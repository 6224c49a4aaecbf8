"""The report and the annotated picture turn the board so that its letters stand
upright, however the tray lies in the photo (decode.choose_rotation: the turn under
which most cubes read upright).

Held on trays whose letters all stand one way: synthetic renders turned by quarter
turns and by a free angle, and the real photos of ../shared/real-photos whose cubes
all stand one way (skipped where ../shared is absent). The picture is checked by
reading it again: the board drawn must need no turn. (nsinghvi-5x5-clear-b is not
among them: its cubes lie in all four turns, so "upright" is only a majority there,
the report's turn is the one that stands the most letters upright, and its picture
is held by tests/cli/test_annotate.py.)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.vision.overlay import draw_scan
from boggle_cv.vision.pipeline import Scanner

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))
#: The real photos whose cubes all stand one way (their truth is written upright).
ONE_WAY = ("nsinghvi-5x5-clear-a.jpg", "nsinghvi-5x5-clear-a-daylight.jpg", "nsinghvi-5x5-clear-c.jpg",
           "nsinghvi-5x5-clear-d-cut.jpg")


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner("classifier")


def _upright_render(size: int, seed: int) -> tuple[np.ndarray, list[list[str]]]:
    """A rendered tray whose letters all stand upright on the board, and its faces."""
    from boggle_cv.synth import render_photo
    from boggle_cv.synth.scene import SynthConfig
    config = SynthConfig(all_upright_p=1.0, cut_off_p=0.0, hand_p=0.0, challenge_p=0.0, bonus_p=0.0,
                         max_tilt_deg=20.0)
    img, truth = render_photo(np.random.default_rng(seed), size=size, long_side=900, kind="tray", config=config)
    return img, truth["faces"]


def _turned(img: np.ndarray, how: str) -> np.ndarray:
    if how == "free":  # 35 degrees, on a canvas grown to hold the whole photo
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 35, 1.0)
        side = int(np.hypot(h, w))
        m[:, 2] += ((side - w) / 2, (side - h) / 2)
        return cv2.warpAffine(img, m, (side, side), borderMode=cv2.BORDER_REPLICATE)
    codes = {"90": cv2.ROTATE_90_CLOCKWISE, "180": cv2.ROTATE_180, "270": cv2.ROTATE_90_COUNTERCLOCKWISE}
    return cv2.rotate(img, codes[how]) if how in codes else img


@pytest.mark.parametrize("size, seed", [(4, 3), (5, 8)])
@pytest.mark.parametrize("how", ["0", "90", "180", "270", "free"])
def test_a_turned_synthetic_tray_is_reported_and_drawn_upright(scanner, size, seed, how):
    img, faces = _upright_render(size, seed)
    photo = _turned(img, how)
    scan = scanner.scan_image(photo)
    assert scan.board.to_rows() == faces  # as the truth stands, not under a turn
    drawn = draw_scan(photo, scan)
    again = scanner.scan_image(drawn)  # the picture's letters stand upright: no turn needed
    assert again.reading.rotation == 0
    right = sum(a == b for ra, rb in zip(again.board.to_rows(), faces) for a, b in zip(ra, rb))
    assert right >= 0.8 * size * size  # the picture's own readings drawn in the corners may cost a few


def _cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          input="", timeout=300)


@pytest.mark.parametrize("name", ONE_WAY)
def test_a_real_board_whose_letters_stand_one_way_is_reported_and_drawn_upright(name, tmp_path):
    photos = SHARED / "real-photos"
    if not (photos / "truth.json").exists():
        pytest.skip(f"{photos} is not here")
    truth = {p["file"]: p for p in json.loads((photos / "truth.json").read_text())["photos"]}[name]
    out = tmp_path / "drawn.png"
    res = _cli("scan", photos / name, "--annotate", out, "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["board"]["faces"] == truth["faces"]  # the truth is written upright
    again = _cli("scan", out, "--json")  # the picture, read again, needs no turn
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["board"]["rotation"] == 0
