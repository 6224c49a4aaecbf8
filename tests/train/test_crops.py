"""Training data: the camera damage shared by synthetic and real crops, real crops."""
from pathlib import Path

import numpy as np
import pytest

crops = pytest.importorskip("boggle_cv.train.crops")
from boggle_cv.train import realdata  # noqa: E402

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def _cube(px=64):
    """A white cube top with a black bar on a brown tray, (px, px, 3) uint8."""
    img = np.full((px, px, 3), (40, 60, 120), np.uint8)
    img[8:-8, 8:-8] = 235
    img[px // 2 - 4:px // 2 + 4, 16:-16] = 20
    return img


def test_degrade_keeps_shape_and_type():
    rng = np.random.default_rng(0)
    for _ in range(50):
        out = crops.degrade(_cube(), rng)
        assert out.shape == (64, 64, 3) and out.dtype == np.uint8


def test_degrade_is_seeded():
    a = crops.degrade(_cube(), np.random.default_rng(7))
    b = crops.degrade(_cube(), np.random.default_rng(7))
    assert np.array_equal(a, b)


def test_dim_room_darkens_and_adds_noise():
    cube = _cube()
    dim = [crops.degrade(cube, np.random.default_rng(s), p_dim=1.0) for s in range(20)]
    lit = [crops.degrade(cube, np.random.default_rng(s), p_dim=0.0) for s in range(20)]
    assert np.mean([d.mean() for d in dim]) < 0.6 * np.mean([d.mean() for d in lit])
    # the cube still shows: its centre bar is darker than the cube around it
    assert np.mean([d[28:36, 24:40].mean() < d[14:22, 24:40].mean() for d in dim]) > 0.8


def test_renderer_crops_include_dim_ones():
    x, f, t = crops.CropRenderer(3).batch(200)
    means = x.reshape(len(x), -1).mean(1)
    assert (means < 60).sum() >= 5


@pytest.mark.skipif(not (SHARED / "boggle-boards" / "truth.json").exists(), reason="needs ../shared/boggle-boards")
def test_real_crops_degrade_share():
    photos = realdata.load_truth(SHARED / "boggle-boards")
    one = {photos[0]["layout"]}
    clean, fc = realdata.build(SHARED / "boggle-boards", one, 64, 1, 0.0, 5, degrade_share=0.0)
    half, fh = realdata.build(SHARED / "boggle-boards", one, 64, 1, 0.0, 5, degrade_share=0.5)
    assert np.array_equal(fc, fh) and clean.shape == half.shape
    changed = np.mean([not np.array_equal(a, b) for a, b in zip(clean, half)])
    assert 0.2 < changed < 0.8
