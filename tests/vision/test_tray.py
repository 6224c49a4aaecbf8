"""find_tray on real photos read from ../shared (skipped when absent) and on
images that must be refused."""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.errors import NoBoardError
from boggle_cv.vision.annotate import draw_tray
from boggle_cv.vision.imageio import load_image
from boggle_cv.vision.metrics import corner_error
from boggle_cv.vision.stages import DebugImages
from boggle_cv.vision.tray import TrayConfig, TrayResult, find_tray
from boggle_cv.vision.tray.fallbacks import (StretchConfig, Windows, default_fallbacks,
                                             stretch_matrix, window_boxes)
from boggle_cv.vision.tray.plan import Plan, without

#: No fallbacks: the search of the whole photo alone.
FIRST_PASS = TrayConfig(fallbacks=())

SHARED = Path(os.environ.get("BOGGLE_SHARED",
                             Path(__file__).resolve().parents[2].parent / "shared"))
BOARDS = SHARED / "boggle-boards"
REAL = SHARED / "real-photos"


def _truth(folder: Path) -> dict:
    if not (folder / "truth.json").exists():
        pytest.skip(f"{folder} not available")
    return {p["file"]: p for p in json.loads((folder / "truth.json").read_text())["photos"]}


def _drawn_4x4(empty=(), letters="AAAA"):
    """A 600 x 600 orange tray (BGR) with a 4x4 of white 80 px squares at a 100 px
    pitch (cell centres at 110 + 100 k), column c lettered letters[c]; the cells in
    `empty` (row, col) are left out."""
    img = np.full((600, 600, 3), (30, 120, 230), np.uint8)
    for r in range(4):
        for c in range(4):
            if (r, c) in empty:
                continue
            x, y = 110 + c * 100, 110 + r * 100
            cv2.rectangle(img, (x - 40, y - 40), (x + 40, y + 40), (235, 235, 235), -1)
            cv2.putText(img, letters[c], (x - 18, y + 18), cv2.FONT_HERSHEY_SIMPLEX, 1.5,
                        (20, 20, 20), 4)
    return img


# A spread of sizes, tray colours and viewing angles from the tuning set.
BOARD_FILES = [
    "rfbb_4x4_RFB4-011_35a8837e.jpg",
    "rfbb_4x4_RFB4-036_95c69845.jpg",
    "rfbb_5x5_RFB5-001_8953a4dd.jpg",
    "rfbb_6x6_RFB6-001_259936dd.jpg",
]


@pytest.mark.parametrize("name", BOARD_FILES)
def test_boggle_boards_photo(name):
    truth = _truth(BOARDS)[name]
    res = find_tray(load_image(BOARDS / name))
    assert isinstance(res, TrayResult)
    assert res.size == truth["size"]
    assert corner_error(res.corners, truth["corners"]) < 0.05
    assert res.corners.shape == (4, 2) and res.corners.dtype == np.float64
    assert res.cell_centres.shape == (res.size, res.size, 2)
    assert 0 < res.confidence <= 1


@pytest.mark.parametrize("name", ["boogle-4x4-navy.jpg", "nsinghvi-5x5-clear-a-daylight.jpg"])
def test_real_photo(name):
    truth = _truth(REAL)[name]
    res = find_tray(load_image(REAL / name))
    assert res.size == truth["size"]
    assert corner_error(res.corners, truth["corners"]) < 0.05


def test_forced_size_matches():
    truth = _truth(REAL)["boogle-4x4-navy.jpg"]
    res = find_tray(load_image(REAL / "boogle-4x4-navy.jpg"), size=4)
    assert res.size == 4
    assert corner_error(res.corners, truth["corners"]) < 0.05


def test_turned_and_shrunk_photo_still_found():
    """A tuning photo turned by 30 degrees and halved still gives the right corners."""
    name = BOARD_FILES[0]
    truth = _truth(BOARDS)[name]
    img = load_image(BOARDS / name)
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), 30, 0.5)
    turned = cv2.warpAffine(img, M, (w, h), borderValue=(90, 90, 90))
    corners = cv2.transform(np.array([truth["corners"]], np.float64), M)[0]
    res = find_tray(turned)
    assert res.size == truth["size"]
    assert corner_error(res.corners, corners.tolist()) < 0.06


