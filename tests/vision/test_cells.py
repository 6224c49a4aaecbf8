"""cut_cells / rectify: geometry on a drawn grid whose cell colours are known."""
import numpy as np
import cv2
import pytest

from boggle_cv.errors import UsageError
from boggle_cv.vision.cells import cut_cells, rectify, cell_centres


def _palette(n):
    rng = np.random.default_rng(3)
    return rng.integers(30, 226, size=(n, n, 3)).astype(np.uint8)


def _photo(n=4, pitch=40, angle_deg=20.0, shape=(480, 520)):
    """A board of flat-coloured cells, turned and placed; returns image and corners."""
    pal = _palette(n)
    flat = np.kron(pal, np.ones((pitch, pitch, 1), np.uint8))  # (n*pitch, n*pitch, 3)
    side = n * pitch
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    dst = (src - side / 2) @ rot.T * np.array([1.1, 0.9]) + np.array([shape[1] / 2, shape[0] / 2])
    dst[2] += (6, -4)  # a little perspective
    h = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(flat, h, (shape[1], shape[0]), flags=cv2.INTER_NEAREST,
                              borderValue=(0, 0, 0))
    return img, dst.astype(np.float64), pal


@pytest.mark.parametrize("n", [4, 5, 6])
def test_cut_cells_shape_and_colours(n):
    img, corners, pal = _photo(n=n)
    crops = cut_cells(img, corners, n, cell_px=32)
    assert crops.shape == (n, n, 32, 32, 3) and crops.dtype == np.uint8
    centre = crops[:, :, 12:20, 12:20].reshape(n, n, -1, 3).astype(int).mean(axis=2)
    assert np.abs(centre - pal).max() < 4


def test_rectify_blocks_match_cells():
    img, corners, pal = _photo(n=5)
    top = rectify(img, corners, 5, cell_px=20)
    assert top.shape == (100, 100, 3)
    assert np.abs(top[50, 10].astype(int) - pal[2, 0]).max() < 4  # row 2, col 0


def test_refined_centres_shift_the_crop():
    img, corners, pal = _photo(n=4)
    ctr = cell_centres(corners, 4)
    moved = ctr.copy()
    moved[0, 0] = ctr[0, 1]  # centre cell (0,0) on its right neighbour
    crops = cut_cells(img, corners, 4, cell_px=32, centres=moved)
    assert np.abs(crops[0, 0, 16, 16].astype(int) - pal[0, 1]).max() < 4
    assert np.abs(crops[1, 1, 16, 16].astype(int) - pal[1, 1]).max() < 4


def test_large_photo_is_shrunk_without_changing_geometry():
    img, corners, pal = _photo(n=4, pitch=40)
    big = cv2.resize(img, None, fx=6, fy=6, interpolation=cv2.INTER_NEAREST)
    crops = cut_cells(big, (corners + 0.5) * 6 - 0.5, 4, cell_px=24)
    centre = crops[:, :, 9:15, 9:15].reshape(4, 4, -1, 3).astype(int).mean(axis=2)
    assert np.abs(centre - pal).max() < 4


def test_corners_outside_frame_are_filled():
    img, corners, _ = _photo(n=4)
    crops = cut_cells(img, corners + np.array([-300.0, 0.0]), 4, cell_px=16)
    assert crops.shape == (4, 4, 16, 16, 3)


@pytest.mark.parametrize("bad", [np.zeros((3, 2)), np.full((4, 2), np.nan)])
def test_bad_corners_raise(bad):
    img, _, _ = _photo()
    with pytest.raises(UsageError):
        cut_cells(img, bad, 4)


def test_bad_image_raises():
    with pytest.raises(UsageError):
        cut_cells(np.zeros((10, 10), np.uint8), np.zeros((4, 2)), 4)


def test_outside_fraction_of_a_board_cut_by_the_frame():
    """A 4x4 grid of 100 px pitch whose right column straddles the photo's edge."""
    from boggle_cv.vision.cells import outside_fraction
    corners = np.array([[0, 0], [400, 0], [400, 400], [0, 400]], float)
    # photo 350 px wide: the last column's cube top (x 308..392 for half=0.42)
    frac = outside_fraction(corners, 4, (400, 350, 3))
    assert frac.shape == (4, 4)
    assert np.all(frac[:, :3] == 0)
    assert np.all((frac[:, 3] > 0.3) & (frac[:, 3] < 0.7))
    # every cell inside a big enough photo
    assert np.all(outside_fraction(corners, 4, (500, 500)) == 0)
    # refined centres move a cell: cell (0, 0) centred on the photo's corner
    centres = np.stack(np.meshgrid(np.arange(50, 400, 100), np.arange(50, 400, 100)), -1).astype(float)
    centres[0, 0] = (0, 0)
    f2 = outside_fraction(corners, 4, (500, 500), centres)
    assert 0.6 < f2[0, 0] < 0.8 and f2[1, 1] == 0
