"""`scan --annotate OUT --annotate-full` draws on the photo's own pixels, also for a
photo over 8 MP, which the scan reads at half size (vision.imageio.TRAY_LOAD): the
drawing is made from the whole photo, decoded again for it; without
--annotate-full it fits 2000 px."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.game.referee import RoundResult
from boggle_cv.vision.imageio import FULL_LOAD, TRAY_LOAD, load_image
from boggle_cv.vision.overlay import OverlayStyle
from boggle_cv.vision.round_photo import draw_round


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          input="", env=dict(os.environ), timeout=300)


@pytest.fixture(scope="module")
def big_photo(tmp_path_factory) -> Path:
    """A 12 MP JPEG (4000 x 3000) of a rendered 4x4 tray."""
    from boggle_cv.synth import render_photo
    img, _ = render_photo(np.random.default_rng(5), size=4, long_side=1000, kind="tray")
    if img.shape[0] > img.shape[1]:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    path = tmp_path_factory.mktemp("big") / "tray-12mp.jpg"
    cv2.imwrite(str(path), cv2.resize(img, (4000, 3000), interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def test_the_full_drawing_of_a_big_photo_is_at_its_own_size(big_photo, tmp_path):
    out = tmp_path / "full.png"
    res = run("scan", big_photo, "--annotate", out, "--annotate-full", "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["image"] == {"width": 4000, "height": 3000}
    drawn = cv2.imread(str(out))
    result = RoundResult.from_dict(doc)
    full = OverlayStyle(max_side=None)
    whole = draw_round(load_image(big_photo, FULL_LOAD), result.scan, result, style=full)
    assert drawn.shape == whole.shape  # drawn from the whole photo ...
    assert float(np.abs(drawn.astype(np.float32) - whole).mean()) < 1.0
    half = draw_round(load_image(big_photo, TRAY_LOAD), result.scan, result, style=full)
    assert abs(drawn.shape[0] / half.shape[0] - 2) < 0.05  # ... twice the size of the scan's decode


def test_without_full_the_drawing_of_a_big_photo_fits_2000_px(big_photo, tmp_path):
    out = tmp_path / "fit.png"
    res = run("scan", big_photo, "--annotate", out)
    assert res.returncode == 0, res.stderr
    assert max(cv2.imread(str(out)).shape[:2]) <= 2000
