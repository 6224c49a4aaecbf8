"""Every point a scan reports is in the photo's own pixels, whatever size the photo
was decoded at: a tray's photo over 8 MP is decoded at half size (imageio.TRAY_LOAD),
and its corners, cell centres and size still come out as the photo's.

The real photos' corners are measured by ../shared/tools/eval_photos.py (skipped
when ../shared is absent), the rest on a synthetic 12 MP photo.
"""
from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.vision.imageio import TRAY_LOAD, DecodedPhoto, LoadConfig, load_image, load_photo, load_photo_bytes
from boggle_cv.vision.pipeline import CELL_PX, Scanner

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))

WHOLE = LoadConfig(max_pixels=LoadConfig().max_decode_pixels)


@pytest.fixture(scope="module")
def big_photo(tmp_path_factory) -> tuple[Path, np.ndarray]:
    """A 12 MP JPEG (4000 x 3000) of a rendered 5x5 tray and its corners (4, 2) in
    its pixels (rendered at 1000 px, then enlarged to 4000 x 3000: the renderer's
    truth scaled alike)."""
    from boggle_cv.synth import render_photo
    img, truth = render_photo(np.random.default_rng(11), size=5, long_side=1000, kind="tray")
    corners = np.asarray(truth["corners"], np.float64)
    if img.shape[0] > img.shape[1]:  # a portrait render, turned a quarter clockwise
        corners = np.stack([img.shape[0] - 1 - corners[:, 1], corners[:, 0]], axis=1)
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    scale = np.array([4000 / img.shape[1], 3000 / img.shape[0]])
    big = cv2.resize(img, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    path = tmp_path_factory.mktemp("big") / "tray-12mp.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    corners = (corners + 0.5) * scale - 0.5
    return path, corners


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner("classifier")


def _side(corners: np.ndarray) -> float:
    return float(np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)]))


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance over the board's side, best over the 8 orderings."""
    best = np.inf
    for f in (found, found[::-1]):
        for k in range(4):
            best = min(best, float(np.mean(np.hypot(*(np.roll(f, k, axis=0) - truth).T))))
    return best / _side(truth)


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an APP1 Exif segment holding only the Orientation tag."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_a_decode_knows_the_size_of_its_photo(big_photo):
    path, _ = big_photo
    half = load_photo(path, TRAY_LOAD)
    assert half.pixels.shape == (1500, 2000, 3) and half.shape == (3000, 4000) and half.reduced
    assert half.scale == (2.0, 2.0)
    whole = load_photo(path, WHOLE)
    assert whole.pixels.shape == (3000, 4000, 3) and whole.shape == (3000, 4000) and not whole.reduced
    # a decoded pixel's centre is the centre of the 2 x 2 photo pixels it covers
    assert half.to_photo(np.array([[0.0, 0.0], [10.0, 20.0]])).tolist() == [[0.5, 0.5], [20.5, 40.5]]
    assert np.array_equal(load_image(path, TRAY_LOAD), half.pixels)


@pytest.mark.parametrize("orientation, shape", [(1, (3000, 4000)), (3, (3000, 4000)), (6, (4000, 3000)),
                                                (8, (4000, 3000))])
def test_a_reduced_decode_of_a_photo_turned_by_exif_has_its_turned_size(orientation, shape):
    img = np.zeros((3000, 4000, 3), np.uint8)
    img[:, :, 1] = np.linspace(0, 255, 4000, dtype=np.uint8)[None, :]
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    photo = load_photo_bytes(_with_exif_orientation(buf.tobytes(), orientation), "the photo", TRAY_LOAD)
    assert photo.shape == shape and photo.pixels.shape[:2] == (shape[0] // 2, shape[1] // 2)


def test_a_big_photo_is_reported_in_its_own_pixels(big_photo, scanner):
    path, truth = big_photo
    scan, pixels = scanner.scan_file(path)
    assert pixels.shape[:2] == (1500, 2000)  # read at half size ...
    doc = scan.to_dict()
    assert doc["image"] == {"width": 4000, "height": 3000}  # ... reported as the photo
    corners = np.asarray(doc["tray"]["corners"], np.float64)
    assert _corner_error(corners, truth) < 0.02
    whole = scanner.scan_image(load_image(path, WHOLE))  # read whole: the same points
    assert np.abs(scan.corners_in_board_order() - whole.corners_in_board_order()).max() < 0.01 * _side(truth)
    centres = np.array([c["centre"] for c in doc["board"]["cells"]], np.float64)
    assert np.abs(centres - [whole.tray.cell_centres[tuple(c["photo_cell"])] for c in doc["board"]["cells"]]
                  ).max() < 0.01 * _side(truth)


def test_an_array_is_its_own_photo(big_photo, scanner):
    path, _ = big_photo
    pixels = load_image(path, TRAY_LOAD)
    scan = scanner.scan_image(pixels)
    assert scan.image_shape == (1500, 2000)
    assert np.array_equal(scan.tray.corners, scanner.scan_image(DecodedPhoto(pixels, (1500, 2000))).tray.corners)


def test_cubes_are_cut_alike_from_the_reduced_and_the_whole_photo(big_photo, scanner):
    path, _ = big_photo
    scan, pixels = scanner.scan_file(path)
    reduced = scan.cube_crops(pixels, CELL_PX).astype(np.float32)
    whole = scan.cube_crops(load_image(path, WHOLE), CELL_PX).astype(np.float32)
    assert reduced.shape == whole.shape == (5, 5, CELL_PX, CELL_PX, 3)
    assert float(np.abs(reduced - whole).mean()) < 6.0
    assert float(np.abs(reduced - np.roll(whole, 1, axis=1)).mean()) > 3 * float(np.abs(reduced - whole).mean())


def test_the_real_photos_corners_lie_where_the_truth_puts_them():
    """eval_photos.py on the real photos (12 MP phone photos among them): the tray
    corners' mean error is at most 3% of the board's side."""
    tool, photos = SHARED / "tools" / "eval_photos.py", SHARED / "real-photos"
    if not (tool.exists() and (photos / "truth.json").exists()):
        pytest.skip(f"{tool} or {photos} is not here")
    out = subprocess.run([sys.executable, str(tool), str(photos), "--cmd",
                          f"{sys.executable} -m boggle_cv scan {{photo}} --json"],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    m = re.search(r"tray corners: mean error ([\d.]+)% of the board side over (\d+) photos", out.stdout)
    assert m, out.stdout
    assert float(m.group(1)) <= 3.0 and int(m.group(2)) >= 12, m.group(0)
