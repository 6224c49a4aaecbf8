"""`scan --annotate OUT`: one picture, one board. The drawing is turned as the report
prints the board (a photo taken the other way round gives the same picture), fits a
phone (longest side at most 2000 px unless --annotate-full), and is PNG or JPEG by
OUT's suffix; any other suffix is refused before any work (exit 2, one line)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          input="", env=dict(os.environ), timeout=180)


def test_a_photo_taken_the_other_way_round_gives_the_same_picture(tmp_path):
    photo = SAMPLES / "sample-5x5-a.jpg"
    turned = tmp_path / "turned.png"
    cv2.imwrite(str(turned), cv2.rotate(cv2.imread(str(photo)), cv2.ROTATE_90_COUNTERCLOCKWISE))
    drawn = []
    for p, out in ((photo, tmp_path / "a.png"), (turned, tmp_path / "b.png")):
        res = run("scan", p, "--annotate", out, "--json")
        assert res.returncode == 0, res.stderr
        drawn.append((json.loads(res.stdout)["board"]["text"], cv2.imread(str(out))))
    (text_a, a), (text_b, b) = drawn
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    assert text_a == text_b and abs(a.shape[0] - b.shape[0]) <= 2 and abs(a.shape[1] - b.shape[1]) <= 2
    def coarse(image):  # a pixel of rounding in where the photo was cut does not count
        return cv2.resize(image[:h, :w], (w // 4, h // 4), interpolation=cv2.INTER_AREA).astype(np.float32)

    assert float(np.abs(coarse(a) - coarse(b)).mean()) < 10.0  # measured 4.8
    assert float(np.abs(coarse(a) - coarse(cv2.flip(b, -1))).mean()) > 40.0  # a turned picture: 93


def test_png_or_jpeg_by_suffix_at_most_2000_px_unless_full(tmp_path):
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(cv2.imread(str(SAMPLES / "sample-4x4-a.jpg")), (2800, 2800),
                                     interpolation=cv2.INTER_CUBIC))
    res = run("scan", big, "--annotate", tmp_path / "out.JPG")
    assert res.returncode == 0, res.stderr
    data = (tmp_path / "out.JPG").read_bytes()
    assert data[:3] == b"\xff\xd8\xff"
    reduced = max(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2])
    assert reduced <= 2000
    res = run("scan", big, "--annotate", tmp_path / "full.png", "--annotate-full")
    assert res.returncode == 0, res.stderr
    data = (tmp_path / "full.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # the photo's pixels (7.8 MP: decoded whole; one over 8 MP would be read at half size)
    assert max(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2]) > 2000


@pytest.mark.parametrize("name", ["out.webp", "out.tif", "out", "out.png.txt"])
def test_other_suffixes_are_refused_before_any_work(tmp_path, name):
    res = run("scan", SAMPLES / "sample-4x4-a.jpg", "--annotate", tmp_path / name)
    suffix = Path(name).suffix or "(none)"
    assert res.returncode == 2 and res.stderr.splitlines() == [
        f"boggle-cv: error: --annotate {tmp_path / name}: unknown image type {suffix} "
        "(end the name with .png, .jpg or .jpeg)"]
    assert res.stdout == "" and list(tmp_path.iterdir()) == []


def test_a_real_photo_of_a_turned_board_is_drawn_as_reported(tmp_path):
    """nsinghvi-5x5-clear-b: a landscape 12 MP photo whose report turns the board a
    quarter: the drawing is portrait, at most 2000 px, with row 1 (TINHW) at the top."""
    photo = SHARED / "real-photos" / "nsinghvi-5x5-clear-b.jpg"
    if not photo.exists():
        pytest.skip(f"{photo} is not here")
    out = tmp_path / "b.png"
    res = run("scan", photo, "--annotate", out, "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["board"]["text"].startswith("TINHW/")
    img = cv2.imread(str(out))
    assert 1950 <= img.shape[0] <= 2000 and img.shape[1] < img.shape[0] and out.stat().st_size < 5_000_000