@pytest.mark.parametrize("deg", [40, 60])
def test_small_turned_board_found_by_zoom_retry(deg):
    """A small 4x4 (cubes ~20 px) turned on a grown canvas: the first pass refuses
    it, the retry on a crop around the detector's partial grid finds it."""
    name = "rfbb_4x4_RFB4-077_43d3d2e3.jpg"
    truth = _truth(BOARDS)[name]
    img = load_image(BOARDS / name)
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    c, s = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    M[0, 2] += nw / 2 - w / 2
    M[1, 2] += nh / 2 - h / 2
    turned = cv2.warpAffine(img, M, (nw, nh), flags=cv2.INTER_AREA, borderValue=(90, 90, 90))
    corners = cv2.transform(np.array([truth["corners"]], np.float64), M)[0]
    res = find_tray(turned)
    assert "zoom_retry" in res.timings
    assert res.size == 4
    assert corner_error(res.corners, corners.tolist()) < 0.06
    assert res.cell_centres.shape == (4, 4, 2)
    with pytest.raises(NoBoardError):
        find_tray(turned, config=TrayConfig(
            fallbacks=without(default_fallbacks(), "zoom_retry", "window_retry")))


@pytest.mark.parametrize("name,squash", [("rfbb_4x4_RFB4-011_35a8837e.jpg", 0.4),
                                         ("rfbb_6x6_RFB6-001_259936dd.jpg", 0.5)])
def test_grazing_view_found_by_stretch_retry(name, squash):
    """A tuning photo squashed vertically (what a grazing camera angle does to the
    cube tops): every source refuses it, the stretch retry finds it, and the corners
    map back into the squashed photo."""
    truth = _truth(BOARDS)[name]
    img = load_image(BOARDS / name)
    h, w = img.shape[:2]
    squashed = cv2.resize(img, (w, round(h * squash)), interpolation=cv2.INTER_AREA)
    corners = np.array(truth["corners"], np.float64) * (1, squash)
    with pytest.raises(NoBoardError):
        find_tray(squashed, config=TrayConfig(
            fallbacks=without(default_fallbacks(), "stretch_retry", "stretch_window_retry")))
    res = find_tray(squashed)
    assert "stretch_retry" in res.timings
    assert res.size == truth["size"]
    assert corner_error(res.corners, corners.tolist()) < 0.05
    assert res.cell_centres.shape == (res.size, res.size, 2)


def test_real_grazing_photo_found_by_stretch_retry():
    """A real 4x4 photographed at a grazing angle (tuning set)."""
    name = "rfbb_4x4_RFB4-024_aa0e0454.jpg"
    truth = _truth(BOARDS)[name]
    res = find_tray(load_image(BOARDS / name))
    assert "stretch_retry" in res.timings
    assert res.size == 4
    assert corner_error(res.corners, truth["corners"]) < 0.06


def test_small_far_grazing_photo_found_by_window_retry():
    """A real 4x4 far away at a grazing angle (cube tops about 20 x 15 px in a 416 px
    photo, held-out layout): the detector sees no cube tops in the whole photo, nor
    in stretched copies; in a window of the photo it does."""
    name = "rfbb_4x4_RFB4-069_40b2eb81.jpg"
    truth = _truth(BOARDS)[name]
    img = load_image(BOARDS / name)
    with pytest.raises(NoBoardError):
        find_tray(img, config=TrayConfig(fallbacks=without(default_fallbacks(), "window_retry")))
    res = find_tray(img)
    assert "window_retry" in res.timings
    assert res.size == 4
    assert corner_error(res.corners, truth["corners"]) < 0.06


def test_windows_centre_first_and_cover_the_photo():
    wins = window_boxes((300, 600), 0.67)
    assert len(wins) == 9
    x0, y0, x1, y1 = wins[0]
    assert abs((x0 + x1) / 2 - 300) <= 1 and abs((y0 + y1) / 2 - 150) <= 1
    covered = np.zeros((300, 600), bool)
    for x0, y0, x1, y1 in wins:
        assert 0 <= x0 < x1 <= 600 and 0 <= y0 < y1 <= 300
        assert (x1 - x0, y1 - y0) == (402, 201)
        covered[y0:y1, x0:x1] = True
    assert covered.all()


def test_window_retry_never_returns_part_of_a_bigger_board():
    """A 6x6 filling the photo: every window holds complete 4x4 and 5x5 sub-grids,
    which must not be taken for a board (rows were cut off by the window). Only the
    windows are searched (no sources for the whole photo, which holds the 6x6)."""
    img = np.full((640, 640, 3), (30, 120, 230), np.uint8)
    for r in range(6):
        for c in range(6):
            x, y = 70 + c * 100, 70 + r * 100
            cv2.rectangle(img, (x - 40, y - 40), (x + 40, y + 40), (235, 235, 235), -1)
            cv2.putText(img, "ABCDEF"[c], (x - 18, y + 18), cv2.FONT_HERSHEY_SIMPLEX, 1.5,
                        (20, 20, 20), 4)
    windows_only = TrayConfig(fallbacks=(Windows(Plan(("detector",))),))
    try:
        res = find_tray(img, config=replace(windows_only, sources=()))
    except NoBoardError:
        return
    assert res.size == 6 and "window_retry" in res.timings


def test_stretch_matrix_stretches_one_direction():
    M, (w, h) = stretch_matrix(90, 2.0, (100, 300))
    assert (w, h) == (300, 200)
    np.testing.assert_allclose(M @ [10, 20, 1], [10, 40], atol=1e-9)
    M, (w, h) = stretch_matrix(45, 2.0, (100, 100))
    d = M[:, :2] @ np.array([1.0, 1.0]) / np.sqrt(2)   # along the direction: x2
    e = M[:, :2] @ np.array([1.0, -1.0]) / np.sqrt(2)  # across it: unchanged
    assert np.isclose(np.hypot(*d), 2.0) and np.isclose(np.hypot(*e), 1.0)
    assert w >= 150 and h >= 150


def test_stretch_retry_keeps_drawn_partial_grid_refused():
    """Two cells empty: stretching must not make a grid of every other row (it would
    hang off the frame) out of the remaining cubes."""
    img = _drawn_4x4(empty=((1, 2), (3, 0)))
    with pytest.raises(NoBoardError):
        find_tray(img, config=TrayConfig(
            fallbacks=default_fallbacks(stretch=StretchConfig(tries=((0, 2.0),)))))


def test_incomplete_product_shot_refused():
    _truth(REAL)
    with pytest.raises(NoBoardError):
        find_tray(load_image(REAL / "product-4x4-orange-incomplete.jpg"))


@pytest.mark.parametrize("value", [0, 128, 255])
def test_blank_image_refused(value):
    with pytest.raises(NoBoardError):
        find_tray(np.full((480, 640, 3), value, np.uint8))


def test_noise_refused():
    rng = np.random.default_rng(0)
    with pytest.raises(NoBoardError):
        find_tray(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8))


def test_empty_cells_refused():
    """A synthetic 4x4 of white squares with letters, two cells left empty."""
    img = _drawn_4x4(empty=((1, 2), (3, 0)))
    with pytest.raises(NoBoardError):
        find_tray(img)


def test_drawn_full_board_found():
    """The same drawing with every cell filled is a 4x4 board with exact corners."""
    img = _drawn_4x4(letters="EWKM")
    res = find_tray(img)
    assert res.size == 4
    truth = [(60, 60), (460, 60), (460, 460), (60, 460)]
    assert corner_error(res.corners, truth) < 0.03
    # corner order: r0c0 near the top-left, clockwise on screen
    assert np.argmin(res.corners.sum(axis=1)) == 0
    assert res.corners[1, 0] > res.corners[0, 0]
    np.testing.assert_allclose(res.cell_centres[0, 1], (210, 110), atol=4)


def test_debug_images_and_annotation():
    img = np.full((600, 600, 3), (130, 40, 20), np.uint8)  # blue tray
    for r in range(5):
        for c in range(5):
            x, y = 100 + c * 90, 100 + r * 90
            cv2.rectangle(img, (x - 36, y - 36), (x + 36, y + 36), (220, 230, 235), -1)
            cv2.putText(img, "R", (x - 15, y + 15), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (90, 30, 10), 4)
    sink = DebugImages()
    res = find_tray(img, debug=sink)
    assert res.size == 5
    keys = set(sink.images)
    assert {"0_work", "5_grid"} <= keys and "5_refused" not in keys
    # candidates and lattice of the source that found the board (d = detector)
    assert {"3d_blobs", "4d_lattice"} <= keys or {"3_blobs", "4_lattice"} <= keys
    for im in sink.images.values():
        assert im.dtype == np.uint8 and im.ndim == 3 and im.shape[2] == 3
    ann = draw_tray(img, res)
    assert ann.shape == img.shape and not np.array_equal(ann, img)
    assert np.array_equal(img[0, 0], (130, 40, 20))  # input untouched


def test_close_up_on_polka_dots_keeps_its_size():
    """Seed 2026, photo 25 of `boggle-cv synth`: a 5x5 close-up whose cut-off edge
    leaves the photo and whose table cloth's dots line up with the cubes. The dots'
    weak detector peaks once grew the board into a 6x6 (every cell then read wrong)."""
    from boggle_cv.synth.scene import render_photo

    img, truth = render_photo(np.random.default_rng([2026, 25]))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert truth["size"] == 5 and truth["background"] == "dots"
    res = find_tray(photo)
    assert res.size == 5
    assert corner_error(res.corners, truth["corners"]) < 0.03
